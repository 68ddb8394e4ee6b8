"""Figures for lesson 2 (dimension expansion): decision regions with every hidden unit's line,
capacity against d_ff, region counts, read-back error, the d_ff/d_model trade-off, depth, gated
budgets. Data in, Figure out: every number drawn here was computed by ``course_lib.core.widgets`` or
an experiment, and the demos' views (``DecisionView``, ``RegionsView``, ``GatedBudgetView``)
update one figure in place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from course_lib.core.i18n import N_, display_width, tr
from course_lib.core.plots import COLORS, GREY, PALETTE, new_figure, tint

_INK = PALETTE[7]  # black: true boundaries, thresholds, parameter counts
_UNIT_LINES = COLORS["unit lines"]
_SQUARE = (-1.0, 1.0, -1.0, 1.0)  # imshow extent of the square [-1, 1]^2 every picture shows
# Region colours: the palette (without black, which would hide the unit lines) at two tints.
_REGION_COLORS = np.array([tint(color, amount) for amount in (0.3, 0.6) for color in PALETTE[:7]])


def _fixed_figure(width: float, height: float, **margins: float) -> Figure:
    """Like ``new_figure`` at dpi 80 but with fixed margins: a slider redraw skips the layout solver."""
    fig = Figure(figsize=(width, height), dpi=80)
    fig.subplots_adjust(**margins)  # Figure(subplotpars=...) is ignored by this matplotlib
    return fig


def _segments(name: str, segments: object) -> np.ndarray:
    """``segments`` as a float array (lines, 2, 2), or a ValueError naming ``name``."""
    array = np.asarray(segments, dtype=float)
    if array.ndim != 3 or array.shape[1:] != (2, 2):
        raise ValueError(f"{name} must have shape (lines, 2, 2), got {array.shape}")
    return array


# The tasks' names as tables and figures show them: the code name in English, a Chinese name in
# the Chinese edition ("spiral", which lesson 7 prints too, is in the core's catalogue).
TASK_NAMES = {
    "triangles": N_("triangles"),
    "ring": N_("ring"),
    "xor": N_("xor"),
    "spiral": N_("spiral"),
}


def task_name(task: str, width: int = 0) -> str:
    """``task``'s name in the learner's language ("xor" -> "异或任务" in Chinese), right-aligned
    to ``width`` columns of a monospaced table, a Chinese character taking two."""
    if task not in TASK_NAMES:
        raise ValueError(f"task must be one of {tuple(TASK_NAMES)}, got {task!r}")
    name = tr(TASK_NAMES[task])
    return " " * max(0, width - display_width(name)) + name


def _unit_lines_title(task: str, count: int) -> str:
    """ "ring: 7 unit lines" (one unit line: singular)."""
    if count == 1:
        return tr("{task}: {count} unit line", task=task_name(task), count=count)
    return tr("{task}: {count} unit lines", task=task_name(task), count=count)


def _depth_label(depth: int, width: int, parameters: int) -> str:
    """A depth's tick label: "2 layers\nwidth 50, 201 params" (one layer: singular)."""
    if depth > 1:
        return tr(
            "{depth} layers\nwidth {width}, {parameters} params",
            depth=depth,
            width=width,
            parameters=parameters,
        )
    return tr(
        "{depth} layer\nwidth {width}, {parameters} params",
        depth=depth,
        width=width,
        parameters=parameters,
    )


def _square_axes(ax) -> None:
    ax.set(xlim=(-1, 1), ylim=(-1, 1), aspect="equal", xticks=[], yticks=[])


def _probability_image(probabilities: np.ndarray) -> np.ndarray:
    """(res, res, k) probabilities -> RGB (res, res, 3): label i tints white towards PALETTE[i]
    as far as its probability, and overlapping labels mix like inks (their tints multiply), so a
    point with every label at 0 stays white and the lines drawn on top stay visible."""
    probabilities = np.asarray(probabilities, dtype=float)
    if probabilities.ndim != 3 or not 1 <= probabilities.shape[2] <= len(PALETTE):
        raise ValueError(
            f"probabilities must have shape (res, res, k) with 1 <= k <= {len(PALETTE)}, "
            f"got {probabilities.shape}"
        )
    rgb = np.ones(probabilities.shape[:2] + (3,))
    for label in range(probabilities.shape[2]):
        shade = 1 - np.array(tint(PALETTE[label], 0.6))
        rgb *= 1 - probabilities[..., label : label + 1] * shade
    return rgb.clip(0, 1)


