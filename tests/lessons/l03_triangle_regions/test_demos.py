"""Lesson 3's demos: their data functions compute what the controls say, over the whole value
grid, and their views show that data in one figure updated in place."""

from __future__ import annotations

import math

import numpy as np
import pytest

from course_lib.core.model.geometry import (
    TRIANGLE_F,
    TRIANGLE_G,
    grid,
    in_band,
    inscribed_area_gap,
    inside,
    polygon_area,
    regular_polygon,
)
from course_lib.core.widgets import all_demos
from course_lib.lessons.l03_triangle_regions.demos import (
    G_PRESETS,
    NGON_RADIUS,
    NGON_SHARPNESS,
    NS,
    RESOLUTION,
    demos,
    moved_triangles,
    ngon_data,
    trained_data,
    triangles_data,
)
from course_lib.lessons.l03_triangle_regions.experiments import trained

DEMOS = {demo.name: demo for demo in demos()}
POINTS = grid(RESOLUTION)


def test_demos_are_discovered_and_keep_their_controls():
    assert set(DEMOS) <= {d.name for d in all_demos()}
    controls = {name: [c.name for c in demo.controls] for name, demo in DEMOS.items()}
    assert controls == {
        "triangle regions": ["preset", "apex_x", "apex_y", "sharpness", "network"],
        "polygon from n features": ["n"],
        "trained triangles network": ["d_ff", "activation"],
    }


# --- triangles -------------------------------------------------------------------------------------


def test_triangle_demo_shows_the_triangles_its_controls_place_for_every_value():
    demo = DEMOS["triangle regions"]
    first = demo.figure()
    for values in demo.one_at_a_time():
        data = demo.data(**values)
        f, g = data.polygons
        np.testing.assert_array_equal(f[2], (values["apex_x"], values["apex_y"]))
        np.testing.assert_array_equal(g, G_PRESETS[values["preset"]])
        assert data.sharpness == values["sharpness"]
        assert data.memberships.shape == (RESOLUTION, RESOLUTION, 2)
        fig = demo.figure(**values)
        assert fig is first and len(fig.axes) == 3  # one figure, updated in place
        outline_f = fig.axes[0].lines[0]
        assert outline_f.get_xdata()[2] == values["apex_x"]
        assert outline_f.get_ydata()[2] == values["apex_y"]
        np.testing.assert_array_equal(fig.axes[2].images[0].get_array(), data.overlap)


@pytest.mark.parametrize("values", list(DEMOS["triangle regions"].one_at_a_time()))
def test_triangle_data_agreement_is_the_fraction_matching_the_geometric_test(values):
    data = triangles_data(**values)
    oracle = np.stack([inside(p, POINTS) for p in data.polygons], axis=1)
    answers = data.memberships.reshape(-1, 2) > 0.5
    assert data.agreement == pytest.approx(np.mean(answers == oracle), abs=1e-15)
    # the network may differ from the test only in its 1/k band: outside each edge for the
    # six-unit network, just inside it for the sharp variant
    side = {"six-unit": "outside", "sharp": "inside"}[values["network"]]
    band = np.stack([in_band(p, POINTS, data.sharpness, side) for p in data.polygons], axis=1)
    np.testing.assert_array_equal(answers[~band], oracle[~band])


def test_triangle_data_network_switches_where_the_band_lies():
    six = triangles_data("seed picture", -0.1, 0.9, 5, "six-unit")
    sharp = triangles_data("seed picture", -0.1, 0.9, 5, "sharp")
    assert (six.network, sharp.network) == ("six-unit", "sharp")
    inner = np.stack([in_band(p, POINTS, 5, "inside") for p in six.polygons], axis=1)
    outer = np.stack([in_band(p, POINTS, 5, "outside") for p in six.polygons], axis=1)
    six_m, sharp_m = six.memberships.reshape(-1, 2), sharp.memberships.reshape(-1, 2)
    np.testing.assert_array_equal(six_m[inner], 1.0)  # six-unit: exactly 1 in the inner band
    assert np.all(sharp_m[inner] < 1) and np.all(sharp_m[outer] < 1e-12)  # sharp: 0 outside
    assert np.any((six_m[outer] > 0.1) & (six_m[outer] < 0.9))  # six-unit: the ramp is outside
    with pytest.raises(ValueError, match=r"network must be one of .*'sharp'.*, got 'wide'"):
        triangles_data("seed picture", -0.1, 0.9, 5, "wide")


def test_triangle_data_agreement_rises_with_sharpness():
    for network in ("six-unit", "sharp"):
        agreement = [
            triangles_data("seed picture", -0.1, 0.9, k, network).agreement for k in (2, 20, 100)
        ]
        assert agreement[0] < agreement[1] < agreement[2]
        assert agreement[2] > 0.99 and agreement[0] < 0.9


def test_triangle_data_overlap_is_the_and_of_the_memberships():
    data = triangles_data("seed picture", -0.1, 0.9, 100)
    in_f, in_g = data.memberships[..., 0], data.memberships[..., 1]
    np.testing.assert_allclose(data.overlap, np.maximum(in_f + in_g - 1, 0), atol=1e-12)
    both = inside(TRIANGLE_F, POINTS) & inside(TRIANGLE_G, POINTS)
    assert (data.overlap.ravel() > 0.5).sum() == pytest.approx(both.sum(), rel=0.05)


