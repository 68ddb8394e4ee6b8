"""Figures for lesson 3: triangles, edge features, AND/OR/XOR, information loss, polygons,
and the lines a trained network learns. Pure functions from data to a ``Figure``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from course_lib.plots import COLORS, new_figure

PIECE_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
CODE_COLORS = ("#f0f0f0", "#9ecae1", "#fcae91", "#8c6bb1")  # outputs (0,0), (1,0), (0,1), (1,1)


def _outline(ax: Axes, polygon: np.ndarray, color: str, **style) -> None:
    closed = np.vstack([polygon, polygon[:1]])
    ax.plot(closed[:, 0], closed[:, 1], color=color, lw=style.pop("lw", 1.5), **style)


def _square(ax: Axes, extent: float, title: str, ticks: bool = True) -> None:
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    if not ticks:  # live views: tick labels cost more to lay out than the picture itself
        ax.set_xticks([])
        ax.set_yticks([])


def live_figure(width: float, height: float, dpi: int = 72) -> Figure:
    """A figure for a live view: no constrained layout (it measures every text twice per draw)."""
    fig = Figure(figsize=(width, height), dpi=dpi)
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.04, top=0.86, wspace=0.08)
    return fig


def _image(ax: Axes, values: np.ndarray, extent: float, cmap: str = "Greys", vmax: float = 1.0):
    box = (-extent, extent, -extent, extent)
    return ax.imshow(
        values, origin="lower", extent=box, cmap=cmap, vmin=0, vmax=vmax, interpolation="nearest"
    )


def plot_seed_picture(polygons: Sequence[np.ndarray], names: Sequence[str] = ("f", "g")) -> Figure:
    """Two overlapping triangles, their edges labelled f1..f3, g1..g3, and the overlap."""
    fig = new_figure(4.6, 4.2, dpi=90)
    ax = fig.add_subplot()
    for polygon, name, color in zip(polygons, names, PIECE_COLORS, strict=False):
        ax.fill(polygon[:, 0], polygon[:, 1], color=color, alpha=0.25, label=f"triangle {name}")
        _outline(ax, polygon, color)
        for i, (a, b) in enumerate(
            zip(polygon, np.roll(polygon, -1, axis=0), strict=True), start=1
        ):
            mid = (a + b) / 2
            ax.annotate(
                f"{name}{i}",
                mid,
                color=color,
                fontsize=9,
                ha="center",
                va="center",
                bbox={"boxstyle": "round", "fc": "white", "ec": color, "lw": 0.5},
            )
    ax.legend(loc="lower right", fontsize=8)
    _square(ax, 1.0, "two triangles; their overlap is the darker region")
    return fig


def plot_feature_grid(
    maps: dict, polygons: Sequence[np.ndarray], names: Sequence[str] = ("f", "g")
) -> Figure:
    """One heatmap per edge feature (its edge drawn in colour), then each polygon's AND output."""
    n_cols = max(len(p) for p in polygons) + 1
    fig = new_figure(1.9 * n_cols, 2.0 * len(polygons), dpi=80)
    axes = fig.subplots(len(polygons), n_cols, squeeze=False)
    start, extent = 0, maps["extent"]
    for row, (polygon, name) in enumerate(zip(polygons, names, strict=True)):
        color = PIECE_COLORS[row % len(PIECE_COLORS)]
        for i in range(n_cols - 1):
            ax = axes[row, i]
            if i >= len(polygon):
                ax.axis("off")
                continue
            _image(ax, maps["features"][:, :, start + i], extent)
            edge = np.array([polygon[i], polygon[(i + 1) % len(polygon)]])
            _outline(ax, polygon, "0.6", lw=0.6, ls=":")
            ax.plot(edge[:, 0], edge[:, 1], color=color, lw=2.5)
            _square(ax, extent, f"feature {name}{i + 1}")
        _image(axes[row, -1], maps["outputs"][:, :, row], extent, cmap="Purples")
        _outline(axes[row, -1], polygon, color, lw=1.0)
        _square(axes[row, -1], extent, f"in_triangle_{name} (AND)")
        start += len(polygon)
    return fig