@dataclass(frozen=True, eq=False)
class DecisionData:
    """One trained network 2 -> d_ff -> k of the width demo, as the picture needs it."""

    task: str
    d_ff: int
    activation: str
    probabilities: np.ndarray  # (res, res, k) on model.geometry.grid's points, rows from the bottom
    truth: tuple[np.ndarray, ...]  # the task's true boundary: polylines, each (N, 2)
    unit_segments: np.ndarray  # (lines, 2, 2): one segment per hidden unit's line w.x + b = 0
    losses: np.ndarray  # (steps,): the training loss after each Adam step
    accuracy: float  # fraction of training points with every label right
    parameters: int  # numbers in W1, b1, W2, b2


class DecisionView:
    """Lesson 2's centrepiece figure, built once and updated in place for every control move:
    predicted labels (tint), the true boundary (black), each unit's line (grey), the loss curve.

    New axes re-create their ticks on every draw; updating one figure's artists skips that.
    """

    def __init__(self) -> None:
        self.figure = Figure(figsize=(7.2, 3.6), dpi=80)
        # fixed boxes: no layout solver per redraw
        self.ax = self.figure.add_axes((0.02, 0.04, 0.45, 0.78), anchor="W")
        self.ax_loss = self.figure.add_axes((0.6, 0.15, 0.38, 0.67))
        self.image = self.ax.imshow(
            np.ones((2, 2, 3)), origin="lower", extent=_SQUARE, interpolation="nearest"
        )
        self.truth = LineCollection([], colors=_INK, linewidths=1, gid="truth")
        self.units = LineCollection(
            [], colors=_UNIT_LINES, linewidths=0.8, alpha=0.6, gid="unit-lines"
        )
        self.ax.add_collection(self.truth)
        self.ax.add_collection(self.units)
        _square_axes(self.ax)
        (self.loss_line,) = self.ax_loss.plot([0, 1], [0, 1])
        self.ax_loss.set(xlabel=tr("Adam step"), ylabel=tr("training loss (BCE)"))
        self.title = self.figure.suptitle("", fontsize=11)

    def update(self, data: DecisionData) -> Figure:
        if not isinstance(data, DecisionData):
            raise TypeError(f"data must be a DecisionData, got {type(data).__name__}")
        segments = _segments("data.unit_segments", data.unit_segments)
        self.image.set_data(_probability_image(data.probabilities))
        self.truth.set_segments(data.truth)
        self.units.set_segments(segments)
        self.ax.set_title(_unit_lines_title(data.task, len(segments)), fontsize=10, y=1.0)
        losses = np.asarray(data.losses, dtype=float)
        self.loss_line.set_data(np.arange(len(losses)), losses)
        self.loss_line.set_color(COLORS.get(data.activation, GREY))
        self.ax_loss.set_xlim(0, max(len(losses) - 1, 1))
        self.ax_loss.set_ylim(0, losses.max() * 1.05)
        self.title.set_text(
            tr(
                "d_ff={d_ff}, {activation}: accuracy {accuracy:.3f}, {parameters} parameters",
                d_ff=data.d_ff,
                activation=data.activation,
                accuracy=data.accuracy,
                parameters=data.parameters,
            )
        )
        return self.figure


@dataclass(frozen=True, eq=False)
class RegionsData:
    """The linear regions of one ReLU layer 2 -> d_ff inside [-1, 1]^2."""

    d_ff: int
    labels: np.ndarray  # (res, res) ints: each grid point's region, rows from the bottom
    count: int  # the exact number of regions inside the square
    bound: int  # 1 + n + n(n-1)/2
    unit_segments: np.ndarray  # (lines, 2, 2): one segment per unit's line


