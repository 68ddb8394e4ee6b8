"""course_lib.core._validate: each argument check names the argument, the value and what is accepted."""

from __future__ import annotations

import re

import numpy as np
import pytest

from course_lib.core._validate import (
    choice,
    flag,
    int_at_least,
    integer,
    last_dim,
    positive_int,
    positive_number,
    probability,
)


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


@pytest.mark.parametrize(
    ("check", "value", "error", "message"),
    [
        (lambda v: integer("seed", v), True, TypeError, r"seed must be an int, got True \(bool\)"),
        (lambda v: integer("seed", v), 1.0, TypeError, r"seed must be an int, got 1.0"),
        (lambda v: int_at_least("steps", v, 0), -1, ValueError, r"steps must be an int >= 0"),
        (lambda v: int_at_least("steps", v, 2), "3", TypeError, r"steps must be an int >= 2"),
        (lambda v: int_at_least("steps", v, 0), False, TypeError, r"got False \(bool\)"),
        (lambda v: flag("bias", v), 1, TypeError, r"bias must be a bool, got 1 \(int\)"),
        (lambda v: flag("bias", v), "yes", TypeError, r"bias must be a bool"),
        (lambda v: positive_number("eps", v), 0, ValueError, r"eps must be a finite number > 0"),
        (lambda v: positive_number("eps", v), float("inf"), ValueError, r"finite number > 0"),
        (lambda v: positive_number("eps", v), float("nan"), ValueError, r"finite number > 0"),
        (lambda v: positive_number("eps", v), True, TypeError, r"eps must be a number > 0"),
    ],
)
def test_the_shared_checks_reject_what_they_must_naming_the_argument(check, value, error, message):
    with pytest.raises(error, match=message):
        check(value)


def test_the_shared_checks_return_what_they_accept_as_plain_python():
    assert integer("seed", np.int64(3)) == 3 and type(integer("seed", np.int64(3))) is int
    assert int_at_least("n", 0, 0) == 0 and int_at_least("n", np.int32(5), 2) == 5
    assert flag("bias", np.bool_(True)) is True and flag("bias", False) is False
    assert positive_number("eps", 1) == 1.0 and positive_number("eps", np.float32(0.5)) == 0.5
