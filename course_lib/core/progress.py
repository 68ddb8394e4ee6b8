"""Progress of a long cell (进度条): what a cell is computing and how far it has got.

``progress(range(steps), "training the model")`` iterates as ``range(steps)`` does and shows a
bar beside the step's description in the learner's language (from the catalogue). It is tqdm's
``tqdm.auto``: in JupyterLab a widget (an ipywidgets progress bar), in a terminal or a script a line
of text on stderr. Library code takes a ``progress=False`` argument and passes it as ``show``; the
lesson's cell turns it on, so tests and other callers stay silent.

The bar shows the description, the bar and "n/total", never the elapsed time or a rate: a stored
notebook holds the same output on every run. In a notebook the widget's text (``text/plain``, what
nbval compares and what a reader without widgets sees) is taken once, when the bar appears:
"training the model |          | 0/200". The widget carries ``PROGRESS_CLASS``, by which the static
site finds it and draws the finished bar from the stored widget state (``devtools.site``).
"""

from __future__ import annotations

from collections.abc import Iterable
from numbers import Integral

from course_lib.core.i18n import tr

__all__ = ["BAR_FORMAT", "PROGRESS_CLASS", "progress"]

PROGRESS_CLASS = "course-progress"
BAR_FORMAT = "{desc} |{bar}| {n_fmt}/{total_fmt}"  # no {elapsed}, {remaining} or {rate}


def progress(
    iterable: Iterable,
    description: str,
    /,
    *,
    total: int | None = None,
    show: bool = True,
    **fields,
):
    """``iterable`` with a progress bar described by ``description`` (an English catalogue text,
    filled with ``fields`` in the learner's language: a literal in a notebook's call, which
    tests/test_i18n.py finds there, or marked with ``N_`` in library code) out of ``total`` steps
    (by default ``len(iterable)``). With ``show=False`` the iterable itself is returned: no bar,
    no output."""
    if not isinstance(description, str):
        raise TypeError(f"description must be a str, got {type(description).__name__}")
    if not isinstance(show, bool):
        raise TypeError(f"show must be True or False, got {show!r}")
    if not show:
        return iterable
    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            raise ValueError(
                f"total is needed for an iterable without a length ({type(iterable).__name__}): "
                "pass total=<number of steps>"
            ) from None
    if isinstance(total, bool) or not isinstance(total, Integral) or total < 1:
        raise ValueError(f"total must be a whole number of steps >= 1, got {total!r}")
    from tqdm.auto import tqdm
    from tqdm.notebook import tqdm_notebook

    options = dict(
        desc=tr(description, **fields),
        total=int(total),
        bar_format=BAR_FORMAT,
        leave=True,
        dynamic_ncols=False,
    )
    if not issubclass(tqdm, tqdm_notebook):  # a terminal or a script: text on stderr
        return tqdm(iterable, **options)
    from IPython.display import display

    bar = tqdm(iterable, display=False, **options)  # shown below, once it carries its class
    bar.container.add_class(PROGRESS_CLASS)
    display(bar.container)
    bar.displayed = True
    return bar
