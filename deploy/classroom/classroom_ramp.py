"""How many learners this machine holds, observed: a real JupyterHub (``hub.py``) and N simulated
learners (``learner_sim.py``) for N = 1, 2, 4, 8, … until a limit is crossed, each learner running
the heaviest lesson and moving its demos' controls. ``classroom.py`` computes the same capacity
from one learner's measurements; this checks that computation against a class.

The heaviest lesson is measured, not read: before the hub starts, every lesson's Run All runs once
in a fresh kernel on this machine (``benchmarks/notebook_timer.py``), and the one that costs the
most kernel CPU is the class's lesson (a saved benchmark run may be older than the lessons: one
named lesson 2 when lesson 7 was heavier). ``--lesson`` names a lesson instead. The report keeps
how the lesson was chosen and every lesson's measured CPU.

A step crosses a limit when the median learner's Run All takes over 60 s (the class's limit,
``goals.CLASSROOM_RUN_ALL_S``: the benchmark's 15 s of kernel CPU per lesson comes from it), a
control's reply takes over 1 s at p95 (``goals.CLASSROOM_REPLY_MS``), the machine's memory
in use comes within 2 GiB of its total (what ``classroom.py`` leaves to the system and the hub), or
anything went wrong (an error output, a failed reply, a dead kernel, a saved notebook that did not
read back intact). The observed capacity is the largest N whose step crossed none.

``make classroom`` runs it (``CLASSROOM_ARGS`` passes options); it writes
``deploy/classroom/classroom-observed.json`` and ``deploy/classroom/CLASSROOM.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import importlib
import itertools
import json
import math
import os
import statistics
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks import classroom, goals, report
from course_lib.core._validate import choice, int_at_least
from deploy.classroom.learner_sim import run_coroutine

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parents[1]
NOTEBOOKS = PROJECT / "notebooks"
OUT_JSON = HERE / "classroom-observed.json"
OUT_MARKDOWN = HERE / "CLASSROOM.md"
PATTERNS = ("lockstep", "staggered")
LIMIT_NAMES = ("run_all", "control", "memory", "errors")
CONTROL_REPLY_S = goals.CLASSROOM_REPLY_MS / 1000  # p95 of a control's reply
# The machine counts as busy at the start when its cores were over 20 % busy in the 5 s before
# (sampled: the 1-minute load average still shows work that ended a minute ago); a saved run
# without that sample falls back to a 1-minute load average over 0.5.
BUSY_PERCENT, BUSY_SAMPLE_S, BUSY_LOAD = 20.0, 5.0, 0.5
GIB, MIB = classroom.GIB, 1024**2


@dataclass(frozen=True)
class Limits:
    """What a class may cost before the machine is full (see the module's docstring)."""

    run_all_median_s: float = goals.CLASSROOM_RUN_ALL_S
    control_p95_s: float = CONTROL_REPLY_S
    memory_reserve_bytes: float = classroom.RESERVED_BYTES


# --- checking what the caller asked for ----------------------------------------------------------


def _seconds(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number of seconds >= 0, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a number of seconds >= 0, got {value!r}")
    return float(value)


def check_pattern(pattern: Any) -> str:
    """``pattern`` if it is one of PATTERNS."""
    return choice("pattern", pattern, PATTERNS)


def ramp_sizes(start: int, max_learners: int) -> list[int]:
    """The class sizes to try: ``start`` doubled until ``max_learners``, which ends the ramp."""
    int_at_least("start", start, 1)
    int_at_least("max_learners", max_learners, 1)
    if start > max_learners:
        raise ValueError(f"start must be <= max_learners ({max_learners}), got {start!r}")
    sizes = [start]
    while sizes[-1] * 2 <= max_learners:
        sizes.append(sizes[-1] * 2)
    return sizes if sizes[-1] == max_learners else [*sizes, max_learners]


def given_sizes(text: Any) -> list[int]:
    """Class sizes given as "1,2,4,6,8" (``--sizes``): whole numbers >= 1, each larger than the one
    before, so a size between two doublings can be tried."""
    if not isinstance(text, str):
        raise TypeError(f"sizes must be a comma-separated str such as '1,2,4,6,8', got {text!r}")
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"sizes must be whole numbers separated by commas, got {text!r}") from None
    if sizes[0] < 1 or any(b <= a for a, b in itertools.pairwise(sizes)):
        raise ValueError(f"sizes must be >= 1 and increasing, got {text!r}")
    return sizes


def resolve_lesson(lesson: Any, notebooks: Path = NOTEBOOKS) -> str:
    """The lesson's path in a learner's home (``notebooks/…``) from a name as the benchmark
    gives it (``02_dimension_expansion.ipynb``, ``zh/02_dimension_expansion.ipynb``), with or
    without the ``notebooks/`` prefix; it must be one of the course's notebooks."""
    if not isinstance(lesson, str):
        raise TypeError(f"lesson must be a notebook name such as '01_feed_forward.ipynb', got {lesson!r}")  # fmt: skip
    name = lesson.removeprefix("notebooks/")
    known = sorted(p.relative_to(notebooks).as_posix() for p in notebooks.glob("**/*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)  # fmt: skip
    if name not in known:
        raise ValueError(f"lesson must be one of the course's notebooks {known}, got {lesson!r}")
    return f"notebooks/{name}"


# --- which lesson: every lesson's Run All measured now -------------------------------------------


def lesson_notebooks() -> list[str]:
    """Every lesson's English notebook, found by its LESSON record (the index is no lesson). The
    Chinese edition runs the same code cells (tests/test_editions.py), so it costs the same."""
    from course_lib.lessons import lessons

    return [importlib.import_module(f"course_lib.lessons.{name}").LESSON.notebook for name in lessons()]  # fmt: skip


def run_all_cpu_s(path: Path | None, timeout: int = 600) -> float:
    """The kernel CPU seconds (the kernel and its children) of one Run All of the notebook at
    ``path`` in a fresh kernel, in a scratch copy of its folder (``benchmarks/notebook_timer.py``);
    of the benchmark's floor notebook (a kernel that imports course_lib and torch) for None."""
    from benchmarks.notebook_timer import execute, remove_scratch, scratch_copy

    notebook, workdir = scratch_copy(path)
    try:
        done = execute(notebook, workdir, timeout=timeout)
    finally:
        remove_scratch(workdir)
    if done.cpu_s is None:
        raise RuntimeError(f"{path}: its kernel's CPU time was not measured")
    return done.cpu_s


def measure_lessons(names: list[str], timer: Any = run_all_cpu_s, notebooks: Path = NOTEBOOKS) -> dict[str, float]:  # fmt: skip
    """{notebook: kernel CPU seconds of its Run All}, one lesson after another on this machine,
    by ``timer`` (a notebook's path -> seconds). An unmeasured first run of the floor notebook
    (``timer(None)``) reads torch and the course into the file cache, so the first lesson pays no
    more for its imports than the others."""
    timer(None)
    found = {}
    for name in names:
        print(f"classroom: measuring the Run All of {name} …", flush=True)
        try:
            found[name] = timer(notebooks / name)
        except Exception as error:  # a cell's error or a dead kernel: no class runs this lesson
            first = (str(error).strip().splitlines() or [""])[0][:200]
            raise RuntimeError(f"the Run All of {name} failed before the ramp: {type(error).__name__}: {first}") from error  # fmt: skip
    return found


def heaviest_lesson(cpu: Any) -> tuple[str, float]:
    """(notebook, kernel CPU s) of the lesson whose Run All costs the most kernel CPU: the worst
    moment of a class in lockstep, which is what the ramp measures by default."""
    if not isinstance(cpu, dict) or not cpu:
        raise ValueError(f"cpu must be a non-empty dict of notebook -> kernel CPU seconds, got {cpu!r}")  # fmt: skip
    bad = {name: s for name, s in cpu.items() if isinstance(s, bool) or not isinstance(s, int | float)}  # fmt: skip
    if bad:
        raise TypeError(f"cpu must map each notebook to its kernel CPU seconds, got {bad!r}")
    name = max(cpu, key=cpu.get)
    return name, float(cpu[name])


def computed_from_alone(alone: dict[str, Any] | None, lesson: str, cores: int, ram_bytes: float) -> dict[str, Any]:  # fmt: skip
    """``classroom.py``'s capacity from the ramp's own first step (one learner alone on this
    machine): the computation the README's table makes, fed with this machine's figures, so that
    what differs from the observed capacity is contention, not the machine. Empty without a
    finished step of one learner."""
    if not alone or alone.get("n") != 1:
        return {}
    needed = ("kernel_cpu_median_s", "run_all_median_s", "kernel_peak_bytes", "server_peak_bytes")
    if any(alone.get(key) is None for key in needed):
        return {}
    learner = classroom.Learner(
        server_bytes=alone["server_peak_bytes"],
        kernel_peak_bytes={lesson: alone["kernel_peak_bytes"]},
        kernel_cpu_s={lesson: alone["kernel_cpu_median_s"]},
        wall_s={lesson: alone["run_all_median_s"]},
    )
    found = classroom.capacity(learner, cores, ram_bytes)
    return {"learners": found["learners"], "memory": found["memory"],
            "cpu_all_run_at_once": found["cpu_all_run_at_once"],
            "kernel_cpu_s": alone["kernel_cpu_median_s"], "wall_s": alone["run_all_median_s"],
            "one_lesson_bytes": learner.one_lesson_bytes}  # fmt: skip


# --- the machine during a step -----------------------------------------------------------------


def memory_now() -> tuple[int, int]:
    """(total, in use) bytes of the machine's RAM: in use is total − available (MemAvailable)."""
    import psutil

    memory = psutil.virtual_memory()
    return memory.total, memory.total - memory.available


class MachineSampler:
    """Samples the machine's memory in use and 1-minute load average every ``interval`` s in a
    thread, from ``start()`` to ``stop()``."""

    def __init__(self, interval: float = 0.5) -> None:
        self.interval = _seconds("interval", interval)
        if self.interval == 0:
            raise ValueError(f"interval must be a number of seconds > 0, got {interval!r}")
        self.samples: list[tuple[float, int, float]] = []  # (s since start, bytes in use, load1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._t0 = 0.0

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.monotonic() - self._t0, memory_now()[1], os.getloadavg()[0]))
            self._stop.wait(self.interval)

    def start(self) -> MachineSampler:
        self._t0 = time.monotonic()
        self._thread.start()
        return self

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        self._thread.join()
        return {
            "memory_peak_bytes": max((s[1] for s in self.samples), default=None),
            "load1_peak": max((s[2] for s in self.samples), default=None),
            "samples": [[round(t, 1), used, round(load, 2)] for t, used, load in self.samples],
        }


# --- one step of the ramp ----------------------------------------------------------------------


def learner_names(n: int) -> list[str]:
    return [f"learner-{i:02d}" for i in range(1, int_at_least("n", n, 1) + 1)]


def stagger_delays(n: int, pattern: str, stagger_s: float) -> list[float]:
    """When each learner arrives: all at once for lockstep (they then wait at a barrier), or spread
    evenly over ``stagger_s`` seconds, the first at 0."""
    int_at_least("n", n, 1)
    check_pattern(pattern)
    _seconds("stagger_s", stagger_s)
    if pattern == "lockstep":
        return [0.0] * n
    return [i * stagger_s / n for i in range(n)]


async def run_learners(
    hub: Any, n: int, lesson: str, pattern: str, stagger_s: float, moves_per_control: int,
    max_moves: int | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """N learners on ``hub`` visit ``lesson`` together; returns each one's result as a dict. In
    lockstep every learner has its lesson open before anyone presses Run All."""
    from tornado.httpclient import AsyncHTTPClient

    from deploy.classroom.learner_sim import LearnerSim

    AsyncHTTPClient.configure(None, max_clients=max(10, 4 * n))
    tokens = await asyncio.to_thread(hub.add_learners, learner_names(n))
    go, arrived = asyncio.Event(), [0]

    def ready() -> None:
        arrived[0] += 1
        if arrived[0] == n:
            go.set()

    lockstep = pattern == "lockstep"
    sims = [LearnerSim(hub.url, name, token, lesson, server_pid=hub.server_pid)
            for name, token in tokens.items()]  # fmt: skip
    visits = [
        sim.visit(go if lockstep else None, delay, moves_per_control, max_moves, ready if lockstep else None)
        for sim, delay in zip(sims, stagger_delays(n, pattern, stagger_s), strict=True)
    ]  # fmt: skip
    results = await asyncio.gather(*visits, return_exceptions=True)  # visit records its failures
    return [r.as_dict() if not isinstance(r, BaseException) else failed_visit(name, lesson, r)
            for name, r in zip(tokens, results, strict=True)]  # fmt: skip


def failed_visit(name: str, lesson: str, error: BaseException) -> dict[str, Any]:
    """A learner's result for a visit that raised instead of recording its failure."""
    from deploy.classroom.learner_sim import LearnerResult

    result = LearnerResult(name=name, lesson=lesson)
    result.errors.append(f"the visit raised {type(error).__name__}: {error}")
    return result.as_dict()


def step(
    hub: Any, n: int, lesson: str, pattern: str, stagger_s: float, moves_per_control: int,
    max_moves: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """One class of ``n``: the learners' results, the machine sampled meanwhile, then every server
    stopped through the hub; a server still running or a process left over is an error."""
    total, used_before = memory_now()
    load_before = os.getloadavg()[0]
    sampler = MachineSampler().start()
    started = time.perf_counter()
    try:
        learners = run_coroutine(
            run_learners(hub, n, lesson, pattern, stagger_s, moves_per_control, max_moves)
        )
    finally:
        machine = sampler.stop()
    wall_s = time.perf_counter() - started
    problems = stop_step_servers(hub, learner_names(n))
    machine.update(total_bytes=total, used_before_bytes=used_before, load1_before=load_before)
    return {"n": n, "pattern": pattern, "wall_s": wall_s, "learners": learners,
            "machine": machine, "cleanup_problems": problems}  # fmt: skip


def stop_step_servers(hub: Any, names: list[str]) -> list[str]:
    """Stop the step's servers through the API; problems: still running, or processes alive."""
    from deploy.classroom.hub import HubError, alive

    pids = {pid for pid in (hub.server_pid(name) for name in names) if pid}
    try:
        hub.stop_servers(names)
    except HubError as error:
        return [str(error)]
    deadline = time.monotonic() + 20
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = alive(pids)
    return [f"server processes alive after their servers stopped: {sorted(left)}"] if left else []


# --- the step's figures and its limits (pure) --------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile (0–100, linear interpolation as numpy's default); None if empty."""
    if not isinstance(values, list | tuple):
        raise TypeError(f"values must be a list of numbers, got {values!r}")
    if isinstance(q, bool) or not isinstance(q, int | float) or not 0 <= q <= 100:
        raise ValueError(f"q must be a number in [0, 100], got {q!r}")
    data = sorted(values)
    if not data:
        return None
    position = (len(data) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return data[low] + (data[high] - data[low]) * (position - low)


def summarize_step(step_result: dict[str, Any]) -> dict[str, Any]:
    """A step's row: Run All and control replies (median, p95), peak memory, load, errors."""
    if not isinstance(step_result, dict) or "learners" not in step_result:
        raise TypeError(f"step_result must be a step's dict with 'learners', got {step_result!r}")
    learners = step_result["learners"]
    # a Run All counts only complete and clean; one that timed out, stopped at an error or lost its
    # kernel counts as never finishing (it cannot make the median look faster than it was)
    runs = [r["run_all_s"] if finished(r) else math.inf for r in learners]
    replies = [m["reply_s"] for r in learners for m in r.get("moves", []) if m.get("reply_s") is not None]  # fmt: skip
    errors = [f"{r['name']}: {e}" for r in learners for e in r.get("errors", [])]
    errors += [f"{r['name']}: {m['demo']} {m['control']} -> {m['value']}: {m['problem']}"
               for r in learners for m in r.get("moves", []) if m.get("problem")]  # fmt: skip
    errors += list(step_result.get("cleanup_problems", []))
    kernels = [r["kernel_peak_bytes"] for r in learners if r.get("kernel_peak_bytes")]
    cpu = [r["kernel_cpu_s"] for r in learners if r.get("kernel_cpu_s") is not None]
    servers = [r["server_peak_bytes"] for r in learners if r.get("server_peak_bytes")]
    machine = step_result.get("machine", {})
    return {
        "n": step_result["n"],
        "finished": sum(math.isfinite(t) for t in runs),
        "run_all_median_s": statistics.median(runs) if runs else None,
        "run_all_p95_s": percentile(runs, 95),
        "moves": len(replies),
        "control_median_s": statistics.median(replies) if replies else None,
        "control_p95_s": percentile(replies, 95),
        "kernel_cpu_median_s": statistics.median(cpu) if cpu else None,
        "kernel_peak_bytes": max(kernels, default=None),
        "server_peak_bytes": max(servers, default=None),
        "memory_peak_bytes": machine.get("memory_peak_bytes"),
        "memory_total_bytes": machine.get("total_bytes"),
        "load1_peak": machine.get("load1_peak"),
        "kernels_died": [r["name"] for r in learners if r.get("kernel_died")],
        "saved_intact": sum(bool(r.get("saved_intact")) for r in learners),
        "slowest_moves": slowest_moves(learners),
        "errors": errors,
    }


def finished(learner: dict[str, Any]) -> bool:
    """Whether a learner's Run All ran every code cell without an error and kept its kernel."""
    return (
        learner.get("run_all_s") is not None
        and learner.get("cells_run") == learner.get("code_cells")
        and not learner.get("kernel_died")
        and not [e for e in learner.get("errors", []) if e.startswith("cell ")]
    )


def slowest_moves(learners: list[dict[str, Any]], count: int = 3) -> list[str]:
    """The ``count`` slowest control replies of a step, as "learner: demo control → value: s"."""
    moves = [(m["reply_s"], r["name"], m) for r in learners for m in r.get("moves", [])
             if m.get("reply_s") is not None]  # fmt: skip
    moves.sort(key=lambda item: item[0], reverse=True)
    return [f"{name}: {m['demo'].removeprefix('course-demo--')} {m['control']} → {m['value']}: {s:.2f} s"
            for s, name, m in moves[:count]]  # fmt: skip


def crossed_limits(summary: dict[str, Any], limits: Limits = Limits()) -> dict[str, str]:
    """limit name -> what crossed it, for a step's summary; empty when it is within every limit.
    A step where no learner finished Run All counts as crossing the errors limit."""
    if not isinstance(summary, dict):
        raise TypeError(f"summary must be a step summary dict, got {summary!r}")
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, got {limits!r}")
    crossed = {}
    median = summary.get("run_all_median_s")
    if median is not None and median > limits.run_all_median_s:
        crossed["run_all"] = f"median Run All {fmt(median)} s > {limits.run_all_median_s:.0f} s"
        if math.isinf(median):
            crossed["run_all"] = "the median learner's Run All did not finish"
    p95 = summary.get("control_p95_s")
    if p95 is not None and p95 > limits.control_p95_s:
        crossed["control"] = f"control reply p95 {p95:.2f} s > {limits.control_p95_s:.1f} s"
    peak, total = summary.get("memory_peak_bytes"), summary.get("memory_total_bytes")
    if peak is not None and total is not None and peak > total - limits.memory_reserve_bytes:
        crossed["memory"] = (f"memory in use peaked at {peak / GIB:.1f} GiB of {total / GIB:.1f} GiB "
                             f"(within {limits.memory_reserve_bytes / GIB:.0f} GiB of the total)")  # fmt: skip
    problems = len(summary.get("errors", [])) + (0 if summary.get("finished") else 1)
    if problems:
        crossed["errors"] = f"{len(summary.get('errors', []))} errors" + (
            "" if summary.get("finished") else ", no learner finished Run All"
        )
    return crossed


def learner_bytes(summary: dict[str, Any], before: float) -> float:
    """One learner's memory (its kernel's and its server's peaks) from a step's summary, or
    ``before`` when the step did not measure both."""
    if summary.get("kernel_peak_bytes") and summary.get("server_peak_bytes"):
        return summary["kernel_peak_bytes"] + summary["server_peak_bytes"]
    return before


def predicted_memory(
    n: int, used_now: float, per_learner: float, total: float, limits: Limits = Limits()
) -> str:
    """'' when ``n`` learners of ``per_learner`` bytes each fit beside what is in use now;
    otherwise why the step is not run (a full machine would be measured by its OOM killer)."""
    int_at_least("n", n, 1)
    need = used_now + n * per_learner
    if need > total - limits.memory_reserve_bytes:
        return (f"predicted: {n} learners × {per_learner / MIB:.0f} MiB beside {used_now / GIB:.1f} GiB "
                f"in use need {need / GIB:.1f} GiB of {total / GIB:.1f} GiB")  # fmt: skip
    return ""


def check_stop_at(stop_at: Any) -> tuple[str, ...]:
    """The limits whose crossing ends the ramp (all by default): a comma-separated string or a
    sequence of LIMIT_NAMES. Fewer lets the ramp go on past, e.g., the control limit to find where
    Run All crosses its own."""
    names = stop_at.split(",") if isinstance(stop_at, str) else stop_at
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"stop_at must be limit names from {list(LIMIT_NAMES)}, got {stop_at!r}")
    names = tuple(n.strip() for n in names if n.strip())
    unknown = [n for n in names if n not in LIMIT_NAMES]
    if unknown or not names:
        raise ValueError(f"stop_at must be one or more of {list(LIMIT_NAMES)}, got {stop_at!r}")
    return names


def ends_ramp(crossed: dict[str, str], stop_at: tuple[str, ...] = LIMIT_NAMES) -> bool:
    """Whether a step that crossed ``crossed`` ends the ramp. A memory crossing always does: a
    larger class would only be measured by the machine's OOM killer."""
    return any(name in stop_at or name == "memory" for name in crossed)


def capacity_by_limit(summaries: list[dict[str, Any]]) -> dict[str, str]:
    """limit -> the largest N run before that limit was first crossed, "≥ N" when it never was."""
    found = {}
    for name in LIMIT_NAMES:
        within = 0
        for summary in summaries:
            if summary.get("not_run") and name not in summary.get("crossed", {}):
                continue  # a class predicted not to fit in memory was never run: it proves nothing
            if name in summary.get("crossed", {}):
                found[name] = str(within)
                break
            within = summary["n"]
        else:
            found[name] = f"≥ {within}"
    return found


def observed_capacity(summaries: list[dict[str, Any]]) -> int:
    """The largest N of the ramp's steps up to the first one that crossed a limit; 0 if N = 1 did."""
    capacity = 0
    for summary in summaries:
        if summary.get("crossed"):
            break
        capacity = summary["n"]
    return capacity


# --- the report ---------------------------------------------------------------------------------


def fmt(value: float | None, digits: int = 1, scale: float = 1.0) -> str:
    """A figure for the report: "—" for none, "not finished" for a Run All that never ended."""
    if value is None:
        return "—"
    return "not finished" if math.isinf(value) else f"{value / scale:.{digits}f}"


def step_row(summary: dict[str, Any]) -> list[str]:
    crossed = summary.get("crossed", {})
    return [
        str(summary["n"]),
        f"{fmt(summary.get('run_all_median_s'))} / {fmt(summary.get('run_all_p95_s'))}",
        f"{fmt(summary.get('control_median_s'), 2)} / {fmt(summary.get('control_p95_s'), 2)}",
        fmt(summary.get("kernel_peak_bytes"), 0, MIB),
        f"{fmt(summary.get('memory_peak_bytes'), 1, GIB)} of {fmt(summary.get('memory_total_bytes'), 0, GIB)}",
        fmt(summary.get("load1_peak"), 1),
        str(len(summary.get("errors", []))),
        "; ".join(crossed.values()) if crossed else "none",
    ]  # fmt: skip


def observed_sentence(steps: list[dict[str, Any]], capacity: int) -> str:
    """The observed capacity in words: a lower bound when the ramp ended without crossing."""
    if steps and not steps[-1].get("crossed"):
        return (f"**Observed capacity: at least {capacity} learners**: no limit was crossed up to "
                "the largest class tried (`--max-learners`).")  # fmt: skip
    return (f"**Observed capacity: {capacity} learners** (the largest N within every limit; "
            "sizes between the steps were not tried).")  # fmt: skip


def measured_line(cpu: dict[str, float]) -> str:
    """Every lesson's Run All kernel CPU as measured before the ramp, heaviest first."""
    ranked = sorted(cpu.items(), key=lambda item: item[1], reverse=True)
    shown = "; ".join(f"`{name}` {seconds:.1f} s" for name, seconds in ranked)
    return f"- Every lesson's Run All measured before the ramp, one fresh kernel each (kernel CPU): {shown}."  # fmt: skip


def render_markdown(run: dict[str, Any]) -> str:
    """CLASSROOM.md: one row per class size, the observed capacity beside the computed one."""
    for key in ("steps", "settings", "machine"):
        if key not in run:
            raise ValueError(f"run must have {key!r} (a ramp's JSON), got keys {sorted(run)}")
    settings, machine = run["settings"], run["machine"]
    computed = run.get("computed") or {}
    load = machine.get("load_average_at_start", [0.0, 0.0, 0.0])
    lines = [
        "# Classroom, observed",
        "",
        f"`{settings['command']}` on {run.get('date', '?')}: a JupyterHub on this machine (its proxy, "
        "DummyAuthenticator, one single-user server per learner from the project's venv) and N "
        "simulated learners, each opening the lesson in its own home, running every code cell "
        "over the kernel protocol, moving every control of its demos "
        f"{settings['moves_per_control']} times and saving the notebook.",
        "",
        f"- Machine: {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores, "
        f"{fmt(machine.get('ram_bytes'), 1, GIB)} GiB RAM.",
        f"- Load average when the ramp started: {' / '.join(f'{v:.2f}' for v in load)}.",
        f"- Lesson: `{settings['lesson']}` ({settings['lesson_reason']}); pattern: "
        f"**{settings['pattern']}**"
        + (
            f" (arrivals spread over {settings['stagger_s']:.0f} s)"
            if settings["pattern"] == "staggered"
            else " (every learner has the lesson open, then all press Run All at once)"
        )
        + ".",  # fmt: skip
        f"- Limits: median Run All ≤ {settings['limits']['run_all_median_s']:.0f} s; control reply "
        f"p95 ≤ {settings['limits']['control_p95_s']:.1f} s; memory in use ≤ total − "
        f"{settings['limits']['memory_reserve_bytes'] / GIB:.0f} GiB; no error.",
        "",
    ]
    measured = (run.get("lesson_choice") or {}).get("kernel_cpu_s")
    if measured:
        lines.insert(-2, measured_line(measured))
    busy = machine.get("cpu_busy_percent_at_start")
    if busy is not None:
        lines.insert(6, f"- CPU busy in the {BUSY_SAMPLE_S:.0f} s before it started: {busy:.0f} %.")
    if (busy is not None and busy > BUSY_PERCENT) or (
        busy is None and load and load[0] > BUSY_LOAD
    ):
        why = (f"its cores were {busy:.0f} % busy in the {BUSY_SAMPLE_S:.0f} s before, over "
               f"{BUSY_PERCENT:.0f} %" if busy is not None
               else f"1-minute load average {load[0]:.2f} > {BUSY_LOAD}")  # fmt: skip
        lines[2:2] = [
            f"**The machine was busy when the ramp started** ({why}): other work shared its "
            "cores, so times are longer than a hub alone would give.",
            "",
        ]
    warm = run.get("warm_up")
    if warm:
        lines.insert(-2, f"- Before the first step, one learner's visit warmed the hub up (not a "
                         f"step): Run All {fmt(warm.get('run_all_median_s'))} s.")  # fmt: skip
    rows = [step_row(s) for s in run["steps"]]
    lines += report.table(
        "learners | Run All median / p95 (s) | control reply median / p95 (s) | peak kernel memory "
        "(MiB) | machine memory peak (GiB) | load 1-min peak | errors | limit crossed",
        rows,
    )
    lines += ["", observed_sentence(run["steps"], run["observed_capacity"])]
    by_limit = capacity_by_limit(run["steps"])
    lines += ["", "Within each limit alone: " + "; ".join(f"{name} {n}" for name, n in by_limit.items())
              + " (the largest N run before that limit was first crossed)."]  # fmt: skip
    if computed:
        lines += [
            "",
            f"**Computed by `benchmarks/classroom.py` for this machine: {computed['learners']}** "
            f"(by memory, one lesson open: {computed['memory']}; by CPU, all Run All "
            f"`{computed['heaviest']}` at once within {goals.CLASSROOM_RUN_ALL_S:.0f} s: "
            f"{computed['cpu_all_run_at_once']}), from `benchmarks/results.json`.",
        ]
    here = run.get("computed_here") or {}
    if here:
        lines += [
            "",
            f"**Computed by the same formulas from one learner alone on this machine (the N = 1 "
            f"step): {here['learners']}** (by memory, one lesson open: {here['memory']}; by CPU: "
            f"{here['cpu_all_run_at_once']}, from {here['kernel_cpu_s']:.1f} s of kernel CPU and "
            f"{here['wall_s']:.1f} s of Run All). What separates it from the observed capacity is "
            "contention alone: the computation knows nothing of a demo's reply while other kernels "
            "compute.",
        ]
    alone = next((s for s in run["steps"] if s["n"] == 1 and s.get("run_all_median_s")), None)
    if computed.get("heaviest_cpu_s") and alone:
        lines += [
            "",
            f"The computed CPU limit assumes `{computed['heaviest']}` costs "
            f"{computed['heaviest_cpu_s']:.1f} s of kernel CPU (results.json, measured on "
            f"{computed.get('measured_on', 'unknown')}; its wall time there "
            f"{fmt(computed.get('heaviest_wall_s'))} s); here, on {machine.get('cpu', '?')}, one learner alone took "
            f"{alone['run_all_median_s']:.1f} s for `{settings['lesson']}`.",
        ]
    slow = [(s["n"], s["slowest_moves"]) for s in run["steps"] if s.get("slowest_moves")]
    if slow:
        lines += ["", "Slowest control replies per step:", ""]
        lines += [f"- N={n}: " + "; ".join(moves) for n, moves in slow]
    errors = [(s["n"], e) for s in run["steps"] for e in s.get("errors", [])]
    if errors:
        lines += ["", "Errors (first 20):", ""] + [f"- N={n}: {e}" for n, e in errors[:20]]
    if run.get("cleanup"):
        lines += ["", f"Cleanup: {run['cleanup']}"]
    return "\n".join(lines) + "\n"


def machine_info() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import psutil

    total, _ = memory_now()
    return {"cpu": cpu, "cores": len(os.sched_getaffinity(0)), "ram_bytes": total,
            "load_average_at_start": list(os.getloadavg()),
            "cpu_busy_percent_at_start": psutil.cpu_percent(interval=BUSY_SAMPLE_S)}  # fmt: skip


# --- the ramp ------------------------------------------------------------------------------------


def choose_lesson(lesson: str | None, measure: Any = measure_lessons) -> tuple[str, dict[str, Any]]:  # fmt: skip
    """(path in a learner's home, how it was chosen): ``lesson`` if given, else the heaviest of
    every lesson's Run All measured now by ``measure`` (a list of notebooks -> {notebook: CPU s})."""
    if lesson:
        return resolve_lesson(lesson), {"how": "chosen with --lesson", "kernel_cpu_s": {}}
    cpu = measure(lesson_notebooks())
    name, seconds = heaviest_lesson(cpu)
    how = f"the heaviest by kernel CPU, every lesson's Run All measured before the ramp: {seconds:.1f} s"  # fmt: skip
    return resolve_lesson(name), {"how": how, "kernel_cpu_s": cpu, "heaviest": name}


def ramp(
    pattern: str = "lockstep",
    max_learners: int = 16,
    start: int = 1,
    lesson: str | None = None,
    stagger_s: float = 30.0,
    moves_per_control: int = 2,
    command: str = "python -m deploy.classroom.classroom_ramp",
    limits: Limits = Limits(),
    stop_at: str | tuple[str, ...] = LIMIT_NAMES,
    sizes: str | None = None,
    measure: Any = measure_lessons,
) -> dict[str, Any]:
    """Run the ramp and return its report (the JSON written beside CLASSROOM.md). Without a
    ``lesson``, ``measure`` times every lesson's Run All first (``measure_lessons``)."""
    from deploy.classroom.hub import HubError, running_hub

    stop_at = check_stop_at(stop_at)
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, got {limits!r}")

    check_pattern(pattern)
    sizes = ramp_sizes(start, max_learners) if sizes is None else given_sizes(sizes)
    _seconds("stagger_s", stagger_s)
    int_at_least("moves_per_control", moves_per_control, 0)
    if lesson is not None:
        resolve_lesson(lesson)  # a wrong name fails before anything is measured
    machine = machine_info()  # before the lessons run: is the machine busy with other work?
    path, choice = choose_lesson(lesson, measure)
    run: dict[str, Any] = {
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "machine": machine,
        "settings": {
            "command": command,
            "pattern": pattern,
            "sizes": sizes,
            "lesson": path,
            "lesson_reason": choice["how"],
            "stagger_s": stagger_s,
            "moves_per_control": moves_per_control,
            "limits": asdict(limits),
            "stop_at": list(stop_at),
        },
        "lesson_choice": choice,
        "steps": [],
        "raw": [],
    }
    per_learner = 1 * GIB  # until a learner's visit measures it
    try:
        with running_hub() as hub:
            # a visit before the steps takes the hub's one-time costs (its first spawn, the first
            # kernel's imports) out of N = 1, the step the computation here is fed with
            print(f"classroom: a first visit to warm the hub up (not a step), {path} …", flush=True)
            run["warm_up"] = summarize_step(
                step(hub, 1, path, pattern, stagger_s, moves_per_control)
            )
            per_learner = learner_bytes(run["warm_up"], per_learner)
            for n in sizes:
                total, used = memory_now()
                too_big = predicted_memory(n, used, per_learner, total, limits)
                if too_big:
                    run["steps"].append({"n": n, "crossed": {"memory": too_big}, "errors": [], "not_run": True})  # fmt: skip
                    break
                print(f"classroom: {n} learner(s), {pattern}, {path} …", flush=True)
                raw = step(hub, n, path, pattern, stagger_s, moves_per_control)
                summary = summarize_step(raw)
                summary["crossed"] = crossed_limits(summary, limits)
                run["steps"].append(summary)
                run["raw"].append(raw)
                print("  " + " | ".join(step_row(summary)), flush=True)
                per_learner = learner_bytes(summary, per_learner)
                if ends_ramp(summary["crossed"], stop_at):
                    break
            left = hub.running_servers()
            run["cleanup"] = f"servers still running: {sorted(left)}" if left else ""
    except HubError as error:
        run["cleanup"] = f"the hub failed or did not stop cleanly: {error}"
    except Exception as error:  # noqa: BLE001 (the hub has stopped; the steps so far are kept)
        run["cleanup"] = f"the ramp stopped at a failure: {type(error).__name__}: {error}"
    run["cleanup_ok"] = not run.get("cleanup")
    if run["cleanup_ok"]:
        run["cleanup"] = "every server stopped through the hub's API; no process outlived the hub."
    run["observed_capacity"] = observed_capacity(run["steps"])
    alone = run["steps"][0] if run["steps"] else None
    run["computed_here"] = computed_from_alone(alone, path, machine["cores"], machine["ram_bytes"])
    return run


def write_report(run: dict[str, Any], json_path: Path = OUT_JSON, markdown_path: Path = OUT_MARKDOWN) -> None:  # fmt: skip
    json_path.write_text(json.dumps(run, indent=1, default=str) + "\n", encoding="utf-8")
    markdown_path.write_text(render_markdown(run), encoding="utf-8")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.classroom.classroom_ramp",
        description="Ramp simulated learners on a real JupyterHub until a limit is crossed.",
    )
    parser.add_argument("--pattern", choices=PATTERNS, default="lockstep",
                        help="lockstep: all press Run All together; staggered: arrivals spread")  # fmt: skip
    parser.add_argument("--stagger-s", type=float, default=30.0, help="staggered: arrivals spread over this many seconds")  # fmt: skip
    parser.add_argument("--max-learners", type=int, default=16, help="the largest class to try (default 16)")  # fmt: skip
    parser.add_argument("--start", type=int, default=1, help="the first class size (then doubled)")
    parser.add_argument("--sizes", help="the class sizes to try instead, e.g. 1,2,4,6,8")
    parser.add_argument("--lesson", help="a notebook (e.g. 01_feed_forward.ipynb or zh/…); default: the heaviest, every lesson's Run All measured first")  # fmt: skip
    parser.add_argument("--moves-per-control", type=int, default=2, help="moves of each demo control")  # fmt: skip
    parser.add_argument("--stop-at", default=",".join(LIMIT_NAMES),
                        help=f"limits whose crossing ends the ramp, comma-separated (default: all of {','.join(LIMIT_NAMES)}; memory always ends it)")  # fmt: skip
    parser.add_argument("--from-json", type=Path, help="measure nothing: CLASSROOM.md again from a saved run's JSON")  # fmt: skip
    parser.add_argument("--json", type=Path, default=OUT_JSON, help="where to write the JSON report")  # fmt: skip
    parser.add_argument("--markdown", type=Path, default=OUT_MARKDOWN, help="where to write the Markdown summary")  # fmt: skip
    return parser.parse_args(argv)


def stop_on_sigterm() -> None:
    """SIGTERM (``kill``, a CI timeout) ends the ramp as Ctrl-C does: through the hub's exit, which
    stops every server it started. Python's default would end the process at once, leaving the
    hub, its proxy and every learner's server running in their own session."""
    import signal

    def leave(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    stop_on_sigterm()
    if args.from_json is not None:
        run = json.loads(args.from_json.read_text(encoding="utf-8"))
        args.markdown.write_text(render_markdown(run), encoding="utf-8")
        print(f"classroom: wrote {args.markdown} from {args.from_json}")
        return 0
    command = "python -m deploy.classroom.classroom_ramp " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    try:
        run = ramp(args.pattern, args.max_learners, args.start, args.lesson, args.stagger_s,
                   args.moves_per_control, command.strip(), stop_at=args.stop_at,
                   sizes=args.sizes)  # fmt: skip
    except (TypeError, ValueError, RuntimeError) as error:
        print(f"classroom: {error}", file=sys.stderr)
        return 2
    write_report(run, args.json, args.markdown)
    print(render_markdown(run))
    print(f"classroom: wrote {args.json} and {args.markdown}")
    return 0 if run["cleanup_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
