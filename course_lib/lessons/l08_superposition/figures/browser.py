"""Lesson 8's feature browser: one dictionary feature as a card, the corpus contexts it fires on
most (left) and the words its decoder direction promotes through the unembedding (right). It takes
plain (text, value) pairs; the notebook reads them from the model."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from course_lib.core.i18n import tr
from course_lib.core.plots import PALETTE, new_figure, tint


def _bars(ax, pairs: Sequence[tuple[str, float]], colour, xlabel: str) -> None:
    """Horizontal bars, the first pair on top, each labelled by its text."""
    labels = [text for text, _ in pairs]
    values = [value for _, value in pairs]
    rows = range(len(pairs))[::-1]  # the first pair on top
    ax.barh(rows, values, color=tint(colour, 0.6), edgecolor=colour)
    ax.set_yticks(list(rows), labels, fontsize=9)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.tick_params(axis="x", labelsize=8)
    ax.set_xlim(0, max(max(values), 1e-9) * 1.1)


def feature_card(
    feature: int, contexts: Sequence[tuple[str, float]], words: Sequence[tuple[str, float]]
) -> Figure:
    """Feature ``feature``'s card: ``contexts`` [(prefix, activation)], most active first, and
    ``words`` [(word, logit per unit of activation)], most promoted first."""
    if not contexts or not words:
        raise ValueError(
            f"contexts and words must be non-empty, got {len(contexts)} and {len(words)}"
        )
    fig = new_figure(8.4, 0.45 * max(len(contexts), len(words)) + 1.4, dpi=80)
    left, right = fig.subplots(1, 2, width_ratios=(1.6, 1))
    _bars(left, contexts, PALETTE[0], tr("activation at the last word"))
    left.set_title(tr("contexts it fires on most"), fontsize=10)
    _bars(right, words, PALETTE[1], tr("logit per unit of activation"))
    right.set_title(tr("words its direction promotes"), fontsize=10)
    fig.suptitle(tr("feature {feature}", feature=feature), fontsize=11)
    return fig
