"""checks.moe: each checker passes the reference, says "not attempted" for a stub, and names the
typical mistakes: a router whose softmax runs over the batch, that keeps the probabilities (named
as another model's form, not as wrong), keeps every expert, gates raw logits or keeps the
smallest; a gradient prediction that gives the unchosen expert's row or weights the wrong answer,
against autograd; a balancing loss without E or α, with probabilities for counts, or counting all k
choices (Hugging Face's Mixtral form); DeepSeek-V3's step with the bias in the gates or not in the
choice, the sign reversed, or moved by the load."""

from __future__ import annotations

from functools import partial

import pytest
import torch

from course_lib.core.model.moe import balance_step, balancing_loss, top_k_gates
from course_lib.lessons.l07_mixture_of_experts.checks import (
    FORMS,
    _tied_inputs,
    autograd_reach,
    check_balance_step,
    check_balancing_loss,
    check_gradient_prediction,
    check_router,
)


def _stub(*args):
    raise NotImplementedError


def _unnormalised(logits, k):
    p = logits.softmax(-1)
    top = p.topk(k, -1)
    return torch.zeros_like(p).scatter(-1, top.indices, top.values)


def _renormalised(p, k):
    top = p.topk(k, -1)
    return torch.zeros_like(p).scatter(-1, top.indices, top.values / top.values.sum(-1, True))


def test_the_router_checker_passes_the_reference_and_reports_a_stub():
    assert check_router(top_k_gates).status == "passed"
    assert check_router(_stub).status == "not attempted"


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_unnormalised, "a form another model uses (Qwen1.5-MoE)"),
        (lambda logits, k: _renormalised(logits.softmax(0), k), "over the batch"),
        (lambda logits, k: _renormalised(logits.softmax(1), k), "over the sequence"),
        (lambda logits, k: logits.softmax(-1), "every expert keeps its gate"),
        (
            lambda logits, k: torch.zeros_like(logits).scatter(-1, *reversed(logits.topk(k, -1))),
            "raw logits",
        ),
        (lambda logits, k: top_k_gates(-logits, k), "the k smallest"),
        (lambda logits, k: logits.softmax(-1)[..., :k], "shape"),
        (lambda logits, k: None, "None"),
    ],
)
def test_the_router_checker_names_each_typical_mistake(wrong, hint):
    result = check_router(wrong)
    assert result.status == "failed" and hint in result.message, result.message


def test_the_balancing_checker_passes_the_reference_and_reports_a_stub():
    assert check_balancing_loss(balancing_loss).status == "passed"
    assert check_balancing_loss(_stub).status == "not attempted"


def _parts(logits):
    p = logits.reshape(-1, logits.shape[-1]).softmax(-1)
    f = torch.bincount(p.argmax(-1), minlength=p.shape[-1]).double() / p.shape[0]
    return p, f, p.mean(0)


def _every_k_choice(logits, alpha, share=False):
    """Hugging Face's Mixtral loss at k = 2: f_i counts every one of a token's two choices (a count
    per token, summing to 2; with ``share``, a share of the assignments, summing to 1)."""
    p, _, P = _parts(logits)
    f = torch.nn.functional.one_hot(p.topk(2, dim=-1).indices, p.shape[-1]).double()
    f = f.mean(dim=0).sum(dim=0)  # (E,): the top-k mask averaged over tokens, summed over choices
    return alpha * p.shape[-1] * ((f / 2 if share else f) * P).sum()


@pytest.mark.parametrize("share", [False, True])
def test_the_balancing_checker_names_the_all_k_choices_variant(share):
    result = check_balancing_loss(partial(_every_k_choice, share=share))
    assert result.status == "failed", result.message
    assert "all k choices" in result.message and "first choice only" in result.message


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (
            lambda logits, a: a * (_parts(logits)[1] * _parts(logits)[2]).sum(),
            "factor E is missing",
        ),
        (lambda logits, a: a * logits.shape[-1] * (_parts(logits)[2] ** 2).sum(), "counts tokens"),
        (
            lambda logits, a: logits.shape[-1] * (_parts(logits)[1] * _parts(logits)[2]).sum(),
            "α is missing",
        ),
    ],
)
def test_the_balancing_checker_names_each_typical_mistake(wrong, hint):
    result = check_balancing_loss(wrong)
    assert result.status == "failed" and hint in result.message, result.message


def test_the_unnormalised_form_is_named_as_a_form_other_models_use_not_as_a_bug():
    message = check_router(_unnormalised).message
    assert "asks for Mixtral's" in message and "wrong" not in message


