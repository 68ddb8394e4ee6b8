"""Lesson 8's figures of lesson 5's fact model: the bars count the units serving each number of
facts, the markers the shuffles' mean count, the lines each SAE's FVU on its training and its
held-out contexts; read back from the drawn artists, on hand-made inputs and on the stored runs."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.container import BarContainer, ErrorbarContainer

from course_lib.core.experiments.memory import stored_attributions, stored_model
from course_lib.lessons.l08_superposition.experiments.dictionary_runs import RULES, SIZES
from course_lib.lessons.l08_superposition.experiments.dictionary_split import stored_split
from course_lib.lessons.l08_superposition.experiments.polysemantic import (
    firing_units,
    knowledge_mask,
    shuffled_masks,
)
from course_lib.lessons.l08_superposition.figures.dictionaries import (
    regime_figure,
    sharing_figure,
)

BINS = ["1", "2", "3", "4", "5–9", "10–19", "≥20"]


def counted(facts_per_unit) -> list[int]:
    """Units per bin of BINS, counted one condition at a time."""
    v = np.asarray(facts_per_unit)
    ranges = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 9), (10, 19), (20, np.inf)]
    return [int(((v >= lo) & (v <= hi)).sum()) for lo, hi in ranges]


def drawn_sharing(fig, which: int = 1) -> dict:
    """The sharing figure as drawn: its bars' heights, the ``which``-th shuffles' markers'
    heights, each range's (low, high), the tick labels, the legend's texts and the title."""
    (ax,) = fig.axes
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    spread = [c for c in ax.containers if isinstance(c, ErrorbarContainer)][which - 1]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    (markers,) = [line for line in ax.get_lines() if line.get_label() == legend[which]]
    segments = spread.lines[2][0].get_segments()
    return {
        "bars": [b.get_height() for b in bars.patches],
        "bar_x": [b.get_x() + b.get_width() / 2 for b in bars.patches],
        "markers": np.asarray(markers.get_ydata(), dtype=float),
        "marker_x": np.asarray(markers.get_xdata(), dtype=float),
        "ranges": np.array([[s[0][1], s[1][1]] for s in segments]),
        "ticks": [t.get_text() for t in ax.get_xticklabels()],
        "legend": legend,
        "title": ax.get_title(),
    }


MODEL = np.array([1, 1, 1, 2, 5, 9, 10, 19, 20, 45])  # 113 (fact, unit) pairs in 10 units
SHUFFLES = [
    np.array([1] * 100 + [2] * 5 + [3]),  # 106 units
    np.array([1] * 84 + [2] * 8 + [4] * 2 + [5]),  # 95 units
    np.array([1] * 85 + [2] * 6 + [3] * 4 + [4]),  # 96 units
]


def test_the_sharing_figure_counts_the_models_units_and_the_shuffles_mean_per_bin():
    assert all(s.sum() == MODEL.sum() for s in SHUFFLES)
    drawn = drawn_sharing(sharing_figure(MODEL, SHUFFLES))
    assert drawn["ticks"] == BINS
    assert drawn["bars"] == [3, 1, 0, 0, 2, 2, 2] == counted(MODEL)
    per_shuffle = np.array([counted(s) for s in SHUFFLES])
    assert np.allclose(drawn["markers"], per_shuffle.mean(0))
    assert np.allclose(drawn["markers"], [269 / 3, 19 / 3, 5 / 3, 1, 1 / 3, 0, 0])
    assert np.allclose(drawn["ranges"], np.percentile(per_shuffle, [2.5, 97.5], axis=0).T)
    assert np.allclose(drawn["bar_x"], drawn["marker_x"])  # each marker over its own bin
    assert drawn["legend"] == [
        "trained model: 10 units",
        "shuffled, each fact's number kept: 99 units (mean of 3, 2.5–97.5 %)",
    ]
    assert drawn["title"].startswith("113 (fact, knowledge neuron) pairs")


def test_the_sharing_figure_draws_the_stored_model_against_its_shuffles():
    model, corpus = stored_model()
    mask = knowledge_mask(stored_attributions().numpy())
    used = mask.sum(0)[mask.any(0)]
    masks = shuffled_masks(mask, firing_units(model, corpus), 20)
    shuffled = [s.sum(0)[s.any(0)] for s in masks]
    drawn = drawn_sharing(sharing_figure(used, shuffled))
    assert drawn["bars"] == counted(used)
    assert sum(drawn["bars"]) == mask.any(0).sum()
    assert np.allclose(drawn["markers"], np.mean([counted(s) for s in shuffled], axis=0))
    assert drawn["legend"][0] == f"trained model: {mask.any(0).sum()} units"
    mean_units = np.mean([s.any(0).sum() for s in masks])
    assert f": {mean_units:.0f} units (mean of 20," in drawn["legend"][1]
    assert drawn["title"].startswith(f"{mask.sum()} (fact, knowledge neuron) pairs")


def test_the_sharing_figure_draws_the_matched_shuffles_beside_the_uniform_ones():
    matched = [np.array([1] * 13 + [20, 80]), np.array([1] * 11 + [2, 20, 80])]  # 113 pairs
    fig = sharing_figure(MODEL, SHUFFLES, matched)
    uniform, beside = drawn_sharing(fig, 1), drawn_sharing(fig, 2)
    assert np.allclose(beside["markers"], np.mean([counted(s) for s in matched], axis=0))
    assert np.allclose(uniform["markers"], np.mean([counted(s) for s in SHUFFLES], axis=0))
    assert beside["legend"][2] == "shuffled by layer and write size: 14 units"
    assert (beside["marker_x"] > beside["bar_x"]).all()  # the two sets stand apart
    assert (uniform["marker_x"] < uniform["bar_x"]).all()
    with pytest.raises(ValueError, match=r"share out the model's 113"):
        sharing_figure(MODEL, SHUFFLES, [np.array([1, 2])])


def test_the_sharing_figure_refuses_shuffles_of_other_pairs_and_counts_that_are_not_counts():
    with pytest.raises(ValueError, match=r"share out the model's 113 \(fact, unit\) pairs"):
        sharing_figure(MODEL, [*SHUFFLES, np.array([1, 2])])
    with pytest.raises(ValueError, match="model_facts_per_unit must be a non-empty 1-D array"):
        sharing_figure(MODEL.astype(float), SHUFFLES)
    with pytest.raises(ValueError, match="each shuffle must be a non-empty 1-D array"):
        sharing_figure(MODEL, [np.array([0, 113])])
    with pytest.raises(ValueError, match="at least one shuffle"):
        sharing_figure(MODEL, [])
    with pytest.raises(ValueError, match="at least one shuffle"):
        sharing_figure(MODEL, SHUFFLES, [])


def drawn_lines(ax) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each named line of a panel: legend name -> (x, y)."""
    return {
        line.get_label(): (np.asarray(line.get_xdata()), np.asarray(line.get_ydata()))
        for line in ax.get_lines()
        if not line.get_label().startswith("_")
    }


