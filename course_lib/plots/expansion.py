"""Figures for lesson 2 (dimension expansion): decision regions with every hidden unit's line,
capacity against d_ff, region counts, read-back error, the d_ff/d_model trade-off, depth."""

from __future__ import annotations

from functools import lru_cache

import contourpy
import numpy as np
import torch
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from course_lib.experiments.training import TrainResult, label_grid
from course_lib.model.ffn import NUMPY_ACTIVATIONS
from course_lib.model.linear_regions import UNIT_SQUARE, grid_points, region_bound, region_map
from course_lib.plots import COLORS, new_figure

_TASK_COLORS = np.array([[0.12, 0.47, 0.71], [0.84, 0.15, 0.16]])  # label 0 blue, label 1 red


def _probability_image(probs: np.ndarray) -> np.ndarray:
    """(res, res, k) probabilities -> RGB: each label tints white towards its colour."""
    rgb = np.ones(probs.shape[:2] + (3,))
    for label in range(probs.shape[2]):
        rgb -= probs[..., label : label + 1] * (1 - _TASK_COLORS[label]) * 0.75
    return rgb.clip(0, 1)


def draw_unit_lines(ax, W1: np.ndarray, b1: np.ndarray) -> int:
    """Draw w_i . x + b_i = 0 for each hidden unit (W1 (2, n), b1 (n,)) as one collection
    (gid "unit-lines", one segment per unit, long enough to cross [-1, 1]^2); return the count."""
    segments = _unit_segments(W1, b1)
    ax.add_collection(
        LineCollection(segments, colors="0.2", linewidths=0.8, alpha=0.6, gid="unit-lines")
    )
    return len(segments)


@lru_cache(maxsize=8)
def truth_boundary(task: str, resolution: int = 200) -> tuple[np.ndarray, ...]:
    """The task's true boundary as polylines (N, 2), traced once per task on a grid."""
    axis = np.linspace(-1.0, 1.0, resolution)
    truth = label_grid(task, resolution).astype(float)
    lines: list[np.ndarray] = []
    for label in range(truth.shape[2]):
        lines += contourpy.contour_generator(axis, axis, truth[..., label]).lines(0.5)
    return tuple(lines)


def _fixed_figure(width: float, height: float, **margins: float) -> Figure:
    """Like ``new_figure`` at dpi 80 but with fixed margins: a slider redraw skips the layout solver."""
    fig = Figure(figsize=(width, height), dpi=80)
    fig.subplots_adjust(**margins)  # Figure(subplotpars=...) is ignored by this matplotlib
    return fig


def _unit_segments(W1: np.ndarray, b1: np.ndarray) -> np.ndarray:
    """One segment (2 points) per hidden unit's line w_i . x + b_i = 0, long enough to cross
    [-1, 1]^2: (units, 2, 2); units with a zero weight vector have no line."""
    normals, offsets = np.asarray(W1, dtype=float).T, np.asarray(b1, dtype=float).reshape(-1)
    norms = np.linalg.norm(normals, axis=1)
    keep = norms > 1e-6
    unit = normals[keep] / norms[keep, None]
    foot = -offsets[keep, None] / norms[keep, None] * unit  # the point of the line nearest 0
    along = np.stack([-unit[:, 1], unit[:, 0]], axis=1) * 4
    return np.stack([foot - along, foot + along], axis=1)


class DecisionView:
    """Lesson 2's centrepiece figure, built once and updated in place for every control move:
    predicted labels (tint), the true boundary (black), each unit's line (grey), the loss curve.

    New axes re-create their ticks on every draw; updating one figure's artists skips that.
    """

    def __init__(self, resolution: int = 100) -> None:
        self.resolution = resolution
        self.points = torch.tensor(
            grid_points(resolution), dtype=torch.float64
        )  # the experiments' dtype
        self.figure = Figure(figsize=(7.2, 3.6), dpi=80)
        # fixed boxes: no layout solver per redraw
        self.ax = self.figure.add_axes((0.02, 0.04, 0.45, 0.78), anchor="W")
        self.ax_loss = self.figure.add_axes((0.6, 0.15, 0.38, 0.67))
        blank = np.ones((resolution, resolution, 3))
        self.image = self.ax.imshow(
            blank, origin="lower", extent=UNIT_SQUARE, interpolation="nearest"
        )
        self.truth = LineCollection([], colors="k", linewidths=1, gid="truth")
        self.units = LineCollection([], colors="0.2", linewidths=0.8, alpha=0.6, gid="unit-lines")
        self.ax.add_collection(self.truth)
        self.ax.add_collection(self.units)
        self.ax.set(xlim=(-1, 1), ylim=(-1, 1), aspect="equal", xticks=[], yticks=[])
        (self.loss_line,) = self.ax_loss.plot([0, 1], [0, 1])
        self.ax_loss.set(xlabel="Adam step", ylabel="training loss (BCE)")
        self.title = self.figure.suptitle("", fontsize=11)

    def update(self, result: TrainResult, seed_index: int = 0) -> Figure:
        """Show one trained network of ``result`` (its seed ``seed_index``)."""
        probs = result.predict(self.points)[seed_index].numpy()
        self.image.set_data(_probability_image(probs.reshape(self.resolution, self.resolution, -1)))
        self.truth.set_segments(truth_boundary(result.task))
        segments = _unit_segments(result.W1[seed_index].numpy(), result.b1[seed_index].numpy())
        self.units.set_segments(segments)
        self.ax.set_title(f"{result.task}: {len(segments)} unit lines", fontsize=10, y=1.0)
        losses = result.losses[seed_index]
        self.loss_line.set_data(np.arange(len(losses)), losses)
        self.loss_line.set_color(COLORS.get(result.activation, "k"))
        self.ax_loss.set_xlim(0, len(losses) - 1)
        self.ax_loss.set_ylim(0, losses.max() * 1.05)
        k = result.W2.shape[2]
        params = 3 * result.d_ff + result.d_ff * k + k
        self.title.set_text(
            f"d_ff={result.d_ff}, {result.activation}: accuracy {result.accuracy[seed_index]:.3f}, "
            f"{params} parameters"
        )
        return self.figure


