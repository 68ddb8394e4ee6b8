"""Lesson 6's intervals: the bootstrap keeps a fact's edits together, the differences pick the
nearest rival, ρ's interval, Holm's correction and power are the textbook ones, and the reading
points interpolate along each edit's grid."""

import numpy as np
import pytest

from course_lib.core.experiments import edit_measures
from course_lib.lessons.l06_locating_and_editing import intervals

FACTS = np.repeat(np.arange(12), 3)  # 12 facts, 3 edits each


def rows(efficacy, paraphrase, neighbourhood):
    out = np.zeros((len(efficacy), len(edit_measures.METRICS)))
    for name, column in (("efficacy", efficacy), ("paraphrase", paraphrase),
                         ("neighbourhood", neighbourhood)):  # fmt: skip
        out[:, edit_measures.METRICS.index(name)] = column
    return out


def test_the_bootstrap_draws_whole_facts():
    facts = np.array([0, 1, 1, 1, 2, 2])  # facts with 1, 3 and 2 edits

    def whole(edits):  # 1 when every drawn fact came with all of its edits
        counts = np.bincount(edits, minlength=6)
        return float(counts[1] == counts[2] == counts[3] and counts[4] == counts[5])

    assert intervals.fact_bootstrap(facts, whole, draws=200) == (1.0, 1.0, 1.0)


def test_the_bootstrap_interval_holds_a_clear_difference_and_not_a_null():
    rng = np.random.default_rng(1)
    values = rng.normal(size=len(FACTS))
    _, low, high = intervals.fact_bootstrap(FACTS, lambda e: values[e].mean(), draws=500)
    assert low < 0 < high  # noise around zero: the interval crosses it
    _, low, _ = intervals.fact_bootstrap(FACTS, lambda e: values[e].mean() + 5, draws=500)
    assert low > 0


@pytest.mark.parametrize("bad", [{"facts": np.array([])}, {"draws": 10}])
def test_the_bootstrap_names_a_bad_argument(bad):
    args = {"facts": FACTS, "statistic": lambda e: 0.0, "draws": 200} | bad
    with pytest.raises(ValueError, match=next(iter(bad))):
        intervals.fact_bootstrap(**args)


def test_a_difference_is_against_the_nearest_rival():
    n = len(FACTS)
    methods = {"ours": rows(np.ones(n), np.full(n, 0.2), np.full(n, 0.9)),
               "near": rows(np.ones(n), np.full(n, 0.6), np.full(n, 0.5)),
               "far": rows(np.ones(n), np.full(n, 0.9), np.full(n, 0.1))}  # fmt: skip
    ns = intervals.score_difference(methods, FACTS, "ours", ["near", "far"], "NS", draws=100)
    ps = intervals.score_difference(
        methods, FACTS, "ours", ["near", "far"], "PS", above=False, draws=100
    )
    assert ns == pytest.approx((40.0, 40.0, 40.0))  # 90 against the higher of 50 and 10
    assert ps == pytest.approx((-40.0, -40.0, -40.0))  # 20 against the lower of 60 and 90
    kept = intervals.score_difference(methods, FACTS, "ours", "far", "neighbourhood", draws=100)
    assert kept[0] == pytest.approx(0.8)
    with pytest.raises(ValueError, match="name"):
        intervals.score_difference(methods, FACTS, "ours", "far", "recall")


def test_rank_test_matches_fishers_z_and_holms_correction():
    out = intervals.rank_test(0.3, 48)
    z, se = np.arctanh(0.3), 1 / np.sqrt(45)
    assert out["low"] == pytest.approx(np.tanh(z - 1.959964 * se), abs=1e-6)
    assert out["high"] == pytest.approx(np.tanh(z + 1.959964 * se), abs=1e-6)
    assert out["holm"] == pytest.approx(out["p"])  # one test: nothing to correct
    weaker = intervals.rank_test(0.1, 48, [0.3])  # the larger p of two: (2 - 1) × its own p
    stronger = intervals.rank_test(0.3, 48, [0.1])  # the smaller: 2 × its own p
    assert stronger["holm"] == pytest.approx(2 * out["p"])
    assert weaker["holm"] == pytest.approx(max(2 * out["p"], weaker["p"]))
    with pytest.raises(ValueError, match="rho"):
        intervals.rank_test(1.0, 48)
    with pytest.raises(ValueError, match="n"):
        intervals.rank_test(0.1, 3)


def test_power_is_the_false_alarm_rate_at_zero_and_grows_with_n():
    assert intervals.power(0.0, 48) == pytest.approx(0.05, abs=1e-6)
    assert intervals.power(-0.13, 48) == pytest.approx(0.1417, abs=1e-3)  # the lesson's 14 %
    assert intervals.power(-0.13, 652) > 0.9 > intervals.power(-0.13, 48)


def test_readings_interpolate_along_each_grid():
    grid = np.zeros((2, 3, len(edit_measures.METRICS)))
    p, ps = edit_measures.METRICS.index("p(new)"), edit_measures.METRICS.index("paraphrase")
    grid[:, :, p] = [[0.0, 0.6, 1.0], [0.0, 0.2, 0.5]]  # the second edit never reaches 0.8
    grid[:, :, ps] = [[0.0, 0.0, 1.0], [0.0, 1.0, 1.0]]
    read, widest = intervals.readings({"m": grid}, (0.8,))
    assert read[0.8]["m"][0, ps] == pytest.approx(0.5)  # halfway from 0.6 to 1.0
    assert np.isnan(read[0.8]["m"][1, ps])
    assert widest[0.8] == pytest.approx(0.4)


def test_scores_at_keeps_the_edits_every_method_reaches_and_adds_the_full_update():
    m = len(edit_measures.METRICS)
    p, es = edit_measures.METRICS.index("p(new)"), edit_measures.METRICS.index("efficacy")
    one, two = np.zeros((2, 3, m)), np.zeros((2, 3, m))
    one[:, :, p] = [[0.0, 0.5, 1.0], [0.0, 0.5, 1.0]]
    two[:, :, p] = [[0.0, 0.5, 1.0], [0.0, 0.1, 0.2]]  # its second edit never reaches 0.9
    one[:, 2, es] = two[:, 2, es] = 1.0
    scores, n, widest = intervals.scores_at({"one": one, "two": two}, (0.9,), {"one": 2})
    assert n == 1 and widest == pytest.approx(0.5)
    assert scores["one"][0]["ES"] == pytest.approx(80.0)  # 0.9 is 80 % of the way to 1.0
    assert len(scores["one"]) == 2 and len(scores["two"]) == 1
    assert scores["one"][1]["ES"] == 100.0  # the full update, on the same edit
