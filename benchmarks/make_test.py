"""`make test` as CI and a newcomer run it: a fresh clone of the committed code, then `make test`
in it, the install included, against its budget. Every check stays in `make test` (it is what CI
runs), so the budget holds as lessons are added only if each new lesson pays for its own checks.
The timing is pytest-benchmark's (benchmarks/test_make_test.py).

The budget is judged as a ratio to a floor timed in the same run, just before: ``FLOOR_SOURCE``
in two fresh Pythons at once, one per core the suite's two workers use. It imports what the suite
imports everywhere (torch, matplotlib), trains a small network and draws figures, and touches no
project code, so a change to the course cannot move it; a slower or busier machine stretches it as
it stretches `make test` (goals.py says how the limit was set)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import goals

ROOT = Path(__file__).resolve().parent.parent
PARTS = (("a fresh clone of HEAD: install, lint and every test", "test"),)
FLOOR_LABEL = "the floor: two fresh Pythons at once, each importing torch and matplotlib, training a small network and drawing ten figures"  # fmt: skip
FLOOR_PROCESSES = 2  # make suite's workers (pytest -n 2)
FLOOR_SOURCE = """\
import io
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch

torch.set_num_threads(1)  # one core per process, as each of the suite's workers has
generator = torch.Generator().manual_seed(0)
x = torch.randn(2000, 16, generator=generator)
y = (x[:, :4].sum(1, keepdim=True) > 0).float()
model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(300):
    optimizer.zero_grad()
    torch.nn.functional.binary_cross_entropy_with_logits(model(x), y).backward()
    optimizer.step()
for k in range(10):
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    ax.plot(x[:200, k].numpy())
    fig.savefig(io.BytesIO(), format="png")
    plt.close(fig)
"""


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
        return f"make {target} exited {done.returncode}: {failure_lines(done.stdout + done.stderr)}"
    return None


def failure_lines(output: str, most: int = 5) -> str:
    """What a failed `make test` says about its failure: pytest's FAILED and ERROR lines (at most
    ``most``), else its last line."""
    lines = output.strip().splitlines()
    failed = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
    return "; ".join(failed[:most]) or (lines[-1] if lines else "no output")


def run_floor(source: str = FLOOR_SOURCE, processes: int = FLOOR_PROCESSES) -> str | None:
    """``source`` in ``processes`` fresh Pythons at once (this interpreter, a temporary working
    folder), until the last ends; an error line if one failed, else None."""
    with tempfile.TemporaryDirectory(prefix="ffn-make-test-floor-") as folder:
        started = [
            subprocess.Popen([sys.executable, "-c", source], cwd=folder, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
            for _ in range(processes)
        ]  # fmt: skip
        ended = [(process.communicate()[1], process.returncode) for process in started]
    errors = [(stderr.strip().splitlines() or ["no output"])[-1] for stderr, code in ended if code]
    return f"the floor's Python failed: {errors[0]}" if errors else None


def suite_goal(parts: list[dict[str, Any]], floor_s: float | None = None) -> goals.Verdict | None:
    """The budget on the fresh clone's `make test`, as a ratio to the floor timed in the same run
    (``floor_s``); None when `make test` was not measured, not judged without a floor."""
    medians = {row["target"]: row["median_s"] for row in parts}
    if set(medians) != {target for _, target in PARTS}:
        return None
    return goals.make_test_goal(sum(medians.values()), floor_s)


def make_test_section(parts: list[dict[str, Any]], floor_s: float | None = None) -> list[str]:
    """RESULTS.md's rows for ``parts`` (each ``label``, ``target``, ``median_s``) and the floor
    beside them, against the budget."""
    if not parts:
        return []
    lines = [
        "## `make test` from a fresh clone",
        "",
        "| what | command | wall time |",
        "|---|---|---|",
    ]
    if floor_s is not None:
        lines.append(f"| {FLOOR_LABEL} | `make_test.FLOOR_SOURCE` × {FLOOR_PROCESSES} | {floor_s:.1f} s |")  # fmt: skip
    for row in parts:
        lines.append(f"| {row['label']} | `make {row['target']}` | {row['median_s']:.1f} s |")
    verdict = suite_goal(parts, floor_s)
    if verdict is not None:
        met = {True: "met", False: "**missed**", None: "not judged (no floor measured)"}[
            verdict.met
        ]
        ratio = "" if verdict.value is None else f"{verdict.value:.0f} × its floor; "
        lines += [
            "",
            f"Budget 8 min from a fresh clone, install included, on the reference machine, where "
            f"the floor took {goals.MAKE_TEST_FLOOR_S_AT_REFERENCE:g} s: {ratio}goal "
            f"{verdict.goal}: {met}.",
        ]
    return [*lines, ""]