class RegionsView:
    """Every linear region of a ReLU layer in its own colour, with the units' lines; one figure,
    updated in place. Colours repeat (there are more regions than colours), shuffled with a fixed
    seed so that neighbouring regions rarely share one."""

    def __init__(self) -> None:
        self.figure = _fixed_figure(4.4, 4.4, left=0.03, right=0.97, bottom=0.03, top=0.92)
        self.ax = self.figure.subplots()
        self.image = self.ax.imshow(
            np.ones((2, 2, 3)), origin="lower", extent=_SQUARE, interpolation="nearest"
        )
        self.units = LineCollection(
            [], colors=_UNIT_LINES, linewidths=0.8, alpha=0.6, gid="unit-lines"
        )
        self.ax.add_collection(self.units)
        _square_axes(self.ax)

    def update(self, data: RegionsData) -> Figure:
        if not isinstance(data, RegionsData):
            raise TypeError(f"data must be a RegionsData, got {type(data).__name__}")
        labels = np.asarray(data.labels)
        if labels.ndim != 2 or not np.issubdtype(labels.dtype, np.integer) or labels.min() < 0:
            raise ValueError(
                f"data.labels must be a 2-D array of ints >= 0, got {labels.dtype} {labels.shape}"
            )
        shuffled = np.random.default_rng(0).permutation(labels.max() + 1)[labels]
        self.image.set_data(_REGION_COLORS[shuffled % len(_REGION_COLORS)])
        self.units.set_segments(_segments("data.unit_segments", data.unit_segments))
        self.ax.set_title(
            tr(
                "d_ff={d_ff}: {count} regions (bound {bound})",
                d_ff=data.d_ff,
                count=data.count,
                bound=data.bound,
            ),
            fontsize=10,
        )
        return self.figure


@dataclass(frozen=True, eq=False)
class GatedBudgetData:
    """Parameter counts of a plain FFN and a gated one, and the chosen variant's gate."""

    d_model: int
    d_ff: int
    d_ff_equal: int  # the gated width with the plain FFN's budget, round(2/3 d_ff)
    variant: str  # reglu, geglu or swiglu
    activation: str  # the gate's activation: relu, gelu or silu
    plain: int  # weights of the plain FFN, 2 d_model d_ff
    gated_same: int  # weights of the gated FFN at d_ff, 3 d_model d_ff
    gated_equal: int  # weights of the gated FFN at d_ff'
    z: np.ndarray  # (points,): pre-activations for the gate panel
    gate: np.ndarray  # (points,): activation(z)


class GatedBudgetView:
    """Left: the parameter budgets (the same for every variant). Right: the chosen variant's gate
    activation, which is what differs. One figure, updated in place."""

    def __init__(self) -> None:
        self.figure = _fixed_figure(8.4, 3.0, left=0.13, right=0.97, bottom=0.22, top=0.86)
        grid_spec = self.figure.add_gridspec(1, 2, width_ratios=(2.3, 1), wspace=0.25)
        self.ax = self.figure.add_subplot(grid_spec[0])
        self.ax_gate = self.figure.add_subplot(grid_spec[1])
        # millions as plain text: the default "1e7" offset label is drawn with mathtext, slowly
        self.ax.xaxis.set_major_formatter(
            FuncFormatter(lambda value, _: f"{value / 1e6:g}M" if value else "0")
        )
        self.positions = np.arange(3)
        self.bars = self.ax.barh(self.positions, [1, 1, 1])
        self.counts = [
            self.ax.text(1, y, "", va="center", fontsize=9, color=_INK) for y in self.positions
        ]
        self.ax.invert_yaxis()
        self.ax.set_xlabel(tr("parameters (weights, no biases; M = million)"))
        self.ax_gate.axhline(0, color=GREY, lw=0.6)
        self.ax_gate.axvline(0, color=GREY, lw=0.6)
        (self.gate_line,) = self.ax_gate.plot([0, 1], [0, 1], lw=2)
        self.ax_gate.set(xlim=(-3, 3), ylim=(-0.6, 3.1), xlabel="z")

    def update(self, data: GatedBudgetData) -> Figure:
        if not isinstance(data, GatedBudgetData):
            raise TypeError(f"data must be a GatedBudgetData, got {type(data).__name__}")
        z, gate = np.asarray(data.z, dtype=float), np.asarray(data.gate, dtype=float)
        if z.ndim != 1 or gate.shape != z.shape:
            raise ValueError(
                f"data.z and data.gate must be 1-D of one length, got {z.shape} and {gate.shape}"
            )
        color = COLORS.get(data.activation, GREY)
        values = (data.plain, data.gated_same, data.gated_equal)
        labels = (
            tr("plain\nd_ff={d_ff}", d_ff=data.d_ff),
            f"{data.variant}\nd_ff={data.d_ff}",
            f"{data.variant}\nd_ff'={data.d_ff_equal}",
        )
        fills = (GREY, tint(color, 0.5), color)  # plain, gated at d_ff, gated at d_ff'
        for bar, text, value, y, fill in zip(
            self.bars, self.counts, values, self.positions, fills, strict=True
        ):
            bar.set_width(value)
            bar.set_color(fill)
            text.set_position((value, y))
            text.set_text(f"  {value:,}")
        self.ax.set_yticks(self.positions, labels, fontsize=9)
        self.ax.set_xlim(0, max(values) * 1.3)
        self.ax.set_title(
            tr("d_model = {d_model}: the same budgets for every variant", d_model=data.d_model),
            fontsize=10,
        )
        self.gate_line.set_data(z, gate)
        self.gate_line.set_color(color)
        self.ax_gate.set_title(
            tr(
                "{variant}'s gate: {activation}(z)",
                variant=data.variant,
                activation=data.activation,
            ),
            fontsize=10,
        )
        return self.figure


