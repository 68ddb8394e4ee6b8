"""Checkers for lesson 3: an edge's row of W1 and entry of b1, AND and OR from ReLU, a prediction
of the six-unit network's output, and a polygon detector built by hand."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from course_lib.core.checks import CheckResult, Hint, first_suspect, require_return, run_check
from course_lib.core.i18n import N_, series, tr
from course_lib.core.model.geometry import (
    TRIANGLE_F,
    edge_half_plane,
    in_band,
    inside,
    regular_polygon,
)
from course_lib.lessons.l03_triangle_regions.experiments.region_network import (
    evaluate,
    ffn_2d,
    six_unit_network,
)

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
        return tr(
            "for the edge {start} -> {end} your half-plane is positive on the OUTSIDE "
            "(w · inside_point + b < 0): flip the signs of w and b",
            start=start,
            end=end,
        )
    direction = np.subtract(end, start)
    if abs(np.dot(w, direction)) > 1e-6 * np.linalg.norm(w) * np.linalg.norm(direction):
        return tr(
            "w is not perpendicular to the edge: the normal of direction (dx, dy) is (-dy, dx)"
        )
    if not np.isclose(np.linalg.norm(w), 1.0, atol=1e-6):
        return tr(
            "|w| = {norm:.3f}: divide w and b by the edge's length, so that "
            "w · p + b is the distance of p from the edge's line",
            norm=np.linalg.norm(w),
        )
    return tr(
        "w · start + b = {value:.3f}, but the line must pass through the edge: b = -w · start",
        value=np.dot(w, start) + b,
    )


def check_edge_weights(fn: Callable) -> CheckResult:
    """``fn(start, end, inside_point)`` must return (w, b), |w| = 1, w · p + b = 0 on the edge and
    > 0 at inside_point: the edge's half-plane; (-w, -b) is its column of W1 and entry of b1 in
    the six-unit network."""

    def check() -> str:
        for start, end, inner in EDGE_CASES:
            got = fn(np.array(start), np.array(end), np.array(inner))
            require_return(got, "return w, b")
            w, b = np.asarray(got[0], dtype=float).reshape(-1), float(got[1])
            if w.shape != (2,):
                raise Hint(
                    tr(
                        "w must have 2 entries (one per input x, y), got shape {shape}",
                        shape=w.shape,
                    )
                )
            hint = _diagnose_edge(w, b, start, end, inner)
            if hint:
                raise Hint(hint)
        return tr("each edge's unit normal and offset, oriented so the inside is positive.")

    return run_check(N_("edge weights"), check)


def _truth_table(
    fn: Callable, name: str, expected: list[float], suspects: dict[str, list[float]]
) -> str:
    got = fn(A.clone(), B.clone())
    require_return(got)
    got = torch.as_tensor(got, dtype=torch.float32).reshape(-1)
    if got.shape != (4,):
        raise Hint(
            tr(
                "{name}(a, b) must work elementwise and return 4 values for 4 pairs, "
                "got shape {shape}",
                name=name,
                shape=tuple(got.shape),
            )
        )
    if torch.allclose(got, torch.tensor(expected), atol=1e-6):
        return tr(
            "{name} on (0,0), (0,1), (1,0), (1,1) gives {values}.",
            name=name,
            values=series(int(v) for v in expected),
        )
    hint = first_suspect(got, suspects)
    if hint:
        raise Hint(hint)
    raise Hint(
        tr(
            "{name} on (0,0), (0,1), (1,0), (1,1) gave {got}, expected {expected}",
            name=name,
            got=got.tolist(),
            expected=expected,
        )
    )


def check_and_relu(fn: Callable) -> CheckResult:
    """``fn(a, b)`` on 0/1 tensors must give a AND b, e.g. relu(a + b - 1)."""
    suspects = {
        tr("(0, 0) gives -1: the ReLU is missing around a + b - 1"): [-1.0, 0, 0, 1],
        tr(
            "that is OR-like (relu(a + b)): subtract 1 inside the ReLU, so only 1 + 1 stays "
            "positive"
        ): [0.0, 1, 1, 2],
        tr("that is OR: for AND only (1, 1) may give 1"): [0.0, 1, 1, 1],
        tr("relu(a + b - 2) is 0 even at (1, 1): the threshold is n - 1 = 1, not n = 2"): [
            0.0,
            0,
            0,
            0,
        ],
    }
    return run_check(N_("AND from ReLU"), lambda: _truth_table(fn, "AND", [0.0, 0, 0, 1], suspects))


def check_or_relu(fn: Callable) -> CheckResult:
    """``fn(a, b)`` on 0/1 tensors must give a OR b, e.g. 1 - relu(1 - a - b)."""
    suspects = {
        tr("(1, 1) gives 2: clip the sum at 1, e.g. 1 - relu(1 - a - b)"): [0.0, 1, 1, 2],
        tr("that is AND: OR must be 1 when either input is 1"): [0.0, 0, 0, 1],
        tr(
            "(0, 0) gives 1 and the rest 0: that is NOR, 1 - OR; drop the outer `1 -` or the "
            "inner sign"
        ): [1.0, 0, 0, 0],
        tr("that is XOR: OR is 1 at (1, 1) too"): [0.0, 1, 1, 0],
    }
    return run_check(N_("OR from ReLU"), lambda: _truth_table(fn, "OR", [0.0, 1, 1, 1], suspects))


# Exercise 4: the point (0, -0.7) lies 0.1 below edge f1 (y = -0.6) and inside f2 and f3.
PREDICTION_POINT = (0.0, -0.7)
PREDICTION_KS = (5, 20)


def check_outside_prediction(fn: Callable) -> CheckResult:
    """``fn()`` returns (out_5, out_20, band_20): the six-unit network's output for triangle f at
    PREDICTION_POINT (before any output ReLU) for k = 5 and k = 20, and the band's width at
    k = 20."""

    def check() -> str:
        got = require_return(fn(), "return out_5, out_20, band_20")
        got = np.asarray(got, dtype=float).reshape(-1)
        if got.shape != (3,):
            raise Hint(
                tr("return three numbers (out_5, out_20, band_20), got {size}", size=got.size)
            )
        outputs = [
            evaluate(six_unit_network([TRIANGLE_F], k), [PREDICTION_POINT])[0, 0]
            for k in PREDICTION_KS
        ]
        expected = np.array([*outputs, 1 / PREDICTION_KS[1]])
        if np.allclose(got, expected, atol=1e-6):
            return tr(
                "at {point}: {out_5:.2f} at k = 5, {out_20:.2f} at k = 20 "
                "(the output ReLU makes it 0), and the band at k = 20 is {band:.2f} wide.",
                point=PREDICTION_POINT,
                out_5=outputs[0],
                out_20=outputs[1],
                band=expected[2],
            )
        d, (k5, k20) = 0.1, PREDICTION_KS  # how far p lies below f1
        no_k = tr("you forgot k: the output is 1 - k · (distance outside), not 1 - distance")
        inside_f1 = tr("the point is outside edge f1 (y = -0.6): its unit relu(-f1) = 0.1, not 0")
        plus = tr("the output adds k · distance instead of subtracting it (W2 = -k)")
        relu_out = tr(
            "at k = 20 you gave 0, the membership after the output ReLU; the FFN's output "
            "itself is 1 - 20 · 0.1"
        )
        suspects = {
            no_k: np.array([1 - d, 1 - d]),
            inside_f1: np.array([1.0, 1.0]),
            plus: np.array([1 + k5 * d, 1 + k20 * d]),
            relu_out: np.array([outputs[0], 0.0]),
        }
        hint = first_suspect(got[:2], suspects)
        if hint:
            raise Hint(hint)
        if not np.allclose(got[:2], outputs, atol=1e-6):
            raise Hint(
                tr("out_5, out_20 = {got}: use 1 - k · 0.1 for each k", got=got[:2].tolist())
            )
        if np.isclose(got[2], PREDICTION_KS[1], atol=1e-6):
            raise Hint(tr("the band is 1/k wide, not k: the output reaches 0 at distance 1/k"))
        raise Hint(tr("band_20 = {band:g}: the output 1 - 20 d reaches 0 at d = 1/20", band=got[2]))

    return run_check(N_("six-unit prediction"), check)


def _detector_cases() -> list[tuple[np.ndarray, float]]:
    """A square, a regular pentagon, and a random convex pentagon (a local generator)."""
    rng = np.random.default_rng(3)
    angles = np.pi / 2 + np.linspace(0, 2 * np.pi, 5, endpoint=False) + rng.uniform(-0.3, 0.3, 5)
    random = rng.uniform(0.5, 0.9) * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return [
        (regular_polygon(4, 0.8, rotation=np.pi / 4), 10.0),
        (regular_polygon(5, 0.8), 20.0),
        (random + rng.uniform(-0.1, 0.1, 2), 5.0),
    ]


def _ffn(points: np.ndarray, W1, b1, W2, b2) -> np.ndarray:
    with torch.no_grad():
        return ffn_2d(points, W1, b1, W2, b2).numpy()


def _detector_suspects(polygon: np.ndarray, k: float, points: np.ndarray) -> dict[str, np.ndarray]:
    """The outputs of typical wrong weights, from the reference network's own weights."""
    net = six_unit_network([polygon], k)
    W1, b1, W2, b2 = (t.numpy() for t in (net.W1, net.b1, net.W2, net.b2))
    lengths = np.linalg.norm(np.roll(net.polygons[0], -1, axis=0) - net.polygons[0], axis=1)
    return {
        tr(
            "the normals point outward: the hidden units must be relu(-f_i), positive OUTSIDE "
            "edge i (W1 = -normals, b1 = -offsets)"
        ): _ffn(points, -W1, -b1, W2, b2),
        tr("W2 is missing k: each unit's weight is -k, so the output falls to 0 within 1/k"): _ffn(
            points, W1, b1, W2 / k, b2
        ),
        tr("b2 is missing the 1: the output must be 1 inside, 1 - k · sum"): _ffn(
            points, W1, b1, W2, 0 * b2
        ),
        tr("W2 has the wrong sign: -k, so that the output falls outside"): _ffn(
            points, W1, b1, -W2, b2
        ),
        tr(
            "the normals are not of length 1: divide each by its edge's length, so every band "
            "is 1/k wide"
        ): _ffn(points, W1 * lengths, b1 * lengths, W2, b2),
    }


