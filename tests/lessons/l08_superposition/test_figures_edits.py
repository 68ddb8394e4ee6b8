"""Lesson 8's picture of its edits: each method's marker at its mean and its bar over its
interval, one row per choice rule (the first on top), each band at its mean over its interval;
read back from the drawn artists."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer

from course_lib.lessons.l08_superposition.figures.edits import edit_figure

ROWS = [
    ("top", [("unit", (20.0, 18.0, 23.0)), ("L1 1×", (15.0, 12.0, 17.5))]),
    ("narrowest", [("unit", (5.0, 4.0, 6.0)), ("L1 1×", (2.0, 1.5, 2.5))]),
]
BANDS = {
    "rank-one, C over the corpus": (0.2, 0.1, 0.4),
    "rank-one, C from filler": (10.8, 9.3, 12.3),
}


def test_each_method_sits_at_its_mean_with_its_interval_in_its_rule_row():
    fig = edit_figure(ROWS, BANDS, "other facts changed")
    (ax,) = fig.axes
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    drawn = [(float(c.lines[0].get_xdata()[0]), float(c.lines[0].get_ydata()[0])) for c in bars]
    spans = [c.lines[2][0].get_segments()[0] for c in bars]
    expected = [m for _, methods in ROWS for _, m in methods]
    assert [x for x, _ in drawn] == [m for m, _, _ in expected]
    assert np.allclose([[s[0][0], s[1][0]] for s in spans], [[lo, hi] for _, lo, hi in expected])
    rows = [round(y) for _, y in drawn]
    assert rows == [1, 1, 0, 0]  # the first rule on top
    assert [t.get_text() for t in ax.get_yticklabels()] == ["narrowest", "top"]
    assert ax.get_xlabel() == "other facts changed"


def test_each_band_stands_at_its_mean_over_its_interval_and_is_named_in_the_legend():
    fig = edit_figure(ROWS, BANDS, "x")
    (ax,) = fig.axes
    lines = [line for line in ax.get_lines() if line.get_label() in BANDS]
    assert sorted(float(line.get_xdata()[0]) for line in lines) == [0.2, 10.8]
    spans = sorted((round(p.get_x(), 6), round(p.get_x() + p.get_width(), 6)) for p in ax.patches)
    assert spans == [(0.1, 0.4), (9.3, 12.3)]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert set(BANDS) <= set(legend) and {"unit", "L1 1×"} <= set(legend)


def test_the_edit_figure_refuses_a_row_without_methods():
    with pytest.raises(ValueError, match="rows must each hold at least one method"):
        edit_figure([("top", [])], BANDS, "x")
