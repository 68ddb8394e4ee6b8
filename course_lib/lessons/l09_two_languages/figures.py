"""Lesson 9 figures: the top units' overlap of the same fact in two languages beside two different
facts' and chance, causal tracing of the English and the Chinese prompt side by side, and the
demo's view of one fact edited in one language and read in both."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from course_lib.core.i18n import N_, tr
from course_lib.core.plots import GREY, PALETTE, new_figure

SAME, DIFFERENT, CHANCE = N_("the same fact"), N_("two different facts"), N_("random units")


def overlap_figure(models: dict[str, tuple[float, float]], chance: float, k: int) -> Figure:
    """For each model (label -> (same fact's mean overlap, different facts' mean overlap)), two
    bars: how many of the ``k`` top units the two statements share; ``chance`` a dashed line."""
    fig = new_figure(6.4, 3.0, dpi=80)
    ax = fig.subplots()
    x = np.arange(len(models))
    same = [v[0] for v in models.values()]
    different = [v[1] for v in models.values()]
    ax.bar(x - 0.2, same, 0.4, color=PALETTE[0], label=tr(SAME))
    ax.bar(x + 0.2, different, 0.4, color=GREY, label=tr(DIFFERENT))
    ax.axhline(chance, color=PALETTE[3], linestyle="--", label=tr(CHANCE))
    for i, (a, b) in enumerate(zip(same, different, strict=True)):
        ax.text(i - 0.2, a, f"{a:.1f}", ha="center", va="bottom", fontsize=7)
        ax.text(i + 0.2, b, f"{b:.1f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, [label.replace(", ", ",\n").replace("，", "，\n") for label in models],
                  fontsize=7)  # fmt: skip
    ax.set_ylim(0, k)
    ax.set_ylabel(tr("shared units of the top {k}", k=k), fontsize=8)
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title(tr("top units shared by two statements"), fontsize=9)
    return fig


def trace_pair_figure(effects: dict[str, np.ndarray], words: dict[str, list[str]]) -> Figure:
    """Causal tracing of the FFN's output, one panel per language: the share of p(answer) that
    restoring layer i's FFN output at each position brings back (``effects[language]`` (layers,
    positions)), each cell written in it; ``words[language]`` label the positions."""
    fig = new_figure(3.4 * len(effects), 2.4, dpi=80)
    axes = np.atleast_1d(fig.subplots(1, len(effects)))
    for ax, (language, effect) in zip(axes, effects.items(), strict=True):
        ax.imshow(effect, cmap="Blues", vmin=0, vmax=1, aspect="auto")
        for (row, position), value in np.ndenumerate(effect):
            colour = "white" if value > 0.6 else PALETTE[-1]
            ax.text(position, row, f"{value + 0.0:.2f}".replace("-0.00", "0.00"), ha="center", va="center", color=colour,
                    fontsize=7)  # fmt: skip
        ax.set_xticks(range(len(words[language])), words[language], fontsize=7)
        ax.set_yticks(range(effect.shape[0]), [tr("layer {i}", i=i) for i in range(len(effect))],
                      fontsize=8)  # fmt: skip
        ax.set_title(tr(LANGUAGE_NAMES[language]), fontsize=9)
    fig.suptitle(tr("restoring the FFN's output: the mean over the 48 facts"), fontsize=10)
    return fig


LANGUAGE_NAMES = {"en": N_("English"), "zh": N_("Chinese")}


@dataclass(frozen=True)
class CrossEdit:
    """One fact rewritten with one language's prompt, read in both: p(old answer) and p(new
    answer) after the English and the Chinese prompt (rows), as trained and edited (columns),
    (2, 2) each; the prompts and the answers in each language's words."""

    prompts: tuple[str, str]
    old: tuple[str, str]
    new: tuple[str, str]
    edited_in: str
    method: str
    strength: str
    p_old: np.ndarray
    p_new: np.ndarray


class CrossEditView:
    """The demo's live figure: p(old) and p(new) after each language's prompt, as trained (grey)
    and edited (colour), the edited language marked. Built once; ``update`` moves the bars and
    rewrites the labels."""

    def __init__(self) -> None:
        self.figure = new_figure(6.4, 3.4, layout=None)
        self.figure.subplots_adjust(left=0.1, right=0.98, top=0.8, bottom=0.14)
        self.ax = self.figure.subplots()
        self.x = np.array([0, 1, 2.5, 3.5])  # old and new answer, after each language's prompt
        self.before = self.ax.bar(self.x - 0.2, [1] * 4, 0.4, color=GREY, label=tr("as trained"))
        self.after = self.ax.bar(self.x + 0.2, [1] * 4, 0.4, color=PALETTE[0], label=tr("edited"))
        self.ax.axvline(1.75, color=GREY, linewidth=0.8)
        self.groups = [self.ax.text(c, 1.08, "", ha="center", va="top", fontsize=8)
                       for c in (0.5, 3.0)]  # fmt: skip
        self.ax.set_ylim(0, 1.1)
        self.ax.set_yticks([0, 0.5, 1])
        self.ax.set_ylabel(tr("p(word) after the prompt"), fontsize=9)
        self.ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False, fontsize=8,
                       ncols=2)  # fmt: skip
        self.title = self.figure.suptitle("", fontsize=9, y=0.99)

    def update(self, data: CrossEdit) -> Figure:
        for bars, column in ((self.before, 0), (self.after, 1)):
            heights = [p[row, column] for row in (0, 1) for p in (data.p_old, data.p_new)]
            for bar, height in zip(bars, heights, strict=True):
                bar.set_height(height)
        words = [tr(t, word=w[i]) for i in (0, 1)
                 for t, w in (("old: {word}", data.old), ("new: {word}", data.new))]  # fmt: skip
        self.ax.set_xticks(self.x, words, fontsize=8)
        for i, (text, language) in enumerate(zip(self.groups, ("en", "zh"), strict=True)):
            mark = tr(" (edited)") if language == data.edited_in else ""
            text.set_text(tr(LANGUAGE_NAMES[language]) + mark + f": “{data.prompts[i]}”")
        self.title.set_text(tr("{method}, {strength}, edited with the {language} prompt",
                               method=tr(data.method), strength=data.strength,
                               language=tr(LANGUAGE_NAMES[data.edited_in])))  # fmt: skip
        return self.figure
