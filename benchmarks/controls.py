"""A demo control's value change, prepared for pytest-benchmark to time ``demo.png(**values)``
(render + PNG encode: what the widget's callback waits for) in these states:

- ``shown``: the demo's cell run, nothing drawn yet: the demo's PNGs, its live figure and every
  memoised function of the loaded ``course_lib`` modules cleared, so stored files are read again
  and the figure is built;
- ``first``: a move to a value not drawn before: everything cleared as for ``shown``, then the
  demo shown at the control's neighbouring value (untimed), as a learner's demo is before a move;
  what the new value needs of its own is computed in the timed call, what it shares with the
  shown value (files read, the live figure) is not;
- ``warm``: re-render, the experiment caches warm and the demo's live figure built: what a PNG
  cache miss costs, ``figure_png(demo.figure(**values))``, timed without emptying anything;
- ``cached``: the PNG the demo keeps for a value it has shown;
- ``zh``: ``warm`` in the Chinese edition (its texts drawn with the CJK font).

Only the public Demo API is used: name, controls, defaults(), figure(), png(), clear_cache().
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from course_lib.core.i18n import set_language

MODES = {
    "shown": "demo shown",
    "first": "first visit",
    "warm": "re-render",
    "cached": "cached",
    "zh": "re-render in Chinese",
}


def spread(values: list[Any], limit: int) -> list[Any]:
    """All of ``values``, or ``limit`` of them spread evenly over the list, both ends included."""
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit!r}")
    if len(values) <= limit:
        return list(values)
    if limit == 1:
        return values[:1]
    picks = sorted({round(i * (len(values) - 1) / (limit - 1)) for i in range(limit)})
    return [values[i] for i in picks]


def memoised(modules: Iterable[ModuleType]) -> list[Callable]:
    """Every ``functools.lru_cache``/``cache`` function (it has ``cache_clear``) that the modules
    define at top level or as attributes of their own classes, each once."""
    found: dict[int, Callable] = {}
    for module in modules:
        for value in list(vars(module).values()):
            candidates = [value]
            if isinstance(value, type) and value.__module__ == module.__name__:
                candidates += list(vars(value).values())
            for item in candidates:
                if callable(item) and callable(getattr(item, "cache_clear", None)):
                    found.setdefault(id(item), item)
    return list(found.values())


def clear_caches(modules: Iterable[ModuleType] | None = None) -> int:
    """Empty every memoised function of the loaded ``course_lib`` modules (or of ``modules``);
    returns how many were cleared. Caches held elsewhere (closures, dicts) are not seen."""
    if modules is None:
        modules = [m for n, m in list(sys.modules.items()) if m and n.startswith("course_lib")]
    found = memoised(modules)
    for function in found:
        function.cache_clear()
    return len(found)


def neighbour(values: Any, value: Any) -> Any:
    """The value before ``value`` in the control's grid, or after it for the first one."""
    index = list(values).index(value)
    return values[index - 1] if index > 0 else values[index + 1]


def plan(demo, control, mode: str, limit: int) -> tuple[list[Any], Callable]:
    """The values to visit (``limit`` spread over the control's grid, the others at their
    defaults) and a pytest-benchmark ``setup`` that puts the demo in ``mode``'s state for the next
    value (cycling through them) and returns ``demo.png``'s arguments for it."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {list(MODES)}, got {mode!r}")
    values = spread(list(control.values), limit)
    visits = itertools.cycle(values)

    def setup() -> tuple[tuple, dict[str, Any]]:
        kwargs = {**demo.defaults(), control.name: next(visits)}
        set_language("zh" if mode == "zh" else "en")
        if mode in ("shown", "first"):
            demo.clear_cache()
            clear_caches()
            if mode == "first":
                demo.png(
                    **{**kwargs, control.name: neighbour(control.values, kwargs[control.name])}
                )
        else:
            demo.png(**kwargs)  # the experiment caches warm, the live figure built, the PNG stored
        return (), kwargs

    return values, setup


def rerender(demo) -> Callable[..., bytes]:
    """What ``demo.png`` does on a cache miss once its live figure exists: data, redraw, encode."""
    from course_lib.core.plots import figure_png

    def draw(**values: Any) -> bytes:
        return figure_png(demo.figure(**values))

    return draw


def cpu_recorded(function: Callable, sink: list[float]) -> Callable:
    """``function`` that also appends its CPU time (this process, all threads) in ms to ``sink``:
    CPU time changes less than wall time when other work shares the machine."""

    def call(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            sink.append(1000 * (time.process_time() - start))

    return call


def figure_size(demo) -> tuple[float, float, float]:
    """(width in, height in, dpi) of the demo's default figure."""
    fig = demo.figure()
    width, height = fig.get_size_inches()
    return float(width), float(height), float(fig.dpi)


def empty_png(width: float, height: float, dpi: float) -> bytes:
    """The floor for a control: a new empty figure of this size encoded as PNG, the least any
    redraw costs."""
    from matplotlib.figure import Figure

    from course_lib.core.plots import figure_png

    return figure_png(Figure(figsize=(width, height), dpi=dpi))
