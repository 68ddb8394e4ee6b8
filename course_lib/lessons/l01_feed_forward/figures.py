"""Figures for lesson 1: where the FFN sits, the activations, and what its hidden layer does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.ticker import MaxNLocator

from course_lib.core._validate import int_at_least, positive_int
from course_lib.core.i18n import N_, tr
from course_lib.core.model.ffn import NUMPY_ACTIVATIONS
from course_lib.core.plots import COLORS, GREY, PALETTE, new_figure, tint

INK = PALETTE[7]  # black: outlines, arrows, text

# One encoder layer bottom to top: (label, fill). The FFN is blue, attention orange, the norms
# yellow, the input and output grey.
ENCODER_BLOCKS = (
    (N_("Input embeddings + positional encoding"), tint(GREY, 0.15)),
    (N_("Multi-head self-attention"), tint(PALETTE[1], 0.3)),
    (N_("Add & Norm"), tint(PALETTE[6], 0.35)),
    (N_("Feed-forward network\n512 → 2048 → ReLU → Dropout → 512"), tint(PALETTE[0], 0.3)),
    (N_("Add & Norm"), tint(PALETTE[6], 0.35)),
    (N_("Output to the next layer"), tint(GREY, 0.15)),
)


def encoder_layer_figure() -> Figure:
    """One encoder layer drawn bottom to top, the FFN sublayer highlighted, residual paths dashed."""
    fig = new_figure(5.6, 5.2)
    ax = fig.add_subplot()
    ax.set_xlim(0, 10)
    ax.set_ylim(-0.5, len(ENCODER_BLOCKS) * 1.6)
    ax.axis("off")
    for i, (label, color) in enumerate(ENCODER_BLOCKS):
        y = i * 1.6
        edge = 2.5 if "Feed-forward" in label else 1.0
        ax.add_patch(
            FancyBboxPatch((1.5, y), 6, 1.0, boxstyle="round,pad=0.05", fc=color, ec=INK, lw=edge)
        )
        ax.text(4.5, y + 0.5, tr(label), ha="center", va="center", fontsize=8.5, color=INK)
        if i:
            ax.add_patch(
                FancyArrowPatch(
                    (4.5, y - 0.6), (4.5, y), arrowstyle="-|>", mutation_scale=12, color=INK
                )
            )
    # residual paths: branch off below each sublayer, rejoin at its Add & Norm
    for i, (label, _) in enumerate(ENCODER_BLOCKS):
        if label.startswith(("Multi-head", "Feed-forward")):
            y_branch, y_join = i * 1.6 - 0.4, (i + 1) * 1.6 + 0.5
            ax.plot([4.5, 8.4, 8.4], [y_branch, y_branch, y_join], ls="--", lw=1, color=INK)
            ax.plot([4.5], [y_branch], "o", ms=4, color=INK)
            ax.add_patch(
                FancyArrowPatch(
                    (8.4, y_join), (7.56, y_join), arrowstyle="-|>", mutation_scale=10, color=INK
                )
            )
            ax.text(
                8.55, (y_branch + y_join) / 2, tr("residual"), fontsize=8, va="center", color=INK
            )
    ax.set_title(tr("One encoder layer: the FFN is the second sublayer"))
    return fig


def activation_curves_figure(names: Sequence[str] = ("relu", "gelu", "silu")) -> Figure:
    """Each activation on [-4, 4], one panel each, sharing axes so their shapes compare directly.

    ``names``: activations of ``course_lib.core.model.ffn.NUMPY_ACTIVATIONS``, evaluated in NumPy.
    """
    names = tuple(names) if not isinstance(names, str) else (names,)
    if not names:
        raise ValueError(f"names must name at least one activation of {sorted(NUMPY_ACTIVATIONS)}")
    for name in names:
        if name not in NUMPY_ACTIVATIONS:
            raise ValueError(
                f"names must be activations of {sorted(NUMPY_ACTIVATIONS)}, got {name!r}"
            )
    z = np.linspace(-4, 4, 401)
    fig = new_figure(3.0 * len(names), 2.8)
    axes = fig.subplots(1, len(names), sharey=True, squeeze=False)[0]
    for ax, name in zip(axes, names, strict=True):
        ax.plot(z, NUMPY_ACTIVATIONS[name](z), color=COLORS.get(name, INK), lw=2)
        ax.axhline(0, color=GREY, lw=0.5)
        ax.axvline(0, color=GREY, lw=0.5)
        ax.set_title(name)
        ax.set_xlabel("z")
    axes[0].set_ylabel(tr("activation(z)"))
    return fig


@dataclass(frozen=True)
class HiddenActivityData:
    """What lesson 1's demo shows for one d_ff and one activation.

    hidden: (tokens, d_ff) values after the activation on a fixed input batch; parameters and
    flops: the FFN's parameter count and FLOPs per token at this width.
    """

    hidden: np.ndarray
    d_ff: int
    activation: str
    parameters: int
    flops: int

    def __post_init__(self) -> None:
        positive_int("d_ff", self.d_ff)
        if not isinstance(self.activation, str):
            raise TypeError(f"activation must be a str, got {self.activation!r}")
        hidden = np.asarray(self.hidden, dtype=float)
        if hidden.ndim != 2 or hidden.shape[1] != self.d_ff:
            raise ValueError(
                f"hidden must have shape (tokens, d_ff) = (tokens, {self.d_ff}), got {hidden.shape}"
            )
        for name in ("parameters", "flops"):
            value = getattr(self, name)
            int_at_least(name, value, 0)
        object.__setattr__(self, "hidden", hidden)

    @property
    def fraction_active(self) -> np.ndarray:
        """Per token, the fraction of hidden units above zero: (tokens,)."""
        return (self.hidden > 0).mean(axis=1)

    @property
    def exact_zeros(self) -> float:
        """The fraction of all hidden values that are exactly zero."""
        return float((self.hidden == 0).mean())


class HiddenActivityView:
    """Lesson 1's demo figure, built once and redrawn in place for every slider value.

    Creating axes and ticks costs more than drawing them, so a slider move only updates the data.
    """

    BINS = 60

    def __init__(self, tokens: int = 8) -> None:
        positive_int("tokens", tokens)
        # redrawn on every slider move: no layout engine, axes placed by hand
        self.figure = new_figure(8.0, 3.2, dpi=80, layout=None)
        self.left, self.right = self.figure.subplots(1, 2)
        self.figure.subplots_adjust(left=0.08, right=0.98, bottom=0.16, top=0.9, wspace=0.3)
        edges = np.linspace(0, 1, self.BINS + 1)
        self.stairs = self.left.stairs(np.zeros(self.BINS), edges, fill=True)  # one artist: fast
        self.bars = self.right.bar(np.arange(tokens), np.zeros(tokens))
        self.left.set_xlabel(tr("hidden value after the activation"))
        self.left.set_ylabel(tr("count"))
        self.right.set_ylim(0, 1)
        for axis in (self.left.xaxis, self.left.yaxis, self.right.xaxis, self.right.yaxis):
            axis.set_major_locator(MaxNLocator(nbins=4))  # tick labels are most of a redraw
        self.right.xaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
        self.right.set_xlabel(tr("token"))
        self.right.set_ylabel(tr("fraction of hidden units > 0"))

    def update(self, data: HiddenActivityData) -> Figure:
        """Show ``data``: the histogram of its hidden values and the fraction active per token."""
        if not isinstance(data, HiddenActivityData):
            raise TypeError(f"data must be a HiddenActivityData, got {type(data).__name__}")
        if data.hidden.shape[0] != len(self.bars):
            raise ValueError(
                f"hidden must have shape ({len(self.bars)}, d_ff), got {data.hidden.shape}"
            )
        color = COLORS.get(data.activation, INK)
        counts, edges = np.histogram(data.hidden.ravel(), bins=self.BINS)
        self.stairs.set_data(counts, edges)
        self.stairs.set_color(color)
        self.left.set_xlim(edges[0], edges[-1])
        self.left.set_ylim(0, counts.max() * 1.05)
        for bar, height in zip(self.bars, data.fraction_active, strict=True):
            bar.set_height(height)
            bar.set_color(color)
        self.left.set_title(
            tr(
                "{activation}, d_ff = {d_ff}: {zeros:.0f}% exact zeros",
                activation=data.activation,
                d_ff=data.d_ff,
                zeros=100 * data.exact_zeros,
            )
        )
        self.right.set_title(
            tr(
                "{parameters:,} params, {flops:,} FLOPs/token",
                parameters=data.parameters,
                flops=data.flops,
            ),
            fontsize=9,
            y=1.0,
        )
        return self.figure


def hidden_activity_figure(data: HiddenActivityData) -> Figure:
    """A new figure: histogram of hidden values and the fraction of units active per token."""
    if not isinstance(data, HiddenActivityData):
        raise TypeError(f"data must be a HiddenActivityData, got {type(data).__name__}")
    return HiddenActivityView(len(data.hidden)).update(data)
