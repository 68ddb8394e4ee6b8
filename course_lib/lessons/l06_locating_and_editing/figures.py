"""Lesson 6 figures: causal tracing's grids, each edit's strength sweep (p(new) against what the
edit leaves alone), and the rewriting demo's view (one fact rewritten: its probabilities and the
grid of every fact)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from course_lib.core.i18n import N_, tr
from course_lib.core.plots import GREY, PALETTE, new_figure, tint

SITE_TITLES = {
    "stream": N_("the residual stream"),
    "attention": N_("the attention's output"),
    "ffn": N_("the FFN's output"),
}


def trace_figure(effects: dict[str, np.ndarray], words: list[str], mean_of: int = 0) -> Figure:
    """Causal tracing, one panel per site: the share of p(answer) that restoring the site at each
    (row, position) brings back (``effects[site]`` (rows, positions)), each cell written in it;
    ``words`` label the positions. The stream has one row more than the blocks: its input (the
    embeddings plus positions), then the output of each block; the other sites one per block.
    ``mean_of``: the number of facts averaged, or 0 for the one fact whose prompt ``words`` is."""
    fig = new_figure(3.2 * len(effects), 2.9, dpi=80)
    axes = fig.subplots(1, len(effects))
    blocks = min(effect.shape[0] for effect in effects.values())
    for ax, (site, effect) in zip(np.atleast_1d(axes), effects.items(), strict=True):
        ax.imshow(effect, cmap="Blues", vmin=0, vmax=1, aspect="auto")
        for (row, position), value in np.ndenumerate(effect):
            colour = "white" if value > 0.6 else PALETTE[-1]
            ax.text(
                position, row, f"{value:.2f}", ha="center", va="center", color=colour, fontsize=7
            )
        ax.set_xticks(range(len(words)), words, fontsize=7, rotation=30)
        ax.set_yticks(range(effect.shape[0]), row_labels(effect.shape[0], blocks), fontsize=8)
        ax.set_title(tr("restoring {site}", site=tr(SITE_TITLES[site])), fontsize=9)
    if mean_of:
        fig.suptitle(tr("the mean over the {n} facts", n=mean_of), fontsize=10)
    else:
        fig.suptitle(tr('one fact: "{prompt}"', prompt=" ".join(words[1:])), fontsize=10)
    return fig


def row_labels(rows: int, blocks: int) -> list[str]:
    """A trace panel's row labels: "input" first when it has one row more than there are blocks
    (the stream), then "after layer i" or "layer i"."""
    if rows == blocks + 1:
        return [tr("input"), *(tr("after layer {i}", i=i) for i in range(blocks))]
    return [tr("layer {i}", i=i) for i in range(rows)]


# the fact grid's colours: kept its answer, changed it, and the edited fact rewritten or not
REWRITE_COLORS = (tint(GREY, 0.35), PALETTE[1], PALETTE[2], PALETTE[4])
REWRITE_LEGEND = (
    N_("keeps its answer"),
    N_("answer changed"),
    N_("rewritten"),
    N_("not rewritten"),
)


@dataclass(frozen=True)
class RewriteData:
    """One fact rewritten, as the demo shows it: p(old answer) and p(new answer), (2, 2) each,
    after the edited prompt and after the fact's other phrasing (rows), as trained and edited
    (columns); and every fact as a cell of the (entity, relation) grid, ``codes``: 0 keeps its top
    word, 1 its top word changed, and the edited fact 2 if its top word is now the new answer,
    else 3."""

    prompt: str
    paraphrase: str
    old: str
    new: str
    method: str
    strength: str
    p_old: np.ndarray
    p_new: np.ndarray
    codes: np.ndarray
    entities: tuple[str, ...]
    relations: tuple[str, ...]
    filler_loss_change: float

    @property
    def others(self) -> int:
        """The facts besides the edited one."""
        return self.codes.size - 1

    @property
    def kept(self) -> int:
        """How many of the others keep their top word."""
        return int((self.codes == 0).sum())


class RewriteView:
    """The fact-editing demo's live figure: left, p(old answer) and p(new answer) after the edited
    prompt and after its other phrasing, as trained (grey) and edited (colour); right, every fact as a cell of the (entity,
    relation) grid, coloured by whether the edit changed its answer (``rewrite_codes``). Built
    once; ``update`` moves the bars, recolours the grid and rewrites the titles."""

    def __init__(self) -> None:
        from matplotlib.colors import ListedColormap
        from matplotlib.patches import Patch

        self.figure = new_figure(6.4, 3.8, layout=None)
        self.figure.subplots_adjust(left=0.1, right=0.98, top=0.66, bottom=0.2, wspace=0.35)
        self.bars_ax, self.grid_ax = self.figure.subplots(1, 2, width_ratios=(1, 1.7))
        x = np.array([0, 1, 2.5, 3.5])  # old and new answer, after each phrasing
        self.before = self.bars_ax.bar(x - 0.2, [1] * 4, 0.4, color=GREY, label=tr("as trained"))
        self.after = self.bars_ax.bar(x + 0.2, [1] * 4, 0.4, color=PALETTE[0], label=tr("edited"))
        self.x = x
        self.bars_ax.axvline(1.75, color=GREY, linewidth=0.8)
        for centre, label in ((0.5, N_("edited prompt")), (3.0, N_("other phrasing"))):
            self.bars_ax.text(centre, 1.08, tr(label), ha="center", va="top", fontsize=7)
        self.bars_ax.set_ylim(0, 1.1)
        self.bars_ax.set_yticks([0, 0.5, 1])
        self.bars_ax.set_ylabel(tr("p(word) after the prompt"), fontsize=9)
        self.bars_ax.tick_params(labelsize=8)
        self.bars_ax.legend(
            loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False, fontsize=8, ncols=2
        )
        self.cmap = ListedColormap(REWRITE_COLORS)
        self.grid = None  # the cells, one mesh, made at the first update (its shape is the data's)
        self.labels: tuple = ()  # the grid's (entities, relations) as last drawn
        self.grid_ax.tick_params(labelsize=7, length=0)
        self.grid_ax.grid(False)
        handles = [Patch(color=c) for c in REWRITE_COLORS]
        self.grid_ax.legend(
            handles, [tr(t) for t in REWRITE_LEGEND], loc="lower center", fontsize=7,
            bbox_to_anchor=(0.5, 1.0), ncols=2, frameon=False, handlelength=1,
        )  # fmt: skip
        self.title = self.figure.suptitle("", fontsize=9, y=0.98)

    def update(self, data) -> Figure:
        for bars, column in ((self.before, 0), (self.after, 1)):
            heights = [p[row, column] for row in (0, 1) for p in (data.p_old, data.p_new)]
            for bar, height in zip(bars, heights, strict=True):
                bar.set_height(height)
        words = [tr("old: {word}", word=data.old), tr("new: {word}", word=data.new)]
        self.bars_ax.set_xticks(self.x, words * 2, fontsize=7, rotation=20)
        codes = data.codes.T  # a row per relation, a column per entity
        if self.grid is None or self.grid.get_array().shape != codes.shape:
            if self.grid is not None:
                self.grid.remove()
            # one mesh with the background's colour as cell borders: a fraction of the time that
            # an image with a grid line per cell border takes to draw
            self.grid = self.grid_ax.pcolormesh(
                codes, cmap=self.cmap, vmin=-0.5, vmax=3.5,
                edgecolors=self.figure.get_facecolor(), linewidth=1.5,
            )  # fmt: skip
            self.grid_ax.set_xlim(0, codes.shape[1])
            self.grid_ax.set_ylim(codes.shape[0], 0)  # the first relation on top
        self.grid.set_array(codes)
        labels = (data.entities, tuple(tr(r) for r in data.relations))  # in today's language
        if self.labels != labels:  # new tick texts only when they change
            self.labels = labels
            self.grid_ax.set_xticks(np.arange(codes.shape[1]) + 0.5, data.entities, rotation=90)
            self.grid_ax.set_yticks(np.arange(codes.shape[0]) + 0.5, labels[1])
        self.title.set_text(
            tr("“{prompt}”: “{old}” → “{new}”", prompt=data.prompt, old=data.old, new=data.new)
            + "\n"
            + tr("other phrasing: “{paraphrase}”", paraphrase=data.paraphrase)
            + "\n"
            + tr(
                "{method}, {strength}: {kept} of {others} other facts keep their answer; "
                "filler loss {change:+.2f}",
                method=tr(data.method),
                strength=data.strength,
                kept=data.kept,
                others=data.others,
                change=data.filler_loss_change,
            )
        )
        return self.figure


@dataclass(frozen=True)
class SweepCurve:
    """One edit method along its knob (weakest first): the mean p(new) after the edited prompt,
    and CounterFact's neighbourhood score NS and paraphrase score PS (percent), each
    (strengths,)."""

    method: str
    p_new: np.ndarray
    neighbourhood: np.ndarray
    paraphrase: np.ndarray


CURVE_COLORS = tuple(c for c in PALETTE if c != "#F0E442")  # yellow is too faint for a line


def sweep_figure(curves: list[SweepCurve], target: float) -> Figure:
    """Each method as a curve of what it leaves alone (left: CounterFact's neighbourhood score)
    and what it carries to the other phrasing (right: the paraphrase score) against how strongly
    it rewrites (the mean p(new)), a dot per strength, drawn up to the strength of its largest
    mean p(new) (past it, a stronger knob makes a weaker edit); a dashed line at the p(new)
    ``target`` the methods are compared at."""
    fig = new_figure(8.0, 4.0)
    axes = fig.subplots(1, 2, sharex=True)
    panels = (("neighbourhood", N_("neighbourhood score NS (%)")),
              ("paraphrase", N_("paraphrase score PS (%)")))  # fmt: skip
    for ax, (field, label) in zip(axes, panels, strict=True):
        for i, curve in enumerate(curves):
            end = int(np.argmax(curve.p_new)) + 1
            ax.plot(curve.p_new[:end], getattr(curve, field)[:end], marker="o", markersize=3,
                    color=CURVE_COLORS[i % len(CURVE_COLORS)], label=tr(curve.method))  # fmt: skip
        ax.axvline(target, color=GREY, linestyle="--", linewidth=0.8)
        ax.set_xlabel(tr("mean p(new) after the edited prompt"), fontsize=9)
        ax.set_ylabel(tr(label), fontsize=9)
        ax.set_xlim(0, 1.02)
        ax.set_ylim(-2, 102)
        ax.grid(alpha=0.3)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3,
               fontsize=7, frameon=False)  # fmt: skip
    fig.suptitle(tr("each edit along its knob; dashed: p(new) = {target:g}", target=target),
                 fontsize=10)  # fmt: skip
    return fig
