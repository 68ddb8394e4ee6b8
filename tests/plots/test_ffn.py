"""Lesson 1's figures show the data they are given."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.model.ffn import ACTIVATIONS
from course_lib.plots.ffn import (
    ENCODER_BLOCKS,
    HiddenActivityView,
    activation_curves,
    encoder_layer_diagram,
    hidden_activity_figure,
)


def test_encoder_diagram_labels_every_block_and_highlights_the_ffn():
    fig = encoder_layer_diagram()
    texts = [t.get_text() for t in fig.axes[0].texts]
    for label, _ in ENCODER_BLOCKS:
        assert label in texts
    widths = {p.get_linewidth() for p in fig.axes[0].patches if hasattr(p, "get_boxstyle")}
    assert max(widths) > min(widths), "the FFN box should stand out"


@pytest.mark.parametrize("names", [("relu", "gelu", "silu"), ("tanh", "identity")])
def test_activation_curves_plot_each_activation_exactly(names):
    fig = activation_curves(names)
    assert [ax.get_title() for ax in fig.axes] == list(names)
    for ax, name in zip(fig.axes, names, strict=True):
        z, y = ax.lines[0].get_data()
        expected = ACTIVATIONS[name](torch.tensor(z, dtype=torch.float32)).numpy()
        np.testing.assert_allclose(y, expected, atol=1e-6)


def test_hidden_activity_figure_shows_fraction_active_per_token():
    hidden = np.array([[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.5], [3.0, 1.0, 2.0, 1.0]])
    fig = hidden_activity_figure(hidden, d_ff=4, activation="relu", parameters=123, flops=456)
    left, right = fig.axes
    heights = [bar.get_height() for bar in right.patches]
    assert heights == pytest.approx([0.5, 0.25, 1.0])
    assert "42% exact zeros" in left.get_title()  # 5 of 12 values are 0
    assert "123 params" in right.get_title() and "456 FLOPs" in right.get_title()
    counts = left.patches[0]  # the stairs artist holds the histogram of all 12 values
    assert counts is not None and len(left.patches) == 1


def test_hidden_activity_view_redraws_in_place():
    view = HiddenActivityView(tokens=2)
    first = view.update(np.array([[1.0, 0.0], [0.0, 0.0]]), 2, "relu", 10, 20)
    second = view.update(np.array([[1.0, 1.0], [1.0, 0.0]]), 2, "gelu", 10, 20)
    assert first is second
    assert [bar.get_height() for bar in view.bars] == pytest.approx([1.0, 0.5])
    assert view.left.get_title().startswith("gelu, d_ff = 2: 25% exact zeros")
    assert view.stairs.get_data().values.sum() == 4


def test_hidden_activity_view_rejects_wrong_token_count():
    with pytest.raises(ValueError, match=r"hidden must have shape \(8, d_ff\)"):
        HiddenActivityView().update(np.zeros((3, 5)), 5, "relu", 1, 1)
