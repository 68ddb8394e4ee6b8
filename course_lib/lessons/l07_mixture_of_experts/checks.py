"""Checkers for lesson 7: Mixtral's top-k router, which router rows and experts learn when an
expert is never chosen (against autograd), the Switch Transformer's balancing loss, and
DeepSeek-V3's bias balancing."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import torch

from course_lib.core.checks import (
    CheckResult,
    Hint,
    require_close,
    require_return,
    require_shape,
    run_check,
)
from course_lib.core.i18n import N_, series, tr
from course_lib.core.model.moe import (
    MixtureOfExperts,
    balance_step,
    balancing_loss,
    expert_load,
    gradient_reach,
    top_k_gates,
)


def _logits(seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 5, 6, generator=g, dtype=torch.float64) * 2


def _renormalised(p: torch.Tensor, k: int) -> torch.Tensor:
    top = p.topk(k, dim=-1)
    kept = top.values / top.values.sum(dim=-1, keepdim=True)
    return torch.zeros_like(p).scatter(-1, top.indices, kept)


def _router_suspects(logits: torch.Tensor, k: int) -> dict[str, torch.Tensor]:
    """The usual wrong gates, each keyed by the hint that names its mistake."""
    p = logits.softmax(dim=-1)
    top = p.topk(k, dim=-1)
    raw = logits.topk(k, dim=-1)
    return {
        tr("the softmax runs over the batch, not the experts: use dim=-1"): (
            _renormalised(logits.softmax(dim=0), k)
        ),
        tr("the softmax runs over the sequence, not the experts: use dim=-1"): (
            _renormalised(logits.softmax(dim=1), k)
        ),
        tr(
            "these are the kept probabilities as they are: a form another model uses "
            "(Qwen1.5-MoE), but this exercise asks for Mixtral's, divided by their sum"
        ): torch.zeros_like(p).scatter(-1, top.indices, top.values),
        tr("every expert keeps its gate: zero all but the k largest"): p,
        tr("the gates are raw logits: take the softmax first"): (
            torch.zeros_like(p).scatter(-1, raw.indices, raw.values)
        ),
        tr("the k smallest are kept: keep the k largest (topk's default, largest=True)"): (
            top_k_gates(-logits, k)
        ),
    }


def check_router(fn: Callable) -> CheckResult:
    """``fn(logits, k)`` must return Mixtral's gates, top_k_gates(logits, k): (..., E), k
    nonzero, renormalised to sum to 1."""

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
                tr("the gates differ from Mixtral's: the renormalised top k of the softmax"),
            )
        return tr("Mixtral's form: k gates per token, renormalised to sum to 1, the others 0.")

    return run_check(N_("top-k router"), check)


# ---- which router rows and experts learn when expert 3 is never chosen

FORMS = (N_("renormalised"), N_("probabilities kept"), N_("balancing loss"))
UNCHOSEN = 3  # of 4 experts, top 2


def never_chosen(form: str, seed: int) -> tuple[MixtureOfExperts, torch.Tensor]:
    """A small mixture of 4 experts, top 2, whose router never ranks expert 3 among its 2 first
    (positive inputs, a negative router row), gates renormalised unless ``form`` is
    "probabilities kept"; and its inputs (tokens, d_model). Shapes drawn from ``seed``."""
    g = torch.Generator().manual_seed(seed)
    d_model, d_ff, tokens = (int(n) for n in torch.randint(3, 9, (3,), generator=g))
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        moe = MixtureOfExperts(d_model, d_ff, 4, 2, renormalise=form != FORMS[1]).double()
    with torch.no_grad():  # expert i < 3 scores x_i (and a little more): each is chosen somewhere
        moe.router.weight.copy_(torch.eye(4, d_model, dtype=torch.float64))
        moe.router.weight.add_(0.1 * torch.rand(4, d_model, generator=g, dtype=torch.float64))
        moe.router.weight[UNCHOSEN] = -1.0
    return moe, 0.1 + torch.rand(tokens, d_model, generator=g, dtype=torch.float64)


def autograd_reach(form: str, seed: int = 0) -> tuple[set[int], set[int]]:
    """What autograd says for ``form``: (router rows, experts) with a nonzero gradient; the
    balancing-loss form adds alpha 0.01 times the Switch Transformer's loss to the task's."""
    moe, x = never_chosen(form, seed)
    return gradient_reach(moe, x, alpha=0.01 if form == FORMS[2] else 0.0)


def _sets(answer: object) -> tuple[set[int], set[int]]:
    if not isinstance(answer, dict) or set(answer) != {"router rows", "experts"}:
        raise Hint(tr("give each form a dict with two sets: 'router rows' and 'experts'"))
    return set(answer["router rows"]), set(answer["experts"])


def _row_hint(form: str, predicted: set[int], true: set[int]) -> str:
    """Why the predicted router rows differ from autograd's for ``form``."""
    if UNCHOSEN in predicted and UNCHOSEN not in true:
        return tr(
            "renormalised, a token's gates are a softmax over its 2 chosen logits only: the "
            "unchosen expert's logit is in none of them, so its row gets no gradient"
        )
    if form == FORMS[1] and UNCHOSEN in true:
        return tr(
            "kept as probabilities, each gate divides by the softmax's sum over all 4 experts: "
            "the unchosen expert's logit is in that denominator, so its row gets gradient"
        )
    if UNCHOSEN in true:
        return tr(
            "P_i averages the whole softmax over every token: the balancing loss reaches every "
            "router row, the unchosen expert's too"
        )
    return tr("the chosen experts' rows get gradient in every form: their logits are in the gates")


