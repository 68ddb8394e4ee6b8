"""Lesson 3's figures mean what the network computes: a label "g2" sits on the line where the
network's unit g2 switches on, and the panel titled "feature g2" draws that line and shades
exactly where that unit is active. Every quantity is read back from the figure and compared with
the model's own weights, never with the vertex order a caller happened to pass (a clockwise
triangle once put "g1" on the top edge while unit g1 is the lower-right one)."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.model.geometry import TRIANGLE_F, TRIANGLE_G, grid
from course_lib.lessons.l03_triangle_regions.experiments.region_network import (
    feature_maps,
    six_unit_network,
)
from course_lib.lessons.l03_triangle_regions.figures import feature_grid_figure, seed_picture_figure

NAMES = ("f", "g")
# The triangles as the course defines them, and g given clockwise: the labels must not change.
ORDERS = {"as defined": [TRIANGLE_F, TRIANGLE_G], "g clockwise": [TRIANGLE_F, TRIANGLE_G[::-1]]}


def unit_preactivations(network, points: np.ndarray) -> np.ndarray:
    """Each hidden unit's pre-activation x W1 + b1 at ``points`` (N, 2): (N, units), from the
    network's own weights (unit k is edge k of the polygons, f's edges first)."""
    weights, bias = network.W1.detach().numpy(), network.b1.detach().numpy()
    return points @ weights + bias


def unit_of(label: str) -> int:
    """'g2' -> the index of the network's unit for edge 2 of g."""
    return 3 * NAMES.index(label[0]) + int(label[1:]) - 1


@pytest.mark.parametrize("order", ORDERS, ids=str)
def test_each_edge_label_sits_on_the_line_where_its_unit_switches_on(order):
    polygons = ORDERS[order]
    network = six_unit_network(polygons)
    texts = {
        t.get_text(): np.array(t.xy, dtype=float)
        for t in seed_picture_figure(polygons).axes[0].texts
    }
    assert sorted(texts) == ["f1", "f2", "f3", "g1", "g2", "g3"]
    for label, xy in texts.items():
        values = unit_preactivations(network, xy[None, :])[0]
        assert abs(values[unit_of(label)]) < 1e-9, f"{label} is not on its unit's line ({order})"
        others = np.delete(values, unit_of(label))
        assert np.all(np.abs(others) > 1e-3), f"{label} also sits on another unit's line"


@pytest.mark.parametrize("order", ORDERS, ids=str)
def test_each_feature_panel_draws_its_units_line_and_shades_where_that_unit_is_active(order):
    polygons = ORDERS[order]
    network = six_unit_network(polygons)
    maps = feature_maps(network, resolution=40)
    points = grid(40, maps["extent"])
    active = unit_preactivations(network, points) > 0  # relu(x W1 + b1) > 0, per unit
    fig = feature_grid_figure(maps, polygons)
    panels = [ax for ax in fig.axes if ax.get_title().startswith("feature ")]
    assert len(panels) == 6
    for ax in panels:
        label = ax.get_title().removeprefix("feature ")
        unit = unit_of(label)
        ends = np.asarray(ax.lines[-1].get_xydata(), dtype=float)  # the edge drawn in colour
        ends_values = unit_preactivations(network, ends)[:, unit]
        assert np.all(np.abs(ends_values) < 1e-9), f"panel {label} draws another unit's edge"
        shaded = np.asarray(ax.images[0].get_array()).ravel() > 0
        np.testing.assert_array_equal(shaded, active[:, unit], err_msg=f"panel {label} ({order})")