SIZES3 = (256, 1024, 2048)
FVU = {
    ("corpus", "l1"): {"train": [0.02, 0.01, 0.01], "held out": [0.09, 0.1, 0.12]},
    ("corpus", "topk"): {"train": [0.01, 0.004, 0.002], "held out": [0.07, 0.08, 0.09]},
    ("grammar", "l1"): {"train": [0.015, 0.012, 0.011], "held out": [0.033, 0.035, 0.04]},
    ("grammar", "topk"): {"train": [0.011, 0.005, 0.003], "held out": [0.031, 0.034, 0.036]},
}
CONTEXTS = {"corpus": 517, "grammar": 1205}
LOOKUP = {"corpus": 0.081, "grammar": 0.037}


def test_the_regime_figure_draws_each_sets_fvu_on_its_own_and_held_out_contexts():
    fig = regime_figure(SIZES3, FVU, CONTEXTS, LOOKUP)
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == [
        "(a) trained on the corpus' contexts (517)",
        "(b) trained on the grammar's contexts (1,205)",
    ]
    for ax, on in zip(axes, CONTEXTS, strict=True):
        lines = drawn_lines(ax)
        for rule, name in (("l1", "L1"), ("topk", "TopK")):
            x, held = lines[f"{name}: held-out contexts"]
            _, train = lines[f"{name}: its training contexts"]
            assert list(x) == list(SIZES3)
            assert np.allclose(held, FVU[on, rule]["held out"])
            assert np.allclose(train, FVU[on, rule]["train"])
        (mark,) = [line for line in ax.get_lines()
                   if line.get_label() == "copy of the nearest training context"]  # fmt: skip
        assert float(mark.get_ydata()[0]) == LOOKUP[on] and mark.get_linestyle() == ":"
        assert [t.get_text() for t in ax.get_xticklabels()] == ["1×", "4×", "8×"]
        assert ax.get_yscale() == "log"
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == [
        "L1: held-out contexts", "L1: its training contexts", "TopK: held-out contexts",
        "TopK: its training contexts", "copy of the nearest training context"]  # fmt: skip


def test_the_regime_figure_refuses_a_missing_training_set_or_rule():
    with pytest.raises(ValueError, match="fvu must hold every"):
        regime_figure(SIZES3, {k: v for k, v in FVU.items() if k[1] == "l1"}, CONTEXTS, LOOKUP)
    with pytest.raises(ValueError, match="fvu must hold every"):
        regime_figure(SIZES3, FVU, CONTEXTS, {"corpus": 0.1})


def test_the_regime_figure_draws_the_stored_split():
    split = stored_split()
    fvu = {(on, rule): {part: [split[on, "sae", rule, s][f"fvu {part}"] for s in SIZES]
                        for part in ("train", "held out")}
           for on in ("corpus", "grammar") for rule in RULES}  # fmt: skip
    fig = regime_figure(SIZES, fvu, CONTEXTS, LOOKUP)
    held = drawn_lines(fig.axes[1])["L1: held-out contexts"][1]
    assert np.allclose(held, [split["grammar", "sae", "l1", s]["fvu held out"] for s in SIZES])
