"""Holm's correction, the course's one definition (lessons 5 to 10 read it)."""

import numpy as np
import pytest

from course_lib.core.experiments.statistics import holm, holm_rejects


def test_holm_multiplies_the_kth_smallest_by_m_minus_k_and_keeps_the_given_order():
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_holm_never_lets_a_larger_p_fall_below_a_smaller_one_and_caps_at_one():
    assert holm([0.3, 0.6]) == pytest.approx([0.6, 0.6])  # 0.6 x 1 would fall below 0.3 x 2
    assert holm([0.6, 0.7]) == pytest.approx([1.0, 1.0])
    assert holm([0.9, 0.8]).max() == 1.0


def test_one_test_is_not_corrected():
    assert holm([0.037]) == pytest.approx([0.037])


def test_holm_rejects_what_bonferroni_rejects_and_sometimes_more():
    p = np.array([0.001, 0.012, 0.02, 0.5])
    assert (holm(p) <= np.minimum(1, p * len(p))).all()
    assert holm_rejects(p).sum() > (p * len(p) <= 0.05).sum()


def test_the_step_down_stops_at_the_first_p_it_cannot_reject():
    assert holm_rejects([0.01, 0.04, 0.03, 0.005]).tolist() == [True, False, False, True]
    assert holm_rejects([0.01, 0.02, 0.5]).tolist() == [True, True, False]
    assert not holm_rejects([0.03, 0.04]).any()  # 0.03 > 0.05 / 2: nothing after it either
    assert holm_rejects([0.001] * 10).all()
    # 0.0247 passes its bar 0.05 / 2 = 0.025, so 0.031 (bar 0.05) passes too; 0.026 does not,
    # and stops 0.031 with it
    assert holm_rejects([0.010, 0.0247, 0.031, 0.001]).all()
    assert holm_rejects([0.010, 0.026, 0.031, 0.001]).tolist() == [True, False, False, True]


def test_the_level_changes_what_is_rejected():
    assert holm_rejects([0.02, 0.03], alpha=0.1).all()
    assert not holm_rejects([0.02, 0.03], alpha=0.01).any()


@pytest.mark.parametrize("bad", [[0.2, 1.5], [-0.1], [[0.1, 0.2]], [float("nan")]])
def test_holm_rejects_what_is_not_a_list_of_p_values(bad):
    with pytest.raises(ValueError, match="p_values"):
        holm(bad)


@pytest.mark.parametrize("alpha", [0, 1, 1.5])
def test_holm_rejects_names_a_level_outside_0_to_1(alpha):
    with pytest.raises(ValueError, match="alpha"):
        holm_rejects([0.01], alpha=alpha)
