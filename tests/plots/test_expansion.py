"""Lesson 2 figures carry the data they claim: lines per unit, curves per activation, counts."""

from __future__ import annotations

import numpy as np

from course_lib.experiments.stacking import DepthResult
from course_lib.experiments.sweeps import WidthSweep
from course_lib.experiments.teacher import RatioSweep
from course_lib.experiments.training import train_mlp
from course_lib.model.linear_regions import region_bound
from course_lib.plots import expansion as plots
from course_lib.plots import new_figure


def test_decision_figure_draws_one_line_per_hidden_unit_and_states_accuracy():
    result = train_mlp("triangles", 5, "relu", (0,), 20, 0.05, 200)
    fig = plots.decision_figure(result, resolution=40)
    ax = fig.axes[0]
    assert ax.get_title() == "triangles: 5 unit lines"
    assert f"accuracy {result.accuracy[0]:.3f}" in fig._suptitle.get_text()
    assert f"{3 * 5 + 5 * 2 + 2} parameters" in fig._suptitle.get_text()
    np.testing.assert_allclose(fig.axes[1].lines[0].get_ydata(), result.losses[0])


def test_draw_unit_lines_skips_units_with_zero_weights_and_places_each_line():
    ax = new_figure().subplots()
    W1, b1 = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]), np.array([-0.5, 1.0, 1.0])
    assert plots.draw_unit_lines(ax, W1, b1) == 2
    first, second = ax.collections[0].get_segments()
    np.testing.assert_allclose(first[:, 0], [0.5, 0.5])  # x = 0.5
    np.testing.assert_allclose(second[:, 1], [-0.5, -0.5])  # 2 y + 1 = 0


def test_truth_boundary_traces_the_xor_axes():
    lines = plots.truth_boundary("xor", 50)
    points = np.concatenate(lines)
    assert np.all(np.minimum(np.abs(points[:, 0]), np.abs(points[:, 1])) < 0.05)


def _sweep():
    acc = np.array([[[0.5, 0.6], [0.9, 1.0]], [[0.5, 0.5], [0.5, 0.5]]])
    return WidthSweep("xor", (1, 4), ("relu", "identity"), (0, 1), acc, acc)


def test_capacity_figure_plots_the_median_and_band_of_every_activation():
    fig = plots.capacity_figure([_sweep(), _sweep()])
    ax = fig.axes[0]
    relu = next(line for line in ax.lines if line.get_label() == "relu")
    np.testing.assert_allclose(relu.get_ydata(), [0.55, 0.95])
    assert ax.get_title() == "xor" and len(ax.collections) == 2


def test_regions_count_figure_shows_bound_exact_and_sampled():
    fig = plots.regions_count_figure([1, 2, 3], [2, 4, 6], [2, 4, 5])
    lines = fig.axes[0].lines
    assert list(lines[0].get_ydata()) == [region_bound(n) for n in (1, 2, 3)]
    assert list(lines[1].get_ydata()) == [2, 4, 6] and list(lines[2].get_ydata()) == [2, 4, 5]


def test_region_picture_titles_the_count_and_bound():
    fig = plots.region_picture(np.array([[1.0, 0.0], [0.0, 1.0]]), np.zeros(2), 4, resolution=20)
    assert fig.axes[0].get_title() == "d_ff=2: 4 regions (bound 4)"
    assert len(np.unique(fig.axes[0].images[0].get_array())) == 4


def test_reconstruction_figure_plots_both_curves():
    curve = {
        "d_ff": np.array([1, 2]),
        "identity": np.array([0.7, 0.0]),
        "random": np.array([0.8, 0.3]),
    }
    fig = plots.reconstruction_figure(curve)
    assert [list(line.get_ydata()) for line in fig.axes[0].lines] == [[0.7, 0.0], [0.8, 0.3]]


def test_ratio_figure_plots_mean_error_and_costs():
    sweep = RatioSweep(
        8, (1, 2), (8, 16), (100, 200), (256, 512), np.array([[0.4, 0.6], [0.2, 0.2]])
    )
    fig = plots.ratio_figure(sweep)
    np.testing.assert_allclose(fig.axes[0].lines[0].get_ydata(), [0.5, 0.2])
    np.testing.assert_allclose(fig.axes[1].lines[0].get_ydata(), [0.1, 0.2])


def test_depth_figure_has_one_bar_per_depth_at_the_mean():
    result = DepthResult("spiral", (1, 2), (0, 50), (3, 201), np.array([[0.5, 0.5], [0.8, 0.9]]))
    fig = plots.depth_figure(result)
    heights = [patch.get_height() for patch in fig.axes[0].patches]
    np.testing.assert_allclose(heights, [0.5, 0.85])


def test_activation_gallery_draws_each_activation_and_the_gelu_gap():
    fig = plots.activation_gallery_figure(("relu", "tanh"))
    relu = fig.axes[0].lines[0]
    assert relu.get_label() == "relu" and relu.get_ydata().min() == 0
    assert 1e-4 < np.abs(fig.axes[1].lines[0].get_ydata()).max() < 1e-3


def test_gated_budget_figure_labels_each_bar_with_its_count():
    fig = plots.gated_budget_figure(8, 12, 192, 288, 192, 8)
    widths = [patch.get_width() for patch in fig.axes[0].patches]
    assert widths == [192, 288, 192]


def test_decision_view_redraws_one_figure_in_place():
    from course_lib.experiments.training import train_mlp

    view = plots.DecisionView(resolution=30)
    first = view.update(train_mlp("triangles", 4, "relu", (0,), 5, 0.05, 100))
    ring = train_mlp("ring", 7, "tanh", (0,), 5, 0.05, 100)
    second = view.update(ring)
    assert first is second
    assert len(view.units.get_segments()) == 7
    assert view.ax.get_title() == "ring: 7 unit lines"
    assert view.title.get_text().startswith("d_ff=7, tanh: accuracy")
    np.testing.assert_allclose(view.loss_line.get_ydata(), ring.losses[0])
    assert view.image.get_array().shape[:2] == (30, 30)