def decision_figure(result: TrainResult, seed_index: int = 0, resolution: int = 100) -> Figure:
    """A new figure of one trained network: see ``DecisionView``."""
    return DecisionView(resolution).update(result, seed_index)


def capacity_figure(sweeps: list, threshold: float = 0.97) -> Figure:
    """Accuracy against d_ff per task and activation: median over seeds, band from min to max."""
    fig = new_figure(9.0, 6.0, dpi=80)
    axes = fig.subplots(2, (len(sweeps) + 1) // 2, squeeze=False).ravel()
    for ax, sweep in zip(axes, sweeps, strict=False):
        for i, activation in enumerate(sweep.activations):
            acc, color = sweep.accuracy[i], COLORS.get(activation, "k")
            ax.plot(sweep.widths, np.median(acc, axis=1), "o-", ms=3, color=color, label=activation)
            ax.fill_between(sweep.widths, acc.min(axis=1), acc.max(axis=1), color=color, alpha=0.15)
        ax.axhline(threshold, color="k", ls=":", lw=1)
        ax.set(xscale="log", title=sweep.task, ylim=(0.45, 1.01), xlabel="d_ff", ylabel="accuracy")
        ax.set_xticks(sweep.widths, [str(w) for w in sweep.widths], fontsize=7)
        ax.minorticks_off()
    axes[0].legend(fontsize=8, loc="lower right")
    return fig


def regions_count_figure(widths, exact, sampled) -> Figure:
    """Exact region counts and grid-sampled counts against the bound 1 + n + n(n-1)/2, log scale."""
    fig = new_figure(6.4, 3.8, dpi=80)
    ax = fig.subplots()
    ax.plot(widths, [region_bound(n) for n in widths], "k--", label="bound 1 + n + n(n-1)/2")
    ax.plot(widths, exact, "o-", color=COLORS["relu"], label="exact count in [-1, 1]²")
    ax.plot(widths, sampled, "x:", color=COLORS["gelu"], label="distinct patterns on a grid")
    ax.set(xscale="log", yscale="log", xlabel="d_ff (ReLU units)", ylabel="linear regions")
    ax.legend(fontsize=8)
    return fig


def region_picture(W1: np.ndarray, b1: np.ndarray, count: int, resolution: int = 160) -> Figure:
    """Every linear region of a ReLU layer 2 -> n in its own colour, with the units' lines."""
    fig = _fixed_figure(4.4, 4.4, left=0.03, right=0.97, bottom=0.03, top=0.92)
    ax = fig.subplots()
    labels = region_map(W1, b1, resolution)
    shuffled = np.random.default_rng(0).permutation(labels.max() + 1)[labels]
    ax.imshow(shuffled, origin="lower", extent=UNIT_SQUARE, cmap="tab20", interpolation="nearest")
    draw_unit_lines(ax, W1, b1)
    ax.set(xlim=(-1, 1), ylim=(-1, 1), aspect="equal", xticks=[], yticks=[])
    n = np.asarray(W1).shape[1]
    ax.set_title(f"d_ff={n}: {count} regions (bound {region_bound(n)})", fontsize=10)
    return fig


def reconstruction_figure(curve: dict) -> Figure:
    """Read-back error of x from the hidden layer against d_ff, for [I, -I] units and random ones."""
    fig = new_figure(6.4, 3.6, dpi=80)
    ax = fig.subplots()
    ax.plot(curve["d_ff"], curve["identity"], "o-", color=COLORS["relu"], label="units of [I, -I]")
    ax.plot(curve["d_ff"], curve["random"], "s-", color=COLORS["gelu"], label="random W1")
    ax.set(xlabel="d_ff", ylabel="unexplained variance of x", ylim=(-0.02, 1.02))
    ax.legend(fontsize=8)
    return fig


def ratio_figure(sweep) -> Figure:
    """Left: unexplained variance against d_ff/d_model. Right: parameters and FLOPs per token."""
    fig = new_figure(8.0, 3.4, dpi=80)
    ax, ax_cost = fig.subplots(1, 2)
    ratios = np.array(sweep.ratios, dtype=float)
    ax.plot(ratios, sweep.unexplained.mean(axis=1), "o-", color=COLORS["relu"])
    ax.fill_between(ratios, sweep.unexplained.min(axis=1), sweep.unexplained.max(axis=1), alpha=0.2)
    ax.set(xscale="log", xlabel="d_ff / d_model", ylabel="unexplained variance (held out)")
    ax_cost.plot(ratios, np.array(sweep.parameters) / 1e3, "o-", color="k", label="parameters (k)")
    ax_cost.plot(
        ratios, np.array(sweep.flops) / 1e3, "s--", color=COLORS["gelu"], label="FLOPs/token (k)"
    )
    ax_cost.set(xscale="log", yscale="log", xlabel="d_ff / d_model")
    ax_cost.legend(fontsize=8)
    for axis in (ax, ax_cost):
        axis.set_xticks(ratios, [f"{r:g}" for r in ratios])
        axis.minorticks_off()
        axis.axvline(4, color="0.5", ls=":")
    fig.suptitle(f"d_model = {sweep.d_model}", fontsize=10)
    return fig


def depth_figure(result) -> Figure:
    """Accuracy of 1-4 linear layers at equal parameters: a bar per depth (mean) and a dot per seed."""
    fig = new_figure(6.4, 3.4, dpi=80)
    ax = fig.subplots()
    positions = np.arange(len(result.depths))
    ax.bar(positions, result.accuracy.mean(axis=1), color=COLORS["relu"], alpha=0.6)
    for position, row in zip(positions, result.accuracy, strict=True):
        ax.plot([position] * len(row), row, "k.")
    labels = [
        f"{d} layer{'s' * (d > 1)}\nwidth {w}, {p} params"
        for d, w, p in zip(result.depths, result.widths, result.parameters, strict=True)
    ]
    ax.set_xticks(positions, labels, fontsize=8)
    ax.set(ylabel="accuracy", ylim=(0.4, 1.0), title=f"task: {result.task}")
    return fig


def activation_gallery_figure(names=("relu", "gelu", "gelu_tanh", "silu", "tanh")) -> Figure:
    """The activations on [-3, 3], and how far the tanh form of GELU is from the exact one."""
    fig = new_figure(8.0, 3.2, dpi=80)
    ax, ax_diff = fig.subplots(1, 2)
    z = np.linspace(-3, 3, 301)
    for name in names:
        ax.plot(z, NUMPY_ACTIVATIONS[name](z), color=COLORS[name], label=name)
    ax.set(xlabel="z", ylabel="act(z)", ylim=(-1.2, 3.1))
    ax.legend(fontsize=8)
    ax_diff.plot(
        z,
        NUMPY_ACTIVATIONS["gelu_tanh"](z) - NUMPY_ACTIVATIONS["gelu"](z),
        color=COLORS["gelu_tanh"],
    )
    ax_diff.set(xlabel="z", ylabel="gelu_tanh(z) - gelu(z)", title="tanh approximation error")
    return fig


def gated_budget_figure(
    d_model: int, d_ff: int, plain: int, gated_same: int, gated_equal: int, d_ff_equal: int
) -> Figure:
    """Parameter counts: plain FFN, gated FFN at the same d_ff, gated FFN at the equal-budget d_ff'."""
    fig = _fixed_figure(6.4, 3.0, left=0.2, right=0.97, bottom=0.22, top=0.9)
    ax = fig.subplots()
    # millions as plain text: the default "1e7" offset label is drawn with mathtext, slowly
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value / 1e6:g}M"))
    labels = [f"plain\nd_ff={d_ff}", f"gated\nd_ff={d_ff}", f"gated\nd_ff'={d_ff_equal}"]
    values = [plain, gated_same, gated_equal]
    bars = ax.barh(labels, values, color=[COLORS["relu"], COLORS["gelu"], COLORS["silu"]])
    ax.bar_label(bars, [f"{v:,}" for v in values], fontsize=9, padding=3)
    ax.set(
        xlabel="parameters (weights, no biases; M = million)",
        xlim=(0, max(values) * 1.3),
        title=f"d_model = {d_model}",
    )
    return fig