def check_gradient_prediction(fn: Callable) -> CheckResult:
    """``fn()`` returns, for each of ``FORMS``, the router rows and the experts that get gradient
    when expert 3 is never chosen; autograd on small mixtures (``autograd_reach``) decides."""

    def check() -> str:
        predicted = require_return(fn())
        if not isinstance(predicted, dict) or set(predicted) != set(FORMS):
            forms = series(repr(form) for form in FORMS)  # the keys, never a list's brackets
            raise Hint(tr("return a dict with one entry per form: {forms}", forms=forms))
        for form in FORMS:
            rows, experts = _sets(predicted[form])
            for seed in (0, 1, 2):  # a few shapes: autograd's answer does not depend on them
                true_rows, true_experts = autograd_reach(form, seed)
                if UNCHOSEN in experts:
                    raise Hint(tr(
                        "expert 3 never runs, so its weights never touch the output: no "
                        "gradient reaches them, in any form"
                    ))  # fmt: skip
                if experts != true_experts:
                    raise Hint(tr(
                        "experts 0, 1 and 2 each run on some tokens, so each gets gradient from "
                        "the task"
                    ))  # fmt: skip
                if rows != true_rows:
                    raise Hint(
                        tr("{form}: {why}", form=tr(form), why=_row_hint(form, rows, true_rows))
                    )
        return tr(
            "autograd agrees: only chosen experts learn, and the unchosen row learns only through "
            "a softmax over all experts (probabilities kept, or the balancing loss)."
        )

    return run_check(N_("who gets gradient"), check)


