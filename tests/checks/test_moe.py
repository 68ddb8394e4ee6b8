"""checks.moe: each checker passes the reference, says "not attempted" for a stub, and names the
typical mistakes: a router that forgets to renormalise, keeps every expert, gates raw logits or
keeps the smallest; a balancing loss without E or α, or with probabilities for counts."""

from __future__ import annotations

import pytest
import torch

from course_lib.checks.moe import check_balancing_loss, check_router
from course_lib.model.moe import balancing_loss, top_k_gates


def _stub(*args):
    raise NotImplementedError


def _unnormalised(logits, k):
    p = logits.softmax(-1)
    top = p.topk(k, -1)
    return torch.zeros_like(p).scatter(-1, top.indices, top.values)


def test_the_router_checker_passes_the_reference_and_reports_a_stub():
    assert check_router(top_k_gates).status == "passed"
    assert check_router(_stub).status == "not attempted"


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_unnormalised, "do not sum to 1"),
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
