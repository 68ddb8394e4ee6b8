"""Exact region counts of a ReLU layer 2 -> n, checked against arrangements counted by hand."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.model.linear_regions import (
    activation_patterns,
    count_regions,
    crossing_lines,
    distinct_lines,
    grid_points,
    intersections,
    region_bound,
    region_map,
    sampled_region_count,
)


def layer(W, b):
    return np.array(W, dtype=float), np.array(b, dtype=float)


@pytest.mark.parametrize(
    ("W", "b", "expected"),
    [
        ([[1], [0]], [0], 2),  # one vertical line through the middle
        ([[1, 0], [0, 1]], [0, 0], 4),  # the two axes
        ([[1, 1], [0, 0]], [0.5, -0.5], 3),  # two parallel lines
        ([[1, 0, 1], [0, 1, 1]], [0, 0, 0], 6),  # three lines through one point
        ([[1, 0, 1], [0, 1, 1]], [0, 0, -0.5], 7),  # three lines in general position
        ([[1], [0]], [-2], 1),  # x = 2 misses the window
        ([[1, 0, 1, 1], [0, 1, 1, -1]], [0, 0, 0, 0], 8),  # four lines through the origin
        ([[1, 1], [1, 1]], [-1.5, 1.5], 3),  # x + y = ±1.5 each cut off one corner
    ],
)
def test_count_regions_matches_hand_counted_arrangements(W, b, expected):
    assert count_regions(*layer(W, b)) == expected


def test_a_line_through_a_corner_only_does_not_split_the_window():
    assert count_regions(*layer([[1], [1]], [-2])) == 1  # x + y = 2 touches (1, 1) only


def test_lines_meeting_outside_the_window_add_no_intersection():
    # x = 0.5 and y = 3 x - 5 meet at (0.5, -3.5): both cross, their meeting point does not count
    W, b = layer([[1, 3], [0, -1]], [-0.5, -5 + 5.5])
    assert len(crossing_lines(distinct_lines(W, b))) == 2
    assert intersections(crossing_lines(distinct_lines(W, b))) == []
    assert count_regions(W, b) == 3


def test_units_on_the_same_line_count_once_whatever_their_orientation():
    W, b = layer([[1, -2, 0], [0, 0, 0]], [0.1, -0.2, 5])  # x = -0.1 twice, and a zero unit
    assert len(distinct_lines(W, b)) == 1
    assert count_regions(W, b) == 2


def test_intersections_report_how_many_lines_meet():
    W, b = layer([[1, 0, 1], [0, 1, 1]], [0, 0, 0])
    [(x, y, m)] = intersections(crossing_lines(distinct_lines(W, b)))
    assert (round(x, 9), round(y, 9), m) == (0, 0, 3)


def test_count_regions_respects_a_custom_window():
    W, b = layer([[1, 0], [0, 1]], [0, 0])
    assert count_regions(W, b, window=(0.5, 2.0, 0.5, 2.0)) == 1
    assert count_regions(W, b, window=(-1.0, 1.0, 0.5, 2.0)) == 2


@pytest.mark.parametrize(
    ("n", "bound"), [(0, 1), (1, 2), (2, 4), (3, 7), (4, 11), (8, 37), (16, 137), (32, 529)]
)
def test_region_bound_is_one_plus_n_plus_pairs(n, bound):
    assert region_bound(n) == bound


def test_random_layers_never_exceed_the_bound_and_grid_sampling_never_exceeds_the_exact_count():
    rng = np.random.default_rng(0)
    for n in (1, 3, 8, 20):
        W, b = rng.normal(size=(2, n)) * 2, rng.normal(size=n)
        exact = count_regions(W, b)
        assert exact <= region_bound(n)
        assert sampled_region_count(W, b, resolution=120) <= exact


def test_lines_all_through_the_window_in_general_position_reach_the_bound():
    angles = np.linspace(0, np.pi, 6, endpoint=False) + 0.1
    W = np.stack([np.cos(angles), np.sin(angles)])
    b = np.linspace(-0.05, 0.05, 6) + 0.013  # all near the centre, no three concurrent
    assert count_regions(W, b, window=(-10, 10, -10, 10)) == region_bound(6)


def test_fine_grid_finds_every_region_of_a_coarse_arrangement():
    W, b = layer([[1, 0, 1], [0, 1, 1]], [0, 0, -0.5])
    assert sampled_region_count(W, b, resolution=101) == 7
    assert region_map(W, b, resolution=50).shape == (50, 50)


def test_activation_patterns_say_which_units_are_on():
    W, b = layer([[1, 0], [0, 1]], [0, 0])
    patterns = activation_patterns(W, b, np.array([[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5]]))
    assert patterns.tolist() == [[True, True], [False, True], [False, False]]


def test_grid_points_cover_the_window_row_by_row():
    points = grid_points(3)
    assert points.shape == (9, 2)
    assert (
        points[0].tolist() == [-1, -1]
        and points[1].tolist() == [0, -1]
        and points[-1].tolist() == [1, 1]
    )


@pytest.mark.parametrize(
    ("call", "error", "text"),
    [
        (
            lambda: count_regions(np.ones((3, 2)), np.ones(2)),
            ValueError,
            "W must have shape (2, n)",
        ),
        (lambda: count_regions(np.ones((2, 2)), np.ones(3)), ValueError, "b must have 2 entries"),
        (
            lambda: count_regions(np.ones((2, 1)), np.ones(1), window=(1, 0, 0, 1)),
            ValueError,
            "window",
        ),
        (lambda: region_bound(-1), ValueError, "n must be an int >= 0"),
        (lambda: region_bound(2.0), TypeError, "n must be an int >= 0"),
        (lambda: grid_points(1), ValueError, "resolution must be an int >= 2"),
        (
            lambda: activation_patterns(np.ones((2, 1)), np.ones(1), np.ones(3)),
            ValueError,
            "points must have shape",
        ),
    ],
)
def test_bad_arguments_raise_errors_naming_them(call, error, text):
    with pytest.raises(error, match=__import__("re").escape(text)):
        call()


def test_grid_points_is_the_course_grid_mapped_onto_the_window():
    from course_lib.core.model.geometry import grid

    np.testing.assert_array_equal(grid_points(7), grid(7))
    shifted = grid_points(3, (0.0, 2.0, -1.0, 1.0))
    np.testing.assert_allclose(shifted[:3], [[0.0, -1.0], [1.0, -1.0], [2.0, -1.0]])
