"""Lesson 5's scoreboard: each row's verdict follows the measurement it is given (a flipped
direction flips it), a level and a direction are separate rows, a level not measured alike is
marked not comparable (never "yes"), the papers' numbers are the ones the lessons quote, and the
table names what was tested only where the lesson measured it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from course_lib.lessons.l05_ffn_memory.experiments.scoreboard import (
    knowledge_neuron_counts,
    markdown,
    scoreboard,
)
from course_lib.lessons.l05_ffn_memory.papers import DAI_2022, GEVA_2021_AGREEMENT, LI_2023


def doubling(as_run=(-2.0, -3.0), held=(-1.0, -1.5), both=(0.5, 0.4), only=(-2.8, -0.4),
             layers=((0, 0, 0, 0, 1), (0, 0, 0, 0, 0))) -> SimpleNamespace:  # fmt: skip
    """``doubling.doubling_paths``' shape, two facts."""
    arrays = {name: np.array(v, dtype=float) for name, v in
              (("as run", as_run), ("scale held", held), ("both held", both))}  # fmt: skip
    arrays["later layers blind"] = np.array([-1.0, -1.0])
    only_by_layer = {0: np.array([only[0]] * 2), 1: np.array([only[1], np.nan])}
    return SimpleNamespace(layers=np.array(layers), only=only_by_layer, paths=arrays)


def measured(**changes) -> dict:
    """Measurements shaped like the lesson's, as this toy gives them, with ``changes``."""
    values = {
        "agreement": SimpleNamespace(rate=np.array([0.32, 0.28]), chance=np.array([0.02, 0.02])),
        "semantic": {0: 36, 1: 17},
        "erased": SimpleNamespace(own=np.array([-0.7, -0.55]), unrelated=np.array([-0.2, -0.1])),
        "doubled": SimpleNamespace(own=np.array([-0.1, -0.03]), own_log_odds=np.array([-1, -2])),
        "neurons": np.array([20, 30]),
        "trained": np.array([0.45, 0.47]),
        "untrained": np.array([0.49, 0.51]),
        "sweep": SimpleNamespace(
            trained=np.array([[[0.51, 0.50], [0.45, 0.46]], [[0.50, 0.49], [0.44, 0.45]]]),
            settings=SimpleNamespace(widths=(32, 512)),
        ),
        "p_answer": np.array([0.99, 0.985]),
        "paths": doubling(),
    }
    return values | changes


def rows_by_claim(**changes) -> dict:
    return {row.claim: row for row in scoreboard(**measured(**changes))}


def test_every_claim_holds_for_the_toys_measurements_and_says_which_agree():
    rows = scoreboard(**measured())
    assert len(rows) == 10 and all(row.holds for row in rows)
    same = [row.same for row in rows]
    assert same == [False, False, True, None, None, False, None, False, True, True]
    assert [row.measure.endswith(("(level)", "(direction)")) for row in rows[7:10]] == [True] * 3
    assert [row.measure.endswith(("(level)", "(direction)")) for row in rows[2:5]] == [True] * 3


def test_no_level_dai_et_al_measure_otherwise_is_called_the_same_whatever_the_toy_gives():
    """Their knowledge neurons are refined over paraphrases and their answers not saturated: the
    erasing and doubling levels stay "not comparable" even where the numbers happen to agree."""
    erased = SimpleNamespace(own=np.array([-0.29, -0.29]), unrelated=np.array([-0.01, -0.01]))
    doubled = SimpleNamespace(own=np.array([0.31, 0.31]), own_log_odds=np.array([1.0, 1.0]))
    rows = scoreboard(**measured(erased=erased, doubled=doubled))
    assert rows[3].same is None and rows[4].same is None and rows[6].same is None