def plot_logic(outputs: np.ndarray, extent: float, polygons: Sequence[np.ndarray]) -> Figure:
    """Overlap, union and XOR of two polygons, outputs (res, res, 3) of the logic layer."""
    fig = new_figure(7.2, 2.6, dpi=80)
    for i, (ax, name) in enumerate(
        zip(fig.subplots(1, 3), ("overlap (AND)", "union (OR)", "XOR"), strict=True)
    ):
        _image(ax, outputs[:, :, i], extent, cmap="Purples")
        for polygon, color in zip(polygons, PIECE_COLORS, strict=False):
            _outline(ax, polygon, color, lw=0.8)
        _square(ax, extent, name)
    return fig


def plot_information_loss(
    codes: np.ndarray, extent: float, counts: np.ndarray, linear_grid: np.ndarray
) -> Figure:
    """Left: the plane coloured by the output (in_f, in_g) it maps to (the preimages). Middle: the
    output space, four points, sized by how many grid points land there. Right: an invertible
    linear map sends the grid to a (skewed) grid: no two points collide.

    codes: (res, res) ints 0..3 = in_f + 2 in_g; counts: (4,); linear_grid: (M, 2) mapped points."""
    from matplotlib.colors import ListedColormap

    fig = new_figure(8.4, 2.9, dpi=80)
    ax_plane, ax_out, ax_lin = fig.subplots(1, 3)
    ax_plane.imshow(
        codes,
        origin="lower",
        extent=(-extent, extent, -extent, extent),
        cmap=ListedColormap(CODE_COLORS),
        vmin=-0.5,
        vmax=3.5,
    )
    _square(ax_plane, extent, "preimages: whole regions")
    outputs = np.array([[0, 0], [1, 0], [0, 1], [1, 1]])
    ax_out.scatter(
        outputs[:, 0],
        outputs[:, 1],
        s=40 + 400 * counts / counts.max(),
        c=CODE_COLORS,
        edgecolors="k",
    )
    for (x, y), count in zip(outputs, counts, strict=True):
        ax_out.annotate(
            f"{count:,}",
            (x, y),
            xytext=(0, -22),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
    ax_out.set(
        xlim=(-0.5, 1.5),
        ylim=(-0.6, 1.5),
        xlabel="in_f",
        ylabel="in_g",
        xticks=[0, 1],
        yticks=[0, 1],
    )
    ax_out.set_title("(x, y) -> (in_f, in_g): 4 values", fontsize=9)
    ax_lin.scatter(linear_grid[:, 0], linear_grid[:, 1], s=2, color=COLORS["f"])
    ax_lin.set_aspect("equal")
    ax_lin.set_title("invertible linear map: grid stays a grid", fontsize=9)
    ax_lin.tick_params(labelsize=7)
    return fig


def plot_width_sweep(
    d_ffs: Sequence[int], accuracy: np.ndarray, activation: str = "relu"
) -> Figure:
    """Accuracy (len(d_ffs), seeds) against d_ff: every seed as a dot, the best as a line."""
    fig = new_figure(5.2, 3.2, dpi=90)
    ax = fig.add_subplot()
    for j in range(accuracy.shape[1]):
        ax.scatter(d_ffs, accuracy[:, j], s=12, color="0.6", label="one seed" if j == 0 else None)
    ax.plot(d_ffs, accuracy.max(axis=1), "o-", color=COLORS.get(activation, "k"), label="best seed")
    ax.axvline(6, color="k", ls=":", lw=1, label="6 = the edges of f and g")
    ax.set(xlabel="d_ff (hidden units)", ylabel="accuracy (both labels right)", xticks=list(d_ffs))
    ax.set_title(f"2 -> d_ff -> 2, trained by gradient descent ({activation})", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def plot_learned_lines(
    prediction: np.ndarray, lines: tuple, polygons: Sequence[np.ndarray], title: str
) -> Figure:
    """The trained network's regions (prediction (res, res, 2) in [0, 1]) with its hidden units'
    lines (normals (d_ff, 2), offsets (d_ff,), importance (d_ff,)) over the true edges (dashed)."""
    fig = live_figure(4.0, 4.1)
    ax = fig.add_subplot()
    rgb = np.ones(prediction.shape[:2] + (3,))
    rgb[..., 0] -= 0.55 * (prediction[..., 0] > 0.5)  # in_f: blue-ish
    rgb[..., 1] -= 0.3 * ((prediction[..., 0] > 0.5) | (prediction[..., 1] > 0.5))
    rgb[..., 2] -= 0.55 * (prediction[..., 1] > 0.5)  # in_g: red-ish
    ax.imshow(rgb, origin="lower", extent=(-1, 1, -1, 1))
    normals, offsets, importance = lines
    t = np.linspace(-3, 3, 2)
    for (nx, ny), b, weight in zip(
        normals, offsets, importance / max(importance.max(), 1e-12), strict=True
    ):
        point = -b * np.array([nx, ny])  # the line's closest point to the origin
        ax.plot(
            point[0] - ny * t,
            point[1] + nx * t,
            color="#6a3d9a",
            lw=1.6,
            alpha=0.25 + 0.75 * weight,
        )
    for polygon in polygons:
        _outline(ax, polygon, "k", lw=1.0, ls="--")
    _square(ax, 1.0, title, ticks=False)
    return fig


class NgonView:
    """Lesson 3's n-gon demo, built once: the n-gon image, the circle, the area-error curve.
    A move of n updates the image, the marker and the title; the axes and ticks are reused."""

    def __init__(
        self, extent: float, radius: float, ns: Sequence[int], errors: Sequence[float]
    ) -> None:
        self.ns, self.errors = list(ns), np.asarray(errors)
        self.figure = live_figure(7.0, 3.0)
        self.figure.subplots_adjust(bottom=0.16, wspace=0.2)
        self.ax_shape, ax_err = self.figure.subplots(1, 2, width_ratios=(1, 1.4))
        self.image = _image(self.ax_shape, np.zeros((2, 2)), extent, cmap="Purples")
        angle = np.linspace(0, 2 * np.pi, 200)
        self.ax_shape.plot(
            radius * np.cos(angle), radius * np.sin(angle), color="k", lw=0.8, ls="--"
        )
        _square(self.ax_shape, extent, "", ticks=False)
        ax_err.plot(self.ns, self.errors, "o-", ms=3, color=COLORS["f"])
        (self.marker,) = ax_err.plot([self.ns[0]], [self.errors[0]], "o", ms=9, color=COLORS["g"])
        ax_err.set(xlabel="n (edges = features)", ylabel="disc area − n-gon area", yscale="log")
        # plain tick labels: the default log labels are mathtext, which costs ~50 ms to lay out
        ax_err.set_yticks([0.05, 0.1, 0.2, 0.5, 1.0], ["0.05", "0.1", "0.2", "0.5", "1"])
        ax_err.set_yticks([], minor=True)
        ax_err.set_xticks(self.ns[::2])
        ax_err.tick_params(labelsize=7)
        ax_err.set_title("the disc, approximated", fontsize=9)

    def update(self, output: np.ndarray, n: int) -> Figure:
        """Show the network's n-gon (output (res, res)) and mark n on the curve."""
        self.image.set_data(output)
        self.marker.set_data([n], [self.errors[self.ns.index(n)]])
        self.ax_shape.set_title(f"{n}-gon from {n} edge features", fontsize=9, y=1.0)
        return self.figure


def plot_ngon(
    output: np.ndarray,
    extent: float,
    radius: float,
    ns: Sequence[int],
    errors: Sequence[float],
    n: int,
) -> Figure:
    """Left: the network's n-gon (output (res, res)) inside the circle it approximates.
    Right: area error of the inscribed n-gon against n, the current n marked."""
    return NgonView(extent, radius, ns, errors).update(output, n)


def plot_union(output: np.ndarray, extent: float, pieces: Sequence[np.ndarray]) -> Figure:
    """A non-convex region (output (res, res)) as the union of convex pieces (outlined)."""
    fig = new_figure(3.6, 3.4, dpi=80)
    ax = fig.add_subplot()
    _image(ax, output, extent, cmap="Purples")
    for piece, color in zip(pieces, PIECE_COLORS, strict=False):
        _outline(ax, piece, color, lw=1.2, ls="--")
    _square(ax, extent, f"non-convex: OR of {len(pieces)} convex pieces")
    return fig
