"""The plane geometry of lesson 3: half-planes, the inside test, polygon validation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from course_lib.core.model.geometry import (
    TRIANGLE_F,
    TRIANGLE_G,
    as_points,
    edge_half_plane,
    grid,
    half_planes,
    in_band,
    inscribed_area_gap,
    inside,
    polygon_area,
    positive_number,
    regular_polygon,
    signed_distances,
    validate_polygon,
)

SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def test_canonical_triangles_overlap():
    points = grid(200)
    both = inside(TRIANGLE_F, points) & inside(TRIANGLE_G, points)
    only_f = inside(TRIANGLE_F, points) & ~inside(TRIANGLE_G, points)
    assert both.sum() > 0 and only_f.sum() > 0


def test_inside_is_the_same_in_either_winding():
    points = np.random.default_rng(0).uniform(-1, 1, size=(500, 2))
    np.testing.assert_array_equal(inside(TRIANGLE_F, points), inside(TRIANGLE_F[::-1], points))


def test_inside_square_matches_coordinates():
    points = np.array([[0.5, 0.5], [1.5, 0.5], [0.5, -0.1], [0.99, 0.01]])
    np.testing.assert_array_equal(inside(SQUARE, points), [True, False, False, True])


def test_validate_polygon_returns_counter_clockwise():
    clockwise = SQUARE[::-1]
    result = validate_polygon(clockwise)
    assert polygon_area(result) == pytest.approx(1.0)
    np.testing.assert_array_equal(validate_polygon(SQUARE), SQUARE)


@pytest.mark.parametrize(
    ("polygon", "message"),
    [
        ([[0, 0], [1, 0]], "at least 3 vertices"),
        ([[0, 0], [1, 1], [2, 2]], "collinear"),
        ([[0, 0], [1, 0], [1, 0], [0, 1]], "collinear"),
        ([[0, 0], [2, 0], [0.5, 0.5], [0, 2]], "convex"),
        (np.array([[np.cos(a), np.sin(a)] for a in np.arange(5) * 4 * np.pi / 5]), "star"),
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0]], "shape"),
        ([[0, 0], [np.nan, 0], [0, 1]], "finite"),
    ],
)
def test_validate_polygon_rejects_bad_polygons(polygon, message):
    with pytest.raises(ValueError, match=message):
        validate_polygon(polygon)


def test_half_planes_are_unit_and_positive_inside():
    normals, offsets = half_planes(TRIANGLE_G)
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1.0)
    centre = TRIANGLE_G.mean(axis=0)
    assert np.all(normals @ centre + offsets > 0)
    # each edge's two end vertices lie on its line
    v = validate_polygon(TRIANGLE_G)
    np.testing.assert_allclose(np.sum(normals * v, axis=1) + offsets, 0, atol=1e-12)
    np.testing.assert_allclose(
        np.sum(normals * np.roll(v, -1, axis=0), axis=1) + offsets, 0, atol=1e-12
    )


def test_edge_half_plane_gives_signed_distance_with_inside_positive():
    w, b = edge_half_plane((0, 0), (2, 0), (5, -3))
    np.testing.assert_allclose(w, [0, -1])
    assert b == 0
    assert w @ np.array([1.0, -0.25]) + b == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (((0, 0), (0, 0), (1, 1)), "differ"),
        (((0, 0), (1, 0), (3, 0)), "on the edge"),
        (((0, 0, 0), (1, 0), (0, 1)), "start"),
    ],
)
def test_edge_half_plane_rejects_bad_points(args, message):
    with pytest.raises(ValueError, match=message):
        edge_half_plane(*args)


def test_signed_distances_of_square():
    d = signed_distances(SQUARE, [[0.25, 0.5]])
    np.testing.assert_allclose(np.sort(d[0]), [0.25, 0.5, 0.5, 0.75])


def test_in_band_marks_points_near_the_inner_boundary_only():
    points = np.array([[0.5, 0.5], [0.05, 0.5], [-0.05, 0.5]])
    np.testing.assert_array_equal(in_band(SQUARE, points, 10), [False, True, False])


def test_in_band_outside_marks_points_just_beyond_the_boundary_only():
    # the unit square: 0.05 beyond its right edge, 0.2 beyond it, on it, inside
    points = np.array([[1.05, 0.5], [1.2, 0.5], [1.0, 0.5], [0.5, 0.5]])
    np.testing.assert_array_equal(
        in_band(SQUARE, points, 10, side="outside"), [True, False, True, False]
    )
    with pytest.raises(ValueError, match=r"side must be one of \['inside', 'outside'\], got 'up'"):
        in_band(SQUARE, points, 10, side="up")


@pytest.mark.parametrize("bad", [0, -1.0, float("inf"), float("nan")])
def test_positive_number_rejects_non_positive(bad):
    with pytest.raises(ValueError, match="sharpness"):
        positive_number("sharpness", bad)


def test_positive_number_rejects_non_numbers():
    with pytest.raises(TypeError, match="sharpness"):
        positive_number("sharpness", "20")


def test_as_points_rejects_wrong_shape():
    with pytest.raises(ValueError, match=r"points must have shape \(N, 2\)"):
        as_points(np.zeros(4))


def test_regular_polygon_area_approaches_the_disc():
    areas = [polygon_area(regular_polygon(n, 1.0)) for n in (3, 6, 16, 200)]
    assert areas == sorted(areas)
    assert areas[0] == pytest.approx(3 * math.sqrt(3) / 4)
    assert areas[-1] == pytest.approx(math.pi, rel=1e-3)


@pytest.mark.parametrize(("n", "error"), [(2, ValueError), (0, ValueError), (3.5, TypeError)])
def test_regular_polygon_rejects_bad_n(n, error):
    with pytest.raises(error, match="n must"):
        regular_polygon(n)


def test_grid_is_row_major_from_the_bottom():
    points = grid(3, 1.0)
    np.testing.assert_allclose(points[0], [-1, -1])
    np.testing.assert_allclose(points[2], [1, -1])
    np.testing.assert_allclose(points[-1], [1, 1])


def test_inscribed_area_gap_is_the_disc_minus_the_regular_n_gon():
    r = 0.8
    for n in (3, 4, 6, 12):
        expected = math.pi * r**2 - n / 2 * r**2 * math.sin(2 * math.pi / n)
        assert inscribed_area_gap(n, r) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("n", "radius", "error", "match"),
    [
        (2, 0.8, ValueError, "n must be at least 3"),
        (3.5, 0.8, TypeError, "n must be a positive int, got 3.5"),
        (5, 0.0, ValueError, "radius must be a finite number > 0, got 0.0"),
    ],
)
def test_inscribed_area_gap_rejects_bad_arguments(n, radius, error, match):
    with pytest.raises(error, match=match):
        inscribed_area_gap(n, radius)
