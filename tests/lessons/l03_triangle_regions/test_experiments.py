"""Training helpers for lesson 3: the batched width sweep, the learned lines, matching them to edges."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments.training import TrainResult, train_mlp
from course_lib.core.model.geometry import TRIANGLE_F, TRIANGLE_G, half_planes
from course_lib.lessons.l03_triangle_regions import experiments
from course_lib.lessons.l03_triangle_regions.experiments import (
    D_FFS,
    LR,
    N_POINTS,
    SEEDS,
    STEPS,
    edge_match,
    hidden_lines,
    train_widths,
    trained,
    width_sweep,
)
from devtools.spread.record import check_fresh_run

SHORT = {"d_ffs": (2, 5), "seeds": (0, 1), "steps": 40}


def test_train_widths_returns_one_result_per_width_with_its_own_shapes():
    results = train_widths("relu", **SHORT)
    assert sorted(results) == [2, 5]
    assert results[5].W1.shape == (2, 2, 5) and results[2].W2.shape == (2, 2, 2)
    assert results[5].predict(torch.zeros(3, 2)).shape == (2, 3, 2)


def test_padded_batch_trains_each_width_exactly_as_train_mlp_alone():
    batched = train_widths("relu", **SHORT)[2]
    alone = train_mlp("triangles", 2, "relu", seeds=(0, 1), steps=40, lr=LR, n_points=N_POINTS)
    torch.testing.assert_close(batched.W1, alone.W1, atol=1e-5, rtol=1e-4)
    np.testing.assert_allclose(batched.losses, alone.losses, rtol=1e-4)


def test_width_sweep_wider_is_better_on_the_best_seed():
    acc = width_sweep("relu", (2, 12), (0, 1))
    assert acc.shape == (2, 2)
    assert acc[1].max() > acc[0].max() + 0.2


def test_the_lessons_sweep_reads_the_stored_networks_and_they_solve_as_a_batched_run_does(
    monkeypatch,
):
    """The lesson's sweep (default seeds) is read from the stored networks; trained now in one
    batched model, the same seeds solve the task at the narrowest and the six-unit widths, and
    every accuracy is within 0.01 (a point or two of a thousand near a boundary)."""
    widths = (2, 6)
    batched = train_widths.__wrapped__("relu", widths, SEEDS)
    monkeypatch.setattr(
        experiments, "train_widths", lambda *a, **k: pytest.fail("trained, not read")
    )
    stored = width_sweep("relu", widths)
    fresh = np.stack([batched[d].accuracy for d in widths])
    np.testing.assert_array_equal(stored > 0.95, fresh > 0.95)
    np.testing.assert_allclose(stored, fresh, atol=0.01)


def test_train_widths_rejects_bad_arguments():
    with pytest.raises(ValueError, match="non-empty"):
        train_widths("relu", (), (0,))
    with pytest.raises(ValueError, match="d_ff"):
        train_widths("relu", (0, 3), (0,))
    with pytest.raises(ValueError, match="activation"):
        train_widths("rleu", (3,), (0,))


def test_hidden_lines_are_unit_normals_of_the_first_layer():
    result = train_widths("relu", **SHORT)[5]
    normals, offsets, importance = hidden_lines(result, 1)
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1.0, rtol=1e-5)
    w, b = result.W1[1].numpy().T, result.b1[1, 0].numpy()
    on_line = -offsets[:, None] * normals  # a point on each unit's line: pre-activation zero
    np.testing.assert_allclose(np.sum(w * on_line, axis=1) + b, 0, atol=1e-5)
    assert importance.shape == (5,) and np.all(importance >= 0)


def test_hidden_lines_rejects_bad_seed_index():
    with pytest.raises(ValueError, match="seed_index"):
        hidden_lines(train_widths("relu", **SHORT)[5], 2)


def _result_with_first_layer(W1: np.ndarray, b1: np.ndarray) -> TrainResult:
    d_ff = W1.shape[1]
    return TrainResult(
        "triangles", d_ff, "relu", (0,), torch.tensor(W1[None]), torch.tensor(b1[None, None]),
        torch.ones(1, d_ff, 2), torch.zeros(1, 1, 2), np.ones(1), np.zeros((1, 1)),
    )  # fmt: skip


def test_edge_match_is_zero_for_the_true_edges_in_any_order_sign_and_scale():
    normals, offsets = zip(*(half_planes(p) for p in (TRIANGLE_F, TRIANGLE_G)), strict=True)
    W1, b1 = np.concatenate(normals).T, np.concatenate(offsets)
    order, sign = [5, 3, 1, 0, 2, 4], np.array([1, -1, 3, -2, 1, 0.5])
    result = _result_with_first_layer(W1[:, order] * sign, b1[order] * sign)
    np.testing.assert_allclose(edge_match(result, 0), 0, atol=1e-6)


def test_edge_match_is_large_for_lines_far_from_every_edge():
    result = _result_with_first_layer(np.array([[1.0, 0], [0, 1]]), np.array([5.0, 5.0]))
    assert edge_match(result, 0).min() > 1


def test_trained_alone_or_from_the_sweep_differ_only_by_rounding():
    alone = trained(3, "tanh")
    assert alone.W1.shape == (3, 2, 3)
    swept = train_widths("tanh", (3, 4))[3]
    torch.testing.assert_close(alone.W1, swept.W1, atol=0.05, rtol=0.05)
    np.testing.assert_allclose(alone.accuracy, swept.accuracy, atol=0.02)


# Measured spread of a fresh training against the stored file, over all 44 stored widths and
# activations: 0 on the building machine, 6e-15 under ATEN_CPU_CAPABILITY=avx2, 2.2e-9 in the
# weights and 3e-11 in the losses with scalar kernels on one thread; accuracies equal. The
# tolerances leave a wide margin for other CPUs.
STORED_WEIGHT_ATOL, STORED_LOSS_ATOL = 1e-6, 1e-8


@pytest.mark.parametrize(
    "quantity", ["trained width: 6 relu", "trained width: 12 tanh", "trained width: 2 gelu"]
)
def test_a_stored_trained_width_is_what_training_it_now_gives(quantity):
    """The demo's stored networks against training them now: weights and losses within 10 × the
    spread make spread measured (at most 1.7e-12, 3.5e-12 and 5.5e-13,
    docs/spread.md), accuracy within its own spread."""
    from course_lib.lessons.l03_triangle_regions.experiments import stored_trained

    d_ff, activation = quantity.removeprefix("trained width: ").split()
    assert trained(int(d_ff), activation) is stored_trained(int(d_ff), activation)
    check_fresh_run(quantity)


def test_every_width_and_activation_of_the_trained_demo_is_stored_in_float64():
    from course_lib.lessons.l03_triangle_regions.demos import TRAINED_ACTIVATIONS
    from course_lib.lessons.l03_triangle_regions.experiments import (
        STORED_ACTIVATIONS,
        stored_trained,
    )

    stored = {(a, d): stored_trained(d, a) for a in STORED_ACTIVATIONS for d in D_FFS}
    assert set(TRAINED_ACTIVATIONS) <= set(STORED_ACTIVATIONS)
    assert None not in stored.values()
    assert all(r.W1.dtype == torch.float64 and r.W1.shape[0] == len(SEEDS) for r in stored.values())


def test_a_file_of_other_settings_is_not_used_and_the_width_is_trained(tmp_path):
    from course_lib.core.experiments.stored_runs import save_runs
    from course_lib.lessons.l03_triangle_regions.experiments import (
        TRAINED_FILE,
        _one_seed,
        stored_trained,
    )

    run = stored_trained(6, "relu")
    stale = tmp_path / "stale.npz"
    save_runs([_one_seed(run, i) for i in range(len(SEEDS))], STEPS + 1, LR, N_POINTS, stale)
    assert stored_trained.__wrapped__(6, "relu", stale) is None
    assert stored_trained.__wrapped__(6, "relu", TRAINED_FILE) is not None
