"""The true boundary of each task lies where its labels change, traced once per task."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.model.geometry import TRIANGLE_F, TRIANGLE_G, signed_distances
from course_lib.lessons.l02_dimension_expansion.experiments import true_boundary

# a grid of 200 points over [-1, 1] is 0.01 apart: a traced contour lies within a cell of the truth
CELL = 2 / 199


def test_true_boundary_traces_the_xor_axes():
    points = np.concatenate(true_boundary("xor"))
    assert np.all(np.minimum(np.abs(points[:, 0]), np.abs(points[:, 1])) < CELL)
    assert points[:, 0].min() < -0.95 and points[:, 0].max() > 0.95  # it crosses the square


def test_true_boundary_of_the_ring_is_two_circles():
    lines = true_boundary("ring")
    radii = [np.linalg.norm(line, axis=1) for line in lines]
    assert len(lines) == 2
    np.testing.assert_allclose(sorted(r.mean() for r in radii), [0.45, 0.85], atol=CELL)
    assert all(np.ptp(r) < 2 * CELL for r in radii)


def test_true_boundary_of_the_triangles_lies_on_their_edges():
    points = np.concatenate(true_boundary("triangles"))
    to_f = np.abs(signed_distances(TRIANGLE_F, points)).min(axis=1)
    to_g = np.abs(signed_distances(TRIANGLE_G, points)).min(axis=1)
    assert np.all(np.minimum(to_f, to_g) < CELL)
    assert len(true_boundary("triangles")) == 2  # one closed outline per label


def test_true_boundary_is_cached_and_read_only():
    first = true_boundary("spiral")
    assert true_boundary("spiral") is first
    with pytest.raises(ValueError):
        first[0][0, 0] = 5.0


def test_true_boundary_follows_the_resolution():
    coarse, fine = true_boundary("xor", 20), true_boundary("xor", 200)
    assert sum(len(line) for line in coarse) < sum(len(line) for line in fine)


@pytest.mark.parametrize(
    ("values", "error", "named"),
    [
        ((6, "relu", "circle"), ValueError, "task must be one of"),
        ((6, "relu", 3), TypeError, "task must be one of"),
        ((0, "relu", "xor"), ValueError, "d_ff must be a positive int"),
        ((6, "rleu", "xor"), ValueError, "activation must be one of"),
    ],
)
def test_the_width_demos_values_are_checked_where_they_enter_naming_them(values, error, named):
    from course_lib.lessons.l02_dimension_expansion.demos import width_data

    with pytest.raises(error, match=named):  # no stored run: train_mlp, the entry, checks
        width_data(*values)
