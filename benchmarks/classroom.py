"""How many learners one machine holds, from what the benchmark measured per learner.

A learner on a JupyterHub (The Littlest JupyterHub on one machine, Zero to JupyterHub beyond it)
has a single-user Jupyter server and one kernel per notebook open. Per learner, the benchmark
measures the server's memory (``test_classroom.py``) and, per notebook, the kernel's peak memory
and CPU time (``test_notebooks.py``). Two limits follow:

- memory: every learner's server plus kernels must fit in the RAM left after the system's share
  (``RESERVED_BYTES``); counted for one lesson open at a time and for every lesson left open;
- CPU, the worst case of a class: everyone presses Run All on the heaviest lesson at the same
  moment; on ``cores`` cores that lesson then takes ``cpu_s × learners / cores`` (at least its own
  wall time), which must stay within the class's limit on a Run All (``CLASSROOM_RUN_ALL_S``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from benchmarks.goals import CLASSROOM_RUN_ALL_S

GIB = 1024**3
RESERVED_BYTES = 2 * GIB  # the system, the hub and its proxy
MACHINES = {"2 cores, 24 GiB": (2, 24 * GIB), "16 cores, 64 GiB": (16, 64 * GIB)}


@dataclass(frozen=True)
class Learner:
    """What one learner costs: server memory, the kernels' peak memory and CPU per lesson."""

    server_bytes: float
    kernel_peak_bytes: dict[str, float]  # lesson -> its kernel's peak RSS
    kernel_cpu_s: dict[str, float]  # lesson -> its kernel's CPU seconds for Run All
    wall_s: dict[str, float]  # lesson -> its Run All wall time alone on the machine

    def __post_init__(self) -> None:
        if not self.kernel_peak_bytes or set(self.kernel_peak_bytes) != set(self.kernel_cpu_s):
            raise ValueError("kernel_peak_bytes and kernel_cpu_s must name the same lessons")

    @property
    def one_lesson_bytes(self) -> float:
        return self.server_bytes + max(self.kernel_peak_bytes.values())

    @property
    def all_lessons_bytes(self) -> float:
        return self.server_bytes + sum(self.kernel_peak_bytes.values())

    @property
    def course_cpu_s(self) -> float:
        return sum(self.kernel_cpu_s.values())

    @property
    def heaviest(self) -> str:
        return max(self.kernel_cpu_s, key=self.kernel_cpu_s.get)


def by_memory(learner: Learner, ram_bytes: float, every_lesson_open: bool = False) -> int:
    per_learner = learner.all_lessons_bytes if every_lesson_open else learner.one_lesson_bytes
    return max(0, math.floor((ram_bytes - RESERVED_BYTES) / per_learner))


def by_cpu(learner: Learner, cores: int, within_s: float = CLASSROOM_RUN_ALL_S) -> int:
    """Learners who can all Run All the heaviest lesson at once and wait at most ``within_s``."""
    lesson = learner.heaviest
    if learner.wall_s.get(lesson, 0.0) > within_s:
        return 0
    return max(0, math.floor(within_s * cores / learner.kernel_cpu_s[lesson]))


def capacity(learner: Learner, cores: int, ram_bytes: float) -> dict[str, int]:
    """Concurrent learners a machine holds: each limit, and the smaller of memory and CPU."""
    memory = by_memory(learner, ram_bytes)
    cpu = by_cpu(learner, cores)
    return {
        "memory": memory,
        "memory_every_lesson_open": by_memory(learner, ram_bytes, every_lesson_open=True),
        "cpu_all_run_at_once": cpu,
        "learners": min(memory, cpu),
    }
