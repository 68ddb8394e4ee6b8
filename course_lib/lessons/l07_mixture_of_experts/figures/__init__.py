"""Lesson 7's figures: where a router sends each point of the plane, each expert's own regions
there, and how the load spreads over the experts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Protocol

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_, tr
from course_lib.core.plots import GREY, PALETTE, new_figure, tint

EDGE = (0.15, 0.15, 0.15, 0.55)  # an expert's own region edges: thin, dark, see-through
LOAD_TOP = (
    0.8  # the demo's load axis: a share above it would be cut (checked), the key sits above 0.6
)
TASK_NAMES = {"spiral": N_("spiral")}  # a task as the learner reads it; the code's name in English


class ExpertMap(Protocol):
    """One network on a grid over [-1, 1]^2 (``experiments.moe.expert_map``): the first-ranked
    expert, the output logit and the expert's own region edges at every point, (res, res)."""

    chosen: np.ndarray
    logit: np.ndarray
    edges: np.ndarray


def expert_colours(experts: int) -> ListedColormap:
    """Expert i's light fill, for up to eight experts (the palette's seven colours, then grey);
    one expert, a dense FFN, is light grey."""
    if not 1 <= experts <= len(PALETTE):
        raise ValueError(f"experts: between 1 and {len(PALETTE)} can be told apart, got {experts}")
    if experts == 1:
        return ListedColormap([tint(GREY, 0.3)])
    return ListedColormap([tint(c, 0.6) for c in (*PALETTE[:7], GREY)][:experts])


def map_image(picture: ExpertMap, experts: int) -> np.ndarray:
    """(res, res, 4) RGBA: each point in its first-ranked expert's colour (``expert_colours``),
    darkened towards ``EDGE`` where the expert's own units switch (``picture.edges``)."""
    fill = np.asarray(expert_colours(experts).colors)[picture.chosen]  # (res, res, 3)
    strength = EDGE[3] * picture.edges[..., None]
    rgb = (1 - strength) * fill + strength * np.asarray(EDGE[:3])
    return np.concatenate([rgb, np.ones((*picture.chosen.shape, 1))], axis=-1)


def boundary_lines(picture: ExpertMap) -> list[np.ndarray]:
    """The decision boundary, where the output logit crosses 0, as polylines in plane
    coordinates ((n, 2) each)."""
    from contourpy import contour_generator  # matplotlib's own contouring, without an artist

    grid = np.linspace(-1, 1, picture.logit.shape[0])
    return list(contour_generator(grid, grid, picture.logit).lines(0.0))


def draw_map(ax, picture: ExpertMap, experts: int) -> tuple:
    """``map_image`` over [-1, 1]^2, with the network's decision boundary in black:
    (image, boundary), the artists a redraw updates."""
    image = ax.imshow(
        map_image(picture, experts), origin="lower", extent=(-1, 1, -1, 1),
        interpolation="nearest",
    )  # fmt: skip
    boundary = LineCollection(boundary_lines(picture), colors=PALETTE[-1], linewidths=1.2)
    ax.add_collection(boundary)
    ax.set_xticks([]), ax.set_yticks([])
    ax.set_xlim(-1, 1), ax.set_ylim(-1, 1)
    return image, boundary


@dataclass(frozen=True)
class PlaneNetwork:
    """One trained network of the plane as a panel shows it: where it routes (``picture``), its
    shape (``experts`` of ``d_ff`` units, top ``k``; one expert is a dense FFN), its balancing
    weight ``alpha`` and its accuracy."""

    picture: ExpertMap
    experts: int
    d_ff: int
    k: int
    alpha: float
    accuracy: float

    @property
    def title(self) -> str:
        if self.experts == 1:
            return tr(
                "dense FFN, {d_ff} units: accuracy {acc:.2f}", d_ff=self.d_ff, acc=self.accuracy
            )
        return tr(
            "{E} experts × {d_ff} units, top {k}, α = {alpha}: accuracy {acc:.2f}",
            E=self.experts, d_ff=self.d_ff, k=self.k, alpha=self.alpha, acc=self.accuracy,
        )  # fmt: skip


def draw_points(ax, points: np.ndarray, labels: np.ndarray, legend: bool = False) -> None:
    """The data: label 1 as black dots, label 0 as white ones, over the map."""
    for value, face in ((1, PALETTE[-1]), (0, "white")):
        mine = points[labels == value]
        ax.scatter(
            mine[:, 0], mine[:, 1], s=6, c=face, edgecolors=PALETTE[-1], linewidths=0.4,
            label=tr("label {value}", value=value) if legend else None,
        )  # fmt: skip


