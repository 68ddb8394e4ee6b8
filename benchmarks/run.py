"""``make bench``: pytest-benchmark times every notebook and every demo control (benchmarks/test_*.py),
saves the run and compares it with the previous one in the terminal; then RESULTS.md is written
from its JSON.

    python benchmarks/run.py                          # everything, 3 rounds (make bench)
    python benchmarks/run.py --quick --only width     # 1 round, 5 values per control, names with "width"
    python benchmarks/run.py -k "control and not cached" --benchmark-cprofile=cumtime

With --from-json FILE nothing is measured: RESULTS.md is written from that pytest-benchmark JSON.
With --merge FILE nothing is measured either: the groups FILE measured (a run of some of the
benchmark's files, e.g. `pytest benchmarks/test_make_test.py --benchmark-json=FILE`) replace theirs
in results.json, whole, floors included, and RESULTS.md names their commit, time and load.
The notebooks measured also replace their entries in cell_times.json (benchmarks/cell_times.py,
which measures only the notebooks, results.json left alone).
Options other than --out and --from-json go to pytest: the benchmark's own (--quick, --repeat N,
--values N, --only NAME, --cell-timeout S; see benchmarks/conftest.py) and pytest-benchmark's
(--benchmark-save=NAME, --benchmark-compare=NNNN, --benchmark-compare-fail=median:10%, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import cell_times, report  # noqa: E402


def pytest_command(json_path: Path, extra: list[str]) -> list[str]:
    """pytest over benchmarks/ with pytest-benchmark's JSON into ``json_path``. pytest-benchmark
    saves the run in artifacts/benchmarks (unless --benchmark-storage or --benchmark-save say
    otherwise) and compares it with the newest run saved there (unless --benchmark-compare does)."""
    command = [sys.executable, "-m", "pytest", str(HERE), "--benchmark-only", "-p", "no:xdist"]
    command += [f"--benchmark-json={json_path}", "--benchmark-group-by=group"]
    if not any(arg.startswith("--benchmark-storage") for arg in extra):
        command.append(f"--benchmark-storage=file://{HERE.parent / 'artifacts' / 'benchmarks'}")
    if not any(arg.startswith(("--benchmark-save", "--benchmark-autosave")) for arg in extra):
        command.append("--benchmark-autosave")
    if not any(arg.split("=")[0] == "--benchmark-compare" for arg in extra):
        command.append("--benchmark-compare")
    return [*command, *extra]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    parser.add_argument("--out", type=Path, default=HERE, help="where results.json and RESULTS.md go")  # fmt: skip
    parser.add_argument("--from-json", type=Path, metavar="FILE", help="measure nothing: RESULTS.md from this pytest-benchmark JSON")  # fmt: skip
    parser.add_argument("--merge", type=Path, metavar="FILE", help="measure nothing: FILE's groups replace theirs in results.json")  # fmt: skip
    args, extra = parser.parse_known_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    previous = args.out / "results.json"
    path, code = args.from_json, 0
    if args.merge is not None:
        if path is not None:
            parser.error("--merge and --from-json: give one")
        merged = report.merge(json.loads(previous.read_text()), json.loads(args.merge.read_text()))
        previous.write_text(json.dumps(merged, indent=4))  # as pytest-benchmark writes it
        path = previous
    if path is None:
        path = args.out / "results.new.json"
        path.unlink(missing_ok=True)
        command = shlex.join(["python", "benchmarks/run.py", *argv])
        env = {**os.environ, "COURSE_BENCH_COMMAND": command}
        code = subprocess.call(pytest_command(path, extra), env=env)
        if not path.exists():
            print("no benchmark ran: results.json and RESULTS.md left alone", file=sys.stderr)
            return code or 1
        path = path.replace(previous)
    results = json.loads(path.read_text())
    (args.out / "RESULTS.md").write_text(report.render(results))
    if cell_times.write(results, args.out / cell_times.CELL_TIMES.name):  # the notebooks measured
        print(f"wrote {args.out / cell_times.CELL_TIMES.name}", file=sys.stderr)
    missed = report.misses(report.summarize(results))
    print(f"wrote {args.out / 'RESULTS.md'}; {len(missed)} goal(s) missed", file=sys.stderr)
    for line in missed + results.get("course", {}).get("failures", []):
        print(f"  {line}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
