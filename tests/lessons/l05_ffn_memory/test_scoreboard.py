"""Lesson 5's scoreboard: each row's verdict follows the measurement it is given (a flipped
direction flips it), a level and a direction are separate rows, a level not measured alike is
marked not comparable (never "yes"), a direction whose interval holds both signs "could not tell",
a comparison the paper does not report "not reported", width's direction is read per layer over
the seeds,
the papers' numbers are the ones the lessons quote, and the table names what was tested only where
the lesson measured it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import ValueAgreement
from course_lib.lessons.l05_ffn_memory.experiments.scoreboard import (
    COULD_NOT_TELL,
    NOT_REPORTED,
    knowledge_neuron_counts,
    markdown,
    scoreboard,
)
from course_lib.lessons.l05_ffn_memory.papers import (
    DAI_2022,
    GEVA_2021_AGREEMENT,
    GEVA_2021_VOCABULARY,
    LI_2023,
)


def doubling(as_run=(-2.0, -3.0), held=(-1.0, -1.5), both=(0.5, 0.4), only=(-2.8, -0.4),
             layers=((0, 0, 0, 0, 1), (0, 0, 0, 0, 0))) -> SimpleNamespace:  # fmt: skip
    """``doubling.doubling_paths``' shape, two facts."""
    arrays = {name: np.array(v, dtype=float) for name, v in
              (("as run", as_run), ("scale held", held), ("both held", both))}  # fmt: skip
    arrays["later layers blind"] = np.array([-1.0, -1.0])
    only_by_layer = {0: np.array([only[0]] * 2), 1: np.array([only[1], np.nan])}
    return SimpleNamespace(layers=np.array(layers), only=only_by_layer, paths=arrays)


def agreement(rate=(0.32, 0.28), null=(0.067, 0.046)) -> ValueAgreement:
    return ValueAgreement(np.array(rate), np.array([0.02, 0.02]), 256, np.array(null))


def sweep(trained=None, initial=0.52) -> SimpleNamespace:
    """The sparsity sweep's shape: 2 seeds, widths 32 and 512, 2 layers. As the toy gives it:
    layer 0 lower at the wider width in both seeds (-6 and -7 points), layer 1 in one only."""
    default = [[[0.51, 0.50], [0.45, 0.46]], [[0.50, 0.49], [0.43, 0.50]]]
    return SimpleNamespace(trained=np.array(trained or default), initial=np.full((2, 2, 2), initial),
                           settings=SimpleNamespace(widths=(32, 512)))  # fmt: skip


def measured(**changes) -> dict:
    """Measurements shaped like the lesson's, as this toy gives them, with ``changes``."""
    values = {
        "agreement": agreement(),
        "vocabulary": 83,
        "semantic": np.array([36, 17]),
        "untrained_semantic": np.array([[23, 20], [21, 24], [31, 18]]),
        "erased": SimpleNamespace(own=np.array([-0.7, -0.55]), unrelated=np.array([-0.2, -0.3])),
        "doubled": SimpleNamespace(own=np.array([-0.1, -0.03]), own_log_odds=np.array([-1, -2])),
        "neurons": (np.array([8, 10]), np.array([20, 30])),
        "trained": np.array([0.46, 0.47]),
        "untrained": np.array([0.48, 0.51]),
        "sweep": sweep(),
        "p_answer": np.array([0.99, 0.985]),
        "paths": doubling(),
    }
    return values | changes


def rows_by_claim(**changes) -> dict:
    return {row.claim: row for row in scoreboard(**measured(**changes))}


CLAIMS = [row.claim for row in scoreboard(**measured())]


def test_every_claim_holds_for_the_toys_measurements_and_says_which_agree():
    rows = scoreboard(**measured())
    assert len(rows) == 13 and all(row.holds for row in rows)
    same = [row.same for row in rows]
    assert same == [None, COULD_NOT_TELL, None, NOT_REPORTED, None, False, None, None, None, False,
                    True, True, COULD_NOT_TELL]  # fmt: skip
    for row in (*rows[:2], *rows[3:7], *rows[9:]):
        assert row.measure.endswith(("(level)", "(direction)")), row.measure


