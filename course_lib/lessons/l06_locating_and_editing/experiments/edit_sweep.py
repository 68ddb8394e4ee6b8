"""Every edit of ``editing`` at a range of strengths, measured as ``edit_measures`` measures (the
way CounterFact measures, with the course's stricter top-1 measures beside it).

Each fact of the two-phrasing model is rewritten, with its first phrasing, to three other answers
of its relation (144 edits), by each method at each strength of its knob.

Rewriting 144 facts six ways at every strength takes a few minutes, so the results are stored:
``python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep`` remakes them (a test remakes one fact's), and
``python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep filler-c`` the rank-one edit's with C taken over
the lines that state no fact.
"""

from __future__ import annotations

import copy
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments import fact_edits
from course_lib.core.experiments.edit_measures import (
    METRICS,
    first_reaching,
    measure,
    unedited_reading,
)
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.i18n import N_
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l06_locating_and_editing.experiments import editing

SWEEP_FILE = DATA / "edit_sweep.npz"
FILLER_C_FILE = DATA / "edit_sweep_filler_c.npz"
TARGETS = 3  # new answers tried per fact
BEFORE = ("p(new)", "p(old)", "p(new), other phrasing", "p(old), other phrasing")


@dataclass(frozen=True)
class Method:
    """An edit and its knob: ``strengths`` the values swept, ``default`` the one the lesson (or
    the paper it follows) uses."""

    name: str
    knob: str
    strengths: tuple[float, ...]
    default: float


SCALES = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5)
METHODS = (  # six strengths each, weakest first
    Method(N_("rank-one, layer 1, last word"), N_("scale of the update"), SCALES, 1.0),
    Method(N_("ROME, layer 0, subject"), N_("scale of the update"), SCALES, 1.0),
    Method(N_("rank-one, layer 0, subject"), N_("scale of the update"), SCALES, 1.0),
    Method(N_("knowledge neurons"), N_("λ"), (0.05, 0.1, 0.2, 0.3, 0.5, 1.0), 1.0),
    Method(N_("fine-tuning W2"), N_("Adam steps"), (1, 2, 3, 5, 10, 30), 30),  # ints: steps
    Method(N_("FT+L"), N_("L∞ bound ε"), (0.001, 0.002, 0.005, 0.01, 0.02, 0.05), 0.01),
)
STRENGTHS = 6
BY_NAME = {m.name: m for m in METHODS}
RANK_ONE, ROME_SITE, PLAIN_SUBJECT, NEURONS, FINE_TUNING, BOUNDED = (m.name for m in METHODS)
FT_LAYER = 1  # fine-tuning and FT+L change layer 1's W2, where tracing points


def _changes(model, corpus, fact, new, scores, C) -> dict[str, tuple[int, torch.Tensor]]:
    """The rank-one updates of one edit at strength 1: where tracing points, and at ROME's site
    with and without ROME's safeguards: {method: (layer, change)}."""
    last = corpus.prompts()[0].shape[1] - 1  # the prompt's last word, where tracing points
    subject = fact_edits.SUBJECT
    return {
        RANK_ONE: (1, editing.rank_one_update_for(model, corpus, fact, new, 1, last, C[1])),
        ROME_SITE: (
            0,
            editing.rank_one_update_for(model, corpus, fact, new, 0, subject, C[0], editing.ROME),
        ),
        PLAIN_SUBJECT: (0, editing.rank_one_update_for(model, corpus, fact, new, 0, subject, C[0])),
    }


