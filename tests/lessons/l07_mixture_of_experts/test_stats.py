"""experiments.stats: the Student-t interval and test, Fisher's exact test, and Monte-Carlo
estimates printed only to the digits their draws support."""

from __future__ import annotations

import math

import numpy as np
import pytest

from course_lib.core.i18n import set_language
from course_lib.lessons.l07_mixture_of_experts.experiments import stats


def test_the_t_quantiles_are_the_tables():
    assert abs(stats.t_quantile(0.975, 3) - 3.182446) < 1e-5
    assert abs(stats.t_quantile(0.975, 1) - 12.706205) < 1e-4
    assert abs(stats.t_quantile(0.95, 10) - 1.812461) < 1e-5
    with pytest.raises(ValueError, match="q must be between 0.5 and 1, got 0.3"):
        stats.t_quantile(0.3, 3)


def test_the_interval_is_the_mean_plus_or_minus_t_times_the_standard_error():
    values = [0.133, 0.1095, 0.0925, 0.0315]
    mean, low, high = stats.mean_interval(values)
    half = 3.182446 * np.std(values, ddof=1) / 2
    assert abs(mean - np.mean(values)) < 1e-12 and abs(high - mean - half) < 1e-5
    assert abs(mean - low - half) < 1e-5
    with pytest.raises(ValueError, match="at least 2 numbers"):
        stats.mean_interval([0.1])


def test_the_t_test_agrees_with_the_interval_and_with_a_known_value():
    values = [0.133, 0.1095, 0.0925, 0.0315]  # its 95 % interval excludes 0: p below 0.05
    assert stats.t_test_p(values) < 0.05 < stats.t_test_p([0.13, 0.1715, -0.013, 0.141])
    # t = 1 with 1 degree of freedom: the Cauchy distribution, two-sided p = 1/2
    assert abs(stats.t_test_p([0.0, 2.0]) - 0.5) < 1e-9


def test_interval_text_prints_the_mean_and_its_interval_in_the_learners_language():
    assert (
        stats.interval_text([0.035, -0.08, 0.004, 0.047]) == "0.00 (95 % interval -0.09 to +0.09)"
    )
    set_language("zh")
    try:
        assert (
            stats.interval_text([0.035, -0.08, 0.004, 0.047]) == "0.00，95% 置信区间 -0.09 到 +0.09"
        )
    finally:
        set_language("en")


def test_an_interval_matched_to_several_tests_is_wider_and_names_its_level():
    values = [0.035, -0.08, 0.004, 0.047]
    wide = stats.interval_text(values, 1 - 0.05 / 3)
    assert wide.startswith("0.00 (98.3 % interval -0.")
    _, low, high = stats.mean_interval(values, 1 - 0.05 / 3)
    _, low95, high95 = stats.mean_interval(values)
    assert low < low95 and high > high95
    with pytest.raises(ValueError, match="level"):
        stats.interval_text(values, 95)


def test_fisher_is_the_hypergeometric_tail_no_likelier_than_the_table_seen():
    assert abs(stats.fisher_p(3, 3, 0, 3) - 0.1) < 1e-12  # 2 of the 20 deals: the best 3 of 3 gives
    assert stats.fisher_p(3, 3, 2, 3) == 1.0
    assert abs(stats.fisher_p(4, 4, 0, 4) - 2 / 70) < 1e-12  # the lady tasting tea, two-sided
    assert abs(stats.fisher_p(1, 3, 3, 3) - stats.fisher_p(3, 3, 1, 3)) < 1e-12  # symmetric


@pytest.mark.parametrize(
    ("value", "error", "shown"),
    [
        (0.0185, 0.00095, "0.02"),  # three standard errors from 0.015 and 0.025
        (0.0927, 0.0048, "0.1"),  # 0.09 is too near 0.095; one decimal is safe
        (0.9499, 0.0015, "0.95"),
        (0.4489, 0.0035, "> 0.2"),  # 0.45 and 0.4 both sit near a boundary: a bound
        (0.0003, 0.00012, "< 0.001"),  # within three errors of 0: an upper bound
        (0.00005, 0.00005, "< 0.0002"),
        (3.265, 0.055, "3"),
        (0.0537, 0.0161, "< 0.2"),
        (0.5, 0.0, "0.5"),  # exact
    ],
)
def test_an_estimate_keeps_only_the_digits_its_error_supports(value, error, shown):
    assert stats.estimate_text(value, error) == shown


def test_no_printed_estimate_sits_within_three_errors_of_its_rounding_boundary():
    g = np.random.default_rng(0)
    for value, error in zip(g.uniform(0.001, 1, 500), g.uniform(1e-4, 0.02, 500), strict=True):
        shown = stats.estimate_text(value, error)
        if shown[0] in "<>":
            bound = float(shown[2:])
            assert (value + 3 * error <= bound) if shown[0] == "<" else (value - 3 * error >= bound)
        else:
            step = 10.0 ** -len(shown.split(".")[1]) if "." in shown else 1.0
            assert abs(value - float(shown)) + 3 * error < step / 2


def test_a_permutation_p_value_of_one_is_printed_as_one():
    assert stats.p_text(1.0, 20_000) == "1"
    assert stats.p_text(1 / 20_001, 20_000) == "< 0.0002"
    assert math.isclose(float(stats.p_text(0.95, 20_000)), 0.95)
