"""Lesson 5 figures: what erasing a fact's units does (against unrelated facts and random units),
and one prompt's next-token distribution before and after an edit (the live demo's view)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from course_lib.plots import GREY, PALETTE, new_figure

EFFECT_COLORS = {"own fact": PALETTE[1], "unrelated facts": PALETTE[0], "random units": GREY}


def neuron_effects_figure(changes: dict[str, np.ndarray], title: str) -> Figure:
    """One row of dots per group, one dot per fact, at the relative change of p(answer),
    p_after / p_before - 1, with the group's mean as a bar: ``changes`` maps a group ("own fact",
    "unrelated facts", "random units") to (facts,)."""
    fig = new_figure(6.4, 2.8)
    ax = fig.add_subplot()
    for row, (name, values) in enumerate(changes.items()):
        color = EFFECT_COLORS.get(name, GREY)
        spread = 0.25 * np.sin(np.arange(len(values)) * 2.4)  # fixed jitter, so dots separate
        ax.scatter(values, row + spread, s=14, color=color, alpha=0.8)
        ax.plot([values.mean()] * 2, [row - 0.38, row + 0.38], color="#333333", linewidth=2)
    ax.axvline(0, color=GREY, linewidth=0.8, linestyle=":")
    ax.set_yticks(range(len(changes)), list(changes))
    ax.invert_yaxis()
    ax.set_xlim(-1.05, 0.1)
    ax.set_xlabel("relative change of p(answer), one dot per fact (bar: mean)")
    ax.set_title(title)
    return fig


@dataclass(frozen=True)
class NextTokenData:
    """One prompt's most likely next words as trained (``before``) and with ``units`` scaled by
    ``scale`` (``after``): (words,) each, the answer always among ``words``."""

    prompt: str
    answer: str
    words: tuple[str, ...]
    before: np.ndarray
    after: np.ndarray
    units: tuple[tuple[int, int], ...]
    scale: float


class NextTokenView:
    """The demo's live figure: paired bars, each word's probability as trained (grey) and after
    the edit (colour), on a log scale so small probabilities show; the answer's label in bold.
    Built once; ``update`` moves the bars and relabels them."""

    FLOOR = 1e-4  # the log axis' bottom: smaller probabilities are drawn at the floor

    def __init__(self, words: int = 6) -> None:
        self.figure = new_figure(6.4, 3.0, layout=None)
        self.figure.subplots_adjust(left=0.1, right=0.98, top=0.84, bottom=0.12)
        self.ax = self.figure.add_subplot()
        self.x = np.arange(words)
        ones = np.ones(words)
        self.before = self.ax.bar(self.x - 0.2, ones, 0.4, color=GREY, label="as trained")
        self.after = self.ax.bar(self.x + 0.2, ones, 0.4, color=PALETTE[1], label="edited")
        self.ax.set_yscale("log")
        self.ax.set_ylim(self.FLOOR, 1.5)
        self.ax.set_ylabel("p(next word)")
        self.ax.set_xticks(self.x, [""] * words)
        self.legend = self.ax.legend(loc="upper right", frameon=False, fontsize=8)

    def update(self, data: NextTokenData) -> Figure:
        for bars, values in ((self.before, data.before), (self.after, data.after)):
            for bar, value in zip(bars, np.maximum(values, self.FLOOR), strict=True):
                bar.set_height(value)
        self.ax.set_xticks(self.x, data.words)
        for label, word in zip(self.ax.get_xticklabels(), data.words, strict=True):
            label.set_fontweight("bold" if word == data.answer else "normal")
        self.legend.get_texts()[1].set_text(f"units × {data.scale:g}")
        units = ", ".join(f"L{layer}·{unit}" for layer, unit in data.units)
        self.ax.set_title(f"“{data.prompt} …” (answer {data.answer})\nscaled: {units}", fontsize=9)
        return self.figure
