"""Figures for lesson 1: where the FFN sits, the activations, and what its hidden layer does."""

from __future__ import annotations

import numpy as np
import torch
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.ticker import MaxNLocator

from course_lib.model.ffn import ACTIVATIONS
from course_lib.plots import COLORS, new_figure

ENCODER_BLOCKS = (
    ("Input embeddings + positional encoding", "#eeeeee"),
    ("Multi-head self-attention", "#fde0c5"),
    ("Add & Norm", "#f3f3c0"),
    ("Feed-forward network\n512 → 2048 → ReLU → Dropout → 512", "#c6e2ff"),
    ("Add & Norm", "#f3f3c0"),
    ("Output to the next layer", "#eeeeee"),
)


def encoder_layer_diagram() -> Figure:
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
            FancyBboxPatch(
                (1.5, y), 6, 1.0, boxstyle="round,pad=0.05", fc=color, ec="black", lw=edge
            )
        )
        ax.text(4.5, y + 0.5, label, ha="center", va="center", fontsize=8.5)
        if i:
            ax.add_patch(
                FancyArrowPatch((4.5, y - 0.6), (4.5, y), arrowstyle="-|>", mutation_scale=12)
            )
    for start, end in ((0.8, 3.2), (3.2 + 0.0, 6.4)):  # residual paths around each sublayer
        y0, y1 = start + 0.9, end + 1.6 + 0.5
        ax.add_patch(
            FancyArrowPatch(
                (7.5, y0),
                (7.5, y1),
                connectionstyle="arc3,rad=-0.5",
                arrowstyle="-|>",
                ls="--",
                mutation_scale=10,
            )
        )
    ax.text(9.0, 4.0, "residual\npath", fontsize=8, ha="center")
    ax.set_title("One encoder layer: the FFN is the second sublayer")
    return fig


def activation_curves(names: tuple[str, ...] = ("relu", "gelu", "silu")) -> Figure:
    """Each activation on [-4, 4], one panel each, sharing axes so their shapes compare directly."""
    z = torch.linspace(-4, 4, 401)
    fig = new_figure(3.0 * len(names), 2.8)
    axes = fig.subplots(1, len(names), sharey=True, squeeze=False)[0]
    for ax, name in zip(axes, names, strict=True):
        ax.plot(z.numpy(), ACTIVATIONS[name](z).numpy(), color=COLORS.get(name, "black"), lw=2)
        ax.axhline(0, color="grey", lw=0.5)
        ax.axvline(0, color="grey", lw=0.5)
        ax.set_title(name)
        ax.set_xlabel("z")
    axes[0].set_ylabel("activation(z)")
    return fig


class HiddenActivityView:
    """Lesson 1's demo figure, built once and redrawn in place for every slider value.

    Creating axes and ticks costs more than drawing them, so a slider move only updates the data.
    """

    BINS = 60

    def __init__(self, tokens: int = 8) -> None:
        # redrawn on every slider move: no layout engine, axes placed by hand
        self.figure = new_figure(8.0, 3.2, dpi=80, layout=None)
        self.left, self.right = self.figure.subplots(1, 2)
        self.figure.subplots_adjust(left=0.08, right=0.98, bottom=0.16, top=0.9, wspace=0.3)
        edges = np.linspace(0, 1, self.BINS + 1)
        self.stairs = self.left.stairs(np.zeros(self.BINS), edges, fill=True)  # one artist: fast
        self.bars = self.right.bar(np.arange(tokens), np.zeros(tokens))
        self.left.set_xlabel("hidden value after the activation")
        self.left.set_ylabel("count")
        self.right.set_ylim(0, 1)
        for axis in (self.left.xaxis, self.left.yaxis, self.right.xaxis, self.right.yaxis):
            axis.set_major_locator(MaxNLocator(nbins=4))  # tick labels are most of a redraw
        self.right.xaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
        self.right.set_xlabel("token")
        self.right.set_ylabel("fraction of hidden units > 0")

    def update(
        self, hidden: np.ndarray, d_ff: int, activation: str, parameters: int, flops: int
    ) -> Figure:
        """Show ``hidden`` (tokens, d_ff): values after the activation on a fixed input batch."""
        hidden = np.asarray(hidden)
        if hidden.ndim != 2 or hidden.shape[0] != len(self.bars):
            raise ValueError(f"hidden must have shape ({len(self.bars)}, d_ff), got {hidden.shape}")
        color = COLORS.get(activation, "black")
        counts, edges = np.histogram(hidden.ravel(), bins=self.BINS)
        self.stairs.set_data(counts, edges)
        self.stairs.set_color(color)
        self.left.set_xlim(edges[0], edges[-1])
        self.left.set_ylim(0, counts.max() * 1.05)
        for bar, height in zip(self.bars, (hidden > 0).mean(axis=1), strict=True):
            bar.set_height(height)
            bar.set_color(color)
        self.left.set_title(
            f"{activation}, d_ff = {d_ff}: {100 * (hidden == 0).mean():.0f}% exact zeros"
        )
        self.right.set_title(f"{parameters:,} params, {flops:,} FLOPs/token", fontsize=9, y=1.0)
        return self.figure


def hidden_activity_figure(
    hidden: np.ndarray, d_ff: int, activation: str, parameters: int, flops: int
) -> Figure:
    """A new figure: histogram of hidden values and the fraction of units active per token.

    hidden: (tokens, d_ff) values after the activation on a fixed input batch.
    """
    return HiddenActivityView(len(hidden)).update(hidden, d_ff, activation, parameters, flops)
