"""The lesson 4 checkers pass the reference and name each typical mistake."""

from __future__ import annotations

import pytest
import torch

from course_lib.checks.sublayer import check_layer_norm, check_sublayer_connection
from course_lib.model.sublayer import layer_norm


def _centred(x):
    return x - x.mean(-1, keepdim=True)


def test_layer_norm_checker_passes_the_reference_and_nn_functional():
    assert check_layer_norm(layer_norm).status == "passed"
    assert (
        check_layer_norm(
            lambda x, g, b, eps: torch.nn.functional.layer_norm(x, (x.shape[-1],), g, b, eps)
        ).status
        == "passed"
    )


def test_layer_norm_checker_reports_a_stub_as_not_attempted():
    def stub(x, g, b, eps):
        raise NotImplementedError

    assert check_layer_norm(stub).status == "not attempted"


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (
            lambda x, g, b, e: (
                g * _centred(x) / (x.var(-1, keepdim=True, unbiased=False).sqrt() + e) + b
            ),
            "outside the square root",
        ),
        (
            lambda x, g, b, e: g * _centred(x) / torch.sqrt(x.var(-1, keepdim=True) + e) + b,
            "unbiased",
        ),
        (lambda x, g, b, e: g * _centred(x) / (x.std(-1, keepdim=True) + e) + b, "std + eps"),
        (
            lambda x, g, b, e: g * _centred(x) / x.var(-1, keepdim=True, unbiased=False).sqrt() + b,
            "eps is missing",
        ),
        (
            lambda x, g, b, e: (
                b * _centred(x) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + e) + g
            ),
            "swapped",
        ),
        (
            lambda x, g, b, e: (
                _centred(x) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + e)
            ),
            "not applied",
        ),
        (
            lambda x, g, b, e: g * (x - x.mean()) / torch.sqrt(x.var(unbiased=False) + e) + b,
            "whole tensor",
        ),
        (lambda x, g, b, e: (x - x.mean(-1)[..., None])[..., 0], "shape"),
        (lambda x, g, b, e: None, "None"),
    ],
)
def test_layer_norm_checker_names_each_typical_mistake(wrong, hint):
    result = check_layer_norm(wrong)
    assert result.status == "failed" and hint in result.message


def _post(x, sub, norm):
    return norm(x + sub(x))


def _pre(x, sub, norm):
    return x + sub(norm(x))


def test_connection_checker_passes_both_references():
    assert check_sublayer_connection(_post).status == "passed"
    assert check_sublayer_connection(_pre, norm_first=True).status == "passed"


@pytest.mark.parametrize(
    "wrong, norm_first, hint",
    [
        (_pre, False, "wrong side of the residual"),
        (_post, True, "wrong side of the residual"),
        (lambda x, s, n: n(s(x)), False, "residual is missing"),
        (lambda x, s, n: s(n(x)), True, "residual is missing"),
        (lambda x, s, n: n(x) + s(n(x)), True, "raw x"),
        (lambda x, s, n: x + n(s(x)), False, "wraps only"),
        (lambda x, s, n: n(x + s(n(x))), True, "normalised again"),
        (lambda x, s, n: x + s(x), False, "differ from norm(x + sublayer(x))"),
    ],
)
def test_connection_checker_names_each_typical_mistake(wrong, norm_first, hint):
    result = check_sublayer_connection(wrong, norm_first=norm_first)
    assert result.status == "failed" and hint in result.message


def test_connection_checker_rejects_non_bool_norm_first():
    with pytest.raises(TypeError, match="norm_first"):
        check_sublayer_connection(_post, norm_first="pre")
