"""Run the measurements and summarise them into the JSON-ready results dict."""

from __future__ import annotations

import sys
import traceback
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks import control_timing, goals, notebook_timing, stats
from benchmarks.discover import matches
from benchmarks.notebook_timing import NotebookRun


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _verdicts(found: dict[str, goals.Verdict]) -> dict[str, dict[str, Any]]:
    return {key: asdict(verdict) for key, verdict in found.items()}


def run_summary(runs: list[NotebookRun]) -> dict[str, Any]:
    """Wall time (median, noise, samples) and peak memory (median, max) over repetitions."""
    walls = [run.wall_s for run in runs]
    peaks = [run.peak_bytes for run in runs if run.peak_bytes is not None]
    cpus = [run.cpu_s for run in runs if run.cpu_s is not None]
    return {
        "wall_s": {
            "median": stats.median(walls),
            "noise": stats.spread(walls) if len(walls) > 1 else None,
            "samples": walls,
        },
        "cpu_s": stats.median(cpus) if cpus else None,
        "peak_bytes": {
            "median": stats.median(peaks) if peaks else None,
            "max": max(peaks) if peaks else None,
        },
    }


def slowest_cells(runs: list[NotebookRun], count: int = 3) -> list[dict[str, Any]]:
    """The ``count`` cells with the largest median time over repetitions, slowest first."""
    times: dict[int, list[float]] = {}
    lines: dict[int, str] = {}
    for run in runs:
        for index, line, seconds in run.cells:
            times.setdefault(index, []).append(seconds)
            lines[index] = line
    ranked = sorted(times, key=lambda i: stats.median(times[i]), reverse=True)[:count]
    return [{"index": i, "line": lines[i], "seconds": stats.median(times[i])} for i in ranked]


def notebook_summary(name: str, runs: list[NotebookRun], floor_s: float) -> dict[str, Any]:
    """One notebook's row: its runs summarised, its ratio to the floor and its goals."""
    summary = {"name": name, **run_summary(runs), "slowest_cells": slowest_cells(runs)}
    summary["ratio"] = summary["wall_s"]["median"] / floor_s if floor_s > 0 else None
    found = goals.notebook_goals(summary["wall_s"]["median"], summary["peak_bytes"]["median"])
    summary["goals"] = _verdicts(found)
    return summary


def course_summary(notebooks: list[dict[str, Any]], floor_s: float) -> dict[str, Any]:
    walls = [nb["wall_s"]["median"] for nb in notebooks]
    verdict = goals.course_goal(walls, floor_s)
    return {
        "total_s": sum(walls),
        "floors_s": floor_s * len(walls),
        "ratio": verdict.value,
        "goal": asdict(verdict),
    }


def measure_notebooks(paths: list[Path], repeat: int, timeout: int, results: dict) -> None:
    """Floor and notebooks, alternating within each repetition so drifting load hits both."""
    log("notebooks: warm-up run of the floor (not measured)")
    notebook_timing.execute_floor(timeout)
    floor_runs: list[NotebookRun] = []
    runs: dict[Path, list[NotebookRun]] = {path: [] for path in paths}
    for rep in range(repeat):
        floor_runs.append(notebook_timing.execute_floor(timeout))
        log(f"  [{rep + 1}/{repeat}] floor: {floor_runs[-1].wall_s:.2f} s")
        for path in paths:
            try:
                runs[path].append(notebook_timing.execute_copy(path, timeout))
                log(f"  [{rep + 1}/{repeat}] {path.name}: {runs[path][-1].wall_s:.2f} s")
            except Exception as error:  # a failing notebook is reported, the others still run
                results["errors"].append(
                    f"notebook `{path.name}`: {type(error).__name__}: {str(error)[-300:]}"
                )
                log(traceback.format_exc(limit=2))  # fmt: skip
    results["floor"] = run_summary(floor_runs)
    floor_s = results["floor"]["wall_s"]["median"]
    results["notebooks"] = [notebook_summary(p.name, r, floor_s) for p, r in runs.items() if r]
    results["course"] = course_summary(results["notebooks"], floor_s)


def slowest_value(reps: list[dict[str, list]], mode: str = "first") -> dict[str, Any]:
    """The visited value whose median time over repetitions is largest: where to look first."""
    values = reps[0]["value"]
    times = [stats.median([rep[mode][i] for rep in reps]) for i in range(len(values))]
    worst = max(range(len(values)), key=times.__getitem__)
    return {"value": repr(values[worst]), "ms": times[worst]}


def control_summary(
    demo, control, reps: list[dict[str, list[float]]], floor_reps: list[list[float]]
) -> dict[str, Any]:
    """One control's row: each mode summarised over repetitions, the floor, ratios and goals."""
    names = control_timing.MODES + control_timing.CPU_MODES
    modes = {mode: stats.summarize([rep[mode] for rep in reps]) for mode in names}
    floor = stats.summarize(floor_reps)
    found = goals.control_goals(
        demo.trains,
        demo.busy_text,
        modes["first"]["p95"],
        modes["warm"]["p95"],
        modes["cached"]["p95"],
    )
    return {
        "demo": demo.name, "control": control.name, "kind": control.kind, "trains": demo.trains,
        "busy_text": demo.busy_text, "grid_size": len(control.values), "n": modes["first"]["n"],
        **modes, "floor_ms": floor,
        "ratio_first": modes["first"]["median"] / floor["median"],
        "ratio_warm": modes["warm"]["median"] / floor["median"],
        "slowest_first": slowest_value(reps, "first"), "slowest_warm": slowest_value(reps, "warm"),
        "goals": _verdicts(found),
    }  # fmt: skip


def profile_control(demo, control, limit: int, folder: Path) -> Path:
    """One extra sweep over the control's grid under cProfile; the 30 most expensive functions
    (cumulative time) go to ``folder/<demo>.<control>.txt``."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.runcall(control_timing.time_control, demo, control, limit)
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{demo.name}.{control.name}.txt"
    path.write_text(text.getvalue())
    return path


def measure_controls(
    demos: list,
    repeat: int,
    limit: int,
    only: list[str],
    results: dict,
    profile: Path | None = None,
) -> None:
    """Every selected control of every demo, ``repeat`` times over its (spread) grid; with
    ``profile`` a folder, one more profiled sweep per control is written there."""
    results["controls"] = []
    for demo in demos:
        selected = [c for c in demo.controls if matches(f"{demo.name}.{c.name}", only)]
        if not selected:
            continue
        try:
            size = control_timing.figure_size(demo)
            floor_reps = [control_timing.time_floor(*size) for _ in range(repeat)]
            for control in selected:
                reps = [control_timing.time_control(demo, control, limit) for _ in range(repeat)]
                row = control_summary(demo, control, reps, floor_reps)
                results["controls"].append(row)
                if profile is not None:
                    log(f"  profile: {profile_control(demo, control, limit, profile)}")
                log(f"  {demo.name}.{control.name}: first p95 {row['first']['p95']:.1f} ms, re-render p95 {row['warm']['p95']:.1f} ms")  # fmt: skip
        except Exception as error:  # a failing demo is reported, the others still run
            results["errors"].append(f"demo `{demo.name}`: {type(error).__name__}: {error}")
            log(traceback.format_exc(limit=3))
