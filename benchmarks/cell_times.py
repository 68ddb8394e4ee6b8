"""Each code cell's time, per notebook of both editions, as the notebook benchmark measures it, kept
in ``benchmarks/cell_times.json`` for the test that finds long cells without progress
(``tests/test_progress.py``).

    python -m benchmarks.cell_times                  # every notebook, 1 round (results.json untouched)
    python -m benchmarks.cell_times --only 05_ffn    # only these notebooks; the others' entries kept
    python -m benchmarks.cell_times --repeat 3       # median over 3 rounds

It runs ``benchmarks/test_notebooks.py`` (the notebook timer, ``notebook_timer.py``; the floor
kernel always, then the notebooks) with its JSON
in a temporary file, so ``results.json`` and ``RESULTS.md`` are left alone; ``make bench``
(``benchmarks/run.py``) refreshes the same file from the notebooks it measured. Either way a
notebook's entry is replaced whole and the entries of notebooks not measured are kept.

Per cell: its index in the notebook (from 0, markdown cells counted), its first line, the median
over rounds of its wall time and of the kernel's CPU time while it ran (the kernel and its
children, user + system), and that CPU time as on the reference machine: scaled by the floor
kernel's CPU in the same run (a kernel that only imports course_lib and torch, 1.9 s on the
reference machine alone, ``goals.FLOOR_CPU_S_AT_REFERENCE``), as every goal of the benchmark is a
ratio to a floor of its own run. On a busy machine wall time stretches with the load far more than
CPU time, and the floor's CPU stretches with it (1.9 s alone, 4.8-5.9 s at a load of 7-9 on two
cores): the test judges a cell by ``cpu_s_at_reference``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.goals import FLOOR_CPU_S_AT_REFERENCE  # noqa: E402

HERE = Path(__file__).resolve().parent
CELL_TIMES = HERE / "cell_times.json"


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def notebook_cells(bench: dict, floor_cpu_s: float | None = None) -> list[dict]:
    """A notebook benchmark's cells (from pytest-benchmark's JSON), each with its median wall and
    CPU seconds over the rounds and, given the floor kernel's CPU seconds of the same run, the CPU
    seconds as on the reference machine, in notebook order."""
    info = bench["extra_info"]
    wall: dict[int, list[float]] = {}
    cpu: dict[int, list[float]] = {}
    lines: dict[int, str] = {}
    for cells in info.get("cells", []):
        for index, line, seconds in cells:
            wall.setdefault(index, []).append(seconds)
            lines[index] = line
    for cells in info.get("cell_cpu_s", []):
        for index, seconds in cells:
            cpu.setdefault(index, []).append(seconds)
    scale = FLOOR_CPU_S_AT_REFERENCE / floor_cpu_s if floor_cpu_s else None
    rows = []
    for index in sorted(wall):
        cpu_s = _median(cpu.get(index, []))
        at_reference = round(cpu_s * scale, 3) if cpu_s is not None and scale else None
        row = {"index": index, "line": lines[index], "wall_s": _median(wall[index])}
        rows.append({**row, "cpu_s": cpu_s, "cpu_s_at_reference": at_reference})
    return rows


def floor_cpu(results: dict) -> float | None:
    """The floor kernel's median CPU seconds in ``results``, None when the run has no floor."""
    for bench in results.get("benchmarks", []):
        info = bench.get("extra_info", {})
        if info.get("kind") == "notebook floor" and info.get("cpu_s"):
            return _median([cpu for cpu in info["cpu_s"] if cpu is not None])
    return None


def merge(results: dict, previous: dict | None) -> dict:
    """The cell-times file after the run ``results`` (pytest-benchmark's JSON): the notebooks it
    measured replace their entries in ``previous``; the others are kept."""
    notebooks = dict((previous or {}).get("notebooks", {}))
    commit = (results.get("commit_info") or {}).get("id", "")[:12]
    measured = results.get("datetime") or datetime.now(UTC).isoformat()
    load = (results.get("course") or {}).get("load_average_at_start", "unknown")
    floor_cpu_s = floor_cpu(results)
    for bench in results.get("benchmarks", []):
        info = bench.get("extra_info", {})
        if info.get("kind") != "notebook" or not info.get("cells"):
            continue
        notebooks[info["notebook"]] = {
            "measured": measured,
            "commit": commit,
            "rounds": len(info["cells"]),
            "load_average": load,
            "floor_cpu_s": floor_cpu_s,
            "cells": notebook_cells(bench, floor_cpu_s),
        }
    return {
        "about": "per-cell seconds of each notebook, written by benchmarks/cell_times.py",
        "notebooks": dict(sorted(notebooks.items())),
    }


def write(results: dict, path: Path = CELL_TIMES) -> bool:
    """Merge the notebooks measured in ``results`` into ``path``; False when it measured none."""
    if not any(b.get("extra_info", {}).get("kind") == "notebook" for b in results.get("benchmarks", [])):  # fmt: skip
        return False
    previous = json.loads(path.read_text()) if path.exists() else None
    path.write_text(json.dumps(merge(results, previous), indent=1, ensure_ascii=False) + "\n")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="notebooks whose name contains NAME (repeatable)")  # fmt: skip
    parser.add_argument("--repeat", type=int, default=1, help="rounds per notebook (default 1)")
    parser.add_argument("--out", type=Path, default=CELL_TIMES, help="the cell-times file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cell-times-") as folder:
        json_path = Path(folder) / "notebooks.json"
        command = [sys.executable, "-m", "pytest", str(HERE / "test_notebooks.py"), "-k", "test_notebook"]  # fmt: skip
        command += ["--benchmark-only", "-p", "no:xdist", "-q", f"--benchmark-json={json_path}"]
        command += [f"--repeat={args.repeat}", *(f"--only={name}" for name in args.only)]
        code = subprocess.call(command, cwd=HERE.parent)
        if not json_path.exists():
            print("no notebook ran: the cell-times file left alone", file=sys.stderr)
            return code or 1
        write(json.loads(json_path.read_text()), args.out)
    print(f"wrote {args.out}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
