"""Width sweeps: batched training equals one-by-one training, the cache answers at once, the
stored file matches a fresh run."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments.training import init_weights, train_mlp
from course_lib.core.threads import torch_threads
from course_lib.lessons.l02_dimension_expansion.experiments.sweeps import (
    SWEEP_FILE,
    WidthSweep,
    _groups,
    load_sweep,
    save_sweeps,
    sweep_widths,
)
from devtools.spread.record import check_fresh_run

SMALL = dict(widths=(1, 3, 5), activations=("relu", "tanh"), seeds=(0, 1), steps=30, n_points=200)


def test_batched_sweep_matches_training_each_network_alone():
    sweep = sweep_widths("xor", **SMALL)
    for i, activation in enumerate(SMALL["activations"]):
        for j, width in enumerate(SMALL["widths"]):
            alone = train_mlp("xor", width, activation, SMALL["seeds"], 30, 0.05, 200)
            np.testing.assert_allclose(sweep.accuracy[i, j], alone.accuracy, atol=1e-6)


def test_sweep_result_has_one_entry_per_activation_width_and_seed():
    sweep = sweep_widths("ring", **SMALL)
    assert sweep.accuracy.shape == sweep.loss.shape == (2, 3, 2)
    assert ((sweep.accuracy >= 0) & (sweep.accuracy <= 1)).all()


def test_sweep_is_cached_by_its_arguments():
    sweep_widths.cache_clear()
    first = sweep_widths("xor", **SMALL)
    assert sweep_widths("xor", **SMALL) is first
    assert sweep_widths("xor", **SMALL) is first
    assert sweep_widths.cache_info().hits == 2


def test_identity_activation_cannot_beat_a_straight_line_at_any_width():
    sweep = sweep_widths(
        "xor", widths=(1, 8), activations=("identity",), seeds=(0,), steps=60, n_points=300
    )
    assert sweep.accuracy.max() < 0.7  # xor needs two lines; one line gets little more than half


def test_smallest_solving_width_uses_the_median_over_seeds():
    accuracy = np.array([[[0.5, 0.5, 0.5], [0.99, 0.5, 0.99], [1.0, 1.0, 1.0]]])
    sweep = WidthSweep("xor", (1, 2, 4), ("relu",), (0, 1, 2), accuracy, accuracy)
    assert sweep.smallest_solving_width("relu", 0.97) == 2
    assert sweep.smallest_solving_width("relu", 1.0) == 4
    unsolved = WidthSweep("xor", (1, 2, 4), ("relu",), (0, 1, 2), accuracy * 0.5, accuracy)
    assert unsolved.smallest_solving_width("relu") is None


def test_widths_are_grouped_by_the_power_of_two_they_pad_to():
    assert _groups((1, 2, 3, 4, 6, 8, 16, 64)) == [(1,), (2,), (3, 4), (6, 8), (16,), (64,)]


def test_save_and_load_round_trip(tmp_path):
    a = sweep_widths("xor", **SMALL)
    b = sweep_widths("ring", **SMALL)
    save_sweeps([a, b], tmp_path / "s.npz")
    loaded = load_sweep("ring", tmp_path / "s.npz")
    assert (loaded.widths, loaded.activations, loaded.seeds) == (b.widths, b.activations, b.seeds)
    np.testing.assert_array_equal(loaded.accuracy, b.accuracy)


def test_stored_sweep_file_matches_a_fresh_run_of_one_slice():
    """Four widths of the xor sweep trained again: the same accuracies, which moved under no
    variant make spread tried (docs/spread.md)."""
    check_fresh_run("width sweep: xor, relu, 4 widths")
    assert SWEEP_FILE.stat().st_size < 50_000


def test_torch_threads_restores_the_thread_count():
    before = torch.get_num_threads()
    with torch_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


def test_init_weights_are_the_same_for_a_seed_alone_or_in_a_batch():
    alone = train_mlp("xor", 3, "relu", (1,), 1, 0.05, 100)
    batched = train_mlp("xor", 3, "relu", (0, 1), 1, 0.05, 100)
    torch.testing.assert_close(alone.W1[0], batched.W1[1])
    assert init_weights(1, 3, 1)["W1"].shape == (2, 3)


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        (dict(widths=()), ValueError, "must be non-empty"),
        (dict(widths=(0,)), ValueError, "d_ff must be a positive int"),
        (dict(widths=(2, 2)), ValueError, "widths must not repeat"),
        (dict(activations=("rleu",)), ValueError, "activation must be one of"),
        (dict(seeds=(0.5,)), TypeError, "seeds must be ints"),
        (dict(steps=0), ValueError, "steps must be a positive int"),
    ],
)
def test_bad_sweep_arguments_raise_errors_naming_them(kwargs, error, text):
    with pytest.raises(error, match=text):
        sweep_widths("xor", **{**SMALL, **kwargs})


def test_loading_an_unknown_task_names_the_stored_ones():
    with pytest.raises(ValueError, match="task must be one of"):
        load_sweep("moons")
