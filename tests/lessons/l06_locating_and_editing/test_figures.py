"""Lesson 6 figures show the data they are given: hand-made tracing grids, each row named by the
state it restores, and hand-made strength sweeps, each curve named by its method."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_hex

from course_lib.core.plots import PALETTE
from course_lib.lessons.l06_locating_and_editing.figures import (
    SweepCurve,
    row_labels,
    sweep_figure,
    trace_figure,
)


def test_the_trace_figure_shows_each_sites_effects_with_their_values_and_the_prompts_words():
    effects = {
        "stream": np.array([[1.0, 0.0], [0.0, 0.9], [0.05, 1.0]]),  # input, after 0, after 1
        "ffn": np.array([[0.1, 0.2], [0.0, 0.7]]),
    }
    fig = trace_figure(effects, ["velor", "is"], mean_of=48)
    for ax, effect in zip(fig.axes, effects.values(), strict=True):
        assert np.array_equal(ax.get_images()[0].get_array(), effect)
        shown = [float(t.get_text()) for t in ax.texts]
        assert shown == [round(v, 2) for v in effect.ravel()]  # row by row
        assert [t.get_text() for t in ax.get_xticklabels()] == ["velor", "is"]
    rows = [[t.get_text() for t in ax.get_yticklabels()] for ax in fig.axes]
    assert rows == [["input", "after layer 0", "after layer 1"], ["layer 0", "layer 1"]]
    assert [ax.get_title() for ax in fig.axes] == [
        "restoring the residual stream",
        "restoring the FFN's output",
    ]
    assert fig._suptitle.get_text() == "the mean over the 48 facts"
    one = trace_figure(effects, ["<bos>", "velor", "is"])
    assert one._suptitle.get_text() == 'one fact: "velor is"'


def test_row_labels_name_the_stream_input_only_when_it_has_the_extra_row():
    assert row_labels(3, 2) == ["input", "after layer 0", "after layer 1"]
    assert row_labels(2, 2) == ["layer 0", "layer 1"]


def test_the_sweep_figure_draws_each_methods_ns_and_ps_against_its_p_new():
    curves = [
        SweepCurve("rank-one, layer 1, last word", np.array([0.0, 0.5, 0.96]),
                   np.array([100.0, 99.0, 80.0]), np.array([0.0, 10.0, 60.0])),
        SweepCurve("knowledge neurons", np.array([0.0, 0.5, 0.81, 0.6]),
                   np.array([100.0, 20.0, 0.0, 0.0]), np.array([0.0, 50.0, 100.0, 100.0])),
    ]  # fmt: skip
    shown = [3, 3]  # each drawn up to its largest mean p(new)
    fig = sweep_figure(curves, 0.9)
    ns_ax, ps_ax = fig.axes
    for ax, field in ((ns_ax, "neighbourhood"), (ps_ax, "paraphrase")):
        lines = [line for line in ax.lines if line.get_label() in {c.method for c in curves}]
        assert [line.get_label() for line in lines] == [c.method for c in curves]
        for line, curve, colour, n in zip(lines, curves, PALETTE, shown, strict=False):
            np.testing.assert_array_equal(line.get_xdata(), curve.p_new[:n])
            np.testing.assert_array_equal(line.get_ydata(), getattr(curve, field)[:n])
            assert to_hex(line.get_color()) == to_hex(colour)
        (target,) = [line for line in ax.lines if line.get_linestyle() == "--"]
        assert list(target.get_xdata()) == [0.9, 0.9]
        assert ax.get_xlabel() == "mean p(new) after the edited prompt"
    assert ns_ax.get_ylabel() == "neighbourhood score NS (%)"
    assert ps_ax.get_ylabel() == "paraphrase score PS (%)"
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == [c.method for c in curves]
    assert fig._suptitle.get_text() == "each edit along its knob; dashed: p(new) = 0.9"
