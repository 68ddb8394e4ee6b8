"""Checkers for lesson 3: an edge's row of W1 and entry of b1, AND and OR from ReLU."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from course_lib.checks import CheckResult, Hint, require_return, run_check
from course_lib.model.geometry import edge_half_plane

# (start, end, a point inside): edges of triangles in both windings, one vertical, one horizontal.
EDGE_CASES = (
    ((-0.9, -0.6), (0.7, -0.6), (-0.1, 0.9)),
    ((0.7, -0.6), (-0.9, -0.6), (-0.1, 0.9)),
    ((0.9, 0.5), (0.2, -0.9), (-0.6, 0.6)),
    ((0.2, -0.9), (0.9, 0.5), (-0.6, 0.6)),
    ((0.5, -1.0), (0.5, 2.0), (3.0, 0.0)),
)
A = torch.tensor([0.0, 0.0, 1.0, 1.0])
B = torch.tensor([0.0, 1.0, 0.0, 1.0])


def _diagnose_edge(w: np.ndarray, b: float, start, end, inner) -> str | None:
    """The likely mistake in (w, b) for one edge, or None if it is right."""
    ref_w, ref_b = edge_half_plane(start, end, inner)
    if np.allclose(w, ref_w, atol=1e-6) and np.isclose(b, ref_b, atol=1e-6):
        return None
    if np.allclose(w, -ref_w, atol=1e-6) and np.isclose(b, -ref_b, atol=1e-6):
        return (
            f"for the edge {start} -> {end} your half-plane is positive on the OUTSIDE "
            f"(w · inside_point + b < 0): flip the signs of w and b"
        )
    direction = np.subtract(end, start)
    if abs(np.dot(w, direction)) > 1e-6 * np.linalg.norm(w) * np.linalg.norm(direction):
        return "w is not perpendicular to the edge: the normal of direction (dx, dy) is (-dy, dx)"
    if not np.isclose(np.linalg.norm(w), 1.0, atol=1e-6):
        return (
            f"|w| = {np.linalg.norm(w):.3f}: divide w and b by the edge's length, so that "
            "w · p + b is the distance of p from the edge's line"
        )
    return (
        f"w · start + b = {np.dot(w, start) + b:.3f}, but the line must pass through the edge: "
        "b = -w · start"
    )


def check_edge_weights(fn: Callable) -> CheckResult:
    """``fn(start, end, inside_point)`` must return (w, b), |w| = 1, w · p + b = 0 on the edge and
    > 0 at inside_point: the row of W1 and the entry of b1 (before the sharpness k) for that edge."""

    def check() -> str:
        for start, end, inner in EDGE_CASES:
            got = fn(np.array(start), np.array(end), np.array(inner))
            require_return(got, "return w, b")
            w, b = np.asarray(got[0], dtype=float).reshape(-1), float(got[1])
            if w.shape != (2,):
                raise Hint(f"w must have 2 entries (one per input x, y), got shape {w.shape}")
            hint = _diagnose_edge(w, b, start, end, inner)
            if hint:
                raise Hint(hint)
        return "each edge's unit normal and offset, oriented so the inside is positive."

    return run_check("edge weights", check)


def _truth_table(
    fn: Callable, name: str, expected: list[float], suspects: dict[str, list[float]]
) -> str:
    got = fn(A.clone(), B.clone())
    require_return(got)
    got = torch.as_tensor(got, dtype=torch.float32).reshape(-1)
    if got.shape != (4,):
        raise Hint(
            f"{name}(a, b) must work elementwise and return 4 values for 4 pairs, got shape {tuple(got.shape)}"
        )
    if torch.allclose(got, torch.tensor(expected), atol=1e-6):
        return f"{name} on (0,0), (0,1), (1,0), (1,1) gives {[int(v) for v in expected]}."
    for hint, values in suspects.items():
        if torch.allclose(got, torch.tensor(values), atol=1e-6):
            raise Hint(hint)
    raise Hint(f"{name} on (0,0), (0,1), (1,0), (1,1) gave {got.tolist()}, expected {expected}")


def check_and_relu(fn: Callable) -> CheckResult:
    """``fn(a, b)`` on 0/1 tensors must give a AND b, e.g. relu(a + b - 1)."""
    suspects = {
        "(0, 0) gives -1: the ReLU is missing around a + b - 1": [-1.0, 0, 0, 1],
        "that is OR-like (relu(a + b)): subtract 1 inside the ReLU, so only 1 + 1 stays positive": [
            0.0,
            1,
            1,
            2,
        ],
        "that is OR: for AND only (1, 1) may give 1": [0.0, 1, 1, 1],
        "relu(a + b - 2) is 0 even at (1, 1): the threshold is n - 1 = 1, not n = 2": [
            0.0,
            0,
            0,
            0,
        ],
    }
    return run_check("AND from ReLU", lambda: _truth_table(fn, "AND", [0.0, 0, 0, 1], suspects))


def check_or_relu(fn: Callable) -> CheckResult:
    """``fn(a, b)`` on 0/1 tensors must give a OR b, e.g. 1 - relu(1 - a - b)."""
    suspects = {
        "(1, 1) gives 2: clip the sum at 1, e.g. 1 - relu(1 - a - b)": [0.0, 1, 1, 2],
        "that is AND: OR must be 1 when either input is 1": [0.0, 0, 0, 1],
        "(0, 0) gives 1 and the rest 0: that is NOR, 1 - OR; drop the outer `1 -` or the inner sign": [
            1.0,
            0,
            0,
            0,
        ],
        "that is XOR: OR is 1 at (1, 1) too": [0.0, 1, 1, 0],
    }
    return run_check("OR from ReLU", lambda: _truth_table(fn, "OR", [0.0, 1, 1, 1], suspects))
