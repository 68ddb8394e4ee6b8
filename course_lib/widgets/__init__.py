"""Live demos: controls (sliders, dropdowns, toggles) wired to a pure render function.

A ``Demo`` is data: its controls with their value grids and a ``render(**values) -> Figure``.
Tests call ``render`` over every grid value without a browser; ``build`` turns a demo into an
ipywidgets UI whose image updates when a control moves. Each lesson module here defines
``demos() -> list[Demo]``; ``all_demos()`` finds them, so tests and the benchmark cover new ones.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from matplotlib.figure import Figure

from course_lib.plots import figure_png

KINDS = ("slider", "dropdown", "toggle")


@dataclass(frozen=True)
class Control:
    """One control: ``name`` is both the render keyword and the label the learner sees."""

    name: str
    values: Sequence[Any]
    default: Any
    kind: str = "slider"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {list(KINDS)}, got {self.kind!r}")
        if len(self.values) < 2:
            raise ValueError(
                f"control {self.name!r} needs at least 2 values, got {list(self.values)}"
            )
        if self.default not in self.values:
            raise ValueError(f"default {self.default!r} of {self.name!r} is not among its values")


@dataclass
class Demo:
    """A render function and the controls that drive it.

    ``trains`` marks demos whose first visit to a value trains a model: the UI then shows
    ``busy_text`` while it works and updates only when the learner releases the slider.
    """

    name: str
    controls: tuple[Control, ...]
    render: Callable[..., Figure]
    trains: bool = False
    busy_text: str = "computing…"
    _png_cache: dict[tuple, bytes] = field(default_factory=dict, repr=False)

    def defaults(self) -> dict[str, Any]:
        return {c.name: c.default for c in self.controls}

    def figure(self, **values: Any) -> Figure:
        """The figure for ``values`` (defaults for the rest): the static copy of the live view."""
        return self.render(**{**self.defaults(), **values})

    def png(self, **values: Any) -> bytes:
        """PNG bytes for ``values``, cached: returning to a value answers at once."""
        full = {**self.defaults(), **values}
        key = tuple(sorted(full.items()))
        if key not in self._png_cache:
            fig = self.render(**full)
            self._png_cache[key] = figure_png(fig)
        return self._png_cache[key]

    def clear_cache(self) -> None:
        """Forget every stored PNG, so the next visit to any value renders anew."""
        self._png_cache.clear()

    def is_cached(self, **values: Any) -> bool:
        return tuple(sorted({**self.defaults(), **values}.items())) in self._png_cache

    def one_at_a_time(self) -> Iterator[dict[str, Any]]:
        """Every value of every control, the others at their defaults: the grid tests cover."""
        for control in self.controls:
            for value in control.values:
                yield {**self.defaults(), control.name: value}


def _make_control(control: Control, continuous: bool):
    import ipywidgets as w

    common = {"description": control.name, "style": {"description_width": "initial"}}
    if control.kind == "dropdown":
        return w.Dropdown(options=list(control.values), value=control.default, **common)
    if control.kind == "toggle":
        return w.ToggleButtons(options=list(control.values), value=control.default, **common)
    return w.SelectionSlider(
        options=list(control.values),
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
    status = w.HTML(value="ready")
    image.add_class("course-demo-image")
    status.add_class("course-demo-status")

    def update(_change=None) -> None:
        values = {name: widget.value for name, widget in controls.items()}
        if not demo.is_cached(**values):
            status.value = f"<i>{demo.busy_text}</i>"
        start = time.perf_counter()
        try:
            image.value = demo.png(**values)
        except Exception as error:  # shown to the learner, and the browser suite looks for it
            status.value = f"<b style='color:#c00'>error: {type(error).__name__}: {error}</b>"
            raise
        status.value = f"updated in {1000 * (time.perf_counter() - start):.0f} ms"

    for widget in controls.values():
        widget.observe(update, names="value")
    box = w.VBox([w.HBox(list(controls.values())), status, image])
    box.add_class("course-demo")
    return box


def all_demos() -> list[Demo]:
    """Every demo of every lesson module in this package (modules that define ``demos()``)."""
    found: list[Demo] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if callable(getattr(module, "demos", None)):
            found.extend(module.demos())
    return found
