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


def test_the_sweep_figure_draws_each_methods_curve_with_its_default_ringed():
    curves = [
        SweepCurve("rank-one, layer 1, last word", np.array([0.96, 0.99, 1.0]),
                   np.array([99.0, 80.0, 32.0]), np.array([0.99, 0.9, 0.8]), default=1),
        SweepCurve("knowledge neurons", np.array([0.1, 0.5, 0.81]), np.array([90.0, 20.0, 0.0]),
                   np.array([0.95, 0.5, 0.16]), default=2),
    ]  # fmt: skip
    fig = sweep_figure(curves)
    ns_ax, kept_ax = fig.axes
    for ax, field in ((ns_ax, "neighbourhood"), (kept_ax, "others_kept")):
        lines = [line for line in ax.lines if line.get_linestyle() != "None"]
        rings = [line for line in ax.lines if line.get_linestyle() == "None"]
        assert [line.get_label() for line in lines] == [c.method for c in curves]
        for line, ring, curve, colour in zip(lines, rings, curves, PALETTE, strict=False):
            np.testing.assert_array_equal(line.get_xdata(), curve.p_new)
            np.testing.assert_array_equal(line.get_ydata(), getattr(curve, field))
            assert list(ring.get_xdata()) == [curve.p_new[curve.default]]
            assert list(ring.get_ydata()) == [getattr(curve, field)[curve.default]]
            assert to_hex(line.get_color()) == to_hex(ring.get_color()) == to_hex(colour)
        assert ax.get_xlabel() == "mean p(new) after the edited prompt"
    assert ns_ax.get_ylabel() == "neighbourhood score NS (%)"
    assert kept_ax.get_ylabel() == "other entities' facts kept"
    legend = [t.get_text() for t in kept_ax.get_legend().get_texts()]
    assert legend == [c.method for c in curves]
