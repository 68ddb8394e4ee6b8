"""Execute a notebook top to bottom in a fresh kernel, as a learner's Run All does: wall time,
the time of each cell and the kernel's peak memory. The notebook on disk is never changed."""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.memory import PeakMemory

FLOOR_SOURCE = "import course_lib\nimport torch"


@dataclass
class NotebookRun:
    """One execution: ``cells`` holds (cell index, first source line, seconds) for code cells."""

    wall_s: float
    peak_bytes: int | None
    cpu_s: float | None = None
    cells: list[tuple[int, str, float]] = field(default_factory=list)


def first_line(source: str, width: int = 60) -> str:
    """The first non-empty line of a cell's source, shortened to ``width`` characters."""
    line = next((text.strip() for text in source.splitlines() if text.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


def floor_notebook():
    """The floor: a notebook whose one cell imports course_lib (and so torch), nothing more."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(FLOOR_SOURCE)]
    return notebook


def _client(notebook, workdir: Path, timeout: int):
    from nbclient import NotebookClient

    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    return NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
        extra_arguments=["--IPKernelApp.log_level=ERROR"],  # not a TCP warning per kernel start
    )


def execute(notebook, workdir: Path, timeout: int = 600) -> NotebookRun:
    """Run ``notebook`` (an nbformat node, changed in place) in a fresh kernel whose working
    folder is ``workdir``; time it from kernel start to kernel shutdown."""
    client = _client(notebook, workdir, timeout)
    starts: dict[int, float] = {}
    run = NotebookRun(wall_s=0.0, peak_bytes=None)
    monitor: list[PeakMemory] = []

    def on_notebook_start(**_):  # the kernel is up and answering
        monitor.append(PeakMemory(client.km.provisioner.pid).start())

    def on_cell_execute(cell, cell_index, **_):
        starts[cell_index] = time.perf_counter()

    def on_cell_executed(cell, cell_index, **_):
        seconds = time.perf_counter() - starts[cell_index]
        run.cells.append((cell_index, first_line(cell.source), seconds))

    def on_notebook_complete(**_):
        if monitor:
            run.peak_bytes, run.cpu_s = monitor[0].stop(), monitor[0].cpu_s

    client.on_notebook_start = on_notebook_start
    client.on_cell_execute = on_cell_execute
    client.on_cell_executed = on_cell_executed
    client.on_notebook_complete = on_notebook_complete
    start = time.perf_counter()
    try:
        client.execute()
    finally:
        if monitor and run.peak_bytes is None:
            run.peak_bytes, run.cpu_s = monitor[0].stop(), monitor[0].cpu_s
    run.wall_s = time.perf_counter() - start
    return run


def execute_copy(path: Path, timeout: int = 600) -> NotebookRun:
    """Execute a copy of ``path`` in a temporary copy of its folder, so files the notebook reads
    beside it are there and anything it writes is thrown away."""
    import nbformat

    with tempfile.TemporaryDirectory(prefix="bench-nb-") as scratch:
        workdir = Path(scratch) / path.parent.name
        shutil.copytree(path.parent, workdir, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        notebook = nbformat.read(workdir / path.name, as_version=4)
        return execute(notebook, workdir, timeout)


def execute_floor(timeout: int = 600) -> NotebookRun:
    """Execute the floor notebook in an empty temporary folder."""
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as scratch:
        return execute(floor_notebook(), Path(scratch), timeout)
