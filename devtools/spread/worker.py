"""One variant's measurements, in a process of its own: ``python -m devtools.spread.worker
VARIANT OUT [--quantities NAME ...] [--notebooks PATH ...]``. The variant is applied before the
course computes anything; the parent (``devtools.spread``) sets its environment."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("variant")
    parser.add_argument("out", type=Path)
    parser.add_argument("--quantities", nargs="*", default=[])
    parser.add_argument("--notebooks", nargs="*", default=[])
    parser.add_argument("--stored", action="store_true", help="also read the stored values")
    args = parser.parse_args(argv)

    from devtools.spread.variants import apply, variant_named

    apply(variant_named(args.variant))  # before anything of the course has computed
    from devtools.spread.notebooks import run_lesson
    from devtools.spread.quantities import BY_NAME

    result: dict = {"variant": args.variant, "quantities": {}, "stored": {}, "notebooks": {}}
    for name in args.quantities:
        start = time.perf_counter()
        result["quantities"][name] = _lists(BY_NAME[name].fresh())
        if args.stored:
            result["stored"][name] = _lists(BY_NAME[name].stored())
        print(f"{args.variant}: {name} in {time.perf_counter() - start:.1f} s", flush=True)
    for path in args.notebooks:
        start = time.perf_counter()
        result["notebooks"][path] = run_lesson(Path(path))
        print(f"{args.variant}: {path} in {time.perf_counter() - start:.1f} s", flush=True)
    args.out.write_text(json.dumps(result), encoding="utf-8")


def _lists(arrays: dict[str, np.ndarray]) -> dict[str, list]:
    return {k: np.asarray(v, dtype=np.float64).ravel().tolist() for k, v in arrays.items()}


if __name__ == "__main__":
    main()