def test_no_level_dai_et_al_measure_otherwise_is_called_the_same_whatever_the_toy_gives():
    """Their knowledge neurons are refined over paraphrases and their answers not saturated: the
    erasing and doubling levels, where the units sit and how many stay "not comparable" even
    where the numbers happen to agree (doubling's direction, measured alike, then agrees)."""
    erased = SimpleNamespace(own=np.array([-0.29, -0.29]), unrelated=np.array([-0.25, -0.25]))
    doubled = SimpleNamespace(own=np.array([0.31, 0.31]), own_log_odds=np.array([1.0, 1.0]))
    neurons = (np.array([4, 4]), np.array([4, 4]))
    rows = scoreboard(**measured(erased=erased, doubled=doubled, neurons=neurons))
    assert [rows[i].same for i in (4, 6, 7, 8)] == [None] * 4 and rows[5].same is True


def test_the_agreement_rise_is_told_only_when_its_interval_excludes_zero():
    flat = rows_by_claim()
    assert flat[CLAIMS[1]].same == COULD_NOT_TELL and flat[CLAIMS[1]].holds
    rising = rows_by_claim(agreement=agreement(rate=(0.1, 0.4)))
    assert rising[CLAIMS[1]].same is True and not rising[CLAIMS[1]].holds
    falling = rows_by_claim(agreement=agreement(rate=(0.4, 0.1)))
    assert falling[CLAIMS[1]].same is False and not falling[CLAIMS[1]].holds


@pytest.mark.parametrize(
    ("changes", "index"),
    [
        ({"agreement": agreement(null=(0.2, 0.2))}, 0),  # no longer far above a shuffle
        ({"vocabulary": 100_000}, 0),  # vocabularies alike: the level row's reason is gone
        ({"untrained_semantic": np.array([[23, 20], [31, 18]])}, 2),  # random weights agree
        (
            {
                "erased": SimpleNamespace(
                    own=np.array([-0.7, 0.1]), unrelated=np.array([-0.2, -0.3])
                )
            },
            3,
        ),  # fmt: skip
        (
            {
                "erased": SimpleNamespace(
                    own=np.array([-0.7, -0.55]), unrelated=np.array([-0.8, -0.9])
                )
            },
            3,
        ),  # fmt: skip
        ({"p_answer": np.array([0.99, 0.6])}, (4, 6)),  # both levels lose their reason
        (
            {
                "doubled": SimpleNamespace(
                    own=np.array([0.01, -0.03]), own_log_odds=np.array([-1, -2])
                )
            },
            5,
        ),  # fmt: skip
        (
            {
                "doubled": SimpleNamespace(
                    own=np.array([-0.1, -0.03]), own_log_odds=np.array([1, -2])
                )
            },
            5,
        ),  # fmt: skip
        ({"paths": doubling(both=(-0.5, 0.4))}, 5),
        ({"paths": doubling(held=(-3.0, -3.5))}, 5),
        ({"paths": doubling(layers=((1, 1, 1, 0, 0), (1, 1, 0, 0, 0)))}, 7),
        ({"neurons": (np.array([8, 10]), np.array([9, 11]))}, 8),
        ({"trained": np.array([0.08, 0.1]), "untrained": np.array([0.5, 0.5])}, 9),
        ({"trained": np.array([0.55, 0.47])}, 10),
        ({"sweep": sweep(initial=0.505)}, 10),  # a sweep seed at the shipped width not sparser
        # layer 0 no longer lower in every seed: its interval holds both signs
        ({"sweep": sweep([[[0.51, 0.50], [0.45, 0.46]], [[0.50, 0.49], [0.52, 0.50]]])}, 11),
        # layer 1 lower by the same in both seeds: its interval excludes 0, no longer undecided
        ({"sweep": sweep([[[0.51, 0.50], [0.45, 0.46]], [[0.50, 0.49], [0.43, 0.45]]])}, 12),
    ],
)
def test_a_measurement_that_goes_the_other_way_fails_its_claim(changes, index):
    rows = rows_by_claim(**changes)
    indices = index if isinstance(index, tuple) else (index,)
    assert [r.claim for r in rows.values() if not r.holds] == [CLAIMS[i] for i in indices]


