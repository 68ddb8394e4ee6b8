"""Matplotlib figures for the lessons: pure functions from data to a ``Figure``.

One submodule per lesson topic. Figures are made with ``Figure()`` (not ``plt.figure``), so a
slider callback never leaks figures into pyplot's global list.
"""

from __future__ import annotations

import io
import os
from importlib.util import find_spec

import matplotlib
import numpy as np
from matplotlib import font_manager
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullLocator

# The one palette of the course: Okabe & Ito's eight colours, distinguishable with every common
# form of colour blindness. PALETTE is for things in order (polygons, labels, seeds); COLORS
# gives each concept its colour, the same in every lesson.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
GREY = "#7F7F7F"
COLORS = {
    "relu": PALETTE[0],
    "gelu": PALETTE[1],
    "gelu_tanh": PALETTE[4],
    "silu": PALETTE[2],
    "tanh": PALETTE[3],
    "identity": GREY,
    "f": PALETTE[0],
    "g": PALETTE[1],
    "post": PALETTE[1],
    "pre": PALETTE[2],
    "none": GREY,
    "unit lines": "#333333",
}


def tint(color: str, amount: float) -> tuple[float, float, float]:
    """``color`` mixed with white: amount 0 is white, 1 the colour itself (for light fills)."""
    rgb = np.array(to_rgb(color))
    return tuple(float(v) for v in 1 - amount * (1 - rgb))


__all__ = [
    "CJK_FONT",
    "COLORS",
    "GREY",
    "PALETTE",
    "cjk_font_path",
    "describe",
    "figure_png",
    "new_figure",
    "plain_log_axis",
    "tint",
    "use_cjk_fallback",
    "use_course_style",
]

CJK_FONT = "Noto Sans CJK SC"


def cjk_font_path() -> str:
    """Noto Sans CJK SC as the ``mplfonts`` package installs it (a dependency of the course)."""
    spec = find_spec("mplfonts")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("mplfonts is not installed: run `make setup` (pip install mplfonts)")
    path = os.path.join(spec.submodule_search_locations[0], "fonts", "NotoSansCJKsc-Regular.otf")
    if not os.path.exists(path):
        raise RuntimeError(f"mplfonts has no NotoSansCJKsc-Regular.otf (looked in {path})")
    return path


def use_cjk_fallback() -> None:
    """Draw Latin text in matplotlib's own DejaVu Sans and Chinese in Noto Sans CJK SC.

    matplotlib falls back glyph by glyph along ``font.family``, so the English edition's figures
    are unchanged and a Chinese label renders as characters, not boxes. Mathtext (``$...$``) does
    not fall back: the course keeps Chinese out of strings with ``$``.
    """
    if CJK_FONT not in {entry.name for entry in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(cjk_font_path())
    matplotlib.rcParams["font.family"] = ["DejaVu Sans", CJK_FONT]


def use_course_style() -> None:
    """The course's look in every figure, its own and a learner's: Okabe–Ito as the colour cycle
    (a plot without a colour still gets a colour-blind-safe one) and an opaque white background,
    so black text stays legible on JupyterLab's dark theme."""
    from cycler import cycler

    matplotlib.rcParams["axes.prop_cycle"] = cycler(color=list(PALETTE))
    matplotlib.rcParams["figure.facecolor"] = "white"
    matplotlib.rcParams["savefig.facecolor"] = "white"
    matplotlib.rcParams["savefig.transparent"] = False


use_cjk_fallback()
use_course_style()


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


def plain_log_axis(axis) -> None:
    """A log axis drawn fast: no minor ticks, labels as plain text ("1e-02"). Mathtext labels
    (10^k) are most of a live figure's redraw, about 100 ms each time."""
    axis.set_minor_locator(NullLocator())
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.0e}"))


def _texts(artists) -> list[str]:
    return [t.get_text().strip() for t in artists if t.get_visible() and t.get_text().strip()]


def describe(fig: Figure, limit: int = 8) -> str:
    """Alt text for ``fig``: what it shows, read from its own texts (title, each panel's title,
    axis labels, legend entries and up to ``limit`` annotations), in the learner's language.

    A screen reader or the static site shows this where the picture cannot be seen."""
    from matplotlib.text import Text

    from course_lib.core.i18n import series, tr

    parts = []
    if fig._suptitle is not None and fig._suptitle.get_text().strip():
        parts.append(fig._suptitle.get_text().strip())
    panels = [ax for ax in fig.axes if ax.get_visible()]
    seen: set[str] = set(parts)
    for number, ax in enumerate(panels, start=1):
        items = []
        title = " ".join(_texts([ax.title, ax._left_title, ax._right_title]))
        if title:
            items.append(title)
        if ax.axison and ax.get_xlabel().strip():
            items.append(tr("x: {label}", label=ax.get_xlabel().strip()))
        if ax.axison and ax.get_ylabel().strip():
            items.append(tr("y: {label}", label=ax.get_ylabel().strip()))
        legend = ax.get_legend()
        if legend is not None and _texts(legend.get_texts()):
            items.append(tr("legend: {labels}", labels=series(_texts(legend.get_texts()))))
        notes = [t for t in _texts(ax.texts) if t not in seen][:limit]
        seen.update(notes)
        if notes:
            items.append(tr("labels: {labels}", labels=series(notes)))
        if items:
            what = tr("; ").join(items)
            parts.append(tr("panel {n}: {what}", n=number, what=what) if len(panels) > 1 else what)
    loose = [t for t in _texts(fig.findobj(Text)) if t not in seen and t not in str(parts)]
    if not parts and loose:
        parts.append(tr("labels: {labels}", labels=series(loose[:limit])))
    if not parts:
        return tr("a figure with {n} panel(s) and no text", n=len(panels))
    return tr("Figure: {what}", what=tr(". ").join(parts))


def show_alt_text_in_notebooks() -> None:
    """In IPython, display every Figure as a PNG whose output carries ``describe(fig)`` as its
    ``alt`` metadata: stored in the notebook, used by the static site's ``<img alt>``."""
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing to register
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return

    from IPython.core.pylabtools import print_figure

    def png_with_alt(fig: Figure):
        data = print_figure(fig, "png", bbox_inches="tight", base64=True)  # as IPython's own
        return None if data is None else (data, {"alt": describe(fig)})

    shell.display_formatter.formatters["image/png"].for_type(Figure, png_with_alt)


show_alt_text_in_notebooks()
