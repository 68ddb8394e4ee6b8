"""Live demos: controls (sliders, dropdowns, toggles) wired to a data function and a view.

A ``Demo`` is data plus a picture: its controls with their value grids, a pure ``data(**values)``
that computes what to show (from ``course_lib.core.experiments`` or ``course_lib.core.model``, never
plotting), and a ``view`` from ``course_lib.core.plots`` that draws it. The demo owns its live figure:
the view is built once and updated in place on every move, which is what keeps a slider instant,
and ``clear_cache()`` forgets it together with the stored PNGs. Tests call ``data`` and
``figure`` over every grid value without a browser; ``build`` makes the ipywidgets UI, which
draws the moved control's neighbouring values while the learner looks (``Prefetch``), so stepping
through a slider finds each next frame ready.
Each lesson module here defines ``demos() -> list[Demo]``; ``all_demos()`` finds them.
"""

from __future__ import annotations

import asyncio
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
    """One control: ``name`` is the data function's keyword, and the label the learner sees
    unless ``label`` (marked with ``N_``, shown in the learner's language) names it in words.
    ``labels`` (one per value, marked with ``N_``) are shown instead of values that are words,
    in the learner's language; numbers and code names show as they are."""

    name: str
    values: Sequence[Any]
    default: Any
    kind: str = "slider"
    labels: tuple[str, ...] | None = None
    label: str | None = None

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

    def title(self) -> str:
        """What the learner reads beside the control: its ``label`` in the current language, or
        its name."""
        return self.name if self.label is None else tr(self.label)

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

    ``data`` reads stored results or computes quickly: no demo trains or edits a model when a
    control moves (tests/widgets/test_no_training_on_a_move.py). ``busy_text`` is shown while a
    value not drawn before renders.
    """

    name: str
    controls: tuple[Control, ...]
    data: Callable[..., Any]
    view: Callable[[], View]
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

    def neighbours(
        self, values: dict[str, Any], moved: str, reach: int = 1
    ) -> list[dict[str, Any]]:
        """The values next to ``values`` along the control ``moved``, nearest first (one step up,
        one down, then two, up to ``reach`` steps), the other controls kept."""
        control = next(c for c in self.controls if c.name == moved)
        here = self.values(**values)
        index = list(control.values).index(here[moved])
        steps = [s for step in range(1, reach + 1) for s in (step, -step)]
        ahead = [index + s for s in steps if 0 <= index + s < len(control.values)]
        return [{**here, moved: control.values[i]} for i in ahead]

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


Schedule = Callable[[Callable[[], None]], object]
PREFETCH_DELAY_S = 0.05  # a slider dragged sends moves faster than this: nothing is drawn between


def idle_schedule(delay: float = PREFETCH_DELAY_S) -> Schedule | None:
    """Run a callback ``delay`` seconds from now on the kernel's event loop, between the messages
    it answers; None where no loop runs (a script, a test, the site's build): no prefetch there."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return lambda callback: loop.call_later(delay, callback)


class Prefetch:
    """The next frame ready before it is asked for: after a move, the moved control's neighbouring
    values not drawn yet (``reach`` steps each way, nearest first) are drawn into the demo's PNG
    cache, one per turn of the kernel's event loop. A reply to the learner's next move therefore
    waits for at most the one frame being drawn; that move drops what is still queued. A value
    that fails to draw is skipped here: the learner sees its error only by moving to it."""

    def __init__(self, demo: Demo, schedule: Schedule | None, reach: int = 1) -> None:
        self.demo, self.schedule, self.reach = demo, schedule, reach
        self.queue: list[dict[str, Any]] = []
        self.generation = 0
        self.drawn: list[dict[str, Any]] = []

    def after(self, values: dict[str, Any], moved: str) -> None:
        """The learner moved ``moved`` to ``values``: forget the old queue, queue its neighbours."""
        self.generation += 1
        self.queue = [
            near
            for near in self.demo.neighbours(values, moved, self.reach)
            if not self.demo.is_cached(**near)
        ]
        if self.queue and self.schedule is not None:
            generation = self.generation
            self.schedule(lambda: self._draw_next(generation))

    def _draw_next(self, generation: int) -> None:
        if generation != self.generation or not self.queue:
            return  # a newer move replaced this queue: its own callback draws it
        values = self.queue.pop(0)
        try:
            self.demo.png(**values)
            self.drawn.append(values)
        except Exception:  # noqa: BLE001 (the learner meets the error when they move there)
            pass
        if self.queue and self.schedule is not None:
            self.schedule(lambda: self._draw_next(generation))


def _make_control(control: Control):
    import ipywidgets as w

    common = {"description": control.title(), "style": {"description_width": "initial"}}
    options = list(zip(control.shown(), control.values, strict=True))  # (label, value) pairs
    if control.kind == "dropdown":
        return w.Dropdown(options=options, value=control.default, **common)
    if control.kind == "toggle":
        return w.ToggleButtons(options=options, value=control.default, **common)
    return w.SelectionSlider(
        options=options,
        value=control.default,
        continuous_update=True,  # every frame is stored or quick: a drag shows each value
        layout=w.Layout(width="420px"),
        **common,
    )


def build(demo: Demo, schedule: Schedule | None | str = "idle"):
    """The live UI for ``demo``: its controls, a status line and the image they drive. After each
    move a ``Prefetch`` draws the neighbouring values on ``schedule`` (default: the kernel's idle
    time; None: never)."""
    import ipywidgets as w

    controls = {c.name: _make_control(c) for c in demo.controls}
    # align_self: a VBox stretches its children to full width, which would upscale (blur) the PNG
    layout = w.Layout(max_width="100%", align_self="flex-start")
    image = w.Image(value=demo.png(), format="png", layout=layout)
    status = w.HTML(value=tr("ready"))
    image.add_class("course-demo-image")
    status.add_class("course-demo-status")

    prefetch = Prefetch(demo, idle_schedule() if schedule == "idle" else schedule)

    def update(moved: str) -> None:
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
        prefetch.after(values, moved)

    for name, widget in controls.items():
        widget.observe(lambda _change, moved=name: update(moved), names="value")
    box = w.VBox([w.HBox(list(controls.values())), status, image])
    box.add_class("course-demo")
    box.add_class(demo_class(demo))  # stored with the widget state: the site finds its demo by it
    box.prefetch = prefetch  # for tests and the benchmark: what it drew
    return box


def demo_class(demo: Demo) -> str:
    """The CSS class naming ``demo`` on its widget: "course-demo--knowledge-neurons"."""
    return "course-demo--" + "-".join(demo.name.lower().split())


def all_demos() -> list[Demo]:
    """Every demo of every lesson, in lesson order: each lesson package's ``demos.demos()``
    (found by name, not listed: ``course_lib.core.discovery.lesson_modules``)."""
    from course_lib.core.discovery import lesson_modules

    return [demo for module in lesson_modules("demos").values() for demo in module.demos()]