def check_polygon_detector(fn: Callable) -> CheckResult:
    """``fn(polygon, k)`` for a convex polygon (n, 2), counter-clockwise, returns (W1 (2, n),
    b1 (n,), W2 (n, 1), b2 (1,)) of a detector relu(x W1 + b1) W2 + b2 with one unit per edge:
    1 inside, 1 - k · (how far outside) beyond it. Compared with the geometric test ``inside``."""

    def check() -> str:
        points = np.random.default_rng(0).uniform(-1.2, 1.2, size=(3000, 2))
        for polygon, k in _detector_cases():
            n = len(polygon)
            got = require_return(fn(polygon.copy(), k), "return W1, b1, W2, b2")
            W1, b1, W2, b2 = (np.asarray(a, dtype=float) for a in got)
            if W1.shape != (2, n):
                raise Hint(
                    tr(
                        "W1 must be (2, {n}) for {n} edges, one column per edge (x W1), "
                        "got {shape}",
                        n=n,
                        shape=W1.shape,
                    )
                )
            if b1.size != n or W2.size != n or b2.size != 1:
                raise Hint(
                    tr(
                        "b1 and W2 need {n} entries, b2 one: got {b1}, {W2}, {b2}",
                        n=n,
                        b1=b1.size,
                        W2=W2.size,
                        b2=b2.size,
                    )
                )
            output = _ffn(points, W1, b1, W2.reshape(n, 1), b2.reshape(1))[:, 0]
            reference = evaluate(six_unit_network([polygon], k), points)[:, 0]
            if np.allclose(output, reference, atol=1e-6):
                continue
            suspects = {h: v[:, 0] for h, v in _detector_suspects(polygon, k, points).items()}
            hint = first_suspect(output, suspects)
            if hint:
                raise Hint(tr("{n}-gon: {hint}", n=n, hint=hint))
            clear = ~in_band(polygon, points, k, side="outside")
            wrong = ((output > 0.5) != inside(polygon, points)) & clear
            if wrong.any():
                p = np.round(points[np.argmax(wrong)], 2).tolist()
                raise Hint(
                    tr(
                        "{n}-gon: at {point} your detector disagrees with the geometric test",
                        n=n,
                        point=p,
                    )
                )
            raise Hint(
                tr(
                    "{n}-gon: the inside is right, but the output is not 1 - k · sum relu(-f_i)",
                    n=n,
                )
            )
        return tr("a square, a pentagon and a random pentagon, equal to the six-unit construction.")

    return run_check(N_("polygon detector"), check)
