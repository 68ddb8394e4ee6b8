"""pytest options and pytest-benchmark hooks for the benchmark (``make bench``).

The options choose how much to measure (``--quick``, ``--repeat``, ``--values``, ``--only``); the
hooks add to pytest-benchmark's JSON what RESULTS.md states besides the timings: the versions that
decide how fast a lesson runs, the load on the machine, the settings, and the tests that failed.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from importlib import metadata

import pytest


@dataclass(frozen=True)
class Settings:
    repeat: int  # rounds of every measurement (notebook floor and make test included)
    values: int  # values per control, spread over its grid
    only: tuple[str, ...]  # measure only what names one of these (case-insensitive substrings)
    cell_timeout: int  # seconds a notebook cell may run


def pytest_addoption(parser):
    group = parser.getgroup("course benchmark")
    group.addoption(
        "--quick", action="store_true", help="a fast look: 1 round, 5 values per control"
    )
    group.addoption("--repeat", type=int, help="rounds of everything (default 3; 1 with --quick)")
    group.addoption("--values", type=int, help="values per control (default 50; 5 with --quick)")
    group.addoption(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="measure only notebooks / demo.control names containing NAME (repeatable); "
        "their floors are kept, make test and its floor dropped",
    )
    group.addoption("--cell-timeout", type=int, default=600, help="seconds a notebook cell may run")


def settings_of(config) -> Settings:
    quick = config.getoption("quick")
    repeat = config.getoption("repeat") or (1 if quick else 3)
    values = config.getoption("values") or (5 if quick else 50)
    if repeat < 1 or values < 1:
        raise pytest.UsageError(f"--repeat and --values must be >= 1, got {repeat} and {values}")
    return Settings(
        repeat, values, tuple(config.getoption("only")), config.getoption("cell_timeout")
    )


def matches(names, only) -> bool:
    """True when no filter is given or one of ``names`` contains one of the ``only`` substrings."""
    return not only or any(part.lower() in name.lower() for name in names for part in only)


def load_average() -> str:
    """1/5/15-minute load averages: other work on the machine is the main source of noise."""
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


@pytest.hookimpl(tryfirst=True)  # before pytest-benchmark reads its options
def pytest_configure(config):
    config.addinivalue_line("markers", "measures(*names): what a benchmark measures, for --only")
    config.course_settings = settings_of(config)
    config.course_load_at_start = load_average()
    if config.getoption("benchmark_save", None):
        config.option.benchmark_save_data = True  # a saved run keeps its rounds: p95 needs them


@pytest.fixture
def settings(request) -> Settings:
    return request.config.course_settings


def pytest_collection_modifyitems(config, items):
    """``--only``: keep the benchmarks whose ``measures`` names match."""
    only = config.course_settings.only
    if not only:
        return
    keep, drop = [], []
    for item in items:
        marker = item.get_closest_marker("measures")
        (keep if matches(marker.args if marker else (), only) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


FAILURES: list[str] = []  # this session's failed benchmarks, for RESULTS.md's Errors


def pytest_runtest_logreport(report):
    if report.failed:
        lines = report.longreprtext.strip().splitlines()
        error = [line[1:].strip() for line in lines if line.startswith("E ")] or lines[-1:] or ["failed"]  # fmt: skip
        FAILURES.append(f"`{report.nodeid}` ({report.when}): {error[0][:300]}")


def pytest_benchmark_update_machine_info(config, machine_info):
    import psutil
    import torch

    versions = ("matplotlib", "numpy", "ipykernel", "nbclient", "pytest-benchmark")
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    machine_info["course"] = {
        "cores_logical": os.cpu_count(),
        "cores_physical": psutil.cpu_count(logical=False),
        "cores_usable": usable,
        "memory_gib": round(psutil.virtual_memory().total / 1024**3, 1),
        "platform": platform.platform(),
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        **{name: metadata.version(name) for name in versions},
    }


def pytest_benchmark_update_json(config, benchmarks, output_json):
    command = "python -m pytest " + " ".join(config.invocation_params.args)
    settings = config.course_settings
    output_json["course"] = {
        "command": os.environ.get("COURSE_BENCH_COMMAND") or command,
        "settings": {
            "repeat": settings.repeat,
            "values_per_control": settings.values,
            "only": ", ".join(settings.only) or "all",
            "cell_timeout_s": settings.cell_timeout,
        },
        "load_average_at_start": config.course_load_at_start,
        "load_average_at_end": load_average(),
        "failures": list(FAILURES),
    }
