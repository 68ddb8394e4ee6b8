"""The lesson 4 checkers pass the reference and name each typical mistake."""

from __future__ import annotations

import pytest
import torch

from course_lib.core.model.sublayer import layer_norm
from course_lib.lessons.l04_sublayer_connection.checks import (
    check_layer_norm,
    check_pre_norm_encoder_layer,
    check_std_prediction,
    check_sublayer_connection,
    connection_output_std,
)


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
        (
            lambda x, g, b, e: (
                g
                * (x - x.mean(0, keepdim=True))
                / torch.sqrt(x.var(0, keepdim=True, unbiased=False) + e)
                + b
            ),
            "across the batch",
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


def test_connection_output_std_post_norm_is_one_and_pre_norm_keeps_the_input_scale():
    assert abs(connection_output_std(False) - 1.0) < 1e-3
    assert 2.5 < connection_output_std(True) < 3.5


def test_std_prediction_checker_passes_the_right_prediction():
    assert check_std_prediction(lambda: (1.0, 3.0)).status == "passed"


def test_std_prediction_checker_reports_a_stub_as_not_attempted():
    def stub():
        raise NotImplementedError

    assert check_std_prediction(stub).status == "not attempted"


@pytest.mark.parametrize(
    "prediction, hint",
    [
        ((3.0, 3.0), "ends with LayerNorm"),
        ((0.5, 3.0), "last step is LayerNorm"),
        ((1.0, 1.0), "adds the raw x"),
        ((1.0, 9.0), "variance"),
        ((1.0, 6.0), "adds comparatively little"),
        ((1.0,), "two numbers"),
        (None, "returned None"),
    ],
)
def test_std_prediction_checker_names_each_slip(prediction, hint):
    result = check_std_prediction(lambda: prediction)
    assert result.status == "failed" and hint in result.message


def _layer_pre_norm(x, attn, ffn, n1, n2):
    h = x + attn(n1(x))
    return h + ffn(n2(h))


def test_pre_norm_layer_checker_passes_the_reference():
    assert check_pre_norm_encoder_layer(_layer_pre_norm).status == "passed"


def test_pre_norm_layer_checker_reports_a_stub_as_not_attempted():
    def stub(x, attn, ffn, n1, n2):
        raise NotImplementedError

    assert check_pre_norm_encoder_layer(stub).status == "not attempted"


def _layer_post(x, attn, ffn, n1, n2):
    h = n1(x + attn(x))
    return n2(h + ffn(h))


def _layer_no_final_residual(x, attn, ffn, n1, n2):
    return ffn(n2(x + attn(n1(x))))


def _layer_no_first_residual(x, attn, ffn, n1, n2):
    h = attn(n1(x))
    return h + ffn(n2(h))


def _layer_normalised_after(x, attn, ffn, n1, n2):
    h = n1(x + attn(n1(x)))
    return n2(h + ffn(n2(h)))


def _layer_swapped(x, attn, ffn, n1, n2):
    h = x + attn(n2(x))
    return h + ffn(n1(h))


def _layer_one_norm(x, attn, ffn, n1, n2):
    h = x + attn(n1(x))
    return h + ffn(n1(h))


def _layer_final_norm(x, attn, ffn, n1, n2):
    return n2(_layer_pre_norm(x, attn, ffn, n1, n2))


def _layer_adds_normed(x, attn, ffn, n1, n2):
    h = n1(x) + attn(n1(x))
    return n2(h) + ffn(n2(h))


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (_layer_post, "post-norm placement"),
        (_layer_no_final_residual, "final residual is missing"),
        (_layer_no_first_residual, "first residual is missing"),
        (_layer_normalised_after, "normalised after the residual"),
        (_layer_adds_normed, "adds the normalised x"),
        (_layer_swapped, "swapped"),
        (_layer_one_norm, "one norm is used twice"),
        (_layer_final_norm, "normalised again at the end"),
        (lambda x, attn, ffn, n1, n2: None, "returned None"),
        (lambda x, attn, ffn, n1, n2: x[:, :1], "shape"),
        (lambda x, attn, ffn, n1, n2: 2 * x, "values differ"),
    ],
)
def test_pre_norm_layer_checker_names_each_mistake(wrong, hint):
    result = check_pre_norm_encoder_layer(wrong)
    assert result.status == "failed" and hint in result.message
