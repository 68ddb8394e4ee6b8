"""Matplotlib figures for the lessons: pure functions from data to a ``Figure``.

One submodule per lesson topic. Figures are made with ``Figure()`` (not ``plt.figure``), so a
slider callback never leaks figures into pyplot's global list.
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure

# One colour per concept, the same in every lesson.
COLORS = {
    "relu": "#1f77b4",
    "gelu": "#d62728",
    "gelu_tanh": "#ff7f0e",
    "silu": "#2ca02c",
    "tanh": "#9467bd",
    "identity": "#7f7f7f",
    "f": "#1f77b4",
    "g": "#d62728",
    "post": "#d62728",
    "pre": "#2ca02c",
    "none": "#7f7f7f",
}

__all__ = ["COLORS", "figure_png", "new_figure"]


def new_figure(
    width: float = 6.4, height: float = 4.0, dpi: int = 100, layout: str | None = "constrained"
) -> Figure:
    """A detached figure (not registered with pyplot).

    Constrained layout costs a few times the drawing itself: slider figures pass ``layout=None``
    and place their axes with ``fig.subplots_adjust``.
    """
    return Figure(figsize=(width, height), dpi=dpi, layout=layout)


def figure_png(fig: Figure, dpi: int | None = None) -> bytes:
    """The figure rendered as PNG bytes, as a widget's image shows it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()