RIGHT = {
    "renormalised": {"router rows": {0, 1, 2}, "experts": {0, 1, 2}},
    "probabilities kept": {"router rows": {0, 1, 2, 3}, "experts": {0, 1, 2}},
    "balancing loss": {"router rows": {0, 1, 2, 3}, "experts": {0, 1, 2}},
}


def test_autograd_gives_the_unchosen_row_a_gradient_only_through_a_softmax_over_every_expert():
    for seed in (0, 1, 2, 3):
        reach = {form: autograd_reach(form, seed) for form in FORMS}
        assert reach == {f: (RIGHT[f]["router rows"], RIGHT[f]["experts"]) for f in FORMS}


def _with(form, key, value):
    return lambda: RIGHT | {form: RIGHT[form] | {key: value}}


def test_the_gradient_checker_passes_the_right_sets_and_reports_a_stub():
    assert check_gradient_prediction(lambda: RIGHT).status == "passed"
    assert check_gradient_prediction(_stub).status == "not attempted"


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_with("renormalised", "router rows", {0, 1, 2, 3}), "over its 2 chosen logits only"),
        (_with("probabilities kept", "router rows", {0, 1, 2}), "in that denominator"),
        (_with("balancing loss", "router rows", {0, 1, 2}), "reaches every router row"),
        (_with("renormalised", "experts", {0, 1, 2, 3}), "expert 3 never runs"),
        (_with("balancing loss", "experts", {0, 1, 2, 3}), "expert 3 never runs"),
        (_with("probabilities kept", "experts", {0, 1}), "each gets gradient from the task"),
        (_with("renormalised", "router rows", {0, 1}), "the chosen experts' rows"),
        (lambda: {"renormalised": RIGHT["renormalised"]}, "one entry per form"),
        (lambda: RIGHT | {"renormalised": [0, 1, 2]}, "two sets"),
        (lambda: None, "None"),
    ],
)
def test_the_gradient_checker_names_each_typical_mistake(wrong, hint):
    result = check_gradient_prediction(wrong)
    assert result.status == "failed" and hint in result.message, result.message


def test_the_balance_step_checker_passes_the_reference_and_reports_a_stub():
    assert check_balance_step(balance_step).status == "passed"
    assert check_balance_step(_stub).status == "not attempted"


def _step(choose_with_bias=True, gate_with_bias=False, normalise=True, score="sigmoid",
          sign=1.0, by="sign"):  # fmt: skip
    """DeepSeek-V3's step with one planted mistake (the defaults are the right step)."""

    def step(logits, bias, k, gamma):
        s = torch.sigmoid(logits) if score == "sigmoid" else logits.softmax(-1)
        chosen = (s + bias if choose_with_bias else s).topk(k, -1).indices
        kept = (s + bias if gate_with_bias else s).gather(-1, chosen)
        kept = kept / kept.sum(-1, True) if normalise else kept
        gates = torch.zeros_like(s).scatter(-1, chosen, kept)
        counts = (gates > 0).sum(0).double()
        under = counts.mean() - counts  # > 0: fewer than the mean
        strict = torch.where(under < 0, -torch.ones_like(under), torch.ones_like(under))
        move = {"sign": torch.sign(under), "load": under, "count": -counts, "strict": strict}[by]
        return gates, bias + sign * gamma * move

    return step


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_step(gate_with_bias=True), "the bias is in the gates"),
        (_step(choose_with_bias=False), "did not change the choice"),
        (_step(normalise=False), "not normalised"),
        (_step(score="softmax"), "with a sigmoid"),
        (_step(sign=-1.0), "the sign is reversed"),
        (_step(by="load"), "moved by the load itself"),
        (_step(by="count"), "the expert's count of tokens"),
        (_step(by="strict"), "exactly as often as the mean"),
        (lambda *args: _step()(*args)[0], "two things"),
    ],
)
def test_the_balance_step_checker_names_each_typical_mistake(wrong, hint):
    result = check_balance_step(wrong)
    assert result.status == "failed" and hint in result.message, result.message


def test_the_right_step_planted_here_is_the_reference():
    assert check_balance_step(_step()).status == "passed"


def test_the_tied_batch_has_a_whole_mean_and_an_expert_chosen_exactly_that_often():
    logits, bias, k, gamma = _tied_inputs()
    counts = (balance_step(logits, bias, k, gamma)[0] > 0).sum(dim=0)
    assert counts.tolist() == [3, 2, 2, 1] and counts.double().mean() == 2
    new = balance_step(logits, bias, k, gamma)[1]
    assert new.tolist() == [-gamma, 0.0, 0.0, gamma]  # the tied experts keep their bias
