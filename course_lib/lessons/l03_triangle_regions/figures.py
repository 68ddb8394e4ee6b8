"""Figures for lesson 3: triangles, edge features, AND/OR/XOR, information loss, polygons,
and the lines a trained network learns. Data in, ``Figure`` out: nothing here builds, trains or
runs a network.

Static figures are ``<what>_figure(...)``; the three live demos each have a view built once and
updated in place, ``TrianglesView``, ``NgonView`` and ``LearnedLinesView``, fed ``TrianglesData``,
``NgonData`` and ``LearnedLinesData``. Triangle f is ``COLORS["f"]``, g is ``COLORS["g"]``, and
further polygons follow ``PALETTE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.colors import LinearSegmentedColormap, ListedColormap, to_rgba
from matplotlib.figure import Figure

from course_lib.core.i18n import N_, tr
from course_lib.core.model.geometry import line_segments, polygon_edges
from course_lib.core.plots import COLORS, GREY, PALETTE, new_figure, tint

INK = PALETTE[7]  # black: true edges, the circle, marker outlines
# A membership or logic output, 0 white to 1 full colour.
MEMBERSHIP_CMAP = LinearSegmentedColormap.from_list(
    "membership", [tint(PALETTE[3], 0.0), PALETTE[3]]
)
# The colour of each output (in_f, in_g), indexed by code = in_f + 2 in_g: (0,0) light grey,
# (1,0) f's tint, (0,1) g's tint, (1,1) the overlap in the membership colour.
CODE_RGB = np.array(
    [tint(GREY, 0.12), tint(COLORS["f"], 0.4), tint(COLORS["g"], 0.4), tint(PALETTE[3], 0.75)]
)
# The logic figure's panels, one per output of the logic layer.
LOGIC_PANELS = (N_("overlap (AND)"), N_("union (OR)"), N_("XOR"))


def polygon_color(index: int) -> str:
    """The colour of the ``index``-th polygon of a figure: f, g, then the rest of ``PALETTE``."""
    return PALETTE[index % len(PALETTE)]


def _closed(polygon: np.ndarray) -> np.ndarray:
    """The outline of ``polygon`` (n, 2) as a closed path (n + 1, 2)."""
    polygon = np.asarray(polygon, dtype=float)
    return np.vstack([polygon, polygon[:1]])


def _outline(ax: Axes, polygon: np.ndarray, color: str, **style):
    closed = _closed(polygon)
    (line,) = ax.plot(closed[:, 0], closed[:, 1], color=color, lw=style.pop("lw", 1.5), **style)
    return line


def _square(ax: Axes, extent: float, title: str, ticks: bool = True) -> None:
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    if not ticks:  # live views: tick labels cost more to lay out than the picture itself
        ax.set_xticks([])
        ax.set_yticks([])


def _live_figure(width: float, height: float, dpi: int = 72) -> Figure:
    """A figure for a live view: no constrained layout (it measures every text twice per draw)."""
    fig = Figure(figsize=(width, height), dpi=dpi)
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.04, top=0.86, wspace=0.08)
    return fig


def _image(ax: Axes, values: np.ndarray, extent: float, cmap="Greys", vmax: float = 1.0):
    box = (-extent, extent, -extent, extent)
    return ax.imshow(
        values, origin="lower", extent=box, cmap=cmap, vmin=0, vmax=vmax, interpolation="nearest"
    )


def _array(name: str, value: object, ndim: int, what: str) -> np.ndarray:
    """``value`` as a float array with ``ndim`` dimensions, else a ValueError naming ``name``."""
    array = np.asarray(value, dtype=float)
    if array.ndim != ndim:
        raise ValueError(f"{name} must be {what}, got shape {array.shape}")
    return array


def code_image(in_f: np.ndarray, in_g: np.ndarray) -> np.ndarray:
    """RGB (..., 3) of the outputs (in_f, in_g), each a boolean array: ``CODE_RGB[in_f + 2 in_g]``."""
    return CODE_RGB[np.asarray(in_f, dtype=int) + 2 * np.asarray(in_g, dtype=int)]


# --- static figures ------------------------------------------------------------------------------


def seed_picture_figure(
    polygons: Sequence[np.ndarray], names: Sequence[str] = ("f", "g")
) -> Figure:
    """Two overlapping triangles, their edges labelled f1..f3, g1..g3, and the overlap."""
    fig = new_figure(4.6, 4.2, dpi=90)
    ax = fig.add_subplot()
    for index, (polygon, name) in enumerate(zip(polygons, names, strict=True)):
        color = polygon_color(index)
        ax.fill(
            polygon[:, 0],
            polygon[:, 1],
            color=color,
            alpha=0.25,
            label=tr("triangle {name}", name=name),
        )
        _outline(ax, polygon, color)
        for i, (a, b) in enumerate(polygon_edges(polygon), start=1):  # unit i's edge
            ax.annotate(
                f"{name}{i}",
                (a + b) / 2,
                color=color,
                fontsize=9,
                ha="center",
                va="center",
                bbox={"boxstyle": "round", "fc": "white", "ec": color, "lw": 0.5},
            )
    ax.legend(loc="lower right", fontsize=8)
    _square(ax, 1.0, tr("two triangles; their overlap is the darker region"))
    return fig


def feature_grid_figure(
    maps: dict, polygons: Sequence[np.ndarray], names: Sequence[str] = ("f", "g")
) -> Figure:
    """One heatmap per edge feature (its edge drawn in colour), then each polygon's AND output.

    maps: ``region_network.feature_maps`` of the polygons' network: "features" (res, res, E),
    "outputs" (res, res, P) and "extent"."""
    features = _array("maps['features']", maps["features"], 3, "(res, res, edges)")
    n_edges = sum(len(p) for p in polygons)
    if features.shape[2] != n_edges:
        raise ValueError(
            f"maps['features'] must have one map per edge ({n_edges}), got {features.shape[2]}"
        )
    n_cols = max(len(p) for p in polygons) + 1
    fig = new_figure(1.9 * n_cols, 2.0 * len(polygons), dpi=80)
    axes = fig.subplots(len(polygons), n_cols, squeeze=False)
    start, extent = 0, maps["extent"]
    for row, (polygon, name) in enumerate(zip(polygons, names, strict=True)):
        color = polygon_color(row)
        for i in range(n_cols - 1):
            ax = axes[row, i]
            if i >= len(polygon):
                ax.axis("off")
                continue
            _image(ax, features[:, :, start + i], extent)
            edge = polygon_edges(polygon)[i]  # the edge of the unit whose map this is
            _outline(ax, polygon, GREY, lw=0.6, ls=":")
            ax.plot(edge[:, 0], edge[:, 1], color=color, lw=2.5)
            _square(ax, extent, tr("feature {name}{index}", name=name, index=i + 1))
        _image(axes[row, -1], maps["outputs"][:, :, row], extent, cmap=MEMBERSHIP_CMAP)
        _outline(axes[row, -1], polygon, color, lw=1.0)
        _square(axes[row, -1], extent, tr("in_triangle_{name} (AND)", name=name))
        start += len(polygon)
    return fig


def logic_figure(outputs: np.ndarray, extent: float, polygons: Sequence[np.ndarray]) -> Figure:
    """Overlap, union and XOR of two polygons, outputs (res, res, 3) of the logic layer."""
    outputs = _array("outputs", outputs, 3, "(res, res, 3): overlap, union, xor")
    if outputs.shape[2] != 3:
        raise ValueError(f"outputs must be (res, res, 3): overlap, union, xor, got {outputs.shape}")
    fig = new_figure(7.2, 2.6, dpi=80)
    for i, (ax, name) in enumerate(zip(fig.subplots(1, 3), LOGIC_PANELS, strict=True)):
        _image(ax, outputs[:, :, i], extent, cmap=MEMBERSHIP_CMAP)
        for index, polygon in enumerate(polygons):
            _outline(ax, polygon, polygon_color(index), lw=0.8)
        _square(ax, extent, tr(name))
    return fig


def information_loss_figure(
    codes: np.ndarray, extent: float, counts: np.ndarray, linear_grid: np.ndarray
) -> Figure:
    """Left: the plane coloured by the output (in_f, in_g) it maps to (the preimages). Middle: the
    output space, four points, sized by how many grid points land there. Right: an invertible
    linear map sends the grid to a (skewed) grid: no two points collide.

    codes: (res, res) ints 0..3 = in_f + 2 in_g; counts: (4,); linear_grid: (M, 2) mapped points."""
    codes = np.asarray(codes)
    if codes.ndim != 2 or not np.isin(codes, (0, 1, 2, 3)).all():
        raise ValueError(f"codes must be (res, res) ints 0..3 (in_f + 2 in_g), got {codes.shape}")
    counts = np.asarray(counts)
    if counts.shape != (4,):
        raise ValueError(f"counts must have shape (4,), one per output, got {counts.shape}")
    fig = new_figure(8.4, 2.9, dpi=80)
    ax_plane, ax_out, ax_lin = fig.subplots(1, 3)
    ax_plane.imshow(
        codes,
        origin="lower",
        extent=(-extent, extent, -extent, extent),
        cmap=ListedColormap(CODE_RGB),
        vmin=-0.5,
        vmax=3.5,
        interpolation="nearest",
    )
    _square(ax_plane, extent, tr("preimages: whole regions"))
    outputs = np.array([[0, 0], [1, 0], [0, 1], [1, 1]])
    ax_out.scatter(
        outputs[:, 0],
        outputs[:, 1],
        s=40 + 400 * counts / max(counts.max(), 1),
        c=CODE_RGB,
        edgecolors=INK,
    )
    for (x, y), count in zip(outputs, counts, strict=True):
        ax_out.annotate(
            str(int(count)),  # as the cell prints it: 4109, not 4,109
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
    ax_out.set_title(tr("(x, y) -> (in_f, in_g): 4 values"), fontsize=9)
    ax_lin.scatter(linear_grid[:, 0], linear_grid[:, 1], s=2, color=COLORS["f"])
    ax_lin.set_aspect("equal")
    ax_lin.set_title(tr("invertible linear map: grid stays a grid"), fontsize=9)
    ax_lin.tick_params(labelsize=7)
    return fig


def width_sweep_figure(
    d_ffs: Sequence[int], accuracy: np.ndarray, activation: str = "relu"
) -> Figure:
    """Accuracy (len(d_ffs), seeds) against d_ff: every seed as a dot, the best as a line."""
    accuracy = _array("accuracy", accuracy, 2, "(len(d_ffs), seeds)")
    if len(accuracy) != len(d_ffs):
        raise ValueError(
            f"accuracy must have one row per d_ff ({len(d_ffs)}), got shape {accuracy.shape}"
        )
    fig = new_figure(5.2, 3.2, dpi=90)
    ax = fig.add_subplot()
    for j in range(accuracy.shape[1]):
        ax.scatter(
            d_ffs, accuracy[:, j], s=12, color=GREY, label=tr("one seed") if j == 0 else None
        )
    ax.plot(
        d_ffs, accuracy.max(axis=1), "o-", color=COLORS.get(activation, INK), label=tr("best seed")
    )
    ax.axvline(6, color=INK, ls=":", lw=1, label=tr("6 = the edges of f and g"))
    ax.set(
        xlabel=tr("d_ff (hidden units)"),
        ylabel=tr("accuracy (both labels right)"),
        xticks=list(d_ffs),
    )
    ax.set_title(
        tr("2 -> d_ff -> 2, trained by gradient descent ({activation})", activation=activation),
        fontsize=9,
    )
    ax.legend(fontsize=8, loc="lower right")
    return fig


def union_figure(output: np.ndarray, extent: float, pieces: Sequence[np.ndarray]) -> Figure:
    """A non-convex region (output (res, res)) as the union of convex pieces (outlined)."""
    output = _array("output", output, 2, "(res, res)")
    fig = new_figure(3.6, 3.4, dpi=80)
    ax = fig.add_subplot()
    _image(ax, output, extent, cmap=MEMBERSHIP_CMAP)
    for index, piece in enumerate(pieces):
        _outline(ax, piece, polygon_color(index), lw=1.2, ls="--")
    _square(ax, extent, tr("non-convex: OR of {n} convex pieces", n=len(pieces)))
    return fig


# --- live views ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrianglesData:
    """What the triangles demo shows: the hand-built network's memberships in_f, in_g
    (res, res, 2) and their AND (res, res) over [-1, 1]^2, the two triangles, the fraction of
    (point, triangle) answers that agree with the geometric test, the sharpness k, and which
    construction drew it ("six-unit" or "sharp")."""

    memberships: np.ndarray
    overlap: np.ndarray
    polygons: tuple[np.ndarray, np.ndarray]
    agreement: float
    sharpness: float
    network: str = "six-unit"

    def __post_init__(self) -> None:
        shape = np.shape(self.memberships)
        if len(shape) != 3 or shape[2] != 2:
            raise ValueError(f"memberships must be (res, res, 2): in_f, in_g, got shape {shape}")
        if np.shape(self.overlap) != shape[:2]:
            raise ValueError(
                f"overlap must be {shape[:2]} like memberships, got {np.shape(self.overlap)}"
            )
        if len(self.polygons) != 2:
            raise ValueError(f"polygons must be the 2 triangles f and g, got {len(self.polygons)}")
        if not 0 <= self.agreement <= 1:
            raise ValueError(f"agreement must be a fraction in [0, 1], got {self.agreement}")


class TrianglesView:
    """The triangles demo, built once: in_f, in_g and their overlap, each with both outlines.
    An update sets the three images, the six outlines and the title; nothing else is redrawn."""

    PANELS = (N_("in_triangle_f"), N_("in_triangle_g"), N_("overlap = AND"))

    def __init__(self) -> None:
        self.figure = _live_figure(7.2, 2.7)
        # room for the panel titles under the figure's title (a Chinese line is taller)
        self.figure.subplots_adjust(top=0.80)
        self.axes = self.figure.subplots(1, 3)
        self.images, self.outlines = [], []
        for ax, title in zip(self.axes, self.PANELS, strict=True):
            self.images.append(_image(ax, np.zeros((2, 2)), 1.0, cmap=MEMBERSHIP_CMAP))
            self.outlines.append(
                [ax.plot([], [], color=polygon_color(i), lw=0.8)[0] for i in (0, 1)]
            )
            _square(ax, 1.0, tr(title), ticks=False)
        self.title = self.figure.suptitle("", fontsize=9)

    def update(self, data: TrianglesData) -> Figure:
        panels = (data.memberships[..., 0], data.memberships[..., 1], data.overlap)
        for image, values in zip(self.images, panels, strict=True):
            image.set_data(values)
        for lines in self.outlines:
            for line, polygon in zip(lines, data.polygons, strict=True):
                line.set_data(*_closed(polygon).T)
        self.title.set_text(
            tr(
                "{network} network, sharpness {sharpness:g}: "
                "agrees with the geometric test on {agreement:.2%} of the grid",
                network=tr(data.network),
                sharpness=data.sharpness,
                agreement=data.agreement,
            )
        )
        return self.figure


@dataclass(frozen=True)
class NgonData:
    """What the n-gon demo shows: the network's regular n-gon (output (res, res) over
    [-1, 1]^2), the circle of ``radius`` it is inscribed in, and the area the n-gon misses of
    the disc for every n of the slider (``errors``, one per ``ns``)."""

    n: int
    output: np.ndarray
    radius: float
    ns: tuple[int, ...]
    errors: np.ndarray

    def __post_init__(self) -> None:
        if self.n not in self.ns:
            raise ValueError(f"n must be one of ns {list(self.ns)}, got {self.n!r}")
        if np.shape(self.errors) != (len(self.ns),):
            raise ValueError(
                f"errors must have one entry per n ({len(self.ns)}), got {np.shape(self.errors)}"
            )
        if np.ndim(self.output) != 2:
            raise ValueError(f"output must be (res, res), got shape {np.shape(self.output)}")


class NgonView:
    """The n-gon demo, built once: the n-gon image in its circle, the area-error curve.
    A move of n updates the image, the marker and the title; the axes and ticks are reused."""

    TICKS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)

    def __init__(self) -> None:
        self.figure = _live_figure(7.0, 3.0)
        self.figure.subplots_adjust(bottom=0.16, wspace=0.2)
        self.ax_shape, self.ax_error = self.figure.subplots(1, 2, width_ratios=(1, 1.4))
        self.image = _image(self.ax_shape, np.zeros((2, 2)), 1.0, cmap=MEMBERSHIP_CMAP)
        (self.circle,) = self.ax_shape.plot([], [], color=INK, lw=0.8, ls="--")
        _square(self.ax_shape, 1.0, "", ticks=False)
        (self.curve,) = self.ax_error.plot([], [], "o-", ms=3, color=COLORS["f"])
        (self.marker,) = self.ax_error.plot([], [], "o", ms=9, color=COLORS["g"])
        ax = self.ax_error
        ax.set(xlabel=tr("n (edges = features)"), ylabel=tr("disc area − n-gon area"), yscale="log")
        ax.set_yticks([], minor=True)
        ax.tick_params(labelsize=7)
        ax.set_title(tr("the disc, approximated"), fontsize=9)
        self._drawn: tuple | None = None  # (ns, errors, radius) the curve and circle show

    def _draw_curve(self, data: NgonData) -> None:
        """The parts that depend on the slider's range only: drawn once, not on every move."""
        ns, errors = list(data.ns), np.asarray(data.errors, dtype=float)
        angle = np.linspace(0, 2 * np.pi, 200)
        self.circle.set_data(data.radius * np.cos(angle), data.radius * np.sin(angle))
        self.curve.set_data(ns, errors)
        ax = self.ax_error
        ax.set_xlim(min(ns) - 0.7, max(ns) + 0.7)
        low, high = errors.min() / 1.4, errors.max() * 1.4
        ax.set_ylim(low, high)
        # plain tick labels: the default log labels are mathtext, which costs ~50 ms to lay out
        ticks = [t for t in self.TICKS if low <= t <= high]
        ax.set_yticks(ticks, [f"{t:g}" for t in ticks])
        ax.set_yticks([], minor=True)
        ax.set_xticks(ns[::2])
        self._drawn = (tuple(ns), tuple(errors), data.radius)

    def update(self, data: NgonData) -> Figure:
        """Show the network's n-gon and mark n on the curve."""
        if self._drawn != (tuple(data.ns), tuple(np.asarray(data.errors, float)), data.radius):
            self._draw_curve(data)
        self.image.set_data(data.output)
        self.marker.set_data([data.n], [data.errors[list(data.ns).index(data.n)]])
        self.ax_shape.set_title(tr("{n}-gon from {n} edge features", n=data.n), fontsize=9, y=1.0)
        return self.figure


