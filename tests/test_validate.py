"""course_lib._validate: each argument check names the argument, the value and what is accepted."""

from __future__ import annotations

import re

import pytest

from course_lib._validate import choice, last_dim, positive_int, probability


@pytest.mark.parametrize("value", [1, 7, 10**9])
def test_positive_int_returns_a_positive_int(value):
    assert positive_int("d_ff", value) == value


@pytest.mark.parametrize(
    "value, error, pattern",
    [
        (0, ValueError, r"^d_ff must be a positive int, got 0$"),
        (-3, ValueError, r"^d_ff must be a positive int, got -3$"),
        (2.0, TypeError, r"^d_ff must be a positive int, got 2.0 \(float\)$"),
        (True, TypeError, r"^d_ff must be a positive int, got True \(bool\)$"),
        ("8", TypeError, r"^d_ff must be a positive int, got '8' \(str\)$"),
    ],
)
def test_positive_int_rejects_everything_else(value, error, pattern):
    with pytest.raises(error, match=pattern):
        positive_int("d_ff", value)


@pytest.mark.parametrize("value", [0, 0.0, 0.5, 0.999])
def test_probability_returns_a_float_in_0_1(value):
    result = probability("dropout", value)
    assert result == value and isinstance(result, float)


@pytest.mark.parametrize(
    "value, error",
    [
        (1, ValueError),
        (1.0, ValueError),
        (-0.01, ValueError),
        (False, TypeError),
        ("0.1", TypeError),
    ],
)
def test_probability_rejects_everything_else(value, error):
    with pytest.raises(error, match=rf"^dropout must be a float in \[0, 1\), got {value!r}"):
        probability("dropout", value)


def test_choice_returns_an_accepted_value():
    assert choice("activation", "gelu", {"relu": 1, "gelu": 2}) == "gelu"


def test_choice_rejects_an_unknown_value_listing_the_accepted_ones_sorted():
    with pytest.raises(
        ValueError, match=r"^activation must be one of \['gelu', 'relu'\], got 'rleu'$"
    ):
        choice("activation", "rleu", ["relu", "gelu"])


def test_choice_rejects_a_value_that_is_not_a_string():
    with pytest.raises(TypeError, match=r"^activation must be one of \['relu'\], got 3 \(int\)$"):
        choice("activation", 3, ["relu"])


def test_last_dim_accepts_the_expected_last_dimension():
    assert last_dim("x", (2, 4, 512), 512) is None


@pytest.mark.parametrize("shape", [(2, 4, 511), (512, 2), ()])
def test_last_dim_rejects_any_other_shape_showing_it(shape):
    with pytest.raises(
        ValueError,
        match=rf"^x must have last dimension 512 \(d_model\), got shape {re.escape(str(shape))}$",
    ):
        last_dim("x", shape, 512)
