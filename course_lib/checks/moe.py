"""Checkers for lesson 6: top-k routing with renormalised gates, and the Switch Transformer's
balancing loss."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import torch

from course_lib.checks import (
    CheckResult,
    Hint,
    require_close,
    require_return,
    require_shape,
    run_check,
)
from course_lib.i18n import N_, tr
from course_lib.model.moe import balancing_loss, expert_load, top_k_gates


def _logits(seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 5, 6, generator=g, dtype=torch.float64) * 2


def _router_suspects(logits: torch.Tensor, k: int) -> dict[str, torch.Tensor]:
    """The usual wrong gates, each keyed by the hint that names its mistake."""
    p = logits.softmax(dim=-1)
    top = p.topk(k, dim=-1)
    raw = logits.topk(k, dim=-1)
    return {
        tr("the k gates do not sum to 1: divide the kept probabilities by their sum"): (
            torch.zeros_like(p).scatter(-1, top.indices, top.values)
        ),
        tr("every expert keeps its gate: zero all but the k largest"): p,
        tr("the gates are raw logits: take the softmax first"): (
            torch.zeros_like(p).scatter(-1, raw.indices, raw.values)
        ),
        tr("the k smallest are kept: keep the k largest (topk's default, largest=True)"): (
            top_k_gates(-logits, k)
        ),
    }


def check_router(fn: Callable) -> CheckResult:
    """``fn(logits, k)`` must return top_k_gates(logits, k): (..., E), k nonzero, summing to 1."""

    def check() -> str:
        for seed, k in ((0, 2), (1, 1), (2, 3)):
            logits = _logits(seed)
            got = require_return(fn(logits.clone(), k))
            expected = top_k_gates(logits, k)
            require_shape(
                got,
                expected,
                N_(
                    "the gates have shape {got}, expected {expected}: one gate per expert, "
                    "zeros included"
                ),
            )
            require_close(
                got,
                expected,
                partial(_router_suspects, logits, k),
                tr("the gates differ from the renormalised top-k of the softmax"),
            )
        return tr("k gates per token, renormalised to sum to 1, the others 0.")

    return run_check(N_("top-k router"), check)


def _balancing_suspects(logits: torch.Tensor, alpha: float) -> dict[str, torch.Tensor]:
    flat = logits.reshape(-1, logits.shape[-1])
    E = flat.shape[-1]
    p = flat.softmax(dim=-1)
    f, P = expert_load(p), p.mean(dim=0)
    return {
        tr("the factor E is missing: α · E · Σ f_i P_i is α when the load is even"): (
            alpha * (f * P).sum()
        ),
        tr("f_i counts tokens (the share whose top expert is i), not mean probabilities"): (
            alpha * E * (P * P).sum()
        ),
        tr("α is missing: the loss is α · E · Σ f_i P_i"): E * (f * P).sum(),
    }


def check_balancing_loss(fn: Callable) -> CheckResult:
    """``fn(logits, alpha)`` must return α · E · Σ_i f_i · P_i (Fedus et al. 2021)."""

    def check() -> str:
        for seed, alpha in ((0, 0.01), (1, 0.1), (2, 1.0)):
            logits = _logits(seed)
            got = require_return(fn(logits.clone(), alpha))
            expected = balancing_loss(logits, alpha)
            require_close(
                got,
                expected,
                partial(_balancing_suspects, logits, alpha),
                tr("the value differs from α · E · Σ_i f_i · P_i"),
            )
        even = torch.eye(4, dtype=torch.float64).repeat(3, 1) * 50
        got = float(fn(even, 0.01))
        if abs(got - 0.01) > 1e-6:
            raise Hint(tr("an even load should give α = 0.01, got {got:.4f}", got=got))
        return tr("α · E · Σ f_i P_i: α for an even load, up to α · E when one expert takes all.")

    return run_check(N_("balancing loss"), check)
