"""Every notebook of both editions (``notebooks/*.ipynb`` and ``notebooks/zh/*.ipynb``), executed
top to bottom in a fresh kernel, beside the floor (a kernel that only imports ``course_lib`` and
``torch``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.notebook_timer import execute, remove_scratch, scratch_copy

FOLDER = Path(__file__).parent.parent / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb")) + sorted(FOLDER.glob("zh/*.ipynb"))


def name(path: Path) -> str:
    """The notebook's name: 01_feed_forward.ipynb, or zh/01_feed_forward.ipynb in Chinese."""
    return path.relative_to(FOLDER).as_posix()


def measure(benchmark, settings, path: Path | None, warmup: int = 0) -> None:
    """``settings.repeat`` rounds (after ``warmup`` unmeasured ones), each in a fresh copy of the
    notebook's folder; cell times, peak memory and kernel CPU go to ``extra_info``."""
    runs, scratch = [], []

    def setup():
        notebook, workdir = scratch_copy(path)
        scratch.append(workdir)
        return (notebook, workdir), {"timeout": settings.cell_timeout}

    try:
        benchmark.pedantic(
            lambda *args, **kwargs: runs.append(execute(*args, **kwargs)),
            setup=setup,
            rounds=settings.repeat,
            warmup_rounds=warmup,
        )
    finally:
        for workdir in scratch:
            remove_scratch(workdir)
    runs = runs[warmup : warmup + settings.repeat]
    benchmark.extra_info.update(
        peak_bytes=[run.peak_bytes for run in runs],
        cpu_s=[run.cpu_s for run in runs],
        cells=[run.cells for run in runs],
        cell_cpu_s=[run.cell_cpu_s for run in runs],
    )


@pytest.mark.measures(*(name(path) for path in NOTEBOOKS))
def test_notebook_floor(benchmark, settings):
    benchmark.group = "notebooks"
    benchmark.extra_info["kind"] = "notebook floor"
    measure(benchmark, settings, None, warmup=1)  # the warm-up fills file and font caches


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=name(p), marks=pytest.mark.measures(name(p))) for p in NOTEBOOKS]
)
def test_notebook(benchmark, settings, path):
    benchmark.group = "notebooks"
    benchmark.extra_info.update(kind="notebook", notebook=name(path))
    measure(benchmark, settings, path)
