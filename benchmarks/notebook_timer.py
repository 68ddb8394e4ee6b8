"""The notebook timer: execute a notebook top to bottom in a fresh kernel, as a learner's Run All
does, and keep what pytest-benchmark cannot see from outside the call: the time of each cell and
the peak memory and CPU time of the kernel and its children. (pytest-benchmark times the call.)"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

FLOOR_SOURCE = "import course_lib\nimport torch"


@dataclass
class NotebookRun:
    """One execution: ``cells`` holds (cell index, first source line, seconds) for code cells;
    ``cell_cpu_s`` (cell index, CPU seconds of the kernel and its children while the cell ran),
    which a busy machine stretches far less than a cell's wall time."""

    peak_bytes: int | None = None
    cpu_s: float | None = None
    cells: list[tuple[int, str, float]] = field(default_factory=list)
    cell_cpu_s: list[tuple[int, float]] = field(default_factory=list)


def first_line(source: str, width: int = 60) -> str:
    """The first non-empty line of a cell's source, shortened to ``width`` characters."""
    line = next((text.strip() for text in source.splitlines() if text.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


def high_water_mark(pid: int) -> int | None:
    """The process's own peak RSS (``VmHWM`` in /proc, Linux) in bytes; None where unavailable."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


class PeakMemory:
    """Polls the RSS of ``pid`` plus all its descendants every ``interval`` s until ``stop()``,
    and their CPU time (user + system). ``peak`` is the larger of the highest sampled sum and the
    process's own high-water mark, so a spike of the kernel between two samples is not missed."""

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        import psutil

        self._process = psutil.Process(pid)
        self._interval = interval
        self._stop = threading.Event()
        self.sampled, self.cpu_s, self.hwm = 0, 0.0, None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def cpu_now(self) -> float | None:
        """The CPU time (user + system) of the process and its descendants now, in seconds."""
        import psutil

        try:
            processes = [self._process, *self._process.children(recursive=True)]
        except psutil.Error:
            return None
        cpu = 0.0
        for process in processes:
            try:
                times = process.cpu_times()
                cpu += times.user + times.system
            except psutil.Error:
                continue
        return cpu

    def _sample(self) -> None:
        import psutil

        try:
            processes = [self._process, *self._process.children(recursive=True)]
        except psutil.Error:
            return
        total, cpu = 0, 0.0
        for process in processes:
            try:
                total += process.memory_info().rss
                times = process.cpu_times()
                cpu += times.user + times.system
            except psutil.Error:
                continue
        self.sampled, self.cpu_s = max(self.sampled, total), max(self.cpu_s, cpu)
        self.hwm = high_water_mark(self._process.pid) or self.hwm

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self._interval)

    def start(self) -> PeakMemory:
        self._thread.start()
        return self

    def stop(self) -> int:
        """Take a last sample, stop polling and return the peak in bytes."""
        self._sample()
        self._stop.set()
        self._thread.join()
        return self.peak

    @property
    def peak(self) -> int:
        return max(self.sampled, self.hwm or 0)


def floor_notebook():
    """The floor: a notebook whose one cell imports course_lib (and so torch), nothing more."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(FLOOR_SOURCE)]
    return notebook


def execute(notebook, workdir: Path, timeout: int = 600) -> NotebookRun:
    """Run ``notebook`` (an nbformat node, changed in place) in a fresh ``python3`` kernel whose
    working folder is ``workdir``, from kernel start to kernel shutdown."""
    from nbclient import NotebookClient

    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
        extra_arguments=["--IPKernelApp.log_level=ERROR"],  # not a TCP warning per kernel start
    )
    run, starts, cpu_starts, monitor = NotebookRun(), {}, {}, []

    def cpu_now():
        return monitor[0].cpu_now() if monitor else None

    def on_cell_execute(cell, cell_index, **_):
        cpu_starts[cell_index] = cpu_now()
        starts[cell_index] = time.perf_counter()

    def on_cell_executed(cell, cell_index, **_):
        seconds = time.perf_counter() - starts[cell_index]
        run.cells.append((cell_index, first_line(cell.source), seconds))
        cpu_start, cpu_end = cpu_starts.get(cell_index), cpu_now()
        if cpu_start is not None and cpu_end is not None:
            run.cell_cpu_s.append((cell_index, cpu_end - cpu_start))

    def start(**_):  # the kernel is up and answering
        monitor.append(PeakMemory(client.km.provisioner.pid).start())

    def stop(**_):
        if monitor and run.peak_bytes is None:
            run.peak_bytes, run.cpu_s = monitor[0].stop(), monitor[0].cpu_s

    client.on_notebook_start, client.on_notebook_complete = start, stop
    client.on_cell_execute, client.on_cell_executed = on_cell_execute, on_cell_executed
    try:
        client.execute()
    finally:
        stop()
    return run


def scratch_copy(path: Path | None) -> tuple:
    """(notebook, workdir) to execute: a copy of ``path`` in a temporary copy of its folder (files
    the notebook reads beside it are there; what it writes is thrown away), or the floor notebook
    in an empty temporary folder when ``path`` is None. ``remove_scratch`` deletes the folder."""
    import nbformat

    scratch = Path(tempfile.mkdtemp(prefix="bench-nb-"))
    if path is None:
        (scratch / "floor").mkdir()
        return floor_notebook(), scratch / "floor"
    workdir = scratch / path.parent.name
    shutil.copytree(path.parent, workdir, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return nbformat.read(workdir / path.name, as_version=4), workdir


def remove_scratch(workdir: Path) -> None:
    """Delete the temporary folder ``scratch_copy`` made for ``workdir``."""
    shutil.rmtree(workdir.parent, ignore_errors=True)
