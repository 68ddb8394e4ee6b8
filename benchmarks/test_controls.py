"""Every control of every demo (``course_lib.core.widgets.all_demos()``): first visit, re-render,
cached and re-render in the Chinese edition, each over the control's values, beside the demo's
floor (an empty figure as PNG)."""

from __future__ import annotations

import pytest

from benchmarks import controls
from course_lib.core.i18n import set_language
from course_lib.core.widgets import all_demos

DEMOS = all_demos()


def _name(demo, control) -> str:
    return f"{demo.name}.{control.name}"


FLOORS = [
    pytest.param(
        demo, id=demo.name, marks=pytest.mark.measures(*(_name(demo, c) for c in demo.controls))
    )
    for demo in DEMOS
]
CASES = [
    pytest.param(
        demo,
        control,
        mode,
        id=f"{_name(demo, control)}-{mode}",
        marks=pytest.mark.measures(_name(demo, control)),
    )
    for demo in DEMOS
    for control in demo.controls
    for mode in controls.MODES
]


@pytest.mark.parametrize("demo", FLOORS)
def test_control_floor(benchmark, settings, demo):
    size = controls.figure_size(demo)
    benchmark.group = "control floors"
    benchmark.extra_info.update(kind="control floor", demo=demo.name, size=list(size))
    benchmark.pedantic(controls.empty_png, args=size, rounds=20 * settings.repeat, warmup_rounds=1)


@pytest.mark.parametrize(("demo", "control", "mode"), CASES)
def test_control(benchmark, settings, demo, control, mode):
    values, setup = controls.plan(demo, control, mode, settings.values)
    rounds, cpu_ms = len(values) * settings.repeat, []
    benchmark.group = _name(demo, control)
    benchmark.extra_info.update(
        kind="control",
        demo=demo.name,
        control=control.name,
        mode=mode,
        grid_size=len(control.values),
        values=[repr(v) for v in values],
    )
    timed = controls.rerender(demo) if mode in ("warm", "zh") else demo.png
    target = timed if mode == "cached" else controls.cpu_recorded(timed, cpu_ms)
    try:
        benchmark.pedantic(target, setup=setup, rounds=rounds)
    finally:
        set_language("en")
    benchmark.extra_info["cpu_ms"] = cpu_ms[:rounds]  # not a --benchmark-cprofile run's extra call