@dataclass(frozen=True)
class LearnedLinesData:
    """What the trained demo shows for one trained 2 -> d_ff -> 2 network (the best seed):
    its predicted (in_f, in_g) probabilities (res, res, 2) over [-1, 1]^2, its hidden units'
    lines normal · p + offset = 0 (unit ``normals`` (d_ff, 2), ``offsets`` (d_ff,)) with each
    unit's weight in the output (``importance`` (d_ff,)), the true triangles, and its accuracy
    (best of ``n_seeds`` seeds)."""

    prediction: np.ndarray
    normals: np.ndarray
    offsets: np.ndarray
    importance: np.ndarray
    polygons: tuple[np.ndarray, ...]
    d_ff: int
    activation: str
    accuracy: float
    n_seeds: int

    def __post_init__(self) -> None:
        shape = np.shape(self.prediction)
        if len(shape) != 3 or shape[2] != 2:
            raise ValueError(f"prediction must be (res, res, 2): in_f, in_g, got shape {shape}")
        expected = {"normals": (self.d_ff, 2), "offsets": (self.d_ff,), "importance": (self.d_ff,)}
        for name, want in expected.items():
            if np.shape(getattr(self, name)) != want:
                raise ValueError(
                    f"{name} must have shape {want} for d_ff={self.d_ff}, "
                    f"got {np.shape(getattr(self, name))}"
                )


