"""Lesson 4 figures show the data they are given."""

from __future__ import annotations

import numpy as np

from course_lib.experiments.sublayer import depth_profile, warmup_race
from course_lib.plots import COLORS
from course_lib.plots.sublayer import (
    DepthProfileView,
    plot_activation_scales,
    plot_depth_profile,
    plot_placement_gradients,
    plot_warmup_race,
)


def test_depth_profile_figure_plots_gradients_and_scales():
    profile = depth_profile(4, "pre", False)
    fig = plot_depth_profile(profile)
    grad_ax, act_ax = fig.axes
    np.testing.assert_allclose(grad_ax.lines[0].get_ydata(), profile.w2_grad)
    np.testing.assert_allclose(act_ax.lines[0].get_ydata(), profile.activation_rms)
    assert grad_ax.lines[0].get_linestyle() == "--"  # residual off is dashed
    assert "8 sublayers" in fig._suptitle.get_text()


def test_placement_gradients_has_one_panel_per_placement_and_one_line_per_depth():
    profiles = [depth_profile(d, p) for p in ("post", "pre") for d in (2, 4)]
    fig = plot_placement_gradients(profiles)
    assert [ax.get_title() for ax in fig.axes] == ["post-norm", "pre-norm"]
    assert [len(line.get_ydata()) for line in fig.axes[1].lines] == [2, 4]
    assert fig.axes[0].lines[0].get_color() == COLORS["post"]


def test_activation_scales_labels_each_stack():
    profiles = [depth_profile(2, "none", True), depth_profile(2, "post", True)]
    labels = [
        t.get_text() for t in plot_activation_scales(profiles).axes[0].get_legend().get_texts()
    ]
    assert labels == ["no norm, residual", "post-norm, residual"]


def test_warmup_race_plots_the_mean_loss_of_each_run():
    results = [warmup_race("pre", 0, steps=10), warmup_race("pre", 5, steps=10)]
    ax = plot_warmup_race(results).axes[0]
    np.testing.assert_allclose(ax.lines[0].get_ydata(), results[0].losses.mean(axis=0))
    np.testing.assert_allclose(ax.lines[1].get_ydata(), results[0].losses[0])
    assert len(ax.lines) == 2 * (1 + 3)  # a mean line and 3 seed lines per setting
    assert [line.get_linestyle() for line in ax.lines[::4]] == ["--", "-"]


def test_depth_profile_view_redraws_one_figure_in_place():
    view = DepthProfileView()
    first = view.update(depth_profile(2, "post", True))
    second = view.update(depth_profile(8, "none", False))
    assert first is second
    profile = depth_profile(8, "none", False)
    np.testing.assert_allclose(view.grad_line.get_ydata(), profile.w2_grad)
    np.testing.assert_allclose(view.act_line.get_xdata(), np.arange(9))
    assert view.legend.get_texts()[0].get_text() == "no norm, no residual"
    assert view.grad_line.get_color() == COLORS["none"]
    low, high = view.act_ax.get_ylim()
    assert low <= profile.activation_rms.min() and high >= profile.activation_rms.max()
    assert "16 sublayers" in view.title.get_text()
