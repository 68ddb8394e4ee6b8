"""``python -m devtools.spread [--variants NAME ...] [--quantities NAME ...] [--notebooks PATH ...]``:
measure, then write tests/spread.json and docs/spread.md. With no selection, everything: every
variant, every quantity, every English lesson (the Chinese edition runs the same code and formats
each number with the same spec, tests/test_i18n.py)."""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from devtools.spread.record import ROOT, SPREAD_FILE, TABLE_FILE
from devtools.spread.summary import refresh_printed, summarise
from devtools.spread.table import write_table
from devtools.spread.variants import BY_NAME, REFERENCE, VARIANTS, environment

LESSONS = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("[0-9]*.ipynb")))


def run_variant(name: str, quantities, notebooks, folder: Path) -> dict:
    out = folder / f"{name.replace(' ', '_')}.json"
    command = [sys.executable, "-m", "devtools.spread.worker", name, str(out),
               "--quantities", *quantities, "--notebooks", *notebooks]  # fmt: skip
    if name == REFERENCE.name:
        command.append("--stored")
    subprocess.run(command, cwd=ROOT, env=environment(BY_NAME[name]), check=True)
    return json.loads(out.read_text(encoding="utf-8"))


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def _write(summary: dict) -> None:
    SPREAD_FILE.write_text(
        json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    write_table(summary, TABLE_FILE)


def merged(summary: dict) -> dict:
    """``summary`` over what the file already holds: a run of some quantities or lessons
    replaces theirs and keeps the others', measured under the same variants; a quantity or a
    lesson that no longer exists is dropped."""
    from devtools.spread.quantities import BY_NAME as QUANTITIES

    if not SPREAD_FILE.exists():
        return summary
    old = json.loads(SPREAD_FILE.read_text(encoding="utf-8"))
    if old.get("variants") != summary["variants"]:
        return summary
    exists = {"quantities": lambda name: name in QUANTITIES,
              "notebooks": lambda path: (ROOT / path).exists()}  # fmt: skip
    return summary | {
        part: {k: v for k, v in old.get(part, {}).items() if exists[part](k)} | summary[part]
        for part in ("quantities", "notebooks")
    }


def main(argv: list[str] | None = None) -> None:
    from devtools.spread.quantities import BY_NAME as QUANTITIES

    parser = argparse.ArgumentParser()
    parser.add_argument("--variants", nargs="*", default=[v.name for v in VARIANTS])
    parser.add_argument("--quantities", nargs="*", default=list(QUANTITIES))
    parser.add_argument("--notebooks", nargs="*", default=list(LESSONS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reprint", action="store_true",
                        help="only read again what the lessons print of the stored files")  # fmt: skip
    args = parser.parse_args(argv)
    if args.reprint:
        summary = refresh_printed(json.loads(SPREAD_FILE.read_text(encoding="utf-8")))
        _write(summary)
        return
    names = [REFERENCE.name, *(n for n in args.variants if n != REFERENCE.name)]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ffn-spread-") as folder:
        with ThreadPoolExecutor(args.jobs) as pool:
            runs = list(pool.map(lambda n: run_variant(n, args.quantities, args.notebooks,
                                                       Path(folder)), names))  # fmt: skip
    import torch

    machine = {"cpu": cpu_name(), "capability": torch.backends.cpu.get_cpu_capability(),
               "torch": torch.__version__, "date": time.strftime("%Y-%m-%d")}  # fmt: skip
    _write(merged(summarise(runs, machine)))
    print(f"measured {len(names)} variants in {time.perf_counter() - start:.0f} s: "
          f"{SPREAD_FILE.relative_to(ROOT)}, {TABLE_FILE.relative_to(ROOT)}")  # fmt: skip


if __name__ == "__main__":
    main()