def capacity_figure(sweeps: list, threshold: float = 0.97) -> Figure:
    """Accuracy against d_ff per task and activation: median over seeds, band from min to max."""
    fig = new_figure(9.0, 6.0, dpi=80)
    axes = fig.subplots(2, (len(sweeps) + 1) // 2, squeeze=False).ravel()
    for ax, sweep in zip(axes, sweeps, strict=False):
        for i, activation in enumerate(sweep.activations):
            acc, color = sweep.accuracy[i], COLORS.get(activation, GREY)
            ax.plot(sweep.widths, np.median(acc, axis=1), "o-", ms=3, color=color, label=activation)
            ax.fill_between(sweep.widths, acc.min(axis=1), acc.max(axis=1), color=color, alpha=0.15)
        ax.axhline(threshold, color=_INK, ls=":", lw=1)
        ax.set(
            xscale="log",
            title=task_name(sweep.task),
            ylim=(0.45, 1.01),
            xlabel="d_ff",
            ylabel=tr("accuracy"),
        )
        ax.set_xticks(sweep.widths, [str(w) for w in sweep.widths], fontsize=7)
        ax.minorticks_off()
    axes[0].legend(fontsize=8, loc="lower right")
    return fig


def regions_count_figure(
    widths: Sequence[int], exact: Sequence[int], sampled: Sequence[int], bounds: Sequence[int]
) -> Figure:
    """Exact region counts and grid-sampled counts against the bound 1 + n + n(n-1)/2 (``bounds``,
    one per width), log scale."""
    lengths = {
        name: len(v) for name, v in (("exact", exact), ("sampled", sampled), ("bounds", bounds))
    }
    if any(n != len(widths) for n in lengths.values()):
        raise ValueError(
            f"exact, sampled and bounds need one entry per width ({len(widths)}), got {lengths}"
        )
    fig = new_figure(6.4, 3.8, dpi=80)
    ax = fig.subplots()
    ax.plot(widths, bounds, "--", color=_INK, label=tr("bound 1 + n + n(n-1)/2"))
    ax.plot(widths, exact, "o-", color=COLORS["relu"], label=tr("exact count in [-1, 1]²"))
    ax.plot(widths, sampled, "x:", color=COLORS["gelu"], label=tr("distinct patterns on a grid"))
    ax.set(xscale="log", yscale="log", xlabel=tr("d_ff (ReLU units)"), ylabel=tr("linear regions"))
    ax.legend(fontsize=8)
    return fig


def reconstruction_figure(curve: dict) -> Figure:
    """Read-back error of x from the hidden layer against d_ff, for [I, -I] units and random ones."""
    fig = new_figure(6.4, 3.6, dpi=80)
    ax = fig.subplots()
    identity, random = tr("units of [I, -I]"), tr("random W1")
    ax.plot(curve["d_ff"], curve["identity"], "o-", color=COLORS["relu"], label=identity)
    ax.plot(curve["d_ff"], curve["random"], "s-", color=COLORS["gelu"], label=random)
    ax.set(xlabel="d_ff", ylabel=tr("unexplained variance of x"), ylim=(-0.02, 1.02))
    ax.legend(fontsize=8)
    return fig


def ratio_figure(sweep) -> Figure:
    """Left: unexplained variance against d_ff/d_model. Right: parameters and FLOPs per token."""
    fig = new_figure(8.0, 3.4, dpi=80)
    ax, ax_cost = fig.subplots(1, 2)
    ratios = np.array(sweep.ratios, dtype=float)
    ax.plot(ratios, sweep.unexplained.mean(axis=1), "o-", color=COLORS["relu"])
    ax.fill_between(
        ratios,
        sweep.unexplained.min(axis=1),
        sweep.unexplained.max(axis=1),
        color=COLORS["relu"],
        alpha=0.2,
    )
    ax.set(xscale="log", xlabel="d_ff / d_model", ylabel=tr("unexplained variance (held out)"))
    parameters, flops = tr("parameters (k)"), tr("FLOPs/token (k)")
    ax_cost.plot(ratios, np.array(sweep.parameters) / 1e3, "o-", color=_INK, label=parameters)
    ax_cost.plot(ratios, np.array(sweep.flops) / 1e3, "s--", color=COLORS["gelu"], label=flops)
    ax_cost.set(xscale="log", yscale="log", xlabel="d_ff / d_model")
    ax_cost.legend(fontsize=8)
    for axis in (ax, ax_cost):
        axis.set_xticks(ratios, [f"{r:g}" for r in ratios])
        axis.minorticks_off()
        axis.axvline(4, color=GREY, ls=":")
    fig.suptitle(f"d_model = {sweep.d_model}", fontsize=10)
    return fig


def depth_figure(result) -> Figure:
    """Accuracy of 1-4 linear layers at equal parameters: a bar per depth (mean) and a dot per seed."""
    fig = new_figure(6.4, 3.4, dpi=80)
    ax = fig.subplots()
    positions = np.arange(len(result.depths))
    ax.bar(positions, result.accuracy.mean(axis=1), color=COLORS["relu"], alpha=0.6)
    for position, row in zip(positions, result.accuracy, strict=True):
        ax.plot([position] * len(row), row, ".", color=_INK)
    labels = [
        _depth_label(d, w, p)
        for d, w, p in zip(result.depths, result.widths, result.parameters, strict=True)
    ]
    ax.set_xticks(positions, labels, fontsize=8)
    ax.set(
        ylabel=tr("accuracy"),
        ylim=(0.4, 1.0),
        title=tr("task: {task}", task=task_name(result.task)),
    )
    return fig


def activation_gallery_figure(z: np.ndarray, curves: Mapping[str, np.ndarray]) -> Figure:
    """The activations ``curves`` ({name: act(z)}) against ``z``, and how far the tanh form of
    GELU is from the exact one (``curves`` must hold "gelu" and "gelu_tanh")."""
    z = np.asarray(z, dtype=float)
    missing = sorted({"gelu", "gelu_tanh"} - set(curves))
    if missing:
        raise ValueError(
            f"curves must include 'gelu' and 'gelu_tanh' (the right panel is their gap), "
            f"missing {missing} in {sorted(curves)}"
        )
    for name, values in curves.items():
        if np.shape(values) != z.shape:
            raise ValueError(
                f"curves[{name!r}] must have the shape of z {z.shape}, got {np.shape(values)}"
            )
    fig = new_figure(8.0, 3.2, dpi=80)
    ax, ax_diff = fig.subplots(1, 2)
    for name, values in curves.items():
        ax.plot(z, values, color=COLORS.get(name, GREY), label=name)
    ax.set(xlabel="z", ylabel=tr("act(z)"), ylim=(-1.2, 3.1))
    ax.legend(fontsize=8)
    gap = np.asarray(curves["gelu_tanh"]) - np.asarray(curves["gelu"])
    ax_diff.plot(z, gap, color=COLORS["gelu_tanh"])
    ax_diff.set(xlabel="z", ylabel="gelu_tanh(z) - gelu(z)", title=tr("tanh approximation error"))
    return fig