class LearnedLinesView:
    """The trained demo, built once: the predicted regions, the hidden units' lines (darker =
    larger weight in the output) and the true edges (dashed). An update sets the image, the
    lines' segments and colours, the edges and the title."""

    def __init__(self) -> None:
        self.figure = _live_figure(4.0, 4.1)
        self.figure.subplots_adjust(top=0.92)
        self.ax = self.figure.add_subplot()
        self.image = self.ax.imshow(
            np.ones((2, 2, 3)), origin="lower", extent=(-1, 1, -1, 1), interpolation="nearest"
        )
        self.lines = LineCollection([], linewidths=1.6, gid="unit-lines")
        self.edges = LineCollection([], colors=INK, linewidths=1.0, linestyles="--", gid="edges")
        self.ax.add_collection(self.lines)
        self.ax.add_collection(self.edges)
        _square(self.ax, 1.0, "", ticks=False)

    def update(self, data: LearnedLinesData) -> Figure:
        prediction = np.asarray(data.prediction)
        self.image.set_data(code_image(prediction[..., 0] > 0.5, prediction[..., 1] > 0.5))
        # one segment per unit that has a line (line_segments leaves out units with w_j = 0)
        weights = np.asarray(data.importance, dtype=float)
        weights = weights / max(weights.max(initial=0.0), 1e-12)
        segments, alphas = [], []
        for normal, offset, weight in zip(data.normals, data.offsets, weights, strict=True):
            for segment in line_segments(np.reshape(normal, (1, 2)), np.reshape(offset, (1,))):
                segments.append(segment)
                alphas.append(0.25 + 0.75 * weight)
        self.lines.set_segments(segments)
        self.lines.set_color([to_rgba(COLORS["unit lines"], a) for a in alphas])
        self.edges.set_segments([_closed(p) for p in data.polygons])
        self.ax.set_title(
            tr(
                "d_ff={d_ff}, {activation}: accuracy {accuracy:.1%} (best of {n_seeds} seeds)",
                d_ff=data.d_ff,
                activation=data.activation,
                accuracy=data.accuracy,
                n_seeds=data.n_seeds,
            ),
            fontsize=9,
        )
        return self.figure
