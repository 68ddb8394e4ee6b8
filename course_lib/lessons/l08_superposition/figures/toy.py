"""Lesson 8's pictures of the toy model of superposition (Elhage et al. 2022): each feature's
column W_i as an arrow in the plane of the hidden dimensions, each feature's dimensionality D_i,
the arrows across the sparsities, and the phase diagram of two features in one dimension."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter

from course_lib.core._validate import grid_value
from course_lib.core.i18n import N_, series, tr
from course_lib.core.plots import GREY, PALETTE, new_figure, tint
from course_lib.lessons.l08_superposition.experiments.phase import phase_classes

LIMIT = 1.45  # the arrow panels span ±LIMIT: the stored arrows reach 1.14, their labels 1.32
LABEL_GAP = 0.18  # a feature's number sits this far beyond its arrow's tip
SHOWN = 0.05  # an arrow shorter than this is listed as dropped, not drawn as a lone head
D_LINES = ((1.0, N_("orthogonal")), (0.5, N_("antipodal pair")), (0.4, N_("pentagon")))
PHASES = (
    N_("not represented"),
    N_("dedicated dimension"),
    N_("superposition, antipodal"),
    N_("other arrangement"),
)
PHASE_COLOURS = (tint(GREY, 0.35), tint(PALETTE[0], 0.65), tint(PALETTE[1], 0.65), PALETTE[3])


class ToyGrid(Protocol):
    """Trained toy models over a grid (``experiments.toy_grid.ToyGrid``): its axes, W (*grid,
    m, n) and held-out loss (*grid,)."""

    axes: dict[str, tuple[float, ...]]
    W: np.ndarray
    loss: np.ndarray


@dataclass(frozen=True)
class ToyPicture:
    """One trained toy model as the demo shows it: its setting, W (2, n), b (n,), each feature's
    dimensionality D (n,), its held-out loss and its training loss every ``curve_every`` steps."""

    sparsity: float
    decay: float
    W: np.ndarray
    b: np.ndarray
    D: np.ndarray
    loss: float
    curve: np.ndarray
    curve_every: int = 100


def arrow_reach(W: np.ndarray) -> float:
    """How far from the origin W's arrows and their labels reach: W (2, n)."""
    return float(np.linalg.norm(W, axis=0).max()) + LABEL_GAP


def plane_axes(ax, fontsize: int = 8) -> tuple[list, list]:
    """An arrow panel over [-LIMIT, LIMIT]²: the unit circle and one hidden arrow and label per
    colour of the palette (features beyond it cannot be told apart), to be set by ``set_arrows``."""
    turn = np.linspace(0, 2 * np.pi, 121)
    ax.plot(np.cos(turn), np.sin(turn), color=GREY, linewidth=0.6, linestyle=":")
    ax.set_xlim(-LIMIT, LIMIT), ax.set_ylim(-LIMIT, LIMIT)
    ax.set_aspect("equal")
    ax.set_xticks([]), ax.set_yticks([])
    arrows, labels = [], []
    for colour in PALETTE[:7]:
        props = {"arrowstyle": "-|>", "color": colour, "linewidth": 2, "shrinkA": 0, "shrinkB": 0}
        arrow = ax.annotate("", xy=(1, 0), xytext=(0, 0), arrowprops=props, visible=False)
        label = ax.text(0, 0, "", color=colour, fontsize=fontsize, ha="center", va="center",
                        visible=False)  # fmt: skip
        arrows.append(arrow), labels.append(label)
    return arrows, labels


def set_arrows(arrows: Sequence, labels: Sequence, W: np.ndarray) -> list[int]:
    """Point arrow i at column W_i (W: (2, n)) and number it beyond the tip; hide the rest.
    Returns the features too short to draw (‖W_i‖ < ``SHOWN``)."""
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] != 2 or W.shape[1] > len(arrows):
        raise ValueError(f"W must be (2, n) with n <= {len(arrows)}, got shape {W.shape}")
    if arrow_reach(W) > LIMIT:
        raise ValueError(f"W: an arrow reaching {arrow_reach(W):.2f} would be cut at {LIMIT}")
    dropped = []
    for i, (arrow, label) in enumerate(zip(arrows, labels, strict=True)):
        norm = np.linalg.norm(W[:, i]) if i < W.shape[1] else 0.0
        shown = norm >= SHOWN
        arrow.set_visible(shown), label.set_visible(shown)
        if shown:
            arrow.xy = tuple(W[:, i])
            label.set_position(tuple(W[:, i] * (1 + LABEL_GAP / norm)))
            label.set_text(str(i))
        elif i < W.shape[1]:
            dropped.append(i)
    return dropped


def dropped_text(dropped: Sequence[int]) -> str:
    """The note naming the features too short to draw, or nothing."""
    if not dropped:
        return ""
    return tr("dropped (‖W_i‖ < {cut}): {features}", cut=SHOWN,
              features=series(dropped))  # fmt: skip


