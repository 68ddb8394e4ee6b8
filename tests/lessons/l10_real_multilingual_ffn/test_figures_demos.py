"""Lesson 10's figures say what the lesson names, and its demo reads every frame from the store."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.lessons.l10_real_multilingual_ffn import demos, figures
from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations


def test_the_layers_figure_plots_the_active_share_it_is_given():
    active = np.linspace(0.1, 0.2, 12)
    fig = figures.layers_figure(active, np.full((12, 2), 0.5), np.full((12, 2), 0.1), 0.47, 0.03)
    left, right = fig.axes[:2]
    assert np.allclose(left.lines[0].get_ydata(), active)
    assert "active" in left.get_ylabel() and "layer" in left.get_xlabel()
    assert np.allclose(right.lines[0].get_ydata(), 0.5)
    assert np.allclose(right.lines[1].get_ydata(), 0.1)  # the random keys, dotted


def test_ends_split_the_depth_into_the_first_two_the_between_and_the_last_three_layers():
    assert figures.ends([1, 0, 0, 0, 0, 1]).tolist() == [0.5, 0.0, 0.5]
    assert figures.ends(np.ones(12)).tolist() == pytest.approx([2 / 12, 7 / 12, 3 / 12])
    assert figures.ends([0, 0, 4, 0, 0, 0]).tolist() == [0.0, 1.0, 0.0]


def test_the_profile_figure_draws_each_models_ends_and_a_shared_profile_in_both_panels():
    profiles = {"a": {"en": np.array([3, 0, 0, 0, 0, 1]), "zh": np.zeros(6)},
                "b": np.array([0, 0, 1, 0, 0, 1])}  # fmt: skip
    fig = figures.profile_figure(profiles)
    left = [p.get_height() for p in fig.axes[0].patches]
    right = [p.get_height() for p in fig.axes[1].patches]
    assert left[:3] == pytest.approx(figures.ends([3, 0, 0, 0, 0, 1]).tolist())
    assert left[3:] == right[3:] == pytest.approx([0.0, 0.5, 0.5])


def test_the_unit_browser_shows_the_stored_top_contexts_for_every_frame():
    demo = demos.demos()[0]
    stored = activations.stored()
    for values in demo.one_at_a_time():
        data = demo.data(**values)
        layer, sample = values["layer"], values["sample"]
        assert data.unit == stored["units"][layer, sample]
        shown = [v for *_, v in data.contexts["en"]]
        assert shown == pytest.approx(stored["top_value"][layer, sample, 0, : demos.SHOWN].tolist())
    assert len(demos.LAYERS) * len(demos.SAMPLES) <= 100  # the site draws every frame


def test_the_demo_refuses_a_layer_it_does_not_have():
    with pytest.raises(ValueError, match="layer must be one of"):
        demos.unit_data(12, 0)
