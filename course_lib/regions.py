"""Half-planes and convex polygons in the plane: the geometry behind lesson 3's triangles.

The two overlapping triangles f and g of the lesson are fixed here, so every lesson and
experiment uses the same picture.
"""

from __future__ import annotations

import numpy as np

# Triangle f and triangle g (vertices, counter-clockwise); they overlap in a small quadrilateral-ish region.
TRIANGLE_F = np.array([[-0.9, -0.6], [0.7, -0.6], [-0.1, 0.9]])
TRIANGLE_G = np.array([[-0.6, 0.6], [0.9, 0.5], [0.2, -0.9]])


def inside(polygon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Geometric oracle: True where a point lies strictly inside the convex ``polygon``.

    polygon: (n, 2) vertices in either winding order; points: (N, 2) -> (N,) bool.
    """
    polygon = np.asarray(polygon, dtype=float)
    points = np.asarray(points, dtype=float)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"points must have shape (N, 2), got {points.shape}")
    edges = np.roll(polygon, -1, axis=0) - polygon
    relative = points[:, None, :] - polygon[None, :, :]
    cross = edges[None, :, 0] * relative[:, :, 1] - edges[None, :, 1] * relative[:, :, 0]
    return np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1)