def _balancing_suspects(logits: torch.Tensor, alpha: float) -> dict[str, torch.Tensor]:
    flat = logits.reshape(-1, logits.shape[-1])
    E = flat.shape[-1]
    p = flat.softmax(dim=-1)
    f, P = expert_load(p), p.mean(dim=0)
    # every one of a token's k choices counted (Hugging Face's Mixtral loss; k = 2, Mixtral's),
    # as a count per token (f sums to k) or as a share of the assignments (f sums to 1)
    chosen = torch.zeros_like(p).scatter(-1, p.topk(2, dim=-1).indices, 1.0).mean(dim=0)
    return {
        tr(
            "f_i counts all k choices of each token, as Hugging Face's Mixtral loss does; the Switch "
            "Transformer's loss, asked here, counts each token's first choice only"
        ): (alpha * E * (chosen * P).sum()),
        tr(
            "f_i is each expert's share of all the k choices (Hugging Face's Mixtral loss counts "
            "all k choices); the Switch Transformer's loss, asked here, counts each token's first "
            "choice only"
        ): alpha * E * (chosen / 2 * P).sum(),
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


# ---- DeepSeek-V3's bias balancing


def _step_inputs(seed: int) -> tuple[torch.Tensor, torch.Tensor, int, float]:
    g = torch.Generator().manual_seed(seed)
    tokens, experts = 12 + 4 * seed, 5 + seed
    logits = torch.randn(tokens, experts, generator=g, dtype=torch.float64)
    bias = (torch.rand(experts, generator=g, dtype=torch.float64) - 0.5) * 0.4
    return logits, bias, 1 + seed % 3, (0.001, 0.01, 0.05)[seed % 3]


def _tied_inputs() -> tuple[torch.Tensor, torch.Tensor, int, float]:
    """A batch whose mean count is a whole number and one expert's count equals it: 8 tokens,
    4 experts, top 1, chosen 3, 2, 2 and 1 times (mean 2). Experts 1 and 2 are left as they are."""
    first = torch.tensor([0, 0, 0, 1, 1, 2, 2, 3])
    logits = torch.full((8, 4), -3.0, dtype=torch.float64)
    logits[torch.arange(8), first] = 3.0
    return logits, torch.zeros(4, dtype=torch.float64), 1, 0.01


def _gate_suspects(logits: torch.Tensor, bias: torch.Tensor, k: int) -> dict[str, torch.Tensor]:
    s = torch.sigmoid(logits)
    chosen = (s + bias).topk(k, dim=-1).indices
    biased = (s + bias).gather(-1, chosen)
    plain = s.topk(k, dim=-1)
    p = logits.softmax(dim=-1)  # a softmax in place of the sigmoid, chosen and normalised alike
    by_p = (p + bias).topk(k, dim=-1).indices
    soft = p.gather(-1, by_p)
    return {
        tr("the bias is in the gates: it only chooses the experts; each gate is the chosen "
           "expert's own affinity s"): torch.zeros_like(s).scatter(
            -1, chosen, biased / biased.sum(dim=-1, keepdim=True)
        ),
        tr("the bias did not change the choice: choose the k largest of s + bias"): (
            torch.zeros_like(s).scatter(-1, plain.indices, plain.values / plain.values.sum(-1, True))
        ),
        tr("the chosen affinities are not normalised: divide them by their sum"): (
            torch.zeros_like(s).scatter(-1, chosen, s.gather(-1, chosen))
        ),
        tr("the affinities are a softmax: DeepSeek-V3 scores each expert with a sigmoid"): (
            torch.zeros_like(s).scatter(-1, by_p, soft / soft.sum(dim=-1, keepdim=True))
        ),
    }  # fmt: skip


def _bias_suspects(bias: torch.Tensor, counts: torch.Tensor, gamma: float) -> dict:
    over = counts.double() - counts.double().mean()  # > 0: more than the mean share
    return {
        tr("the sign is reversed: an overloaded expert's bias goes down by γ, so that it is "
           "chosen less"): bias + gamma * torch.sign(over),
        tr("the bias moved by the load itself: each step is γ up or down, whatever the load"): (
            bias - gamma * over
        ),
        tr("the bias moved by the expert's count of tokens: compare the count with the mean, "
           "then step γ up or down"): bias - gamma * counts.double(),
        tr("an expert chosen exactly as often as the mean moved: its bias stays as it is"): (
            torch.where(over > 0, bias - gamma, bias + gamma)
        ),
    }  # fmt: skip


def check_balance_step(fn: Callable) -> CheckResult:
    """``fn(logits, bias, k, gamma)`` must return DeepSeek-V3's (gates, new bias):
    ``model.moe.balance_step``."""

    def check() -> str:
        for logits, bias, k, gamma in [*map(_step_inputs, (0, 1, 2)), _tied_inputs()]:
            answer = require_return(fn(logits.clone(), bias.clone(), k, gamma))
            if not isinstance(answer, tuple) or len(answer) != 2:
                raise Hint(tr("return two things: the gates and the new bias"))
            gates, new_bias = answer
            expected_gates, expected_bias = balance_step(logits, bias, k, gamma)
            require_shape(
                gates, expected_gates, N_("the gates have shape {got}, expected {expected}")
            )
            require_close(
                gates,
                expected_gates,
                partial(_gate_suspects, logits, bias, k),
                tr("the gates differ from DeepSeek-V3's: sigmoid affinities, chosen by s + bias, "
                   "normalised among the chosen"),
            )  # fmt: skip
            counts = (expected_gates > 0).sum(dim=0)
            require_close(
                new_bias,
                expected_bias,
                partial(_bias_suspects, bias, counts, gamma),
                tr("the new bias differs: each expert's bias moves γ down if it took more than the "
                   "mean number of tokens, γ up if fewer, and stays if exactly the mean"),
            )  # fmt: skip
        return tr("the bias chooses, the affinities weigh, and each step moves the bias by ±γ.")

    return run_check(N_("DeepSeek-V3's balancing"), check)
