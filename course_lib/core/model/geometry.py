"""Half-planes and convex polygons in the plane: the geometry behind lesson 3's triangles.

The two overlapping triangles f and g of the lesson are fixed here, so every lesson and
experiment uses the same picture. Every function here is plain geometry (NumPy): it is the
oracle the hand-built network of ``course_lib.lessons.l03_triangle_regions.experiments.region_network`` is checked against.
"""

from __future__ import annotations

import math

import numpy as np

from course_lib.core._validate import positive_int, positive_number

# Triangle f and triangle g (vertices, counter-clockwise, so edge i here is edge i of half_planes:
# g1 the lower-right edge); they overlap in a small quadrilateral-ish region.
TRIANGLE_F = np.array([[-0.9, -0.6], [0.7, -0.6], [-0.1, 0.9]])
TRIANGLE_G = np.array([[0.2, -0.9], [0.9, 0.5], [-0.6, 0.6]])

# Cross products below this (relative to the polygon's size squared) count as collinear.
_COLLINEAR_TOL = 1e-9


def as_points(points: object, name: str = "points") -> np.ndarray:
    """``points`` as a float array of shape (N, 2), or a ValueError naming the shape it has."""
    array = np.asarray(points, dtype=float)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"{name} must have shape (N, 2), got {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite numbers, got NaN or inf")
    return array


def validate_polygon(polygon: object, name: str = "polygon") -> np.ndarray:
    """A convex polygon's vertices (n, 2), n >= 3, returned counter-clockwise.

    Raises ValueError for fewer than 3 vertices, collinear (or repeated) vertices, a non-convex or
    self-intersecting outline.
    """
    vertices = as_points(polygon, name)
    if len(vertices) < 3:
        raise ValueError(f"{name} needs at least 3 vertices, got {len(vertices)}")
    edges = np.roll(vertices, -1, axis=0) - vertices
    turns = (
        edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1]
        - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    )
    scale = max(float(np.ptp(vertices, axis=0).max()) ** 2, 1e-300)
    if np.any(np.abs(turns) <= _COLLINEAR_TOL * scale):
        raise ValueError(
            f"{name} has collinear or repeated vertices (three in a row on one line): {vertices.tolist()}"
        )
    if not (np.all(turns > 0) or np.all(turns < 0)):
        raise ValueError(
            f"{name} must be convex (every turn the same way), got {vertices.tolist()}"
        )
    dots = np.sum(edges * np.roll(edges, -1, axis=0), axis=1)
    total_turn = np.sum(np.arctan2(turns, dots))
    if not math.isclose(abs(total_turn), 2 * math.pi, abs_tol=1e-6):
        raise ValueError(f"{name} winds around more than once (a star), got {vertices.tolist()}")
    return vertices if turns[0] > 0 else vertices[::-1].copy()


def edge_half_plane(start: object, end: object, inside_point: object) -> tuple[np.ndarray, float]:
    """The line through ``start`` and ``end`` as (w (2,), b) with |w| = 1, oriented so that
    w · inside_point + b > 0: w · p + b is then the signed distance of p from the edge's line."""
    start, end, inner = (np.asarray(v, dtype=float) for v in (start, end, inside_point))
    for label, v in (("start", start), ("end", end), ("inside_point", inner)):
        if v.shape != (2,):
            raise ValueError(f"{label} must be a point of shape (2,), got {v.shape}")
    direction = end - start
    length = float(np.hypot(*direction))
    if length == 0:
        raise ValueError(f"start and end must differ, got {start.tolist()} twice")
    w = np.array([-direction[1], direction[0]]) / length  # the left-hand normal
    b = -float(w @ start)
    side = float(w @ inner + b)
    if side == 0:
        raise ValueError(f"inside_point {inner.tolist()} lies on the edge's line")
    return (w, b) if side > 0 else (-w, -b)


def half_planes(polygon: object) -> tuple[np.ndarray, np.ndarray]:
    """One half-plane per edge: normals (n, 2) of unit length and offsets (n,), with
    normals @ p + offsets > 0 on the inside. Edge i runs from vertex i to vertex i + 1."""
    vertices = validate_polygon(polygon)
    centre = vertices.mean(axis=0)
    rows = [edge_half_plane(a, b, centre) for a, b in polygon_edges(vertices)]
    return np.array([w for w, _ in rows]), np.array([b for _, b in rows])


def polygon_edges(polygon: object) -> np.ndarray:
    """The polygon's edges as their two ends, (n, 2, 2), numbered as ``half_planes`` numbers them:
    edge i runs from vertex i to vertex i + 1 of the counter-clockwise outline. A figure that
    labels edge i must take it from here, whatever order the caller's vertices are in."""
    vertices = validate_polygon(polygon)
    return np.stack([vertices, np.roll(vertices, -1, axis=0)], axis=1)


