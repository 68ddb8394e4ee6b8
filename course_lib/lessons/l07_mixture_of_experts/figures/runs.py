"""Lesson 7's figures of its stored language-model runs: each router's load over training."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from course_lib.core.i18n import tr
from course_lib.core.plots import GREY, PALETTE, new_figure


def load_history_figure(
    busiest: np.ndarray, quietest: np.ndarray, alphas: Sequence[float], seeds: Sequence[int]
) -> Figure:
    """One panel per (alpha, layer): every seed's busiest expert's share of the tokens ranked
    first (solid) and its least used expert's (dashed) at each training step.
    ``busiest``, ``quietest``: (alphas, seeds, steps, layers)."""
    layers = busiest.shape[-1]
    fig = new_figure(10.0, 5.6, dpi=80)
    axes = fig.subplots(len(alphas), layers, sharex=True, sharey=True, squeeze=False)
    steps = np.arange(busiest.shape[2])
    for a, alpha in enumerate(alphas):
        for layer in range(layers):
            ax = axes[a, layer]
            for s, _ in enumerate(seeds):
                colour = PALETTE[s]
                ax.plot(steps, busiest[a, s, :, layer], color=colour, linewidth=1.2)
                ax.plot(steps, quietest[a, s, :, layer], color=colour, linewidth=1, ls="--")
            ax.set_title(tr("α = {alpha}, layer {layer}", alpha=alpha, layer=layer), fontsize=10)
            ax.set_ylim(0, 1)
    for ax in axes[-1]:
        ax.set_xlabel(tr("training step"))
    for ax in axes[:, 0]:
        ax.set_ylabel(tr("share of the tokens ranked first"))
    handles = [Line2D([], [], color=PALETTE[s]) for s in range(len(seeds))]
    handles += [Line2D([], [], color=GREY), Line2D([], [], color=GREY, ls="--")]
    names = [tr("seed {seed}", seed=seed) for seed in seeds]
    names += [tr("busiest expert"), tr("least used expert")]
    axes[0, 0].legend(handles, names, fontsize=8, loc="upper right")  # empty after the warm-up
    return fig
