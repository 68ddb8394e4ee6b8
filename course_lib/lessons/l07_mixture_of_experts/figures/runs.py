"""Lesson 7's figures of its stored language-model runs: each router's load over training, and
how many facts a dense FFN and two mixtures of experts learn as the facts grow in number."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class FactCurve:
    """One model of the sweep: its FFN's shape and budget, and the share of facts it answers
    right at each size, per seed (sizes, seeds)."""

    experts: int  # 1: a dense FFN
    d_ff: int
    k: int
    held: int  # one FFN layer's parameters
    used: int  # ... and those a word runs through
    right: np.ndarray

    @property
    def label(self) -> str:
        if self.experts == 1:
            name = tr("dense FFN, width {d_ff}", d_ff=self.d_ff)
        else:
            name = tr(
                "{E} experts × width {d_ff}, top {k}", E=self.experts, d_ff=self.d_ff, k=self.k
            )
        return tr(
            "{name}: {held:,} held, {used:,} per word", name=name, held=self.held, used=self.used
        )


def fact_capacity_figure(facts: Sequence[int], curves: Sequence[FactCurve], steps: int) -> Figure:
    """The share of the facts each model answers right against how many it had to learn (a log
    axis); each seed a dot, the mean over the seeds a line."""
    fig = new_figure(7.5, 4.2, dpi=80)
    ax = fig.subplots()
    x = np.asarray(facts, dtype=float)
    for i, curve in enumerate(curves):
        colour = PALETTE[i]
        ax.plot(x, curve.right.mean(axis=1), "-", color=colour, label=curve.label)
        seeds = curve.right.shape[1]
        ax.plot(np.repeat(x, seeds), curve.right.ravel(), "o", color=colour, ms=4, alpha=0.6)
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [str(n) for n in facts])
    ax.minorticks_off()
    ax.set_ylim(0, 1.05)
    ax.set(
        xlabel=tr("facts to learn"),
        ylabel=tr("share of the facts answered right"),
        title=tr("facts learned in {steps} steps of training", steps=steps),
    )
    ax.legend(fontsize=8, loc="lower left")
    return fig
