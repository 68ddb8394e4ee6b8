"""Lesson 4 figures show the data they are given: any object with the profile's (or the race
result's) attributes, such as ``course_lib.lessons.l04_sublayer_connection.experiments``'s results."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from matplotlib.colors import to_hex

from course_lib.core.plots import COLORS
from course_lib.lessons.l04_sublayer_connection.experiments import depth_profile
from course_lib.lessons.l04_sublayer_connection.figures import (
    DepthProfileView,
    activation_scales_figure,
    depth_profile_figure,
    placement_gradients_figure,
    warmup_race_figure,
)


@dataclass(frozen=True)
class Profile:
    depth: int
    placement: str
    residual: bool
    activation_rms: np.ndarray
    w2_grad: np.ndarray


@dataclass(frozen=True)
class Race:
    placement: str
    warmup_steps: int
    lr: float
    losses: np.ndarray
    accuracy: np.ndarray

    @property
    def learned(self) -> int:
        return int((self.accuracy > 0.8).sum())


def profile(depth: int, placement: str = "post", residual: bool = True, scale: float = 1.0):
    """A hand-made stack: gradients 1, 2, ... and RMS 10, 20, ... times ``scale``."""
    grads = scale * np.arange(1.0, depth + 1)
    rms = scale * 10.0 * np.arange(1.0, depth + 2)
    return Profile(depth, placement, residual, rms, grads)


def race(placement: str, warmup_steps: int, seeds: int = 3, steps: int = 5, lr: float = 0.05):
    losses = np.linspace(2.0, 0.5, steps) * np.arange(1.0, seeds + 1)[:, None]
    return Race(placement, warmup_steps, lr, losses, np.linspace(0.2, 1.0, seeds))


def test_depth_profile_figure_plots_gradients_and_scales():
    data = profile(4, "pre", residual=False)
    fig = depth_profile_figure(data)
    grad_ax, act_ax = fig.axes
    np.testing.assert_array_equal(grad_ax.lines[0].get_xdata(), [1, 2, 3, 4])
    np.testing.assert_allclose(grad_ax.lines[0].get_ydata(), data.w2_grad)
    np.testing.assert_array_equal(act_ax.lines[0].get_xdata(), [0, 1, 2, 3, 4])
    np.testing.assert_allclose(act_ax.lines[0].get_ydata(), data.activation_rms)
    assert grad_ax.lines[0].get_linestyle() == "--"  # residual off is dashed
    assert to_hex(grad_ax.lines[0].get_color()) == to_hex(COLORS["pre"])


def test_depth_profile_figure_draws_a_measured_profile():
    measured = depth_profile(2, "none", True)
    grad_ax, act_ax = depth_profile_figure(measured).axes
    np.testing.assert_allclose(grad_ax.lines[0].get_ydata(), measured.w2_grad)
    np.testing.assert_allclose(act_ax.lines[0].get_ydata(), measured.activation_rms)


def test_depth_profile_view_redraws_one_figure_in_place():
    view = DepthProfileView()
    first = view.update(profile(2, "post", True))
    axes = list(first.axes)
    data = profile(8, "none", False, scale=1e-3)
    second = view.update(data)
    assert first is second
    assert list(second.axes) == axes  # no new axes per move
    assert [len(ax.lines) for ax in second.axes] == [1, 1]
    np.testing.assert_allclose(view.grad_line.get_ydata(), data.w2_grad)
    np.testing.assert_array_equal(view.act_line.get_xdata(), np.arange(9))
    assert view.legend.get_texts()[0].get_text() == "no norm, no residual"
    assert to_hex(view.grad_line.get_color()) == to_hex(COLORS["none"])
    assert view.grad_line.get_linestyle() == "--"
    for ax, y in ((view.grad_ax, data.w2_grad), (view.act_ax, data.activation_rms)):
        low, high = ax.get_ylim()
        assert low <= y.min() and high >= y.max()
        assert (
            high / low < 1e3 * y.max() / y.min()
        )  # the limits follow the data, not the first draw


def test_view_rejects_a_profile_whose_arrays_do_not_match_its_depth():
    broken = Profile(3, "post", True, np.ones(4), np.ones(2))
    with pytest.raises(ValueError, match=r"depth 3.*\(3,\).*\(2,\)"):
        DepthProfileView().update(broken)


def test_view_rejects_an_unknown_placement():
    with pytest.raises(ValueError, match="placement.*'sideways'"):
        DepthProfileView().update(profile(2, "sideways"))


def test_placement_gradients_has_one_panel_per_placement_and_one_line_per_depth():
    profiles = [profile(d, p) for p in ("pre", "post") for d in (2, 4)]
    fig = placement_gradients_figure(profiles)
    assert len(fig.axes) == 2
    post_ax, pre_ax = fig.axes  # panels in the order of COLORS: post before pre
    assert [len(line.get_ydata()) for line in pre_ax.lines] == [2, 4]
    np.testing.assert_allclose(pre_ax.lines[1].get_ydata(), profiles[1].w2_grad)
    np.testing.assert_allclose(post_ax.lines[0].get_ydata(), profiles[2].w2_grad)
    assert {to_hex(line.get_color()) for line in post_ax.lines} == {to_hex(COLORS["post"])}
    assert {to_hex(line.get_color()) for line in pre_ax.lines} == {to_hex(COLORS["pre"])}
    assert post_ax.lines[0].get_alpha() < post_ax.lines[1].get_alpha()  # deeper stacks darker


def test_placement_gradients_rejects_no_profiles():
    with pytest.raises(ValueError, match="profiles"):
        placement_gradients_figure([])


def test_activation_scales_draws_and_labels_each_stack():
    profiles = [profile(2, "none", True), profile(3, "post", False, scale=2.0)]
    ax = activation_scales_figure(profiles).axes[0]
    for line, data in zip(ax.lines, profiles, strict=True):
        np.testing.assert_allclose(line.get_ydata(), data.activation_rms)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["no norm, residual", "post-norm, no residual"]
    assert [line.get_linestyle() for line in ax.lines] == ["-", "--"]


def test_warmup_race_plots_the_mean_and_every_seed_of_each_run():
    results = [race("post", 0), race("pre", 20, seeds=2)]
    ax = warmup_race_figure(results).axes[0]
    assert len(ax.lines) == (1 + 3) + (1 + 2)  # a mean line and one line per seed, per setting
    np.testing.assert_allclose(ax.lines[0].get_ydata(), results[0].losses.mean(axis=0))
    np.testing.assert_allclose(ax.lines[1].get_ydata(), results[0].losses[0])
    np.testing.assert_allclose(ax.lines[4].get_ydata(), results[1].losses.mean(axis=0))
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), np.arange(1, 6))
    assert [ax.lines[i].get_linestyle() for i in (0, 4)] == ["--", "-"]  # no warm-up is dashed
    colors = [to_hex(ax.lines[i].get_color()) for i in (0, 4)]
    assert colors == [to_hex(COLORS["post"]), to_hex(COLORS["pre"])]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]  # read back from the data
    assert labels == [
        f"post-norm, no warm-up: {results[0].learned} of 3 seeds learn",
        f"pre-norm, warm-up 20 steps: {results[1].learned} of 2 seeds learn",
    ]
    assert (results[0].learned, results[1].learned) == (1, 1)  # 0.2, 0.6, 1.0 and 0.2, 1.0


def test_warmup_race_rejects_results_of_different_learning_rates():
    with pytest.raises(ValueError, match=r"lr.*0\.01.*0\.05"):
        warmup_race_figure([race("post", 0, lr=0.05), race("pre", 0, lr=0.01)])
