"""Lesson 2 checkers pass the reference and reject each typical wrong answer with its hint."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from course_lib.checks.expansion import check_collapsed_rank, check_gated_budget, check_swiglu
from course_lib.model.ffn import gated_ffn


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
