"""Lesson 8's statistics: bootstrap intervals that cover the mean and narrow with more facts, and
a one-sided p-value that rejects a clear shift (Holm's correction is the core's)."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.lessons.l08_superposition.experiments import statistics


def test_the_interval_holds_the_mean_and_narrows_with_more_facts():
    rng = np.random.default_rng(0)
    few, many = rng.normal(5, 2, 20), rng.normal(5, 2, 400)
    for values in (few, many):
        low, high = statistics.interval(values)
        assert low < values.mean() < high
    assert np.ptp(statistics.interval(many)) < np.ptp(statistics.interval(few)) / 2


def test_p_below_is_small_for_a_clear_drop_and_near_1_for_a_rise():
    rng = np.random.default_rng(1)
    assert statistics.p_below(rng.normal(-1, 1, 48)) < 0.01
    assert statistics.p_below(rng.normal(1, 1, 48)) > 0.99


def test_plus_minus_rounds_the_error_to_one_digit_and_the_value_to_its_place():
    assert statistics.plus_minus(0.0461, 0.0107) == "0.05 ± 0.01"
    assert statistics.plus_minus(0.0461, 0.0096) == "0.05 ± 0.01"  # 0.0096 rounds up to 0.01
    assert statistics.plus_minus(0.0042, 0.00092) == "0.0042 ± 0.0009"
    assert statistics.plus_minus(0.2381, 0.019) == "0.24 ± 0.02"
    assert statistics.plus_minus(1.0, 0.0) == "1.00"  # a p of exactly 1 has no error


def test_the_permutation_error_is_the_binomial_one_and_shrinks_with_the_draws():
    assert statistics.permutation_se(0.04, 5000) == pytest.approx(np.sqrt(0.04 * 0.96 / 5000))
    assert statistics.permutation_se(0.04, 20000) == pytest.approx(
        statistics.permutation_se(0.04, 5000) / 2
    )
    assert statistics.p_text(0.0042, 5000) == "0.0042 ± 0.0009"


def test_an_exact_p_is_printed_to_two_significant_digits_with_no_error():
    assert [statistics.exact_p_text(p) for p in (0.0489, 0.0709, 0.0044, 0.99999, 0.00001)] == [
        "0.049",
        "0.071",
        "0.0044",
        "1.0",
        "< 0.001",
    ]
