"""Time a demo's controls: a value change to a finished PNG, as the live widget does it.

Three states per value: ``first`` (the demo's PNG cache and every memoised project function
emptied, so training and sweeps run again), ``warm`` (experiment caches warm, the figure drawn and
encoded again) and ``cached`` (the PNG the widget stores for a value it has shown).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from benchmarks.discover import clear_caches
from benchmarks.stats import spread_indices

MODES = ("first", "warm", "cached")
CPU_MODES = ("first_cpu", "warm_cpu")  # CPU time: less changed by other work on the machine


def _ms(action: Callable[..., Any], **kwargs: Any) -> float:
    return _timed(action, **kwargs)[0]


def _timed(action: Callable[..., Any], **kwargs: Any) -> tuple[float, float]:
    """(wall ms, CPU ms of this process, all threads) of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    action(**kwargs)
    return 1000 * (time.perf_counter() - start), 1000 * (time.process_time() - cpu)


def grid(values: list[Any], limit: int) -> list[Any]:
    """The control's values to visit: all of them, or ``limit`` spread evenly over the grid."""
    return [values[i] for i in spread_indices(len(values), limit)]


def time_control(demo, control, limit: int = 50) -> dict[str, list]:
    """One repetition over ``control``'s grid (other controls at their defaults): milliseconds per
    visited value for each of ``MODES`` and ``CPU_MODES``; ``value`` lists the values visited."""
    samples: dict[str, list] = {mode: [] for mode in MODES + CPU_MODES}
    samples["value"] = grid(list(control.values), limit)
    for value in samples["value"]:
        values = {**demo.defaults(), control.name: value}
        demo.clear_cache()
        clear_caches()
        for mode in ("first", "warm"):
            if mode == "warm":
                demo.clear_cache()
            wall, cpu = _timed(demo.png, **values)
            samples[mode].append(wall)
            samples[f"{mode}_cpu"].append(cpu)
        samples["cached"].append(_ms(demo.png, **values))
    return samples


def figure_size(demo) -> tuple[float, float, float]:
    """(width in, height in, dpi) of the demo's default figure."""
    fig = demo.figure()
    width, height = fig.get_size_inches()
    return float(width), float(height), float(fig.dpi)


def time_floor(width: float, height: float, dpi: float, samples: int = 20) -> list[float]:
    """The floor for a control: milliseconds to make an empty figure of this size and encode it
    as PNG, the least any redraw can cost."""
    from matplotlib.figure import Figure

    from course_lib.plots import figure_png

    def empty() -> bytes:
        return figure_png(Figure(figsize=(width, height), dpi=dpi))

    empty()  # the first call loads the PNG writer
    return [_ms(empty) for _ in range(samples)]
