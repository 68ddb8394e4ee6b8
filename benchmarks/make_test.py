"""`make test`'s parts, each run as `make` runs it (same targets, same environment variables), and
the goal on their sum: the suite must stay fast enough to run before every commit as lessons are
added. The timing is pytest-benchmark's (benchmarks/test_make_test.py); README's install time is
not included (a fresh clone's first `make test` adds it)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from benchmarks import goals

ROOT = Path(__file__).resolve().parent.parent
PARTS = (
    ("lint: ruff and import-linter", "lint"),
    ("unit tests, nbval and the browser suite, on 2 workers", "suite"),
)


def run_target(target: str, root: Path = ROOT) -> str | None:
    """Run ``make <target>`` in ``root``; an error line if it failed, else None."""
    done = subprocess.run(
        ["make", "-s", "--no-print-directory", target], cwd=root, capture_output=True, text=True
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no output"]
        return f"make {target} exited {done.returncode}: {tail[0]}"
    return None


def suite_goal(parts: list[dict[str, Any]]) -> goals.Verdict | None:
    """The goal on the parts' total, judged only when every part was measured."""
    medians = {row["target"]: row["median_s"] for row in parts}
    if set(medians) != {target for _, target in PARTS}:
        return None
    return goals.make_test_goal(sum(medians.values()))


def make_test_section(parts: list[dict[str, Any]]) -> list[str]:
    """RESULTS.md's rows for the parts (each ``label``, ``target``, ``median_s``) and their total
    against the goal."""
    if not parts:
        return []
    lines = ["## `make test`'s parts", "", "| part | make target | wall time |", "|---|---|---|"]
    for row in parts:
        lines.append(f"| {row['label']} | `make {row['target']}` | {row['median_s']:.1f} s |")
    verdict = suite_goal(parts)
    if verdict is not None:
        met = "met" if verdict.met else "**missed**"
        lines.append(f"| **all of `make test`'s tests** | `make test` | {verdict.value:.1f} s |")
        lines += ["", f"Goal {verdict.goal} for the tests (install excluded): {met}."]
    return [*lines, ""]