def signed_distances(polygon: object, points: object) -> np.ndarray:
    """Signed distance of each point from each edge's line, positive inside: (N, n)."""
    normals, offsets = half_planes(polygon)
    return as_points(points) @ normals.T + offsets


def inside(polygon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Geometric oracle: True where a point lies strictly inside the convex ``polygon``.

    polygon: (n, 2) vertices in either winding order; points: (N, 2) -> (N,) bool.
    """
    polygon = validate_polygon(polygon)
    points = as_points(points)
    edges = np.roll(polygon, -1, axis=0) - polygon
    relative = points[:, None, :] - polygon[None, :, :]
    cross = edges[None, :, 0] * relative[:, :, 1] - edges[None, :, 1] * relative[:, :, 0]
    return np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1)


def in_band(polygon: object, points: object, sharpness: float, side: str = "inside") -> np.ndarray:
    """True for points in the band of width 1/sharpness along the boundary: (N,) bool.

    side="inside": inside the polygon, closer than 1/k to an edge (the sharp network's band).
    side="outside": not inside, and less than 1/k beyond every edge's line (the six-unit
    network's band). Only in its band may a hand-built network differ from the oracle."""
    sharpness = positive_number("sharpness", sharpness)
    if side not in ("inside", "outside"):
        raise ValueError(f"side must be one of ['inside', 'outside'], got {side!r}")
    distance = signed_distances(polygon, points).min(axis=1)
    if side == "inside":
        return (distance > 0) & (distance < 1.0 / sharpness)
    return (distance <= 0) & (distance > -1.0 / sharpness)


def regular_polygon(n: int, radius: float = 0.8, rotation: float = 0.0) -> np.ndarray:
    """The regular n-gon inscribed in the circle of ``radius`` about the origin: (n, 2), CCW."""
    positive_int("n", n)
    if n < 3:
        raise ValueError(f"n must be at least 3 (a polygon), got {n}")
    radius = positive_number("radius", radius)
    angles = rotation + np.pi / 2 + 2 * np.pi * np.arange(n) / n
    return radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)


def polygon_area(polygon: object) -> float:
    """Area of a convex polygon (shoelace formula)."""
    v = validate_polygon(polygon)
    return 0.5 * float(np.sum(v[:, 0] * np.roll(v[:, 1], -1) - np.roll(v[:, 0], -1) * v[:, 1]))


def inscribed_area_gap(n: int, radius: float = 0.8) -> float:
    """Area of the disc of ``radius`` minus that of its inscribed regular n-gon: what n edge
    features miss of a circle, pi r^2 - (n / 2) r^2 sin(2 pi / n), about 2 pi^3 r^2 / (3 n^2)."""
    polygon = regular_polygon(n, radius)  # checks n and radius
    return math.pi * float(radius) ** 2 - polygon_area(polygon)


def grid(resolution: int = 120, extent: float = 1.0) -> np.ndarray:
    """Points of a resolution x resolution grid over [-extent, extent]^2, row by row from the
    bottom: (resolution**2, 2), so ``values.reshape(resolution, resolution)`` is an image."""
    positive_int("resolution", resolution)
    axis = np.linspace(-extent, extent, resolution)
    xx, yy = np.meshgrid(axis, axis)
    return np.stack([xx.ravel(), yy.ravel()], axis=1)


def unit_lines(W: object, b: object) -> tuple[np.ndarray, np.ndarray]:
    """The lines w_j · p + b_j = 0 of a layer's units (W (2, n), b (n,)), scaled so |w_j| = 1:
    normals (n, 2) and offsets (n,), so that normal · p + offset is the signed distance to the
    line. A unit with w_j = 0 has no line; its row stays zero."""
    W = np.asarray(W, dtype=float)
    b = np.asarray(b, dtype=float).reshape(-1)
    if W.ndim != 2 or W.shape[0] != 2 or b.shape != (W.shape[1],):
        raise ValueError(f"W must be (2, n) and b (n,), got {W.shape} and {b.shape}")
    norms = np.linalg.norm(W, axis=0)
    safe = np.where(norms == 0, 1.0, norms)
    return (W / safe).T, b / safe


def line_segments(normals: np.ndarray, offsets: np.ndarray, half_length: float = 4.0) -> np.ndarray:
    """One segment per line normal · p + offset = 0 (unit normals), centred on the point of the
    line nearest the origin and ``half_length`` long each way: (lines, 2, 2). Zero normals
    (units with no line) are left out."""
    keep = np.linalg.norm(normals, axis=1) > 1e-12
    unit, offset = normals[keep], offsets[keep]
    foot = -offset[:, None] * unit
    along = np.stack([-unit[:, 1], unit[:, 0]], axis=1) * half_length
    return np.stack([foot - along, foot + along], axis=1)
