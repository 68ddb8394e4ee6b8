"""What the portability pass adds to `make test`: nbval's usual run and the pass that computes as
another CPU would, each run as `make` runs it (same targets, same environment variables); the
timing is pytest-benchmark's (benchmarks/test_nbval_passes.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PASSES = (
    ("nbval, native CPU", "nbval"),
    ("portability pass (scalar kernels, one thread, 2 workers)", "portability"),
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


def nbval_pass_section(passes: list[dict[str, Any]]) -> list[str]:
    """RESULTS.md's rows for the passes (each ``label``, ``target``, ``median_s``), and what the
    portability pass adds."""
    if not passes:
        return []
    lines = [
        "## `make test`'s nbval passes",
        "",
        "| pass | make target | wall time |",
        "|---|---|---|",
    ]
    medians = {row["target"]: row["median_s"] for row in passes}
    for row in passes:
        lines.append(f"| {row['label']} | `make {row['target']}` | {row['median_s']:.1f} s |")
    added, usual = medians.get("portability"), medians.get("nbval")
    if added is not None and usual:
        lines += [
            "",
            f"The portability pass adds {added:.1f} s to `make test`, "
            f"{added / usual:.0%} of the usual nbval run.",
        ]
    return [*lines, ""]
