"""Linear regions (线性区域) of one ReLU layer 2 -> n: the lines w_i . x + b_i = 0 cut the plane.

Inside a convex window an arrangement of lines has exactly
1 + (lines crossing it) + sum over intersection points p inside it of (m_p - 1) regions,
where m_p lines meet at p; in general position (m_p = 2) that is 1 + lines + intersections.
Over the whole plane n lines give at most 1 + n + n(n-1)/2 regions.
"""

from __future__ import annotations

import numpy as np

from course_lib.core._validate import int_at_least
from course_lib.core.model.geometry import grid

Window = tuple[float, float, float, float]  # (x_min, x_max, y_min, y_max)
UNIT_SQUARE: Window = (-1.0, 1.0, -1.0, 1.0)


def _layer(W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    W, b = np.asarray(W, dtype=float), np.asarray(b, dtype=float).reshape(-1)
    if W.ndim != 2 or W.shape[0] != 2:
        raise ValueError(f"W must have shape (2, n) (2 inputs, n units), got {W.shape}")
    if b.shape != (W.shape[1],):
        raise ValueError(f"b must have {W.shape[1]} entries (one per unit), got shape {b.shape}")
    return W, b


def _window(window: Window) -> Window:
    if len(window) != 4 or not (window[0] < window[1] and window[2] < window[3]):
        raise ValueError(
            f"window must be (x_min, x_max, y_min, y_max) with min < max, got {window}"
        )
    return tuple(float(v) for v in window)


def region_bound(n: int) -> int:
    """At most 1 + n + n(n-1)/2 regions for n lines in the plane (all crossing, no three concurrent)."""
    int_at_least("n", n, 0)
    return 1 + n + n * (n - 1) // 2


def distinct_lines(W: np.ndarray, b: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """The units' lines as unit-normal rows (a, b, c) of a x + b y + c = 0, duplicates merged: (L, 3).

    Units with zero weights draw no line; units w and -w on the same line draw one.
    """
    W, b = _layer(W, b)
    rows = np.concatenate([W.T, b[:, None]], axis=1)
    norms = np.linalg.norm(W.T, axis=1)
    rows = rows[norms > tol] / norms[norms > tol, None]
    same = np.minimum(
        np.abs(rows[:, None] - rows[None]).max(axis=2),
        np.abs(rows[:, None] + rows[None]).max(axis=2),
    )
    earlier_copy = np.tril(same < 1e-7, k=-1).any(axis=1)  # row i repeats some row j < i
    return rows[~earlier_copy].reshape(-1, 3)


def crossing_lines(lines: np.ndarray, window: Window = UNIT_SQUARE) -> np.ndarray:
    """The lines (L, 3) that pass through the open window (touching a corner does not count)."""
    x0, x1, y0, y1 = _window(window)
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]])
    values = np.asarray(lines, dtype=float).reshape(-1, 3) @ corners.T  # (L, 4)
    return lines[(values.min(axis=1) < -1e-12) & (values.max(axis=1) > 1e-12)]


def intersections(
    lines: np.ndarray, window: Window = UNIT_SQUARE
) -> list[tuple[float, float, int]]:
    """Points strictly inside the window where two or more lines meet, as (x, y, m = lines through it)."""
    x0, x1, y0, y1 = _window(window)
    lines = np.asarray(lines, dtype=float).reshape(-1, 3)
    i, j = np.triu_indices(len(lines), k=1)
    (a1, b1, c1), (a2, b2, c2) = lines[i].T, lines[j].T
    det = a1 * b2 - a2 * b1
    meet = np.abs(det) > 1e-12  # parallel lines never meet
    with np.errstate(divide="ignore", invalid="ignore"):
        x, y = (b1 * c2 - b2 * c1) / det, (a2 * c1 - a1 * c2) / det  # Cramer's rule
    keep = meet & (x0 < x) & (x < x1) & (y0 < y) & (y < y1)
    points = np.stack([x[keep], y[keep], np.ones(keep.sum())], axis=1)
    through = np.abs(points @ lines.T) < 1e-9  # (points, lines): which lines pass through each
    if len(points) == 0:
        return []
    _, first = np.unique(_row_keys(through), return_index=True)  # one entry per distinct point
    return [
        (float(points[k, 0]), float(points[k, 1]), int(through[k].sum())) for k in sorted(first)
    ]


def count_regions(W: np.ndarray, b: np.ndarray, window: Window = UNIT_SQUARE) -> int:
    """Exact number of regions the layer's lines cut the window into (W: (2, n), b: (n,)).

    1 + crossing lines + sum of (m - 1) over meeting points inside (1 + lines + crossings when
    no three lines meet at one point).
    """
    lines = crossing_lines(distinct_lines(W, b), window)
    return 1 + len(lines) + sum(m - 1 for _, _, m in intersections(lines, window))


def activation_patterns(W: np.ndarray, b: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which units are on (x W + b > 0) at each point: points (N, 2) -> (N, n) bool."""
    W, b = _layer(W, b)
    points = np.asarray(points, dtype=float)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"points must have shape (N, 2), got {points.shape}")
    return points @ W + b > 0


def _row_keys(rows: np.ndarray) -> np.ndarray:
    """One sortable key per boolean row (N, n) -> (N,), equal keys exactly for equal rows."""
    packed = np.packbits(rows, axis=1)
    if packed.shape[1] <= 8:  # up to 64 units: the bits fit one uint64, which sorts fast
        padded = np.zeros((len(rows), 8), dtype=np.uint8)
        padded[:, : packed.shape[1]] = packed
        return padded.view(np.uint64).ravel()
    return np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1]))).ravel()


def grid_points(resolution: int = 200, window: Window = UNIT_SQUARE) -> np.ndarray:
    """The course's grid (``geometry.grid``) over the window, row by row: (resolution**2, 2).

    The unit square is ``grid(resolution)`` itself; another window is that grid mapped onto it.
    """
    int_at_least("resolution", resolution, 2)
    window = _window(window)
    points = grid(resolution)
    if window == UNIT_SQUARE:
        return points
    x0, x1, y0, y1 = window
    unit = (points + 1) / 2  # [-1, 1]^2 -> [0, 1]^2
    return np.column_stack([x0 + unit[:, 0] * (x1 - x0), y0 + unit[:, 1] * (y1 - y0)])


def region_map(W: np.ndarray, b: np.ndarray, resolution: int = 200, window: Window = UNIT_SQUARE):
    """Each grid point's region as an integer label (resolution, resolution), for pictures.

    Points with the same activation pattern share a label: the linear piece they lie on.
    """
    patterns = activation_patterns(W, b, grid_points(resolution, window))
    _, labels = np.unique(_row_keys(patterns), return_inverse=True)
    return labels.reshape(resolution, resolution)


def sampled_region_count(
    W: np.ndarray, b: np.ndarray, resolution: int = 200, window: Window = UNIT_SQUARE
) -> int:
    """Distinct activation patterns seen on a grid: never more than the exact count, often fewer."""
    return int(region_map(W, b, resolution, window).max()) + 1
