"""Lesson 3's figures show the data they are given: images, lines, titles."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.model.geometry import TRIANGLE_F, TRIANGLE_G
from course_lib.model.region_network import feature_maps, polygon_network
from course_lib.plots.regions import (
    plot_feature_grid,
    plot_information_loss,
    plot_learned_lines,
    plot_logic,
    plot_ngon,
    plot_seed_picture,
    plot_union,
    plot_width_sweep,
)


def titles(fig) -> list[str]:
    return [ax.get_title() for ax in fig.axes]


def test_seed_picture_labels_all_six_edges():
    fig = plot_seed_picture([TRIANGLE_F, TRIANGLE_G])
    labels = sorted(t.get_text() for t in fig.axes[0].texts)
    assert labels == ["f1", "f2", "f3", "g1", "g2", "g3"]
    # the label of edge f1 sits at the midpoint of its first edge
    f1 = next(t for t in fig.axes[0].texts if t.get_text() == "f1")
    np.testing.assert_allclose(f1.xy, (TRIANGLE_F[0] + TRIANGLE_F[1]) / 2)


def test_feature_grid_has_one_panel_per_feature_and_and_output():
    maps = feature_maps(polygon_network([TRIANGLE_F, TRIANGLE_G], 20), resolution=20)
    fig = plot_feature_grid(maps, [TRIANGLE_F, TRIANGLE_G])
    assert titles(fig) == [
        "feature f1",
        "feature f2",
        "feature f3",
        "in_triangle_f (AND)",
        "feature g1",
        "feature g2",
        "feature g3",
        "in_triangle_g (AND)",
    ]
    np.testing.assert_array_equal(fig.axes[4].images[0].get_array(), maps["features"][:, :, 3])
    np.testing.assert_array_equal(fig.axes[7].images[0].get_array(), maps["outputs"][:, :, 1])


def test_logic_figure_shows_each_output():
    outputs = np.random.default_rng(0).uniform(size=(10, 10, 3))
    fig = plot_logic(outputs, 1.0, [TRIANGLE_F, TRIANGLE_G])
    assert titles(fig) == ["overlap (AND)", "union (OR)", "XOR"]
    np.testing.assert_array_equal(fig.axes[2].images[0].get_array(), outputs[:, :, 2])


def test_information_loss_annotates_the_counts():
    codes = np.array([[0, 1], [2, 3]])
    counts = np.array([10, 20, 30, 1])
    fig = plot_information_loss(codes, 1.0, counts, np.zeros((5, 2)))
    assert [t.get_text() for t in fig.axes[1].texts] == ["10", "20", "30", "1"]
    assert fig.axes[2].collections[0].get_offsets().shape == (5, 2)


def test_width_sweep_plots_the_best_seed():
    acc = np.array([[0.5, 0.7], [0.9, 0.8], [0.99, 0.95]])
    fig = plot_width_sweep([2, 3, 4], acc)
    best = fig.axes[0].lines[0]
    np.testing.assert_allclose(best.get_ydata(), [0.7, 0.9, 0.99])
    assert "relu" in fig.axes[0].get_title()


def test_learned_lines_draws_one_line_per_unit_through_its_zero_set():
    normals = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    offsets = np.array([0.2, -0.5, 0.1])
    fig = plot_learned_lines(np.zeros((8, 8, 2)), (normals, offsets, np.ones(3)), [TRIANGLE_F], "t")
    unit_lines = fig.axes[0].lines[:3]
    for line, n, b in zip(unit_lines, normals, offsets, strict=True):
        xy = np.column_stack([line.get_xdata(), line.get_ydata()])
        np.testing.assert_allclose(xy @ n + b, 0, atol=1e-12)
    assert fig.axes[0].get_title() == "t"


@pytest.mark.parametrize("n", [3, 5])
def test_ngon_marks_the_current_n(n):
    ns, errors = [3, 4, 5], [0.5, 0.3, 0.2]
    fig = plot_ngon(np.zeros((5, 5)), 1.0, 0.8, ns, errors, n)
    marker = fig.axes[1].lines[1]
    assert list(marker.get_xdata()) == [n] and list(marker.get_ydata()) == [errors[ns.index(n)]]
    assert fig.axes[0].get_title().startswith(f"{n}-gon")


def test_union_outlines_each_piece():
    pieces = [TRIANGLE_F, TRIANGLE_G]
    fig = plot_union(np.zeros((4, 4)), 1.0, pieces)
    assert len(fig.axes[0].lines) == 2
    assert "2 convex pieces" in fig.axes[0].get_title()


def test_ngon_view_redraws_one_figure_in_place():
    from course_lib.plots.regions import NgonView

    view = NgonView(1.0, 0.8, (3, 4, 5), (1.0, 0.5, 0.25))
    first = view.update(np.zeros((4, 4)), 3)
    second = view.update(np.ones((4, 4)), 5)
    assert first is second
    assert view.marker.get_xdata() == [5] and view.marker.get_ydata() == [0.25]
    assert view.ax_shape.get_title() == "5-gon from 5 edge features"
    assert view.image.get_array().sum() == 16
