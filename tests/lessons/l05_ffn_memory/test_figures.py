"""Lesson 5 figures show the data they are given: hand-made changes, next-word data and a
hand-made sparsity sweep."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_hex

from course_lib.core.plots import GREY, PALETTE
from course_lib.lessons.l05_ffn_memory.figures import (
    EFFECT_COLORS,
    LARGE_MODELS,
    NextTokenData,
    NextTokenView,
    SparsityData,
    SparsityView,
    neuron_effects_figure,
)


def next_token_data(scale: float = 0.0, answer: str = "quen") -> NextTokenData:
    return NextTokenData(
        prompt="the capital of velor is",
        answer=answer,
        words=("quen", "red", "fox"),
        before=np.array([0.9, 0.05, 1e-6]),
        after=np.array([0.5, 0.2, 0.1]),
        units=((0, 3), (1, 7)),
        scale=scale,
    )


def test_neuron_effects_figure_draws_one_dot_per_fact_and_each_groups_mean():
    changes = {
        "own fact": np.array([-0.5, -0.3, -0.1]),
        "unrelated facts": np.array([-0.1, 0.0, -0.05]),
        "random units": np.array([0.0, -0.01, 0.01]),
    }
    fig = neuron_effects_figure(changes, zeroed=5)
    (ax,) = fig.axes
    assert len(ax.collections) == 3
    for row, (collection, (name, values)) in enumerate(
        zip(ax.collections, changes.items(), strict=True)
    ):
        offsets = collection.get_offsets()
        np.testing.assert_allclose(offsets[:, 0], values)
        assert bool((np.abs(offsets[:, 1] - row) < 0.3).all())
        assert to_hex(collection.get_facecolor()[0]) == to_hex(EFFECT_COLORS[name])
    assert ax.get_title() == "zeroing 5 units at the prompt's last word"
    means = [line.get_xdata()[0] for line in ax.lines[:3]]  # then the zero line
    np.testing.assert_allclose(means, [v.mean() for v in changes.values()])
    assert [t.get_text() for t in ax.get_yticklabels()] == list(changes)


def test_next_token_view_draws_both_distributions_and_bolds_the_answer():
    view = NextTokenView(words=3)
    data = next_token_data()
    fig = view.update(data)
    ax = fig.axes[0]
    before, after = ax.containers
    np.testing.assert_allclose([b.get_height() for b in before], [0.9, 0.05, NextTokenView.FLOOR])
    np.testing.assert_allclose([b.get_height() for b in after], data.after)
    assert to_hex(before[0].get_facecolor()) == to_hex(GREY)
    labels = ax.get_xticklabels()
    assert [t.get_text() for t in labels] == list(data.words)
    assert [t.get_fontweight() for t in labels] == ["bold", "normal", "normal"]


def test_next_token_view_updates_in_place():
    view = NextTokenView(words=3)
    first = view.update(next_token_data(0.0))
    moved = NextTokenData(**{**next_token_data().__dict__, "after": np.array([0.2, 0.3, 0.4])})
    second = view.update(moved)
    assert second is first and len(second.axes) == 1
    np.testing.assert_allclose(
        [b.get_height() for b in second.axes[0].containers[1]], [0.2, 0.3, 0.4]
    )
    relabelled = view.update(next_token_data(2.0, answer="red"))
    assert [t.get_fontweight() for t in relabelled.axes[0].get_xticklabels()] == [
        "normal",
        "bold",
        "normal",
    ]


TRAINED = np.array([[0.4, 0.45], [0.3, 0.35], [0.2, 0.25]])  # the seeds' mean, (widths, layers)
SPREAD = np.array([-0.02, 0.0, 0.02])  # three seeds around it


def sparsity_data(d_ff: int = 64) -> SparsityData:
    return SparsityData(
        widths=(16, 64, 256),
        trained=TRAINED[None] + SPREAD[:, None, None],  # (seeds, widths, layers)
        initial=np.array([[[0.5, 0.51], [0.49, 0.5], [0.5, 0.52]]] * 3),
        facts_right=np.array([[10, 30, 48], [12, 29, 48], [11, 31, 47]]),
        facts=48,
        d_ff=d_ff,
    )


def test_sparsity_view_draws_each_layer_trained_and_at_initialisation():
    data = sparsity_data()
    fig = SparsityView().update(data)
    ax, facts_ax = fig.axes
    solid = [line for line in ax.lines if line.get_linestyle() == "-"]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(solid) == len(dashed) == 2
    for layer in (0, 1):
        np.testing.assert_allclose(solid[layer].get_xdata(), data.widths)
        np.testing.assert_allclose(solid[layer].get_ydata(), TRAINED[:, layer])  # the mean
        np.testing.assert_allclose(dashed[layer].get_ydata(), data.initial[0, :, layer])
        assert solid[layer].get_color() == dashed[layer].get_color()
        spread = ax.collections[1 + layer].get_paths()[0].vertices  # lowest seed to highest
        assert spread[:, 1].min() == pytest.approx(TRAINED[:, layer].min() - 0.02)
        assert spread[:, 1].max() == pytest.approx(TRAINED[:, layer].max() + 0.02)
    assert solid[0].get_color() != solid[1].get_color()
    band = ax.patches[0]  # the large models' few percent
    np.testing.assert_allclose([band.get_y(), band.get_y() + band.get_height()], LARGE_MODELS)
    np.testing.assert_allclose([b.get_height() for b in facts_ax.patches], [10, 29, 47])  # worst
    assert "mean of 3 seeds" in ax.get_title()  # the chosen width's, over seeds


def test_sparsity_view_marks_the_chosen_width_and_updates_in_place():
    view = SparsityView()
    first = view.update(sparsity_data(64))
    for d_ff, index in ((256, 2), (16, 0)):
        fig = view.update(sparsity_data(d_ff))
        ax, facts_ax = fig.axes
        assert fig is first and len(facts_ax.patches) == 3 and len(ax.collections) == 3
        vertical = [line for line in ax.lines if line.get_linestyle() == ":"]
        assert [list(line.get_xdata()) for line in vertical] == [[d_ff, d_ff]]
        np.testing.assert_allclose(
            ax.collections[0].get_offsets(), [[d_ff, 0.4 - 0.1 * index], [d_ff, 0.45 - 0.1 * index]]
        )
        colors = [to_hex(bar.get_facecolor()) for bar in facts_ax.patches]
        assert colors[index] == to_hex(PALETTE[2])
        assert all(c != to_hex(PALETTE[2]) for i, c in enumerate(colors) if i != index)
