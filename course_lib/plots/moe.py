"""Lesson 6's figures: where a router sends each point of the plane, and how the load spreads."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from course_lib.i18n import tr
from course_lib.plots import GREY, PALETTE, new_figure, tint


def router_figure(
    maps: Sequence[tuple[np.ndarray, np.ndarray]],
    alphas: Sequence[float],
    load: np.ndarray,
    task: str,
    seed: int = 0,
) -> Figure:
    """One panel per balancing weight: the plane coloured by the expert the router picks first,
    with the network's decision boundary over it (``maps[a]`` = (expert indices, output logits),
    each (res, res) over [-1, 1]^2, for ``seed``); then every seed's load, each expert's share of
    the points, largest first (``load``, (alphas, seeds, E))."""
    experts = load.shape[-1]
    if experts > len(PALETTE):
        raise ValueError(f"load: at most {len(PALETTE)} experts can be told apart, got {experts}")
    colours = ListedColormap([tint(c, 0.6) for c in (*PALETTE[:7], GREY)][:experts])
    fig = new_figure(10.5, 3.6, dpi=80)
    axes = fig.subplots(1, len(maps) + 1, width_ratios=[1] * len(maps) + [1.4])
    for ax, (chosen, logit), alpha in zip(axes[:-1], maps, alphas, strict=True):
        ax.contour(
            np.linspace(-1, 1, logit.shape[1]),
            np.linspace(-1, 1, logit.shape[0]),
            logit,
            levels=[0.0],
            colors=PALETTE[-1],  # black, the decision boundary
            linewidths=1.2,
        )
        ax.imshow(
            chosen,
            origin="lower",
            extent=(-1, 1, -1, 1),
            cmap=colours,
            vmin=-0.5,
            vmax=experts - 0.5,
            interpolation="nearest",
        )
        ax.set_title(tr("α = {alpha}, seed {seed}", alpha=alpha, seed=seed), fontsize=10)
        ax.set_xticks([]), ax.set_yticks([])
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
