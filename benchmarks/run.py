"""How long a learner waits: every notebook and every demo control, each beside its floor.

    python benchmarks/run.py                 # everything, 3 repetitions (make bench)
    python benchmarks/run.py --quick         # 1 repetition, 5 values per control
    python benchmarks/run.py --only 02_ --only width.d_ff --repeat 5
    python benchmarks/run.py --skip-notebooks --only width.d_ff --profile   # where does it go?

Writes RESULTS.md (a table) and results.json into --out (default: this folder).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import discover, machine, report  # noqa: E402
from benchmarks.measure import measure_controls, measure_notebooks  # noqa: E402
from benchmarks.nbval_passes import measure_nbval_passes  # noqa: E402

OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("--repeat", {"type": int, "help": "repetitions of everything (default 3; 1 with --quick)"}),
    ("--values", {"type": int, "help": "values per control, spread over its grid (default 50; 5 with --quick)"}),
    ("--quick", {"action": "store_true", "help": "a fast look: 1 repetition, 5 values per control"}),
    ("--only", {"action": "append", "default": [], "metavar": "NAME",
                "help": "measure only notebooks/controls whose name (notebook file, demo.control) contains NAME; repeatable"}),
    ("--skip-notebooks", {"action": "store_true", "help": "measure the controls only"}),
    ("--skip-controls", {"action": "store_true", "help": "measure the notebooks only"}),
    ("--skip-nbval-passes", {"action": "store_true", "help": "do not time make test's two nbval passes"}),
    ("--notebooks", {"type": Path, "default": ROOT / "notebooks", "help": "folder of *.ipynb (default notebooks/)"}),
    ("--demo-module", {"type": Path, "action": "append", "default": [], "metavar": "FILE",
                       "help": "also measure the demos() of this Python file; repeatable"}),
    ("--out", {"type": Path, "default": ROOT / "benchmarks", "help": "where RESULTS.md and results.json go"}),
    ("--baseline", {"help": "an earlier results.json for a before/after table (default: the results.json this run replaces; 'none' for no table)"}),
    ("--profile", {"action": "store_true", "help": "also profile each measured control (cProfile) into artifacts/profiles/"}),
    ("--timeout", {"type": int, "default": 600, "help": "seconds a notebook cell may run"}),
]  # fmt: skip


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for flag, options in OPTIONS:
        parser.add_argument(flag, **options)
    args = parser.parse_args(argv)
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.values = args.values or (5 if args.quick else 50)
    if args.repeat < 1 or args.values < 1:
        parser.error(f"--repeat and --values must be >= 1, got {args.repeat} and {args.values}")
    return args


def isolate_jupyter() -> None:
    """Keep Jupyter, IPython and matplotlib from writing into the home folder (one folder for the
    whole run, so matplotlib's font cache is built once, in the warm-up)."""
    home = tempfile.mkdtemp(prefix="ffn-course-bench-")
    variables = ("JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "IPYTHONDIR")
    for variable in (*variables, "MPLCONFIGDIR"):
        os.environ[variable] = os.path.join(home, variable.lower())
        os.makedirs(os.environ[variable], exist_ok=True)


def method(args: argparse.Namespace) -> list[str]:
    """How the numbers were taken, for the reader of RESULTS.md."""
    return [
        f"- Notebooks: each `notebooks/*.ipynb` found is copied with its folder to a temporary folder and executed top to bottom by nbclient in a fresh `python3` kernel; wall time from kernel start to shutdown. Floor and notebooks alternate within each of the {args.repeat} repetition(s), after one unmeasured warm-up of the floor (file caches, matplotlib font cache).",
        "- Slowest cells: per cell, the median over repetitions of the time from sending it to its reply; `[n]` is the cell's index in the notebook (from 0, markdown cells counted).",
        "- Peak memory: RSS of the kernel plus its child processes, sampled every 20 ms from a thread, or the kernel's own high-water mark (VmHWM) if larger; median over repetitions.",
        f"- Controls: every control of every demo from `course_lib.widgets.all_demos()`, over every value of its grid or {args.values} spread evenly over it, the other controls at their defaults; the time of `demo.png(**values)` (render + PNG encode, what the widget's callback waits for). *First visit*: the demo's PNG cache and every `lru_cache`/`cache` of the project's loaded modules emptied first (caches held elsewhere, e.g. in closures, are not seen). *Re-render*: the experiment caches warm, the figure drawn and encoded again. *Cached*: the PNG cache hit a revisited value gets.",
        "- Control floor: a new empty figure of the demo's default figure size and dpi encoded as PNG (20 samples per repetition).",
        "- `make test`'s nbval passes: `make nbval` and `make portability` run as subprocesses (the targets `make test` runs, with their environment variables), wall time per repetition.",
        "- Goals (issue 7): every control p95 ≤ 100 ms for cached values and anything that trains nothing, ≤ 1 s for a first visit that trains (with a busy text saying training); every notebook ≤ 60 s; the whole course ≤ 3 × the sum of the floors; peak kernel memory ≤ 1 GiB.",
    ]  # fmt: skip


def collect(args: argparse.Namespace) -> dict[str, Any]:
    """Measure everything selected by ``args`` into one JSON-ready dict."""
    results: dict[str, Any] = {
        "command": "python benchmarks/run.py " + " ".join(sys.argv[1:]),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine.describe(),
        "settings": {"repeat": args.repeat, "values_per_control": args.values, "only": args.only or "all"},
        "method": method(args), "errors": [], "notebooks": [], "floor": None, "course": None, "controls": None,
    }  # fmt: skip
    paths = [p for p in discover.notebooks(args.notebooks) if discover.matches(p.name, args.only)]
    if not args.skip_notebooks and (paths or not args.only):
        measure_notebooks(paths, args.repeat, args.timeout, results)
    if not args.skip_controls:
        profile = ROOT / "artifacts" / "profiles" if args.profile else None
        demos = discover.demos(args.demo_module)
        measure_controls(demos, args.repeat, args.values, args.only, results, profile)
    if not args.skip_nbval_passes and not args.only:
        measure_nbval_passes(args.repeat, results)
    results["machine"]["load_average_at_end"] = machine.load_average()
    return results


def load_baseline(choice: str | None, previous: Path) -> dict[str, Any] | None:
    """The results to compare with: ``choice`` (a path, or 'none'), else the previous run's."""
    if choice is not None and choice.lower() == "none":
        return None
    path = Path(choice) if choice is not None else previous
    if not path.is_file():
        if choice is not None:
            raise SystemExit(f"--baseline {choice!r}: no such file")
        return None
    return json.loads(path.read_text())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    isolate_jupyter()
    results = collect(args)
    baseline = load_baseline(args.baseline, args.out / "results.json")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    (args.out / "RESULTS.md").write_text(report.render(results, baseline))
    missed = report.misses(results)
    print(
        f"wrote {args.out / 'RESULTS.md'} and results.json; {len(missed)} goal(s) missed",
        file=sys.stderr,
    )
    for line in missed + results["errors"]:
        print(f"  {line}", file=sys.stderr)
    return 1 if results["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
