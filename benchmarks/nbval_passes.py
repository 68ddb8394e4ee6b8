"""What the portability pass adds to `make test`: nbval's usual run and the pass that computes as
another CPU would, each timed as `make` runs it (same targets, same environment variables)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

from benchmarks import stats

ROOT = Path(__file__).resolve().parent.parent
PASSES = (
    ("nbval, native CPU", "nbval"),
    ("portability pass (scalar kernels, one thread, 2 workers)", "portability"),
)


def run_target(target: str, root: Path = ROOT) -> tuple[float, str | None]:
    """Wall seconds of ``make <target>`` in ``root``, and an error line if it failed."""
    start = time.perf_counter()
    done = subprocess.run(
        ["make", "-s", "--no-print-directory", target], cwd=root, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no output"]
        return seconds, f"make {target} exited {done.returncode}: {tail[0]}"
    return seconds, None


def measure_nbval_passes(repeat: int, results: dict[str, Any], root: Path = ROOT) -> None:
    """Time each pass ``repeat`` times into ``results['nbval_passes']``; failures go to errors."""
    rows = []
    for label, target in PASSES:
        times = []
        for _ in range(repeat):
            seconds, error = run_target(target, root)
            times.append(seconds)
            if error:
                results["errors"].append(error)
        rows.append({"pass": label, "target": target, "times_s": times})
    results["nbval_passes"] = rows


def nbval_pass_section(results: dict[str, Any]) -> list[str]:
    """RESULTS.md's rows for the nbval passes, and what the portability pass adds."""
    rows = results.get("nbval_passes")
    if not rows:
        return []
    lines = [
        "## `make test`'s nbval passes",
        "",
        "| pass | make target | wall time |",
        "|---|---|---|",
    ]
    medians = {row["target"]: stats.median(row["times_s"]) for row in rows}
    for row in rows:
        lines.append(f"| {row['pass']} | `make {row['target']}` | {medians[row['target']]:.1f} s |")
    added = medians.get("portability")
    if added is not None and "nbval" in medians:
        lines += [
            "",
            f"The portability pass adds {added:.1f} s to `make test`, "
            f"{added / medians['nbval']:.0%} of the usual nbval run.",
        ]
    return [*lines, ""]