class ToyView:
    """Lesson 8's demo figure, built once and updated in place: left, the features' arrows in the
    plane; right, each feature's dimensionality D_i against the arrangements' values. Two panels,
    so that a phone's width still shows them (the loss is in the title)."""

    def __init__(self, features: int = 5) -> None:
        self.figure = fig = new_figure(7.6, 3.8, dpi=80, layout=None)
        self.plane = fig.add_axes((0.02, 0.07, 0.38, 0.76))
        self.arrows, self.labels = plane_axes(self.plane, fontsize=10)
        self.dropped = self.plane.text(0.02, 0.02, "", transform=self.plane.transAxes, fontsize=8,
                                       color=GREY, va="bottom")  # fmt: skip
        self.bars_ax = fig.add_axes((0.52, 0.22, 0.33, 0.61))
        self.bars = self.bars_ax.bar(range(features), np.zeros(features), color=PALETTE[:features])
        for level, name in D_LINES:
            self.bars_ax.axhline(level, color=GREY, linestyle="--", linewidth=0.9)
            self.bars_ax.text(1.02, level, tr(name), transform=self.bars_ax.get_yaxis_transform(),
                              fontsize=8, color=GREY, va="center")  # fmt: skip
        self.bars_ax.set_ylim(0, 1.05)
        self.bars_ax.set_xlim(-0.6, features - 0.4)
        self.bars_ax.set_ylabel(tr("feature dimensionality D_i"))
        self.bars_ax.set_xlabel(tr("feature i, its importance below"), fontsize=9)
        self.title = fig.suptitle("", fontsize=11)

    def update(self, picture: ToyPicture) -> Figure:
        n = picture.W.shape[1]
        if n != len(self.bars):
            raise ValueError(f"picture: {len(self.bars)} features expected, got {n}")
        dropped = set_arrows(self.arrows, self.labels, picture.W)
        self.dropped.set_text(dropped_text(dropped))
        for bar, D in zip(self.bars, picture.D, strict=True):
            bar.set_height(D)
        ticks = [f"{i}\n{picture.decay**i:.2f}" for i in range(n)]
        self.bars_ax.set_xticks(range(n), ticks, fontsize=8)
        self.title.set_text(
            tr("sparsity S = {S:.2f}, importance I_i = {decay}^i: loss {loss:.3g}",
               S=picture.sparsity, decay=picture.decay, loss=picture.loss)
        )  # fmt: skip
        return self.figure


def arrows_grid(grid: ToyGrid, decay: float) -> Figure:
    """The paper's opening figure: the arrow picture of every sparsity of ``grid`` (axes
    sparsity, decay; W (sparsities, decays, 2, n)) for one ``decay``, each titled by its S."""
    decays = list(grid.axes["decay"])
    grid_value("decay", decay, decays)
    sparsities = grid.axes["sparsity"]
    rows = 2
    cols = -(-len(sparsities) // rows)
    fig = new_figure(2.0 * cols, 2.0 * rows + 0.5, dpi=80)
    fig.get_layout_engine().set(h_pad=0.1)  # room between the title and the top row's S
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax, S, W in zip(axes, sparsities, grid.W[:, decays.index(decay)], strict=False):
        arrows, labels = plane_axes(ax, fontsize=7)
        dropped = set_arrows(arrows, labels, W)
        ax.text(0.03, 0.03, dropped_text(dropped), transform=ax.transAxes, fontsize=7, color=GREY)
        ax.set_title(tr("S = {S:.2f}", S=S), fontsize=9)
    for ax in axes[len(sparsities) :]:
        ax.set_visible(False)
    n, m = grid.W.shape[-1], grid.W.shape[-2]
    fig.suptitle(
        tr("{n} features in {m} dimensions, importance I_i = {decay}^i: each arrow is a column W_i",
           n=n, m=m, decay=decay),
        fontsize=11,
    )  # fmt: skip
    return fig


def phase_diagram(grid: ToyGrid) -> Figure:
    """The phase diagram of two features in one dimension: each model of ``grid`` (axes density,
    relative; W (densities, relatives, 1, 2)) coloured by what it does with the extra feature
    (``experiments.phase.phase_classes``), over its relative importance and density, both log."""
    classes = phase_classes(grid.W)
    density = np.asarray(grid.axes["density"], dtype=float)
    relative = np.asarray(grid.axes["relative"], dtype=float)
    fig = new_figure(6.4, 4.6, dpi=80)
    ax = fig.subplots()
    cmap = ListedColormap(PHASE_COLOURS)
    ax.pcolormesh(log_edges(relative), log_edges(density), classes, cmap=cmap,
                  vmin=-0.5, vmax=len(PHASES) - 0.5, edgecolors="white", linewidth=0.5)  # fmt: skip
    ax.set_xscale("log"), ax.set_yscale("log")
    ax.axvline(1.0, color=PALETTE[-1], linestyle=":", linewidth=1)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.set(
        xlabel=tr("the extra feature's importance, relative to feature 0's"),
        ylabel=tr("feature density 1 − S"),
    )
    fig.suptitle(tr("2 features in 1 dimension: what the model does with the extra one"))
    present = sorted(set(classes.ravel().tolist()))
    handles = [Patch(facecolor=PHASE_COLOURS[c], edgecolor=GREY) for c in present]
    ax.legend(handles, [tr(PHASES[c]) for c in present], fontsize=8, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), borderaxespad=0)  # fmt: skip
    return fig


def log_edges(centres: np.ndarray) -> np.ndarray:
    """The cell edges of points evenly spaced on a log axis, in either order: (len + 1,)."""
    logs = np.log(centres)
    mids = (logs[1:] + logs[:-1]) / 2
    return np.exp(np.concatenate([[2 * logs[0] - mids[0]], mids, [2 * logs[-1] - mids[-1]]]))