def test_the_papers_numbers_are_the_ones_the_lessons_quote():
    assert GEVA_2021_AGREEMENT == (0.0, 0.035) and GEVA_2021_VOCABULARY == 267_000
    assert DAI_2022 == {"suppress": -0.29, "amplify": 0.31, "neurons": 4.0}
    assert LI_2023 == {"T5-Base": 0.030, "ViT-B/16": 0.063}
    rows = scoreboard(**measured())
    assert (
        rows[0].paper == "0 % / 3.5 % (about 267,000 words)"
        and rows[0].toy == "32 % / 28 % (83 words)"
    )
    assert rows[0].tested.startswith("4.8 and 6.1 times")
    assert rows[1].toy == "-4.0 points, 95 % interval -11.9 to +3.9"
    assert rows[2].toy.startswith("36 / 17") and "1 of 3" in rows[2].tested
    assert rows[3].toy == "more for 2 of 2 facts (unrelated facts: -25.0 %)"
    assert rows[3].paper == "not reported (their code computes it: rm_oth)"
    assert rows[4].paper == "-29 %" and rows[4].toy.startswith("-62.5 %: ")
    dai = scoreboard(**measured(), erase_level=-0.6)[4]  # Dai et al.'s metric, when given
    assert dai.toy.startswith("-60.0 %: ")
    assert rows[5].paper == "rises" and rows[5].toy == "falls for 2 of 2 facts, log-odds for 2"
    assert rows[6].paper == "+31 %" and rows[6].toy.startswith("-6.5 %: ")
    assert rows[7].toy.startswith("90 % in layer 0") and "-2.8" in rows[7].tested
    assert "-0.4" in rows[7].tested and "the 1 facts" in rows[7].tested  # both layers' facts
    assert rows[8].paper.startswith("≈4, a target") and rows[8].toy.startswith(
        "9 (paper's equation) or 25"
    )
    assert rows[9].paper == "3.0 % (T5-Base), 6.3 % (ViT-B/16)" and rows[9].toy == "46 % / 47 %"
    assert rows[10].toy == "48 % -> 46 % / 51 % -> 47 %"  # each layer at initialisation -> trained
    assert rows[10].tested.startswith("in both layers, and in 4 of 4 sweep")
    half = 12.706 * np.std([-0.06, -0.07], ddof=1) / np.sqrt(2)  # Student's t, 1 degree of freedom
    assert rows[11].toy == (
        f"-6.5 points, 95 % interval {-6.5 - 100 * half:+.1f} to {-6.5 + 100 * half:+.1f}; "
        "lower in 2 of 2 seeds, d_ff 32 -> 512 (width alone)"
    )
    assert rows[12].toy.startswith("-1.5 points, 95 % interval -33.3 to +30.3; lower in 1 of 2")


def test_the_table_fills_every_cell_and_names_a_test_only_where_one_was_made():
    rows = scoreboard(**measured())
    lines = markdown(rows).splitlines()
    assert len(lines) == 2 + len(rows)
    verdicts = {True: "yes", False: "no", None: "not comparable", COULD_NOT_TELL: "could not tell",
                NOT_REPORTED: "not reported"}  # fmt: skip
    for line, row in zip(lines[2:], rows, strict=True):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 6 and all(cells[:5]), line
        assert cells[4] == verdicts[row.same]
        assert cells[3] == row.toy
        assert cells[5] == (row.tested or "—")
    assert [bool(row.tested) for row in rows] == [True, False, True, True, False, True, False,
                                                 True, False, False, True, True, False]  # fmt: skip


def test_knowledge_neuron_counts_use_dai_et_als_threshold_per_fact():
    scores = np.zeros((2, 2, 4))
    scores[0, 0] = [1.0, 0.25, 0.2, -3.0]  # above 0.2 x 1.0: 1.0 and 0.25 (0.2 is not above)
    scores[1, 1] = [0.0, 10.0, 3.0, 1.0]  # above 2.0: 10 and 3
    assert knowledge_neuron_counts(scores).tolist() == [2, 2]
    assert knowledge_neuron_counts(scores, threshold=0.05).tolist() == [3, 3]  # 0.2 and 1.0 join