def sweep_edit(
    model: LanguageModel, corpus: Corpus, fact: int, new: str, scores: torch.Tensor, C: dict
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """One edit by every method at every strength: {method: (metrics (strengths, len(METRICS)),
    which facts' top word it changed (strengths, facts))}."""
    out: dict[str, list] = {m.name: [[], []] for m in METHODS}

    def record(method: Method, strength: float, edited: LanguageModel) -> None:
        metrics, changed = measure(model, edited, corpus, fact, new)
        out[method.name][0].append(metrics)
        out[method.name][1].append(changed)

    for name, (layer, change) in _changes(model, corpus, fact, new, scores, C).items():
        for s in BY_NAME[name].strengths:
            record(BY_NAME[name], s, fact_edits.with_change(model, layer, change, s))
    neurons, tuning, bounded = BY_NAME[NEURONS], BY_NAME[FINE_TUNING], BY_NAME[BOUNDED]
    change = editing.neuron_change(model, corpus, fact, new, scores=scores)
    for s in neurons.strengths:
        edited = copy.deepcopy(model)
        with torch.no_grad():
            for layer, delta in change.items():
                edited.layers[layer].ffn.linear2.weight.add_(s * delta)
        record(neurons, s, edited)
    wanted = set(tuning.strengths)
    for step, edited in editing.fine_tune_steps(model, corpus, fact, new, FT_LAYER, max(wanted)):
        if step in wanted:
            record(tuning, step, edited)
    for bound in bounded.strengths:
        record(
            bounded, bound, editing.fine_tune_edit(model, corpus, fact, new, FT_LAYER, bound=bound)
        )
    return {name: (np.array(rows), np.array(grid)) for name, (rows, grid) in out.items()}


@dataclass(frozen=True)
class Sweep:
    """Every method's measurements (edits, strengths, len(METRICS)), which facts' top word each
    edit changed (edits, strengths, facts), each edit's p(new) and p(old) as trained after both
    phrasings (edits, len(BEFORE)), and the edits' (fact, new answer)."""

    results: dict[str, np.ndarray]
    changed: dict[str, np.ndarray]
    before: np.ndarray
    edits: tuple[tuple[int, str], ...]

    def column(self, method: str, metric: str) -> np.ndarray:
        """(edits, strengths) of one metric."""
        return self.results[method][..., METRICS.index(metric)]


def sweep_edits(
    model: LanguageModel, corpus: Corpus, facts: Sequence[int] | None = None, answers: int = TARGETS
) -> Sweep:
    """Every fact (all by default) rewritten to each of ``answers`` other answers by every
    method at every strength."""
    facts = range(len(corpus.facts)) if facts is None else facts
    scores = attributions(model, corpus)
    C = {
        layer: fact_edits.key_covariance(model, corpus, layer) for layer in range(len(model.layers))
    }
    p = unedited_reading(model, corpus)[0]
    results: dict[str, list] = {m.name: [] for m in METHODS}
    changed: dict[str, list] = {m.name: [] for m in METHODS}
    before, edits, n = [], [], len(corpus.facts)
    with torch_threads(1):
        for fact in facts:
            for shift in range(answers):
                new = fact_edits.new_answer(corpus, fact, shift)
                old_id, new_id = corpus.encode([corpus.facts[fact].answer, new])
                before.append([p[fact, new_id], p[fact, old_id], p[n + fact, new_id],
                               p[n + fact, old_id]])  # fmt: skip
                edits.append((fact, new))
                for name, (rows, grid) in sweep_edit(model, corpus, fact, new, scores, C).items():
                    results[name].append(rows)
                    changed[name].append(grid)
    return Sweep({k: np.array(v) for k, v in results.items()},
                 {k: np.array(v) for k, v in changed.items()}, np.array(before, dtype=float),
                 tuple(edits))  # fmt: skip


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
            change = editing.rank_one_update_for(model, corpus, fact, new, 1, last, C)
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


# ---- reading the sweep


def at_least(sweep: Sweep, method: str, target: float) -> tuple[np.ndarray, np.ndarray]:
    """Each edit at the weakest strength whose p(new) reaches ``target``: its measurements
    (edits, len(METRICS)) and whether it reached the target at all (edits,); an edit that never
    does is taken at the strongest."""
    return first_reaching(sweep.results[method], target)


def at_default(sweep: Sweep, method: str) -> np.ndarray:
    """Every edit at the method's default strength: (edits, len(METRICS))."""
    m = BY_NAME[method]
    return sweep.results[method][:, m.strengths.index(m.default)]


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation of two samples (ties get their mean rank)."""

    def ranks(v: np.ndarray) -> np.ndarray:
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        r[order] = np.arange(len(v), dtype=float)
        for value in np.unique(v):  # ties share their mean rank
            r[v == value] = r[v == value].mean()
        return r

    rx, ry = ranks(np.asarray(x, float)), ranks(np.asarray(y, float))
    return float(np.corrcoef(rx, ry)[0, 1])


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
