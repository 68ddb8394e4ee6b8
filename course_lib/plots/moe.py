"""Lesson 6's figures: where a router sends each point of the plane, each expert's own regions
there, and how the load spreads over the experts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from course_lib.i18n import tr
from course_lib.plots import GREY, PALETTE, new_figure, tint

EDGE = (0.15, 0.15, 0.15, 0.55)  # an expert's own region edges: thin, dark, see-through


class ExpertMap(Protocol):
    """One network on a grid over [-1, 1]^2 (``experiments.moe.expert_map``): the first-ranked
    expert, the output logit and the expert's own region edges at every point, (res, res)."""

    chosen: np.ndarray
    logit: np.ndarray
    edges: np.ndarray


def expert_colours(experts: int) -> ListedColormap:
    """Expert i's light fill, for up to eight experts (the palette's seven colours, then grey)."""
    if not 1 <= experts <= len(PALETTE):
        raise ValueError(f"experts: between 1 and {len(PALETTE)} can be told apart, got {experts}")
    return ListedColormap([tint(c, 0.6) for c in (*PALETTE[:7], GREY)][:experts])


def edge_image(edges: np.ndarray) -> np.ndarray:
    """(res, res, 4) RGBA: ``EDGE`` where ``edges`` is set, transparent elsewhere."""
    image = np.zeros((*edges.shape, 4))
    image[edges] = EDGE
    return image


def draw_map(ax, picture: ExpertMap, experts: int) -> list:
    """The plane coloured by the first-ranked expert, that expert's own region edges over it,
    and the network's decision boundary in black: the artists drawn, to remove on a redraw."""
    extent = (-1, 1, -1, 1)
    fill = ax.imshow(
        picture.chosen, origin="lower", extent=extent, cmap=expert_colours(experts),
        vmin=-0.5, vmax=experts - 0.5, interpolation="nearest",
    )  # fmt: skip
    edges = ax.imshow(
        edge_image(picture.edges), origin="lower", extent=extent, interpolation="nearest"
    )
    grid = np.linspace(-1, 1, picture.logit.shape[0])
    boundary = ax.contour(
        grid, grid, picture.logit, levels=[0.0], colors=PALETTE[-1], linewidths=1.2
    )
    ax.set_xticks([]), ax.set_yticks([])
    return [fill, edges, boundary]


def router_figure(
    maps: Sequence[ExpertMap], alphas: Sequence[float], load: np.ndarray, task: str, seed: int = 0
) -> Figure:
    """One panel per balancing weight: ``draw_map`` for ``seed``; then every seed's load, each
    expert's share of the points, largest first (``load``, (alphas, seeds, E))."""
    experts = load.shape[-1]
    fig = new_figure(10.5, 3.6, dpi=80)
    axes = fig.subplots(1, len(maps) + 1, width_ratios=[1] * len(maps) + [1.4])
    for ax, picture, alpha in zip(axes[:-1], maps, alphas, strict=True):
        draw_map(ax, picture, experts)
        ax.set_title(tr("α = {alpha}, seed {seed}", alpha=alpha, seed=seed), fontsize=10)
    ax = axes[-1]
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
    """What lesson 6's demo shows for one (experts, k, alpha): seed ``seed``'s map, and every
    seed's load (seeds, E) and accuracy (seeds,)."""

    num_experts: int
    k: int
    alpha: float
    seed: int
    map: ExpertMap
    load: np.ndarray
    accuracy: np.ndarray


class RouterView:
    """Lesson 6's demo figure, built once and updated in place: the map of the first seed
    (``draw_map``'s layers), and the load as bars for that seed, coloured as its experts are on
    the map, with the other seeds' loads as dots, each busiest first."""

    def __init__(self, max_experts: int = len(PALETTE)) -> None:
        self.figure = new_figure(8.0, 3.7, dpi=80, layout=None)  # placed by hand: faster
        self.figure.subplots_adjust(left=0.02, right=0.98, bottom=0.14, top=0.84, wspace=0.22)
        self.map_ax, self.load_ax = self.figure.subplots(1, 2, width_ratios=[1, 1.25])
        blank = np.zeros((2, 2))
        extent = (-1, 1, -1, 1)
        self.fill = self.map_ax.imshow(
            blank, origin="lower", extent=extent, interpolation="nearest"
        )
        self.edges = self.map_ax.imshow(
            edge_image(blank > 0), origin="lower", extent=extent, interpolation="nearest"
        )
        self.map_ax.set_xticks([]), self.map_ax.set_yticks([])
        self.boundary = None
        ranks = np.arange(1, max_experts + 1)
        self.bars = self.load_ax.bar(ranks, np.zeros(max_experts), edgecolor=GREY)
        (self.dots,) = self.load_ax.plot([], [], "o", color=PALETTE[-1], markersize=3)
        self.even = self.load_ax.axhline(1, color=GREY, linestyle="--", linewidth=1)
        self.load_ax.set(xlabel=tr("experts, busiest first"), ylabel=tr("share of the points"))
        self.load_ax.set_title(tr("load: each expert's share of the points"), fontsize=10)
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
        colours = expert_colours(experts)
        self.fill.set_data(picture.map.chosen)
        self.fill.set_cmap(colours)
        self.fill.set_clim(-0.5, experts - 0.5)
        self.edges.set_data(edge_image(picture.map.edges))
        if self.boundary is not None:
            self.boundary.remove()
        grid = np.linspace(-1, 1, picture.map.logit.shape[0])
        self.boundary = self.map_ax.contour(
            grid, grid, picture.map.logit, levels=[0.0], colors=PALETTE[-1], linewidths=1.2
        )
        self.map_ax.set_title(
            tr("seed {seed}: accuracy {acc:.2f}", seed=picture.seed, acc=picture.accuracy[0]),
            fontsize=10,
        )
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
        self.load_ax.set_ylim(0, max(0.6, 1.45 * float(picture.load.max())))  # room for the key
        self.title.set_text(
            tr("{E} experts, top {k}, α = {alpha}", E=experts, k=picture.k, alpha=picture.alpha)
        )
        return self.figure
