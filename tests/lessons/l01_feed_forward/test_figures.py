"""Lesson 1's figures show the data they are given."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from matplotlib.colors import to_rgba

from course_lib.core.model.ffn import ACTIVATIONS
from course_lib.core.plots import COLORS
from course_lib.lessons.l01_feed_forward.figures import (
    ENCODER_BLOCKS,
    HiddenActivityData,
    HiddenActivityView,
    activation_curves_figure,
    encoder_layer_figure,
    hidden_activity_figure,
)


def data(hidden, activation="relu", parameters=123, flops=456) -> HiddenActivityData:
    hidden = np.asarray(hidden, dtype=float)
    return HiddenActivityData(hidden, hidden.shape[1], activation, parameters, flops)


def test_encoder_figure_labels_every_block_and_highlights_the_ffn():
    ax = encoder_layer_figure().axes[0]
    texts = [t.get_text() for t in ax.texts]
    for label, _ in ENCODER_BLOCKS:
        assert label in texts
    boxes = [p for p in ax.patches if hasattr(p, "get_boxstyle")]
    assert len(boxes) == len(ENCODER_BLOCKS)
    widest = max(boxes, key=lambda p: p.get_linewidth())
    ffn_index = next(i for i, (label, _) in enumerate(ENCODER_BLOCKS) if "Feed-forward" in label)
    assert widest is boxes[ffn_index], "the FFN box has the thickest outline"
    assert widest.get_linewidth() > min(p.get_linewidth() for p in boxes)
    assert [p.get_facecolor() for p in boxes] == [to_rgba(fill) for _, fill in ENCODER_BLOCKS]


def test_encoder_figure_residual_paths_go_around_each_sublayer_to_its_add_and_norm():
    ax = encoder_layer_figure().axes[0]
    boxes = [p.get_bbox() for p in ax.patches if hasattr(p, "get_boxstyle")]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(dashed) == 2
    for line, sublayer in zip(dashed, ("Multi-head", "Feed-forward"), strict=True):
        i = next(i for i, (label, _) in enumerate(ENCODER_BLOCKS) if label.startswith(sublayer))
        start, end = line.get_ydata()[0], line.get_ydata()[-1]
        assert boxes[i - 1].y1 < start < boxes[i].y0, "branches off just below the sublayer"
        assert ENCODER_BLOCKS[i + 1][0] == "Add & Norm"
        assert boxes[i + 1].y0 < end < boxes[i + 1].y1, "rejoins at the Add & Norm after it"
        assert line.get_xdata().max() > max(box.x1 for box in boxes), "passes beside the boxes"


@pytest.mark.parametrize("names", [("relu", "gelu", "silu"), ("tanh", "identity", "gelu_tanh")])
def test_activation_curves_figure_plots_each_activation_exactly(names):
    fig = activation_curves_figure(names)
    assert len(fig.axes) == len(names)
    for ax, name in zip(fig.axes, names, strict=True):
        z, y = ax.lines[0].get_data()
        assert z.min() == -4 and z.max() == 4
        expected = ACTIVATIONS[name](torch.tensor(z, dtype=torch.float64)).numpy()
        np.testing.assert_allclose(y, expected, atol=1e-12)
        assert to_rgba(ax.lines[0].get_color()) == to_rgba(COLORS[name])


@pytest.mark.parametrize("names", [(), ("relu", "rleu")])
def test_activation_curves_figure_rejects_names_it_cannot_draw(names):
    with pytest.raises(ValueError, match=r"names must .*activation"):
        activation_curves_figure(names)


def test_hidden_activity_data_counts_active_units_and_exact_zeros():
    shown = data([[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.5], [3.0, 1.0, 2.0, -1.0]])
    np.testing.assert_allclose(shown.fraction_active, [0.5, 0.25, 0.75])
    assert shown.exact_zeros == pytest.approx(5 / 12)


def test_hidden_activity_figure_shows_fraction_active_per_token_and_every_value():
    hidden = np.array([[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.5], [3.0, 1.0, 2.0, 1.0]])
    fig = hidden_activity_figure(data(hidden))
    left, right = fig.axes
    assert [bar.get_height() for bar in right.patches] == pytest.approx([0.5, 0.25, 1.0])
    (stairs,) = left.patches  # one artist holds the histogram of all 12 values
    counts, edges = stairs.get_data().values, stairs.get_data().edges
    assert counts.sum() == 12
    assert counts[0] == 5 and edges[0] == 0  # the five zeros, alone in the first bin
    assert edges[-1] == 3


def test_hidden_activity_view_redraws_in_place():
    view = HiddenActivityView(tokens=2)
    first = view.update(data([[1.0, 0.0], [0.0, 0.0]]))
    second = view.update(data([[1.0, 1.0], [1.0, 0.0]], activation="gelu"))
    assert first is second
    assert len(second.axes) == 2, "a move adds no axes"
    assert [bar.get_height() for bar in view.bars] == pytest.approx([1.0, 0.5])
    assert view.stairs.get_data().values.sum() == 4
    gelu = to_rgba(COLORS["gelu"])
    assert to_rgba(view.stairs.get_facecolor()) == gelu
    assert all(to_rgba(bar.get_facecolor()) == gelu for bar in view.bars)


def test_hidden_activity_view_rejects_wrong_token_count():
    with pytest.raises(ValueError, match=r"hidden must have shape \(8, d_ff\), got \(3, 5\)"):
        HiddenActivityView().update(data(np.zeros((3, 5))))


def test_hidden_activity_view_takes_a_hidden_activity_data():
    with pytest.raises(TypeError, match=r"data must be a HiddenActivityData, got ndarray"):
        HiddenActivityView().update(np.zeros((8, 5)))


@pytest.mark.parametrize(
    "kwargs, error, pattern",
    [
        ({"d_ff": 5}, ValueError, r"hidden must have shape \(tokens, d_ff\) = \(tokens, 5\)"),
        ({"hidden": np.zeros(4)}, ValueError, r"hidden must have shape .*got \(4,\)"),
        ({"parameters": -1}, ValueError, r"parameters must be an int >= 0, got -1"),
        ({"flops": 1.5}, TypeError, r"flops must be an int >= 0, got 1.5"),
        ({"d_ff": 0}, ValueError, r"d_ff must be a positive int, got 0"),
        ({"activation": None}, TypeError, r"activation must be a str, got None"),
    ],
)
def test_hidden_activity_data_rejects_bad_fields(kwargs, error, pattern):
    fields = {"hidden": np.zeros((8, 4)), "d_ff": 4, "activation": "relu"}
    fields.update(parameters=10, flops=20)
    with pytest.raises(error, match=pattern):
        HiddenActivityData(**{**fields, **kwargs})