@pytest.mark.parametrize(
    ("changes", "claim"),
    [
        (
            {
                "agreement": SimpleNamespace(
                    rate=np.array([0.01, 0.035]), chance=np.array([0.02] * 2)
                )
            },
            "Geva et al.: far above chance here, but not rising with depth",
        ),
        (
            {"semantic": {0: 10, 1: 40}},
            "Geva et al.: the upper layer holds no more semantic keys here",
        ),
        (
            {"p_answer": np.array([0.99, 0.6])},
            "Dai et al.: erasing levels not comparable; every answer here starts above p 0.95",
        ),
        (
            {"paths": doubling(both=(-0.5, 0.4))},
            "Dai et al.: doubling not comparable; here its fall goes through the final "
            "LayerNorm and layer 1",
        ),
        (
            {"paths": doubling(held=(-3.0, -3.5))},
            "Dai et al.: doubling not comparable; here its fall goes through the final "
            "LayerNorm and layer 1",
        ),
        (
            {"paths": doubling(layers=((1, 1, 1, 0, 0), (1, 1, 0, 0, 0)))},
            "Dai et al.: a fact's top units sit in the bottom layer here, the paper's in the "
            "top layers",
        ),
        (
            {"neurons": np.array([4, 4])},
            "Dai et al.: not comparable; before any refining a fact has more such units here",
        ),
        (
            {"trained": np.array([0.55, 0.47])},
            "Li et al.: training makes the FFN sparser here too",
        ),
        (
            {"trained": np.array([0.08, 0.1]), "untrained": np.array([0.5, 0.5])},  # paper's level
            "Li et al.: the toy's FFN stays near half active, many times the paper's level",
        ),
        (
            {
                "erased": SimpleNamespace(
                    own=np.array([-0.7, -0.6]), unrelated=np.array([-0.8, -0.9])
                )
            },
            "Dai et al.: erasing lowers p(answer), as in the paper",
        ),
        (
            {
                "sweep": SimpleNamespace(
                    trained=np.array([[[0.51, 0.50], [0.45, 0.46]], [[0.50, 0.44], [0.44, 0.45]]]),
                    settings=SimpleNamespace(widths=(32, 512)),
                )
            },
            "Li et al.: a wider FFN is sparser here too, in every seed",
        ),
    ],
)
def test_a_measurement_that_goes_the_other_way_fails_its_claim(changes, claim):
    rows = rows_by_claim(**changes)
    assert not rows[claim].holds
    assert [r.claim for r in rows.values() if not r.holds] == [claim]


def test_the_papers_numbers_are_the_ones_the_lessons_quote():
    assert GEVA_2021_AGREEMENT == (0.0, 0.035)
    assert DAI_2022 == {"suppress": -0.29, "amplify": 0.31, "neurons": 4.0}
    assert LI_2023 == {"T5-Base": 0.030, "ViT-B/16": 0.063}
    rows = scoreboard(**measured())
    assert rows[0].paper == "0 % / 3.5 %" and rows[3].paper == "-29 %"
    assert rows[2].toy == "falls for 2 of 2 facts"
    assert rows[3].toy.startswith("-62.5 %: ") and rows[4].toy.startswith("-6.5 %: ")
    assert rows[4].paper == "+31 %"
    assert rows[5].toy.startswith("90 % in layer 0") and "-2.8" in rows[5].tested
    assert "-0.4" in rows[5].tested  # the mean over the facts that have layer-1 units
    assert rows[6].paper.startswith("≈4, ") and rows[6].toy.startswith("25, ")
    assert rows[7].paper == "3.0 % (T5-Base), 6.3 % (ViT-B/16)" and rows[7].toy == "45 % / 47 %"
    assert rows[8].toy == "49 % -> 45 % / 51 % -> 47 %"  # each layer at initialisation -> trained
    assert rows[9].toy == "50 % -> 45 % (d_ff 32 -> 512)"  # the means over seeds and layers


def test_the_table_fills_every_cell_and_names_a_test_only_where_one_was_made():
    rows = scoreboard(**measured())
    lines = markdown(rows).splitlines()
    assert len(lines) == 2 + len(rows)
    for line, row in zip(lines[2:], rows, strict=True):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 6 and all(cells[:5]), line
        assert cells[4] == {True: "yes", False: "no", None: "not comparable"}[row.same]
        assert cells[3] == row.toy
        assert cells[5] == (row.tested or "—")
    assert [bool(row.tested) for row in rows] == [True, False, True, False, True, True, False,
                                                 False, True, True]  # fmt: skip


def test_knowledge_neuron_counts_use_dai_et_als_threshold_per_fact():
    scores = np.zeros((2, 2, 4))
    scores[0, 0] = [1.0, 0.25, 0.2, -3.0]  # above 0.2 x 1.0: 1.0 and 0.25 (0.2 is not above)
    scores[1, 1] = [0.0, 10.0, 3.0, 1.0]  # above 2.0: 10 and 3
    assert knowledge_neuron_counts(scores).tolist() == [2, 2]
    assert knowledge_neuron_counts(scores, threshold=0.05).tolist() == [3, 3]  # 0.2 and 1.0 join
