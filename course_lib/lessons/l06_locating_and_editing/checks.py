"""Lesson 6's exercise checkers: the rank-one update from k, v and C, and a rewrite of a fact that
must be the lesson's edit (its typical mistakes named)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import torch

from course_lib.core.checks import (
    CheckResult,
    Hint,
    close,
    require_close,
    require_return,
    run_check,
)
from course_lib.core.experiments.fact_edits import rank_one_update
from course_lib.core.i18n import N_, tr
from course_lib.core.model.language_model import LanguageModel


def _edit_case(seed: int):
    g = torch.Generator().manual_seed(seed)
    W = torch.randn(4, 6, generator=g, dtype=torch.float64)
    K = torch.randn(30, 6, generator=g, dtype=torch.float64) * torch.linspace(0.2, 3, 6)
    k, v = torch.randn(6, generator=g, dtype=torch.float64), torch.randn(4, generator=g)
    return W, k, v.double(), K.T @ K / len(K)


def _edit_suspects(W, k, v, C) -> dict[str, torch.Tensor]:
    u = torch.linalg.solve(C, k)
    return {
        tr("u is C k, not C⁻¹ k: solve C u = k (torch.linalg.solve)"): (
            W + torch.outer(v - W @ k, C @ k) / ((C @ k) @ k)
        ),
        tr(
            "the update ignores C: use u = C⁻¹ k, so the output on the corpus' keys changes least"
        ): (W + torch.outer(v - W @ k, k) / (k @ k)),
        tr("the change is v - W k, what W k still lacks, not v"): W + torch.outer(v, u) / (u @ k),
        tr("divide by u·k, so that W' k is exactly v"): W + torch.outer(v - W @ k, u),
    }


def check_rank_one_update(fn: Callable) -> CheckResult:
    """``fn(W, k, v, C)`` must return W + (v - W k) (C⁻¹k)ᵀ / (kᵀ C⁻¹ k)."""

    def check() -> str:
        for seed in (0, 1, 2):
            W, k, v, C = _edit_case(seed)
            got = require_return(fn(W.clone(), k.clone(), v.clone(), C.clone()))
            require_close(
                got,
                rank_one_update(W, k, v, C, ridge=0.0),
                partial(_edit_suspects, W, k, v, C),
                tr("the result differs from W + (v − W k) (C⁻¹k)ᵀ / (kᵀ C⁻¹ k)"),
            )
        return tr("W' k = v, and the output on the corpus' keys changes as little as it can.")

    return run_check(N_("rank-one edit"), check)


def _top_words(model: torch.nn.Module, prompts: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return model(prompts)[:, -1].argmax(dim=-1)


def check_fact_rewrite(
    fn: Callable, model: LanguageModel, prompts: torch.Tensor, cases: dict, reference: Callable
) -> CheckResult:
    """``fn(fact, new)`` must return an edited copy of ``model`` whose only change is layer 1's
    W2, equal to ``reference(fact, new)``'s (the lesson's rank-one edit); ``prompts`` (facts, L)
    are the facts' prompts, ``cases`` {fact: new answer} the edits tried."""
    target = "layers.1.ffn.linear2.weight"

    def check() -> str:
        kept = {name: p.detach().clone() for name, p in model.state_dict().items()}
        before = _top_words(model, prompts)
        for fact, new in cases.items():
            got = require_return(fn(fact, new))
            moved = [n for n, p in model.state_dict().items() if not torch.equal(p, kept[n])]
            if moved:
                model.load_state_dict(kept)  # the lesson's model, as it was
                raise Hint(tr("your function changed the lesson's model itself: edit a copy "
                              "(copy.deepcopy(model))"))  # fmt: skip
            if not isinstance(got, torch.nn.Module) or set(got.state_dict()) != set(kept):
                raise Hint(tr("return the edited copy of the model, not {kind}",
                              kind=type(got).__name__))  # fmt: skip
            state = got.state_dict()
            spilled = [n for n in kept if n != target and not torch.equal(state[n], kept[n])]
            if spilled:
                raise Hint(tr("only layer 1's W2 should change, yet {name} changed too",
                              name=spilled[0]))  # fmt: skip
            expected = reference(fact, new)
            # C's scale is free but for the update's tiny ridge: a sum of k kᵀ instead of their
            # mean moves W2 by about 0.2 % of the update, a missed bias by about 2 %
            scale = float((expected.state_dict()[target] - kept[target]).abs().max())
            if not close(state[target], expected.state_dict()[target], atol=5e-3 * scale):
                with torch.no_grad():
                    k = model.ffn_hidden(prompts[fact : fact + 1])[1][0, -1]  # k*
                delta = state[target] - kept[target]
                if close(delta, torch.outer(delta @ k / (k @ k), k), atol=1e-9):
                    raise Hint(tr(
                        "the update is written along k* itself, as if C were the identity or "
                        "k* k*ᵀ: C is the covariance of every key the corpus makes "
                        "(fact_edits.key_covariance), so that the other keys' outputs move least"
                    ))  # fmt: skip
                others = torch.arange(len(prompts)) != fact
                changed = int((_top_words(got, prompts) != before)[others].sum())
                changed_ref = int((_top_words(expected, prompts) != before)[others].sum())
                raise Hint(tr(
                    "layer 1's W2 differs from the lesson's rank-one edit: yours changes the "
                    "answers of {n} other facts, the lesson's {m}", n=changed, m=changed_ref,
                ))  # fmt: skip
        return tr("the same W2 as the lesson's edit, and the lesson's model untouched.")

    return run_check(N_("rewrite a fact"), check)
