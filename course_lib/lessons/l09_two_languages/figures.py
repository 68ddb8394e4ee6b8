"""Lesson 9 figures: facts asked in one language by how they were taught (the transfer
experiment), an edit's reach into the other language as its strength rises, and the demo's view of
one fact edited in one language and read in both."""

from __future__ import annotations

from dataclasses import dataclass
from textwrap import fill

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from course_lib.core.i18n import N_, tr
from course_lib.core.plots import GREY, PALETTE, new_figure

WAY_NAMES = {
    "taught here": N_("taught as it is asked"),
    "taught only in the other": N_("taught only the other way"),
    "never taught": N_("never taught"),
}
MEASURE_NAMES = {
    "top-1": N_("share answered right (top-1)"),
    "p(answer)": N_("p(answer)"),
    "rank": N_("rank among the relation's 8 answers"),
}


def _wrapped(text: str, width: int = 12) -> str:
    """``text`` on lines of about ``width`` columns: at spaces, or for text without spaces
    (Chinese, two columns a character) in as few lines of at most width // 2 characters as it
    needs, of equal length, so that no line holds a lone tail ("只按另一种方式教过" breaks as
    "只按另一种" and "方式教过", not "只按另一种方" and "式教过")."""
    if " " in text or text.isascii():
        return fill(text, width)
    lines = -(-len(text) // (width // 2))
    step = -(-len(text) // lines)
    return "\n".join(text[i : i + step] for i in range(0, len(text), step))


def transfer_figure(results: dict[str, object], measure: str) -> Figure:
    """One panel per condition (label -> ``transfer.Transfer`` of ``measure``): the mean of each
    way a fact was taught, asked in one language, with its 95 % interval as an error bar, and the
    mean written above it."""
    fig = new_figure(2.3 * len(results), 2.8, dpi=80)
    axes = np.atleast_1d(fig.subplots(1, len(results), sharey=True))
    for ax, (label, result) in zip(axes, results.items(), strict=True):
        ways = list(result.by_way)
        means = np.array([result.by_way[w][0] for w in ways])
        spans = np.array([[m - result.by_way[w][1], result.by_way[w][2] - m]
                          for w, m in zip(ways, means, strict=True)]).T  # fmt: skip
        colours = [PALETTE[0], PALETTE[1], GREY]
        ax.bar(range(len(ways)), means, 0.7, color=colours, yerr=spans, capsize=3,
               error_kw={"linewidth": 0.8})  # fmt: skip
        for x, (m, w) in enumerate(zip(means, ways, strict=True)):  # above the interval
            ax.text(x, result.by_way[w][2] + 0.02, f"{m:.2f}", ha="center", va="bottom",
                    fontsize=7)  # fmt: skip
        ax.set_xticks(range(len(ways)), [_wrapped(tr(WAY_NAMES[w])) for w in ways], fontsize=7)
        ax.set_title(label, fontsize=8)
        ax.set_ylim(0, 1.12 * max(1.0, max(result.by_way[w][2] for w in ways)))
    axes[0].set_ylabel(tr(MEASURE_NAMES[measure]), fontsize=8)
    fig.suptitle(tr("each fact asked one way, by how it was taught"), fontsize=9)
    return fig


LOGIT_TICKS = (0.01, 0.1, 0.5, 0.9, 0.99)


# The methods as this lesson names them: the rank-one edit is made at the prompt's last token,
# which in Chinese is the character 是, not a word.
METHOD_NAMES = {"rank-one, layer 1, last word": N_("rank-one, layer 1, last token")}


def method_name(method: str) -> str:
    """``method`` (a name of ``cross_edits.METHODS``) as the lesson shows it, translated."""
    return tr(METHOD_NAMES.get(method, method))


# The rank-one edit's knob as this lesson names it: the factor the update is scaled by.
KNOB_NAMES = {"scale of the update": N_("scale factor of the update")}


def knob_name(knob: str) -> str:
    """A method's ``knob`` (``edit_sweep.Method.knob``) as the lesson shows it, translated."""
    return tr(KNOB_NAMES.get(knob, knob))


def dose_response_figure(curves: dict[str, dict[str, np.ndarray]]) -> Figure:
    """One panel per language edited (label -> {method: (strengths, 3)}: for each strength the
    mean p(new) after the edited prompt, after the other language's prompt, and the other
    language's mean p(new) over the relation's facts the edit was not asked to change). Each
    method a line of the edited fact's other-language p(new) against its p(new) where edited,
    solid, and the unedited facts' beside it, dashed; the other language's axis logarithmic, the
    edited language's a logit scale (p near 1 spread out)."""
    fig = new_figure(3.3 * len(curves), 3.0, dpi=80)
    axes = np.atleast_1d(fig.subplots(1, len(curves), sharey=True))
    for ax, (label, methods) in zip(axes, curves.items(), strict=True):
        for colour, (method, rows) in zip(PALETTE, methods.items(), strict=False):
            ax.plot(
                rows[:, 0], rows[:, 1], "o-", color=colour, markersize=3, label=method_name(method)
            )
            ax.plot(rows[:, 0], rows[:, 2], "--", color=colour, linewidth=0.9)
        ax.set_yscale("log")
        ax.set_xscale("logit")  # p(new) near 1 spread out: 0.9, 0.99, ...
        ax.set_xlim(0.005, 0.998)
        ax.set_xticks(LOGIT_TICKS, [f"{t:g}" for t in LOGIT_TICKS], fontsize=7)
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(tr("p(new), edited language"), fontsize=8)
        ax.set_title(label, fontsize=8)
    axes[0].set_ylabel(tr("p(new), other language"), fontsize=8)
    axes[0].plot([], [], "--", color=GREY, linewidth=0.9, label=tr("facts not edited"))
    axes[0].legend(fontsize=6, loc="upper left")
    fig.suptitle(tr("the edit's strength rising: its fact in the other language, and the rest"),
                 fontsize=9)  # fmt: skip
    return fig


LANGUAGE_NAMES = {"en": N_("English"), "zh": N_("Chinese")}


@dataclass(frozen=True)
class CrossEdit:
    """One fact rewritten with one language's prompt, read in both: p(old answer) and p(new
    answer) after the English and the Chinese prompt (rows), before and after the edit (columns),
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
    """The demo's live figure: p(old) and p(new) after each language's prompt, before the edit
    (grey) and after it (colour), the edited language marked. Built once; ``update`` moves the
    bars and rewrites the labels."""

    def __init__(self) -> None:
        self.figure = new_figure(6.4, 3.4, layout=None)
        self.figure.subplots_adjust(left=0.1, right=0.98, top=0.8, bottom=0.14)
        self.ax = self.figure.subplots()
        self.x = np.array([0, 1, 2.5, 3.5])  # old and new answer, after each language's prompt
        self.before = self.ax.bar(
            self.x - 0.2, [1] * 4, 0.4, color=GREY, label=tr("before the edit")
        )
        self.after = self.ax.bar(
            self.x + 0.2, [1] * 4, 0.4, color=PALETTE[0], label=tr("after the edit")
        )
        self.ax.axvline(1.75, color=GREY, linewidth=0.8)
        self.groups = [self.ax.text(c, 1.08, "", ha="center", va="top", fontsize=8)
                       for c in (0.5, 3.0)]  # fmt: skip
        self.ax.set_ylim(0, 1.1)
        self.ax.set_yticks([0, 0.5, 1])
        self.ax.set_ylabel(tr("p(first token) after the prompt"), fontsize=9)
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
            text.set_text(tr("{language}: “{prompt}”", language=tr(LANGUAGE_NAMES[language]) + mark,
                             prompt=data.prompts[i]))  # fmt: skip
        self.title.set_text(tr("{method}, {strength}, edited with the {language} prompt",
                               method=method_name(data.method), strength=data.strength,
                               language=tr(LANGUAGE_NAMES[data.edited_in])))  # fmt: skip
        return self.figure
