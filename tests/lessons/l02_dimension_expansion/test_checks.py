"""Lesson 2 checkers pass the reference and reject each typical wrong answer with its hint."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core.model.ffn import gated_ffn
from course_lib.lessons.l02_dimension_expansion.checks import (
    check_collapsed_rank,
    check_gated_budget,
    check_identity_ffn,
    check_ring_width,
    check_swiglu,
)
from course_lib.lessons.l02_dimension_expansion.experiments.collapse import identity_ffn_weights
from course_lib.lessons.l02_dimension_expansion.experiments.sweeps import load_sweep


def _raises(*_):
    raise NotImplementedError


def test_collapsed_rank_checker():
    assert check_collapsed_rank(lambda d, f: min(d, f)).status == "passed"
    assert check_collapsed_rank(_raises).status == "not attempted"
    wrong = {
        "cannot exceed d_model": lambda d, f: f,
        "caps the rank": lambda d, f: d,
        "expected": lambda d, f: d * f,
    }
    for hint, fn in wrong.items():
        result = check_collapsed_rank(fn)
        assert result.status == "failed" and hint in result.message


def test_gated_budget_checker():
    assert check_gated_budget(lambda d, f: 3 * d * round(2 * f / 3)).status == "passed"
    assert check_gated_budget(_raises).status == "not attempted"
    wrong = {
        "same d_ff": lambda d, f: 3 * d * f,
        "three matrices": lambda d, f: 2 * d * round(2 * f / 3),
        "no biases": lambda d, f: 3 * d * round(2 * f / 3) + 2 * round(2 * f / 3) + d,
        "expected 3 * d_model": lambda d, f: 3 * d * (2 * f // 3 + 1),
    }
    for hint, fn in wrong.items():
        result = check_gated_budget(fn)
        assert result.status == "failed" and hint in result.message, (hint, result.message)


def test_swiglu_checker():
    assert check_swiglu(gated_ffn).status == "passed"
    assert check_swiglu(_raises).status == "not attempted"
    wrong = {
        "ReGLU": lambda x, W, V, W2: (F.relu(x @ W) * (x @ V)) @ W2,
        "GEGLU": lambda x, W, V, W2: (F.gelu(x @ W) * (x @ V)) @ W2,
        "original GLU": lambda x, W, V, W2: (torch.sigmoid(x @ W) * (x @ V)) @ W2,
        "wrong branch": lambda x, W, V, W2: ((x @ W) * F.silu(x @ V)) @ W2,
        "x V is missing": lambda x, W, V, W2: F.silu(x @ W) @ W2,
        "after the product": lambda x, W, V, W2: F.silu((x @ W) * (x @ V)) @ W2,
        "did you apply W2": lambda x, W, V, W2: F.silu(x @ W) * (x @ V),
        "returned None": lambda x, W, V, W2: None,
    }
    for hint, fn in wrong.items():
        result = check_swiglu(fn)
        assert result.status == "failed" and hint in result.message, (hint, result.message)


def test_identity_ffn_checker():
    assert check_identity_ffn(identity_ffn_weights).status == "passed"
    assert check_identity_ffn(_raises).status == "not attempted"

    def weights(d, W1, W2):
        return {"W1": W1, "b1": np.zeros(W1.shape[1]), "W2": W2, "b2": np.zeros(d)}

    def blocks(d, top, bottom):
        return np.concatenate([top * np.eye(d), bottom * np.eye(d)])

    wrong = {
        "only the positive half": lambda d: weights(d, np.eye(d), np.eye(d)),
        "|x|": lambda d: weights(d, blocks(d, 1, -1).T, blocks(d, 1, 1)),
        "swapped": lambda d: weights(d, blocks(d, 1, -1).T, blocks(d, -1, 1)),
        "not a copy": lambda d: weights(d, blocks(d, 1, -1).T, blocks(d, 1, -1).T),
        "too few units": lambda d: identity_ffn_weights(d, d_ff=max(1, 2 * d - 1)),
        "exactly the keys": lambda d: {"W1": np.eye(d)},
        "returned None": lambda d: None,
    }
    for hint, fn in wrong.items():
        result = check_identity_ffn(fn)
        assert result.status == "failed" and hint in result.message, (hint, result.message)


def test_ring_width_checker():
    sweeps = {task: load_sweep(task) for task in ("ring", "xor", "triangles")}
    ring = sweeps["ring"]
    right = ring.smallest_solving_width("relu", 0.97)
    assert check_ring_width(lambda: right, sweeps).status == "passed"
    assert check_ring_width(_raises, sweeps).status == "not attempted"
    below = max(w for w in ring.widths if w < right and w not in (4, 6, 8, 16))
    wrong = {
        "xor's width": sweeps["xor"].smallest_solving_width("relu", 0.97),
        "edge count": 6,
        "triangles' width": sweeps["triangles"].smallest_solving_width("relu", 0.97),
        "tanh's width": ring.smallest_solving_width("tanh", 0.97),
        "one of them": 5,
        "below 0.97": below,
        "smaller width already": max(ring.widths),
    }
    assert len(set(wrong.values()) | {right}) == len(wrong) + 1  # every suspect differs
    for hint, answer in wrong.items():
        result = check_ring_width(lambda answer=answer: answer, sweeps)
        assert result.status == "failed" and hint in result.message, (hint, result.message)
