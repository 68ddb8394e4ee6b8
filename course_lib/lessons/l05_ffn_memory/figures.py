"""Lesson 5 figures: what erasing a fact's units does (against unrelated facts and random units),
one prompt's next-token distribution before and after an edit (the edit demo's view), and the
fraction of units active per token against d_ff (the sparsity demo's view)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from course_lib.core.i18n import N_, series, tr
from course_lib.core.plots import COLORS, GREY, PALETTE, new_figure, plain_log_axis, tint
from course_lib.lessons.l05_ffn_memory.papers import LI_2023

# the groups a lesson passes (their labels are translated when drawn)
EFFECT_COLORS = {
    N_("own fact"): PALETTE[1],
    N_("unrelated facts"): PALETTE[0],
    N_("random units"): GREY,
}


def neuron_effects_figure(changes: dict[str, np.ndarray], zeroed: int) -> Figure:
    """One row of dots per group, one dot per fact, at the relative change of p(answer),
    p_after / p_before - 1, with the group's mean as a bar: ``changes`` maps a group ("own fact",
    "unrelated facts", "random units") to (facts,), each measured with ``zeroed`` units set to 0."""
    fig = new_figure(6.4, 2.8)
    ax = fig.add_subplot()
    for row, (name, values) in enumerate(changes.items()):
        color = EFFECT_COLORS.get(name, GREY)
        spread = 0.25 * np.sin(np.arange(len(values)) * 2.4)  # fixed jitter, so dots separate
        ax.scatter(values, row + spread, s=14, color=color, alpha=0.8)
        ax.plot(
            [values.mean()] * 2, [row - 0.38, row + 0.38], color=COLORS["unit lines"], linewidth=2
        )
    ax.axvline(0, color=GREY, linewidth=0.8, linestyle=":")
    ax.set_yticks(range(len(changes)), [tr(name) for name in changes])
    ax.invert_yaxis()
    ax.set_xlim(-1.05, 0.1)
    ax.set_xlabel(tr("relative change of p(answer), one dot per fact (bar: mean)"))
    ax.set_title(tr("zeroing {n} units at the prompt's last word", n=zeroed))
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
        self.figure.subplots_adjust(left=0.13, right=0.98, top=0.84, bottom=0.12)
        self.ax = self.figure.add_subplot()
        self.x = np.arange(words)
        ones = np.ones(words)
        self.before = self.ax.bar(self.x - 0.2, ones, 0.4, color=GREY, label=tr("as trained"))
        self.after = self.ax.bar(self.x + 0.2, ones, 0.4, color=PALETTE[1], label=tr("edited"))
        self.ax.set_yscale("log")
        plain_log_axis(self.ax.yaxis)
        self.ax.set_ylim(self.FLOOR, 1.5)
        self.ax.set_ylabel(tr("p(next word)"))
        self.ax.set_xticks(self.x, [""] * words)
        self.legend = self.ax.legend(loc="upper right", frameon=False, fontsize=8)

    def update(self, data: NextTokenData) -> Figure:
        for bars, values in ((self.before, data.before), (self.after, data.after)):
            for bar, value in zip(bars, np.maximum(values, self.FLOOR), strict=True):
                bar.set_height(value)
        self.ax.set_xticks(self.x, data.words)
        for label, word in zip(self.ax.get_xticklabels(), data.words, strict=True):
            # the corpus' words are Latin: the CJK fallback font has no bold to look up
            label.set_fontfamily("DejaVu Sans")
            label.set_fontweight("bold" if word == data.answer else "normal")
        self.legend.get_texts()[1].set_text(tr("units × {scale:g}", scale=data.scale))
        units = series(f"L{layer}·{unit}" for layer, unit in data.units)
        title = tr(
            "“{prompt} …” (answer “{answer}”)\nscaled: {units}",
            prompt=data.prompt,
            answer=data.answer,
            units=units,
        )
        self.ax.set_title(title, fontsize=9, y=1.0)  # a fixed y: no title layout per redraw
        return self.figure


LAYER_COLORS = (PALETTE[0], PALETTE[1])  # layer 0, layer 1
LARGE_MODELS = (min(LI_2023.values()), max(LI_2023.values()))  # the band of large models


@dataclass(frozen=True)
class SparsityData:
    """The stored sweep over d_ff, with one width chosen: the fraction of FFN units active per
    token in each layer, trained and at initialisation, (seeds, widths, layers) each, and the
    facts right after training, (seeds, widths), of ``facts``."""

    widths: tuple[int, ...]
    trained: np.ndarray
    initial: np.ndarray
    facts_right: np.ndarray
    facts: int
    d_ff: int

    @property
    def index(self) -> int:
        """The chosen width's row."""
        return self.widths.index(self.d_ff)

    @property
    def seeds(self) -> int:
        """How many seeds each width was trained from."""
        return self.trained.shape[0]

    @property
    def trained_mean(self) -> np.ndarray:
        """The trained fraction averaged over seeds: (widths, layers)."""
        return self.trained.mean(axis=0)

    @property
    def initial_mean(self) -> np.ndarray:
        """The fraction at initialisation averaged over seeds: (widths, layers)."""
        return self.initial.mean(axis=0)

    @property
    def fewest_right(self) -> np.ndarray:
        """The facts right in the worst seed of each width: (widths,)."""
        return self.facts_right.min(axis=0)


