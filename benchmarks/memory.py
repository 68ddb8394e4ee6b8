"""Peak resident memory of a process and its children, sampled from a background thread."""

from __future__ import annotations

import threading
from pathlib import Path


def high_water_mark(pid: int) -> int | None:
    """The kernel's own peak RSS (``VmHWM`` in /proc, Linux) in bytes; None where unavailable."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


class PeakMemory:
    """Polls RSS of ``pid`` plus all its descendants every ``interval`` s until ``stop()``; also
    keeps their CPU time (user + system), which other work on the machine changes less than wall
    time.

    ``peak`` is the larger of the highest sampled sum and the process's own high-water mark, so a
    spike between two samples of the kernel itself is not missed.
    """

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        import psutil

        self._process = psutil.Process(pid)
        self._interval = interval
        self._stop = threading.Event()
        self.sampled = 0
        self.cpu_s = 0.0
        self.hwm: int | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

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
        self.sampled = max(self.sampled, total)
        self.cpu_s = max(self.cpu_s, cpu)
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
