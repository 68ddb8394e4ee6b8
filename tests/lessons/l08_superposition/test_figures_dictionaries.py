"""Lesson 8's figures of lesson 5's fact model: the bars count the units serving each number of
facts, the markers the shuffles' mean count, the lines the dictionaries' measures they are given;
read back from the drawn artists, on hand-made inputs and on the stored runs."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.container import BarContainer, ErrorbarContainer

from course_lib.core.experiments.memory import stored_attributions, stored_model
from course_lib.lessons.l08_superposition.experiments.dictionary_runs import (
    KINDS,
    RULES,
    SIZES,
    stored_dictionary,
)
from course_lib.lessons.l08_superposition.experiments.polysemantic import (
    firing_units,
    knowledge_mask,
    shuffled_masks,
)
from course_lib.lessons.l08_superposition.figures.dictionaries import (
    dictionary_figure,
    sharing_figure,
)

BINS = ["1", "2", "3", "4", "5–9", "10–19", "≥20"]


def counted(facts_per_unit) -> list[int]:
    """Units per bin of BINS, counted one condition at a time."""
    v = np.asarray(facts_per_unit)
    ranges = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 9), (10, 19), (20, np.inf)]
    return [int(((v >= lo) & (v <= hi)).sum()) for lo, hi in ranges]


def drawn_sharing(fig) -> dict:
    """The sharing figure as drawn: its bars' heights, the shuffle markers' heights, each range's
    (low, high), the tick labels, the legend's texts and the title."""
    (ax,) = fig.axes
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    (spread,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    (markers,) = [line for line in ax.get_lines() if line.get_label() == legend[1]]
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


def test_the_sharing_figure_refuses_shuffles_of_other_pairs_and_counts_that_are_not_counts():
    with pytest.raises(ValueError, match=r"share out the model's 113 \(fact, unit\) pairs"):
        sharing_figure(MODEL, [*SHUFFLES, np.array([1, 2])])
    with pytest.raises(ValueError, match="model_facts_per_unit must be a non-empty 1-D array"):
        sharing_figure(MODEL.astype(float), SHUFFLES)
    with pytest.raises(ValueError, match="each shuffle must be a non-empty 1-D array"):
        sharing_figure(MODEL, [np.array([0, 113])])
    with pytest.raises(ValueError, match="at least one shuffle"):
        sharing_figure(MODEL, [])


def drawn_lines(ax) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each named line of a panel: legend name -> (x, y)."""
    return {
        line.get_label(): (np.asarray(line.get_xdata()), np.asarray(line.get_ydata()))
        for line in ax.get_lines()
        if not line.get_label().startswith("_")
    }


def marks(ax, linestyle: str) -> list[float]:
    """The heights of a panel's horizontal marks drawn in ``linestyle``."""
    return sorted(float(line.get_ydata()[0]) for line in ax.get_lines()
                  if line.get_label().startswith("_") and line.get_linestyle() == linestyle)  # fmt: skip


NAMES = {("sae", "l1"): "SAE, L1", ("sae", "topk"): "SAE, TopK",
         ("transcoder", "l1"): "transcoder, L1", ("transcoder", "topk"): "transcoder, TopK"}  # fmt: skip
HAND = {
    ("transcoder", "topk"): {"alive": [7, 20, 60], "dead": [1, 12, 68], "fvu": [0.2, 0.1, 0.05]},
    ("sae", "l1"): {"alive": [6, 10, 11], "dead": [2, 22, 117], "fvu": [0.3, 0.3, 0.25]},
}


def test_the_dictionary_figure_draws_each_dictionarys_measures_against_its_size():
    sizes = (8, 32, 128)
    fig = dictionary_figure(sizes, HAND, units=8, reference=(50.0, "contexts"),
                            paper_marks=[(0.25, "paper A"), (0.75, "paper B")])  # fmt: skip
    alive_ax, dead_ax, fvu_ax = fig.axes
    for ax, measure in ((alive_ax, "alive"), (dead_ax, "dead"), (fvu_ax, "fvu")):
        lines = drawn_lines(ax)
        assert sorted(lines) == sorted(NAMES[key] for key in HAND)
        for key, values in HAND.items():
            x, y = lines[NAMES[key]]
            expected = np.divide(values[measure], sizes) if measure == "dead" else values[measure]
            assert np.allclose(x, sizes) and np.allclose(y, expected)
        assert [t.get_text() for t in ax.get_xticklabels()] == ["1×", "4×", "16×"]
        assert ax.get_xscale() == "log"
    assert np.allclose(drawn_lines(dead_ax)["SAE, L1"][1], [0.25, 22 / 32, 117 / 128])
    assert marks(alive_ax, "--") == [50.0]
    assert "contexts: 50" in [t.get_text() for t in alive_ax.texts]
    assert marks(dead_ax, ":") == [0.25, 0.75]
    assert {t.get_text() for t in dead_ax.texts} == {"paper A", "paper B"}
    assert alive_ax.get_ylim()[1] > 60 and fvu_ax.get_yscale() == "log"
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["SAE, L1", "transcoder, TopK"]
    assert "× the FFN's 8 units" in alive_ax.get_xlabel()


def test_the_dictionary_figure_leaves_out_what_it_is_not_given():
    fig = dictionary_figure((8, 32, 128), HAND, units=8, fvu=False)
    alive_ax, dead_ax = fig.axes
    assert marks(alive_ax, "--") == [] and marks(dead_ax, ":") == []
    assert len(alive_ax.texts) == 0 and len(dead_ax.texts) == 0


def test_the_dictionary_figure_draws_the_stored_dictionaries():
    measures = {(k, r): {m: [stored_dictionary(k, r, s).measures[m] for s in SIZES]
                         for m in ("dead", "alive", "fvu", "l0", "recovered")}
                for k in KINDS for r in RULES}  # fmt: skip
    fig = dictionary_figure(SIZES, measures, reference=(661, "distinct contexts"))
    alive_ax, dead_ax, fvu_ax = fig.axes
    for (kind, rule), values in measures.items():
        name = NAMES[kind, rule]
        assert np.allclose(drawn_lines(alive_ax)[name][1], values["alive"])
        assert np.allclose(drawn_lines(dead_ax)[name][1], np.divide(values["dead"], SIZES))
        assert np.allclose(drawn_lines(fvu_ax)[name][1], values["fvu"])
        assert np.allclose(np.add(values["alive"], values["dead"]), SIZES)  # every feature counted
    assert marks(alive_ax, "--") == [661]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == list(NAMES.values())


def test_the_dictionary_figure_refuses_unknown_dictionaries_and_missing_values():
    with pytest.raises(ValueError, match=r"measures must be keyed by some of .*\('sae', 'l2'\)"):
        dictionary_figure((8, 32), {("sae", "l2"): HAND["sae", "l1"]})
    short = {("sae", "l1"): {"alive": [6, 10], "dead": [2, 22], "fvu": [0.3, 0.3]}}
    with pytest.raises(ValueError, match=r"one value per size \(3\), got 'alive'"):
        dictionary_figure((8, 32, 128), short)


def test_the_read_back_helpers_tell_other_data_apart():
    drawn = drawn_sharing(sharing_figure(MODEL, SHUFFLES))
    assert drawn["bars"] != counted(MODEL[1:])
    assert not np.allclose(drawn["markers"], np.mean([counted(s) for s in SHUFFLES[:2]], axis=0))
    swapped = {key: {**v, "alive": v["alive"][::-1]} for key, v in HAND.items()}
    fig = dictionary_figure((8, 32, 128), swapped, units=8)
    _, y = drawn_lines(fig.axes[0])["SAE, L1"]
    assert not np.allclose(y, HAND["sae", "l1"]["alive"])
    assert marks(fig.axes[0], "--") != [50.0]