def router_figure(
    networks: Sequence[PlaneNetwork],
    points: np.ndarray,
    labels: np.ndarray,
    load: np.ndarray,
    alphas: Sequence[float],
    task: str,
    seed: int = 0,
) -> Figure:
    """The low-dimensional case: four networks of one seed on the plane (``draw_map`` and the
    data ``points`` (N, 2) with their ``labels`` (N,)), each titled with its shape and accuracy;
    right, every seed's load of the mixtures, busiest first (``load``, (alphas, seeds, E))."""
    fig = new_figure(11.5, 6.4, dpi=80)
    task = tr(TASK_NAMES[task]) if task in TASK_NAMES else task
    names = [f"net{i}" for i in range(len(networks))]
    mosaic = [[*names[:2], "load"], [*names[2:4], "load"]]
    axes = fig.subplot_mosaic(mosaic, width_ratios=[1, 1, 1.3])
    for i, net in enumerate(networks):
        ax = axes[names[i]]
        draw_map(ax, net.picture, net.experts)
        draw_points(ax, points, labels, legend=i == 0)
        ax.set_title(net.title, fontsize=9)
    axes[names[0]].legend(fontsize=7, loc="lower left")
    fig.suptitle(
        tr("2-D inputs, the low-dimensional case ({task}, seed {seed})", task=task, seed=seed),
        fontsize=11,
    )
    ax, experts = axes["load"], load.shape[-1]
    ranks = np.arange(1, experts + 1)
    for a, (alpha, rows) in enumerate(zip(alphas, load, strict=True)):
        for s, row in enumerate(rows):
            label = tr("α = {alpha}", alpha=alpha) if s == 0 else None
            ax.plot(ranks, np.sort(row)[::-1], "o-", color=PALETTE[a], alpha=0.7, label=label)
    ax.axhline(1 / experts, color=GREY, linestyle="--", linewidth=1, label=tr("even load"))
    ax.set(
        xlabel=tr("experts, busiest first"),
        ylabel=tr("share of the points"),
        title=tr("load, every seed ({task})", task=task),
        xticks=ranks,
    )
    ax.legend(fontsize=8)
    return fig


@dataclass(frozen=True)
class RouterPicture:
    """What lesson 7's demo shows for one (experts, k, alpha): seed ``seed``'s map, and every
    seed's load (seeds, E) and accuracy (seeds,)."""

    num_experts: int
    k: int
    alpha: float
    seed: int
    map: ExpertMap
    load: np.ndarray
    accuracy: np.ndarray


class RouterView:
    """Lesson 7's demo figure, built once and updated in place: the map of the first seed
    (``draw_map``'s layers), and the load as bars for that seed, coloured as its experts are on
    the map, with the other seeds' loads as dots, each busiest first."""

    def __init__(self, max_experts: int = len(PALETTE)) -> None:
        # placed by hand, and few texts: most of a redraw is laying out and drawing text
        self.figure = new_figure(8.0, 3.5, dpi=80, layout=None)
        self.figure.subplots_adjust(left=0.02, right=0.98, bottom=0.1, top=0.88, wspace=0.2)
        self.map_ax, self.load_ax = self.figure.subplots(1, 2, width_ratios=[1, 1.25])
        blank = np.zeros((2, 2))
        start = SimpleNamespace(chosen=blank.astype(int), logit=blank, edges=blank > 0)
        self.image, self.boundary = draw_map(self.map_ax, start, 1)
        ranks = np.arange(1, max_experts + 1)
        self.bars = self.load_ax.bar(ranks, np.zeros(max_experts), edgecolor=GREY)
        (self.dots,) = self.load_ax.plot([], [], "o", color=PALETTE[-1], markersize=3)
        self.even = self.load_ax.axhline(1, color=GREY, linestyle="--", linewidth=1)
        self.load_ax.set(xlabel=tr("experts, busiest first"), ylabel=tr("share of the points"))
        self.load_ax.set_ylim(0, LOAD_TOP)
        self.load_ax.set_yticks([0, 0.4, LOAD_TOP])
        self.load_ax.tick_params(axis="x", labelbottom=False)  # ranks: the bars' order says it
        seed_bars = Rectangle(
            (0, 0), 1, 1, facecolor=tint(GREY, 0.15), edgecolor=GREY
        )  # colours vary
        self.legend = self.load_ax.legend(
            [seed_bars, self.dots, self.even],
            ["", tr("the other seeds"), tr("even load")],
            fontsize=8,
            loc="upper right",
        )
        self.title = self.figure.suptitle("", fontsize=11)

    def update(self, picture: RouterPicture) -> Figure:
        experts, first = picture.num_experts, picture.load[0]
        if experts > len(self.bars):
            raise ValueError(f"picture: at most {len(self.bars)} experts, got {experts}")
        if picture.load.max() > LOAD_TOP:
            raise ValueError(
                f"picture: a load above {LOAD_TOP} would be cut, got {picture.load.max()}"
            )
        colours = expert_colours(experts)
        self.image.set_data(map_image(picture.map, experts))
        self.boundary.set_segments(boundary_lines(picture.map))
        order = np.argsort(-first, kind="stable")
        for rank, bar in enumerate(self.bars):
            shown = rank < experts
            bar.set_visible(shown)
            if shown:
                bar.set_height(first[order[rank]])
                bar.set_facecolor(colours.colors[order[rank]])
        ranks = np.arange(1, experts + 1)
        others = np.sort(picture.load[1:], axis=-1)[:, ::-1]
        self.dots.set_data(np.tile(ranks, len(others)), others.ravel())
        self.even.set_ydata([1 / experts, 1 / experts])
        self.legend.get_texts()[0].set_text(
            tr("seed {seed}, its experts' colours", seed=picture.seed)
        )
        self.load_ax.set(xticks=ranks, xlim=(0.4, experts + 0.6))
        self.title.set_text(
            tr(
                "{E} experts, top {k}, α = {alpha}; left, seed {seed}: accuracy {acc:.2f}",
                E=experts, k=picture.k, alpha=picture.alpha, seed=picture.seed,
                acc=picture.accuracy[0],
            )
        )  # fmt: skip
        return self.figure


__getattr__, __dir__ = submodules(__name__)  # its modules load when first used
