"""Lesson 8's picture of its edits at matched strength: for each rule that picks the unit or
feature an edit goes through, how many other facts the edit changes, the unit's and each
transcoder's feature's, each as its mean over the facts with a 95 % bootstrap interval; the two
rank-one edits as bands across. It takes plain numbers; the notebook computes them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from course_lib.core.i18n import tr
from course_lib.core.plots import GREY, PALETTE, new_figure, tint

Interval = tuple[float, float, float]  # mean, low, high


def edit_figure(
    rows: Sequence[tuple[str, Sequence[tuple[str, Interval]]]],
    bands: Mapping[str, Interval],
    xlabel: str,
) -> Figure:
    """One row per choice rule (its label, then [(method label, (mean, low, high))], the unit's
    first), each method a marker at its mean with its interval as a bar; each of ``bands``
    {label: (mean, low, high)} a vertical line at its mean over a shaded interval."""
    if not rows or any(not methods for _, methods in rows):
        raise ValueError(f"rows must each hold at least one method, got {rows!r}")
    fig = new_figure(8.8, 0.9 * len(rows) + 1.9, dpi=80)
    ax = fig.subplots()
    colours = [GREY, *PALETTE]
    count = max(len(methods) for _, methods in rows)
    offsets = np.linspace(0.3, -0.3, count)
    for i, (_, methods) in enumerate(rows):
        y = len(rows) - 1 - i  # the first row on top
        for j, (label, (mean, low, high)) in enumerate(methods):
            ax.errorbar(mean, y + offsets[j], xerr=[[mean - low], [high - mean]], fmt="o",
                        color=colours[j % len(colours)], markersize=5, capsize=2,
                        label=label if i == 0 else None)  # fmt: skip
    for k, (label, (mean, low, high)) in enumerate(bands.items()):
        ax.axvspan(low, high, color=tint(GREY, 0.2), zorder=0)
        ax.axvline(mean, color="black", linestyle=(":", "--", "-.")[k % 3], linewidth=1.2,
                   label=label)  # fmt: skip
    ax.set_yticks(range(len(rows)), [label for label, _ in rows][::-1], fontsize=9)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(left=0)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.grid(axis="x", color=tint(GREY, 0.3), linewidth=0.6)
    fig.legend(loc="outside lower center", ncols=4, fontsize=8)
    ax.set_title(tr("each edit at matched p(new), mean over the 48 facts with its 95 % bootstrap "
                    "interval"), fontsize=10)  # fmt: skip
    return fig
