"""Live demos: controls (sliders, dropdowns, toggles) wired to a data function and a view.

A ``Demo`` is data plus a picture: its controls with their value grids, a pure ``data(**values)``
that computes what to show (from ``course_lib.core.experiments`` or ``course_lib.core.model``, never
plotting), and a ``view`` from ``course_lib.core.plots`` that draws it. The demo owns its live figure:
the view is built once and updated in place on every move, which is what keeps a slider instant,
and ``clear_cache()`` forgets it together with the stored PNGs. Tests call ``data`` and
``figure`` over every grid value without a browser; ``build`` makes the ipywidgets UI.
Each lesson module here defines ``demos() -> list[Demo]``; ``all_demos()`` finds them.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from matplotlib.figure import Figure

from course_lib.core.i18n import N_, language, language_version, tr
from course_lib.core.plots import figure_png

KINDS = ("slider", "dropdown", "toggle")


@dataclass(frozen=True)
class Control:
    """One control: ``name`` is both the data function's keyword and the label the learner sees.
    ``labels`` (one per value, marked with ``N_``) are shown instead of values that are words,
    in the learner's language; numbers and code names show as they are."""

    name: str
    values: Sequence[Any]
    default: Any
    kind: str = "slider"
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {list(KINDS)}, got {self.kind!r}")
        if self.labels is not None and len(self.labels) != len(self.values):
            raise ValueError(
                f"labels must give one label per value of {self.name!r} ({len(self.values)}), "
                f"got {len(self.labels)}: {list(self.labels)}"
            )
        if len(self.values) < 2:
            raise ValueError(
                f"control {self.name!r} needs at least 2 values, got {list(self.values)}"
            )
        if self.default not in self.values:
            raise ValueError(f"default {self.default!r} of {self.name!r} is not among its values")

    def shown(self) -> list[str]:
        """What the learner reads for each value: its label in the current language, or the value."""
        if self.labels is None:
            return [str(value) for value in self.values]
        return [tr(label) for label in self.labels]


class View(Protocol):
    """A live figure: built once, then ``update(data)`` redraws it and returns the Figure."""

    def update(self, data: Any) -> Figure: ...


@dataclass
class Demo:
    """Controls, the pure ``data`` function they drive, and the ``view`` factory that draws it.

    ``trains`` marks demos whose first visit to a value trains a model: the UI then shows
    ``busy_text`` while it works and updates only when the learner releases the slider.
    """

    name: str
    controls: tuple[Control, ...]
    data: Callable[..., Any]
    view: Callable[[], View]
    trains: bool = False
    busy_text: str = N_("computing…")
    _live: View | None = field(default=None, repr=False)
    _live_language: int = field(default=-1, repr=False)
    _png_cache: dict[tuple, bytes] = field(default_factory=dict, repr=False)

    def defaults(self) -> dict[str, Any]:
        return {c.name: c.default for c in self.controls}

    def values(self, **values: Any) -> dict[str, Any]:
        """``values`` with the defaults filled in; an unknown control name is an error."""
        unknown = sorted(set(values) - {c.name for c in self.controls})
        if unknown:
            names = [c.name for c in self.controls]
            raise TypeError(f"{self.name!r} has no control {unknown[0]!r}; its controls: {names}")
        return {**self.defaults(), **values}

    def figure(self, **values: Any) -> Figure:
        """The demo's live figure showing ``values`` (defaults for the rest). The same Figure
        object every time: copy what you need before the next call."""
        if self._live is None or self._live_language != language_version():
            self._live = self.view()  # built in the current language: its fixed texts too
            self._live_language = language_version()
        return self._live.update(self.data(**self.values(**values)))

    def png(self, **values: Any) -> bytes:
        """PNG bytes for ``values``, cached: returning to a value answers at once."""
        key = self._key(values)
        if key not in self._png_cache:
            self._png_cache[key] = figure_png(self.figure(**values))
        return self._png_cache[key]

    def clear_cache(self) -> None:
        """Forget every stored PNG and the live figure: the next visit builds and draws anew."""
        self._png_cache.clear()
        self._live = None

    def is_cached(self, **values: Any) -> bool:
        return self._key(values) in self._png_cache

    def _key(self, values: dict[str, Any]) -> tuple:
        """A picture is cached per values and language: its texts are in the learner's language."""
        return (language(), *sorted(self.values(**values).items()))

    def one_at_a_time(self) -> Iterator[dict[str, Any]]:
        """Every value of every control, the others at their defaults: the grid tests cover."""
        for control in self.controls:
            for value in control.values:
                yield {**self.defaults(), control.name: value}


class Redraw:
    """A view for figures cheap to build: every update draws a new Figure with ``draw(data)``."""

    def __init__(self, draw: Callable[[Any], Figure]) -> None:
        self.draw = draw

    def update(self, data: Any) -> Figure:
        return self.draw(data)


def redraw(draw: Callable[[Any], Figure]) -> Callable[[], Redraw]:
    """A ``view`` factory for a plain figure function: ``Demo(..., view=redraw(some_figure))``."""
    return lambda: Redraw(draw)


def _make_control(control: Control, continuous: bool):
    import ipywidgets as w

    common = {"description": control.name, "style": {"description_width": "initial"}}
    options = list(zip(control.shown(), control.values, strict=True))  # (label, value) pairs
    if control.kind == "dropdown":
        return w.Dropdown(options=options, value=control.default, **common)
    if control.kind == "toggle":
        return w.ToggleButtons(options=options, value=control.default, **common)
    return w.SelectionSlider(
        options=options,
        value=control.default,
        continuous_update=continuous,
        layout=w.Layout(width="420px"),
        **common,
    )


def build(demo: Demo):
    """The live UI for ``demo``: its controls, a status line and the image they drive."""
    import ipywidgets as w

    controls = {c.name: _make_control(c, continuous=not demo.trains) for c in demo.controls}
    # align_self: a VBox stretches its children to full width, which would upscale (blur) the PNG
    layout = w.Layout(max_width="100%", align_self="flex-start")
    image = w.Image(value=demo.png(), format="png", layout=layout)
    status = w.HTML(value=tr("ready"))
    image.add_class("course-demo-image")
    status.add_class("course-demo-status")

    def update(_change=None) -> None:
        values = {name: widget.value for name, widget in controls.items()}
        if not demo.is_cached(**values):
            status.value = f"<i>{tr(demo.busy_text)}</i>"
        start = time.perf_counter()
        try:
            image.value = demo.png(**values)
        except Exception as error:  # shown to the learner, and the browser suite looks for it
            message = tr("error: {kind}: {error}", kind=type(error).__name__, error=error)
            status.value = f"<b style='color:#c00'>{message}</b>"
            raise
        status.value = tr("updated in {ms:.0f} ms", ms=1000 * (time.perf_counter() - start))

    for widget in controls.values():
        widget.observe(update, names="value")
    box = w.VBox([w.HBox(list(controls.values())), status, image])
    box.add_class("course-demo")
    box.add_class(demo_class(demo))  # stored with the widget state: the site finds its demo by it
    return box


def demo_class(demo: Demo) -> str:
    """The CSS class naming ``demo`` on its widget: "course-demo--knowledge-neurons"."""
    return "course-demo--" + "-".join(demo.name.lower().split())


def all_demos() -> list[Demo]:
    """Every demo of every lesson, in lesson order: each lesson package's ``demos.demos()``
    (found, not listed: ``course_lib.lessons``)."""
    lessons = importlib.import_module("course_lib.lessons")  # above this base: found when asked
    return [demo for module in lessons.lesson_modules("demos").values() for demo in module.demos()]
