"""`make test` as CI and a newcomer run it: a fresh clone of the committed code, then `make test`
in it, the install included, against its budget. Every check stays in `make test` (it is what CI
runs), so the budget holds as lessons are added only if each new lesson pays for its own checks.
The timing is pytest-benchmark's (benchmarks/test_make_test.py)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import goals

ROOT = Path(__file__).resolve().parent.parent
PARTS = (("a fresh clone of HEAD: install, lint and every test", "test"),)


def run_target(target: str, root: Path = ROOT) -> str | None:
    """``make <target>`` in a fresh clone of ``root``'s HEAD (committed files only, no venv);
    an error line if it failed, else None."""
    with tempfile.TemporaryDirectory(prefix="ffn-fresh-clone-") as folder:
        clone = Path(folder) / "clone"
        subprocess.run(["git", "clone", "--quiet", str(root), str(clone)], check=True)
        done = subprocess.run(
            ["make", "-s", "--no-print-directory", target],
            cwd=clone,
            capture_output=True,
            text=True,
        )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no output"]
        return f"make {target} exited {done.returncode}: {tail[0]}"
    return None


def suite_goal(parts: list[dict[str, Any]]) -> goals.Verdict | None:
    """The budget on the fresh clone's `make test`, judged only when it was measured."""
    medians = {row["target"]: row["median_s"] for row in parts}
    if set(medians) != {target for _, target in PARTS}:
        return None
    return goals.make_test_goal(sum(medians.values()))


def make_test_section(parts: list[dict[str, Any]]) -> list[str]:
    """RESULTS.md's rows for ``parts`` (each ``label``, ``target``, ``median_s``) against the
    budget."""
    if not parts:
        return []
    lines = [
        "## `make test` from a fresh clone",
        "",
        "| what | command | wall time |",
        "|---|---|---|",
    ]
    for row in parts:
        lines.append(f"| {row['label']} | `make {row['target']}` | {row['median_s']:.1f} s |")
    verdict = suite_goal(parts)
    if verdict is not None:
        met = "met" if verdict.met else "**missed**"
        lines += ["", f"Budget {verdict.goal} from a fresh clone, install included: {met}."]
    return [*lines, ""]