def test_triangle_data_is_the_same_whatever_ran_before():
    before = triangles_data("seed picture", -0.1, 0.9, 20)
    triangles_data("mirrored", 0.5, -0.2, 2)
    after = triangles_data("seed picture", -0.1, 0.9, 20)
    np.testing.assert_array_equal(before.memberships, after.memberships)
    assert before.agreement == after.agreement


def test_moved_triangles_moves_only_the_apex_and_rejects_an_unknown_preset():
    f, g = moved_triangles("apart", 0.3, 0.2)
    np.testing.assert_array_equal(f[2], [0.3, 0.2])
    np.testing.assert_array_equal(f[:2], TRIANGLE_F[:2])
    np.testing.assert_array_equal(g, G_PRESETS["apart"])
    g[0] = (9, 9)  # the caller's copy: the preset stays as it was
    assert not np.array_equal(G_PRESETS["apart"][0], (9, 9))
    with pytest.raises(ValueError, match=r"preset must be one of .*'apart'.*, got 'nope'"):
        moved_triangles("nope", 0, 0)


# --- n-gon -----------------------------------------------------------------------------------------


def test_ngon_demo_draws_the_network_polygon_and_marks_n_for_every_n():
    demo = DEMOS["polygon from n features"]
    first = demo.figure()
    for values in demo.one_at_a_time():
        n = values["n"]
        data = demo.data(**values)
        polygon = regular_polygon(n, NGON_RADIUS)
        answers, oracle = data.output.ravel() > 0.5, inside(polygon, POINTS)
        band = in_band(polygon, POINTS, NGON_SHARPNESS, "outside")  # only there may they differ
        np.testing.assert_array_equal(answers[~band], oracle[~band])
        area = answers.mean() * 4  # the grid covers [-1, 1]^2
        assert area == pytest.approx(polygon_area(polygon), rel=0.1)
        fig = demo.figure(**values)
        assert fig is first and len(fig.axes) == 2
        marker = fig.axes[1].lines[1]
        assert list(marker.get_xdata()) == [n]
        assert list(marker.get_ydata()) == [data.errors[NS.index(n)]]
        np.testing.assert_array_equal(fig.axes[0].images[0].get_array(), data.output)


def test_ngon_data_errors_are_the_closed_form_gap_and_shrink_like_one_over_n_squared():
    errors = ngon_data(6).errors
    r = NGON_RADIUS
    closed_form = [math.pi * r**2 - n / 2 * r**2 * math.sin(2 * math.pi / n) for n in NS]
    np.testing.assert_allclose(errors, closed_form, rtol=1e-12)
    assert np.all(np.diff(errors) < 0)
    assert inscribed_area_gap(8, r) / inscribed_area_gap(16, r) == pytest.approx(4, rel=0.05)


def test_ngon_data_rejects_an_n_off_the_slider():
    with pytest.raises(ValueError, match=r"n must be one of ns \[3, .*16\], got 17"):
        ngon_data(17)


# --- trained ---------------------------------------------------------------------------------------


def test_trained_demo_shows_the_best_network_and_its_lines_for_every_value():
    demo = DEMOS["trained triangles network"]
    first = demo.figure()
    for values in demo.one_at_a_time():
        data = demo.data(**values)
        result = trained(values["d_ff"], values["activation"])
        assert (data.d_ff, data.activation) == (values["d_ff"], values["activation"])
        assert data.accuracy == result.accuracy.max() and data.n_seeds == len(result.seeds)
        assert data.normals.shape == (values["d_ff"], 2)
        assert data.prediction.shape == (RESOLUTION, RESOLUTION, 2)
        fig = demo.figure(**values)
        assert fig is first and len(fig.axes) == 1
        segments = fig.axes[0].collections[0].get_segments()
        assert len(segments) == values["d_ff"]  # one line per hidden unit
        for segment, normal, offset in zip(segments, data.normals, data.offsets, strict=True):
            np.testing.assert_allclose(segment @ normal + offset, 0, atol=1e-9)


def test_trained_data_predicts_the_triangles_at_twelve_units():
    data = trained_data(12, "relu")
    assert data.accuracy > 0.9
    truth = np.stack([inside(p, POINTS) for p in (TRIANGLE_F, TRIANGLE_G)], axis=1)
    predicted = data.prediction.reshape(-1, 2) > 0.5
    assert np.mean((predicted == truth).all(axis=1)) > 0.9


def test_trained_data_rejects_an_unknown_activation():
    with pytest.raises(ValueError, match="activation"):
        trained_data(6, "rleu")


# --- the UI ----------------------------------------------------------------------------------------


def test_built_ui_redraws_when_a_control_moves():
    from course_lib.core.widgets import build

    demo = DEMOS["polygon from n features"]
    box = build(demo)
    slider = box.children[0].children[0]
    image, status = box.children[2], box.children[1]
    before = image.value
    slider.value = 9
    assert image.value != before
    assert image.value == demo.png(n=9)
    assert status.value.startswith("updated in")
