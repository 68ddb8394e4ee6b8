"""Lesson 3's live demos: move the triangles, choose n for the polygon, train 2 -> d_ff -> 2.

The first two only evaluate the hand-built network (no training) and redraw at once; the third
trains on first visit (cached by ``train_mlp``)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch
from matplotlib.figure import Figure

from course_lib.experiments.regions import D_FFS, hidden_lines, trained
from course_lib.model.ffn import ACTIVATIONS
from course_lib.model.geometry import (
    TRIANGLE_F,
    TRIANGLE_G,
    grid,
    inside,
    polygon_area,
    regular_polygon,
)
from course_lib.model.region_network import evaluate, logic_network, polygon_network
from course_lib.plots.regions import (
    PIECE_COLORS,
    NgonView,
    _image,
    _outline,
    _square,
    live_figure,
    plot_learned_lines,
)
from course_lib.threads import torch_threads
from course_lib.widgets import Control, Demo

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
TRAINED_ACTIVATIONS = tuple(a for a in ("relu", "gelu", "silu", "tanh") if a in ACTIVATIONS)


def moved_triangles(preset: str, apex_x: float, apex_y: float) -> list[np.ndarray]:
    """Triangle f with its top vertex at (apex_x, apex_y), and triangle g from ``preset``."""
    if preset not in G_PRESETS:
        raise ValueError(f"preset must be one of {sorted(G_PRESETS)}, got {preset!r}")
    f = TRIANGLE_F.copy()
    f[2] = (apex_x, apex_y)
    return [f, G_PRESETS[preset]]


def render_triangles(preset: str, apex_x: float, apex_y: float, sharpness: float) -> Figure:
    """in_f, in_g and their overlap from the hand-built network, with its agreement with the oracle."""
    polygons = moved_triangles(preset, apex_x, apex_y)
    points = grid(RESOLUTION)
    net = logic_network(polygons[0], polygons[1], sharpness)
    memberships, logic = evaluate(net[0], points), evaluate(net, points)
    oracle = np.stack([inside(p, points) for p in polygons], axis=1)
    agree = np.mean((memberships > 0.5) == oracle)
    fig = live_figure(7.2, 2.7)
    panels = (memberships[:, 0], memberships[:, 1], logic[:, 0])
    titles = ("in_triangle_f", "in_triangle_g", "overlap = AND")
    for ax, values, title in zip(fig.subplots(1, 3), panels, titles, strict=True):
        _image(ax, values.reshape(RESOLUTION, RESOLUTION), 1.0, cmap="Purples")
        for polygon, color in zip(polygons, PIECE_COLORS, strict=False):
            _outline(ax, polygon, color, lw=0.8)
        _square(ax, 1.0, title, ticks=False)
    fig.suptitle(
        f"sharpness {sharpness}: agrees with the geometric test on {agree:.2%} of the grid",
        fontsize=9,
    )
    return fig


@lru_cache(maxsize=1)
def ngon_area_errors() -> np.ndarray:
    """Disc area minus inscribed n-gon area for every n in NS: (len(NS),)."""
    disc = np.pi * NGON_RADIUS**2
    return np.array([disc - polygon_area(regular_polygon(n, NGON_RADIUS)) for n in NS])


def render_ngon(n: int) -> Figure:
    """The network's regular n-gon (n edge features) against the circle, and area error vs n."""
    net = polygon_network([regular_polygon(n, NGON_RADIUS)], sharpness=50)
    output = evaluate(net, grid(RESOLUTION))[:, 0].reshape(RESOLUTION, RESOLUTION)
    return _ngon_view().update(output, n)


@lru_cache(maxsize=1)
def _ngon_view() -> NgonView:
    return NgonView(1.0, NGON_RADIUS, NS, ngon_area_errors())


def render_trained(d_ff: int, activation: str) -> Figure:
    """The best of the trained 2 -> d_ff -> 2 networks: its regions and hidden units' lines.
    A first visit trains that width's seeds (cached); the lesson's sweep pre-trains relu."""
    result = trained(d_ff, activation)
    best = int(np.argmax(result.accuracy))
    points = torch.tensor(grid(RESOLUTION), dtype=torch.float64)  # the experiments' dtype
    with torch_threads(1):
        prediction = result.predict(points)[best].numpy().reshape(RESOLUTION, RESOLUTION, 2)
    title = f"d_ff={d_ff}, {activation}: accuracy {result.accuracy[best]:.1%} (best of {len(result.seeds)} seeds)"
    return plot_learned_lines(
        prediction, hidden_lines(result, best), (TRIANGLE_F, TRIANGLE_G), title
    )


def demos() -> list[Demo]:
    return [
        Demo(
            "triangle regions",
            (
                Control("preset", tuple(G_PRESETS), "seed picture", kind="dropdown"),
                Control("apex_x", APEX_X, -0.1),
                Control("apex_y", APEX_Y, 0.9),
                Control("sharpness", SHARPNESS, 20),
            ),
            render_triangles,
        ),
        Demo("polygon from n features", (Control("n", NS, 6),), render_ngon),
        Demo(
            "trained triangles network",
            (
                Control("d_ff", D_FFS, 6),
                Control("activation", TRAINED_ACTIVATIONS, "relu", kind="dropdown"),
            ),
            render_trained,
            trains=True,
            busy_text="training…",
        ),
    ]
