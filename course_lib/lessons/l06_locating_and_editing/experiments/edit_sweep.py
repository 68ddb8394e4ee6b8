"""Lesson 6's sweep of edits, stored: every edit of the core's ``edit_sweep`` (its methods, their
strengths and how an edit is measured) over the two-phrasing model (``editing``).

Each fact of the two-phrasing model is rewritten, with its first phrasing, to three other answers
of its relation (144 edits), by each method at each strength of its knob.

Rewriting 144 facts six ways at every strength takes a few minutes, so the results are stored:
``python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep`` remakes them (a
test remakes one fact's). Lesson 6's demo reads them (each method at six strengths, every v* from
30 steps); its comparison reads ``edit_curves``.
"""

from __future__ import annotations

import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from course_lib.core.experiments.edit_measures import METRICS
from course_lib.core.experiments.edit_sweep import METHODS, Sweep, sweep_edits
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.lessons.l06_locating_and_editing.experiments import editing

SWEEP_FILE = DATA / "edit_sweep.npz"


def save_sweep(sweep: Sweep, path: Path = SWEEP_FILE) -> int:
    arrays = {f"results|{k}": v for k, v in sweep.results.items()}
    arrays |= {f"changed|{k}": v for k, v in sweep.changed.items()}
    arrays["before"] = sweep.before
    arrays["facts"] = np.array([fact for fact, _ in sweep.edits])
    arrays["new"] = np.array([new for _, new in sweep.edits])
    return save_npz(path, arrays, {"metrics": METRICS})


@lru_cache(maxsize=1)
def stored_sweep(path: Path = SWEEP_FILE) -> Sweep:
    """``sweep_edits`` over all 48 facts of the two-phrasing model, as stored."""
    arrays, _ = load_npz(
        path, "sweep of edits", "course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep"
    )
    results = {m.name: arrays[f"results|{m.name}"] for m in METHODS}
    changed = {m.name: arrays[f"changed|{m.name}"] for m in METHODS}
    edits = tuple((int(f), str(w)) for f, w in zip(arrays["facts"], arrays["new"], strict=True))
    return Sweep(results, changed, arrays["before"], edits)


if (
    __name__ == "__main__"
):  # python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep
    start = time.perf_counter()
    model, corpus = editing.paraphrased_model()
    facts = [int(a) for a in sys.argv[1:]] or None
    size = save_sweep(sweep_edits(model, corpus, facts))
    print(f"{size / 1024:.0f} KiB in {SWEEP_FILE}, {time.perf_counter() - start:.0f} s")
