"""The one trainer: Adam over stacked models, each following its own loss; padded MLP batches."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch

from course_lib.core.experiments import DTYPE, default_dtype
from course_lib.core.experiments.training import (
    Adam,
    accuracy,
    adam_steps,
    bce_per_model,
    init_weights,
    mlp_logits,
    stack_results,
    train_mlp,
    train_mlps,
    uniform_layer,
)


def test_adam_steps_minimises_each_models_own_loss():
    targets = torch.tensor([[1.0], [-2.0], [5.0]], dtype=DTYPE)
    w = torch.zeros(3, 1, dtype=DTYPE, requires_grad=True)
    losses = adam_steps([w], lambda _: ((w - targets) ** 2).sum(dim=1), steps=400, lr=0.1)
    assert losses.shape == (3, 400)
    torch.testing.assert_close(w.detach(), targets, atol=1e-3, rtol=0)
    assert np.all(losses[:, -1] < losses[:, 0])


def test_adam_steps_sets_the_learning_rate_of_every_step():
    w = torch.zeros(1, dtype=DTYPE, requires_grad=True)
    seen = []

    def loss(step):
        seen.append(step)
        return (w - 1).abs()

    adam_steps([w], loss, steps=3, lr=0.5, lr_at=lambda step: 0.0)  # a zero rate never moves w
    assert seen == [0, 1, 2]
    assert w.item() == 0.0


def test_accuracy_counts_points_with_every_label_right():
    logits = torch.tensor([[[1.0, -1.0], [1.0, 1.0], [-1.0, -1.0]]])  # 1 model, 3 points, 2 labels
    y = torch.tensor([[[1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]])
    np.testing.assert_allclose(accuracy(logits, y), [2 / 3])


def test_bce_per_model_is_the_mean_binary_cross_entropy_of_each_model():
    logits, y = torch.randn(2, 5, 3, dtype=DTYPE), torch.rand(2, 5, 3, dtype=DTYPE).round()
    expected = [
        torch.nn.functional.binary_cross_entropy_with_logits(logits[i], y[i]) for i in (0, 1)
    ]
    torch.testing.assert_close(bce_per_model(logits, y), torch.stack(expected))


def test_mlp_logits_applies_each_blocks_activation():
    params = [p.repeat(2, 1, 1) for p in init_weights(0, 4, 1).values()]
    x = torch.rand(2, 6, 2, dtype=DTYPE)
    out = mlp_logits(params, x, (("relu", 1), ("identity", 1)))
    relu = torch.relu(x[0] @ params[0][0] + params[1][0]) @ params[2][0] + params[3][0]
    linear = (x[1] @ params[0][1] + params[1][1]) @ params[2][1] + params[3][1]
    torch.testing.assert_close(out, torch.stack([relu, linear]))


def test_a_padded_network_learns_what_it_learns_alone():
    alone = train_mlps("xor", [("tanh", 3, 1)], steps=30, lr=0.05, n_points=200)[0]
    padded = train_mlps("xor", [("relu", 8, 0), ("tanh", 3, 1)], steps=30, lr=0.05, n_points=200)[1]
    for name in ("W1", "b1", "W2", "b2"):
        torch.testing.assert_close(getattr(padded, name), getattr(alone, name), atol=1e-10, rtol=0)
    np.testing.assert_allclose(padded.losses, alone.losses, atol=1e-12)
    assert padded.W1.shape == (1, 2, 3) and padded.activation == "tanh" and padded.seeds == (1,)


@pytest.mark.parametrize(
    ("arguments", "error", "text"),
    [
        ({"task": "circle"}, ValueError, "task must be one of"),
        ({"d_ff": 0}, ValueError, "d_ff must be a positive int"),
        ({"activation": "rleu"}, ValueError, "activation must be one of"),
        ({"seeds": (0.5,)}, TypeError, "seed must be an int"),
        ({"seeds": ()}, ValueError, "seeds must be a non-empty tuple"),
        ({"steps": 0}, ValueError, "steps must be a positive int"),
        ({"lr": -1.0}, ValueError, "lr must be a finite number > 0"),
        ({"n_points": 0}, ValueError, "n_points must be a positive int"),
    ],
)
def test_train_mlp_where_a_learner_trains_checks_every_argument(arguments, error, text):
    settings = {"task": "xor", "d_ff": 3, "activation": "relu", "seeds": (0,), "steps": 2}
    with pytest.raises(error, match=text):
        train_mlp(**{**settings, **arguments})


def test_train_mlp_stacks_its_seeds_and_starts_from_init_weights():
    result = train_mlp("ring", 5, "relu", (0, 3), steps=1, lr=1e-12, n_points=100)
    assert result.seeds == (0, 3) and result.W1.shape == (2, 2, 5)
    torch.testing.assert_close(result.W1[1], init_weights(3, 5, 1)["W1"], atol=1e-9, rtol=0)


def test_stack_results_refuses_results_of_different_widths():
    a = train_mlp("xor", 2, "relu", (0,), 1, 0.05, 20)
    b = train_mlp("xor", 3, "relu", (0,), 1, 0.05, 20)
    with pytest.raises(ValueError, match="share task, d_ff and activation"):
        stack_results([a, b])


def test_results_are_float64_and_predict_returns_probabilities():
    result = train_mlp("triangles", 4, "gelu", (0,), 5, 0.05, 100)
    assert result.W1.dtype == DTYPE
    probs = result.predict(np.zeros((7, 2)))
    assert probs.shape == (1, 7, 2) and ((probs > 0) & (probs < 1)).all()


def test_default_dtype_sets_and_restores_torchs_default():
    before = torch.get_default_dtype()
    with default_dtype():
        assert torch.zeros(1).dtype == torch.float64
    assert torch.get_default_dtype() == before


def test_uniform_layer_draws_w_then_b_within_nn_linears_bound_w_spread_wider():
    W, b = uniform_layer(torch.Generator().manual_seed(3), 16, 5, spread=3)
    assert W.shape == (16, 5) and b.shape == (1, 5) and W.dtype == b.dtype == DTYPE
    assert b.abs().max() <= 1 / 4 < W.abs().max() <= 3 / 4  # bound 1/sqrt(16), W three times
    g = torch.Generator().manual_seed(3)
    first, second = (
        torch.rand(*shape, generator=g, dtype=DTYPE) * 2 - 1 for shape in [(16, 5), (1, 5)]
    )
    torch.testing.assert_close(W, first * 3 / 4, atol=1e-15, rtol=0)
    torch.testing.assert_close(b, second / 4, atol=1e-15, rtol=0)


def test_init_weights_and_the_depth_comparisons_stacks_start_from_uniform_layer():
    from course_lib.lessons.l02_dimension_expansion.experiments.stacking import _init_stack

    g = torch.Generator().manual_seed(5)
    (W1, b1), (W2, b2) = uniform_layer(g, 2, 4, spread=3), uniform_layer(g, 4, 1)
    start = init_weights(5, 4, 1)
    for name, drawn in {"W1": W1, "b1": b1, "W2": W2, "b2": b2}.items():
        assert torch.equal(start[name], drawn), name
    W, b = uniform_layer(torch.Generator().manual_seed(1000 * 7 + 1), 4, 1)  # seed 7, layer 1
    stack = _init_stack([2, 4, 1], (7,))
    assert torch.equal(stack[2][0], W) and torch.equal(stack[3][0], b)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("schedule", [True, False], ids=["rate schedule", "fixed rate"])
def test_the_courses_adam_computes_torchs_adam_bit_for_bit(dtype, schedule):
    """Every stored run was recorded with torch.optim.Adam: the course's Adam must give the same
    bits, step after step, with other betas, on a rate schedule (as adam_steps' lr_at) or at its
    own rate (as the edits call it), for a parameter that has a gradient only every third step
    (torch counts steps per parameter) and one that never has one (left alone)."""
    g = torch.Generator().manual_seed(0)
    w0, b0, c0 = (torch.randn(*shape, generator=g, dtype=dtype) for shape in ((5, 7), (7,), (7,)))
    x = torch.randn(50, 5, generator=g, dtype=dtype)
    ours = [t.clone().requires_grad_(True) for t in (w0, b0, c0, c0)]
    theirs = [t.clone().requires_grad_(True) for t in (w0, b0, c0, c0)]
    mine = Adam(ours, lr=0.05, betas=(0.8, 0.99))
    torchs = torch.optim.Adam(theirs, lr=0.05, betas=(0.8, 0.99))
    for step in range(200):
        rate = 0.05 * (1 + step) / 200 if schedule else None
        for (w, b, c, _), optimiser in ((ours, mine), (theirs, torchs)):
            optimiser.zero_grad()
            shift = c if step % 3 == 0 else c.detach()  # c: a gradient every third step
            ((x @ w + b + shift).tanh() ** 2).mean().backward()  # the last one: never
        if schedule:
            torchs.param_groups[0]["lr"] = rate
        mine.step(rate)
        torchs.step()
        assert all(torch.equal(a, b) for a, b in zip(ours, theirs, strict=True)), step
    moved = [not torch.equal(a, b) for a, b in zip(ours, (w0, b0, c0, c0), strict=True)]
    assert moved == [True, True, True, False]


def test_the_courses_adam_refuses_what_it_does_not_compute_as_torch_does():
    z = torch.zeros(2, dtype=torch.complex128, requires_grad=True)
    with pytest.raises(TypeError, match="params.*complex"):
        Adam([z], lr=0.1)
    w = torch.zeros(3, requires_grad=True)
    w.grad = torch.zeros(3).to_sparse()
    with pytest.raises(TypeError, match="sparse"):
        Adam([w], lr=0.1).step()


def test_training_imports_no_compiler():
    """What the course's own Adam is for: a lesson's training never imports torch._dynamo."""
    code = (
        "import sys, torch\n"
        "from course_lib.core.experiments.training import adam_steps\n"
        "w = torch.zeros(2, 3, requires_grad=True)\n"
        "adam_steps([w], lambda _: ((w - 1) ** 2).sum(dim=1), steps=3, lr=0.1)\n"
        "print('torch._dynamo' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stdout + done.stderr
