"""Lesson 3's live demos: move the triangles (six-unit network or the sharp variant), choose n
for the polygon, see what a trained 2 -> d_ff -> 2 network learned.

Each demo is a pure ``<demo>_data(**controls)`` drawn by a view of ``course_lib.lessons.l03_triangle_regions.figures``.
The first two only evaluate the hand-built network and redraw at once; the third reads the trained
networks stored for every width and activation it offers (``experiments.trained``)."""

from __future__ import annotations

import numpy as np

from course_lib.core.i18n import N_
from course_lib.core.model.ffn import ACTIVATIONS
from course_lib.core.model.geometry import (
    TRIANGLE_F,
    TRIANGLE_G,
    grid,
    inscribed_area_gap,
    inside,
    regular_polygon,
)
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l03_triangle_regions.experiments import D_FFS, hidden_lines, trained
from course_lib.lessons.l03_triangle_regions.experiments.region_network import (
    NETWORKS,
    LogicLayer,
    evaluate,
    memberships,
    six_unit_network,
)
from course_lib.lessons.l03_triangle_regions.figures import (
    LearnedLinesData,
    LearnedLinesView,
    NgonData,
    NgonView,
    TrianglesData,
    TrianglesView,
)

RESOLUTION = 100
# Where triangle g sits: the lesson's picture, and three other ways two triangles can meet.
G_PRESETS = {
    "seed picture": TRIANGLE_G,
    "apart": TRIANGLE_G * 0.5 + np.array([0.45, 0.45]),
    "inside f": TRIANGLE_G * 0.25 + np.array([-0.1, -0.15]),
    "mirrored": TRIANGLE_G * np.array([-1.0, 1.0]),
}
APEX_X = tuple(round(v, 1) for v in np.arange(-0.9, 0.91, 0.1))
APEX_Y = tuple(round(v, 1) for v in np.arange(-0.4, 1.01, 0.1))  # the base is at y = -0.6
SHARPNESS = (2, 5, 10, 20, 50, 100)
NS = tuple(range(3, 17))
NGON_RADIUS = 0.8
NGON_SHARPNESS = 50
TRAINED_ACTIVATIONS = tuple(a for a in ("relu", "gelu", "silu", "tanh") if a in ACTIVATIONS)


def moved_triangles(preset: str, apex_x: float, apex_y: float) -> list[np.ndarray]:
    """Triangle f with its top vertex at (apex_x, apex_y), and triangle g from ``preset``."""
    if preset not in G_PRESETS:
        raise ValueError(f"preset must be one of {sorted(G_PRESETS)}, got {preset!r}")
    f = TRIANGLE_F.copy()
    f[2] = (apex_x, apex_y)
    return [f, G_PRESETS[preset].copy()]


def triangles_data(
    preset: str, apex_x: float, apex_y: float, sharpness: float, network: str = "six-unit"
) -> TrianglesData:
    """in_f, in_g and their overlap from a hand-built network (a key of ``NETWORKS``: one ReLU
    per edge, or the sharp variant with two) on the grid, and how often its memberships (> 0.5)
    agree with the geometric test ``inside``."""
    if network not in NETWORKS:
        raise ValueError(f"network must be one of {sorted(NETWORKS)}, got {network!r}")
    polygons = moved_triangles(preset, apex_x, apex_y)
    points = grid(RESOLUTION)
    member = memberships(NETWORKS[network](polygons, sharpness), points)  # (N, 2): in_f, in_g
    overlap = evaluate(LogicLayer(), member)[:, 0]  # the logic layer's AND
    oracle = np.stack([inside(p, points) for p in polygons], axis=1)
    shape = (RESOLUTION, RESOLUTION)
    return TrianglesData(
        memberships=member.reshape(*shape, 2),
        overlap=overlap.reshape(shape),
        polygons=(polygons[0], polygons[1]),
        agreement=float(np.mean((member > 0.5) == oracle)),
        sharpness=sharpness,
        network=network,
    )


def ngon_data(n: int) -> NgonData:
    """The six-unit-style network's regular n-gon (n hidden units, one per edge) on the grid, and
    the area the inscribed n-gon misses of the disc for every n of the slider."""
    network = six_unit_network([regular_polygon(n, NGON_RADIUS)], sharpness=NGON_SHARPNESS)
    output = memberships(network, grid(RESOLUTION))[:, 0]
    return NgonData(
        n=n,
        output=output.reshape(RESOLUTION, RESOLUTION),
        radius=NGON_RADIUS,
        ns=NS,
        errors=np.array([inscribed_area_gap(m, NGON_RADIUS) for m in NS]),
    )


def trained_data(d_ff: int, activation: str) -> LearnedLinesData:
    """The best of the trained 2 -> d_ff -> 2 networks: its predictions on the grid, its hidden
    units' lines and its accuracy, from the stored networks."""
    result = trained(d_ff, activation)
    best = int(np.argmax(result.accuracy))
    prediction = result.predict(grid(RESOLUTION))[best]
    normals, offsets, importance = hidden_lines(result, best)
    return LearnedLinesData(
        prediction=prediction.reshape(RESOLUTION, RESOLUTION, -1),
        normals=normals,
        offsets=offsets,
        importance=importance,
        polygons=(TRIANGLE_F, TRIANGLE_G),
        d_ff=d_ff,
        activation=activation,
        accuracy=float(result.accuracy[best]),
        n_seeds=len(result.seeds),
    )


def demos() -> list[Demo]:
    return [
        Demo(
            "triangle regions",
            (
                Control(
                    "preset",
                    tuple(G_PRESETS),
                    "seed picture",
                    kind="dropdown",
                    labels=(N_("seed picture"), N_("apart"), N_("inside f"), N_("mirrored")),
                    label=N_("triangle g"),
                ),
                Control("apex_x", APEX_X, -0.1, label=N_("apex x")),
                Control("apex_y", APEX_Y, 0.9, label=N_("apex y")),
                Control("sharpness", SHARPNESS, 20, label=N_("sharpness k")),
                Control(
                    "network",
                    tuple(NETWORKS),
                    "six-unit",
                    kind="dropdown",
                    labels=(N_("six-unit"), N_("sharp")),
                    label=N_("network"),
                ),
            ),
            data=triangles_data,
            view=TrianglesView,
        ),
        Demo("polygon from n features", (Control("n", NS, 6),), data=ngon_data, view=NgonView),
        Demo(
            "trained triangles network",
            (
                Control("d_ff", D_FFS, 6),
                Control(
                    "activation",
                    TRAINED_ACTIVATIONS,
                    "relu",
                    kind="dropdown",
                    label=N_("activation"),
                ),
            ),
            data=trained_data,
            view=LearnedLinesView,
        ),
    ]
