"""Lesson 6's sweep of edits, stored: every edit of the core's ``edit_sweep`` (its methods, their
strengths and how an edit is measured) over the two-phrasing model (``editing``).

Each fact of the two-phrasing model is rewritten, with its first phrasing, to three other answers
of its relation (144 edits), by each method at each strength of its knob.

Rewriting 144 facts six ways at every strength takes a few minutes, so the results are stored:
``python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep`` remakes them (a test remakes one fact's), and
``python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep filler-c`` the rank-one edit's with C taken over
the lines that state no fact.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from course_lib.core.experiments import fact_edits
from course_lib.core.experiments.edit_measures import METRICS, measure
from course_lib.core.experiments.edit_methods import rank_one_update_for
from course_lib.core.experiments.edit_sweep import METHODS, SCALES, Sweep, sweep_edits
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.i18n import N_
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l06_locating_and_editing.experiments import editing

SWEEP_FILE = DATA / "edit_sweep.npz"
FILLER_C_FILE = DATA / "edit_sweep_filler_c.npz"


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


# ---- the rank-one edit with C from text that states no fact

FILLER_C = N_("rank-one, layer 1, last word, C from filler")
CORPUS_C, FILLER_ONLY_C = N_("corpus' C"), N_("C from filler")  # the two Cs, as tables name them


def sweep_filler_c(
    model: LanguageModel, corpus: Corpus, edits: Sequence[tuple[int, str]]
) -> np.ndarray:
    """The rank-one edit where tracing points, at every scale, with C taken over the lines that
    state no fact instead of the whole corpus: (edits, STRENGTHS, len(METRICS))."""
    C = fact_edits.key_covariance(model, corpus, 1, facts=False)
    last = corpus.prompts()[0].shape[1] - 1
    rows = []
    with torch_threads(1):
        for fact, new in edits:
            change = rank_one_update_for(model, corpus, fact, new, 1, last, C)
            rows.append([measure(model, fact_edits.with_change(model, 1, change, s), corpus, fact, new)[0]
                         for s in SCALES])  # fmt: skip
    return np.array(rows)


def save_filler_c(results: np.ndarray, path: Path = FILLER_C_FILE) -> int:
    return save_npz(path, {"results": results}, {"metrics": METRICS})


@lru_cache(maxsize=1)
def stored_filler_c(path: Path = FILLER_C_FILE) -> np.ndarray:
    """``sweep_filler_c`` over the stored sweep's 144 edits, as stored: (144, STRENGTHS,
    len(METRICS))."""
    arrays, _ = load_npz(path, "rank-one edits with C from filler",
                         "course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep filler-c")  # fmt: skip
    return arrays["results"]


if (
    __name__ == "__main__"
):  # python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep
    start = time.perf_counter()
    model, corpus = editing.paraphrased_model()
    if sys.argv[1:] == ["filler-c"]:  # the rank-one edit with C from filler, every stored edit
        size = save_filler_c(sweep_filler_c(model, corpus, stored_sweep().edits))
        print(f"{size / 1024:.0f} KiB in {FILLER_C_FILE}, {time.perf_counter() - start:.0f} s")
        sys.exit()
    facts = [int(a) for a in sys.argv[1:]] or None
    size = save_sweep(sweep_edits(model, corpus, facts))
    print(f"{size / 1024:.0f} KiB in {SWEEP_FILE}, {time.perf_counter() - start:.0f} s")