class SparsityView:
    """The sparsity demo's live figure. Left: the active fraction against d_ff (log scale), one
    solid line per layer trained (the mean over seeds, shaded from the lowest seed to the
    highest) and a dashed one at initialisation, the large models' few percent as a band, the
    chosen width marked. Right: the facts right per width in its worst seed, the chosen width's
    bar in colour. Built once; ``update`` moves the marks and recolours the bars."""

    def __init__(self) -> None:
        self.figure = new_figure(7.2, 3.0, layout=None)
        self.figure.subplots_adjust(left=0.09, right=0.98, top=0.84, bottom=0.16, wspace=0.3)
        grid = self.figure.add_gridspec(1, 3)
        self.ax = self.figure.add_subplot(grid[0, :2])
        self.facts_ax = self.figure.add_subplot(grid[0, 2])
        self.ax.axhspan(*LARGE_MODELS, color=GREY, alpha=0.25, linewidth=0)
        self.ax.text(
            0.02,
            LARGE_MODELS[1],
            tr("large trained models (Li et al. 2023): a few percent"),
            va="bottom",
            fontsize=7,
            color=COLORS["unit lines"],
            transform=self.ax.get_yaxis_transform(),
        )
        self.trained, self.initial, self.spread = [], [], [None, None]
        for layer, color in enumerate(LAYER_COLORS):
            (line,) = self.ax.plot(
                [], [], "o-", color=color, ms=4, label=tr("layer {layer} trained", layer=layer)
            )
            self.trained.append(line)
            (line,) = self.ax.plot(
                [], [], "--", color=color, alpha=0.6, label=tr("layer {layer} at init", layer=layer)
            )
            self.initial.append(line)
        self.marker = self.ax.axvline(1, color=COLORS["unit lines"], linewidth=0.8, linestyle=":")
        self.chosen = self.ax.scatter(
            [0, 0], [0, 0], s=60, facecolor="none", edgecolor=COLORS["unit lines"]
        )
        self.ax.set_xscale("log", base=2)
        self.ax.set_ylim(0, 0.7)
        self.ax.set_xlabel(tr("d_ff (log scale)"))
        self.ax.set_ylabel(tr("fraction of units active per token"))
        self.ax.legend(loc="upper center", frameon=False, fontsize=7, ncol=2)
        self.bars = None  # drawn on the first update, once the number of widths is known

    def update(self, data: SparsityData) -> Figure:
        widths = np.array(data.widths)
        for layer, (trained, initial) in enumerate(zip(self.trained, self.initial, strict=True)):
            trained.set_data(widths, data.trained_mean[:, layer])
            initial.set_data(widths, data.initial_mean[:, layer])
            if self.spread[layer] is not None:
                self.spread[layer].remove()
            low, high = data.trained[:, :, layer].min(axis=0), data.trained[:, :, layer].max(axis=0)
            color = LAYER_COLORS[layer]
            self.spread[layer] = self.ax.fill_between(
                widths, low, high, color=color, alpha=0.2, linewidth=0
            )
        self.ax.set_xlim(widths[0] / 1.4, widths[-1] * 1.4)
        self.ax.set_xticks(widths, [str(w) for w in widths])
        self.ax.minorticks_off()
        self.marker.set_xdata([data.d_ff, data.d_ff])
        chosen = data.trained_mean[data.index]
        self.chosen.set_offsets(np.column_stack([[data.d_ff] * 2, chosen]))
        if self.bars is None or len(self.bars) != len(widths):
            self.facts_ax.clear()
            x = np.arange(len(widths))
            self.bars = self.facts_ax.bar(x, data.fewest_right, 0.7)
            self.facts_ax.set_xticks(x, [str(w) for w in widths], fontsize=7)
            self.facts_ax.set_ylim(0, data.facts)
            self.facts_ax.set_xlabel("d_ff")
            self.facts_ax.set_ylabel(tr("facts right, worst seed"))
        for i, (bar, right) in enumerate(zip(self.bars, data.fewest_right, strict=True)):
            bar.set_height(right)
            bar.set_color(PALETTE[2] if i == data.index else tint(PALETTE[2], 0.35))
        active = series(
            tr("layer {layer} {fraction:.2f}", layer=i, fraction=v) for i, v in enumerate(chosen)
        )
        title = tr(
            "d_ff = {d_ff}, trained, mean of {seeds} seeds: {active}",
            d_ff=data.d_ff,
            seeds=data.seeds,
            active=active,
        )
        self.ax.set_title(title, fontsize=9, y=1.0)  # fixed y: no title layout per redraw
        right = tr(
            "{right} of {facts} facts", right=int(data.fewest_right[data.index]), facts=data.facts
        )
        self.facts_ax.set_title(right, fontsize=9, y=1.0)
        return self.figure
