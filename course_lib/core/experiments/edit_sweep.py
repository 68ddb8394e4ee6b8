"""Every edit of ``edit_methods`` at a range of strengths, measured as ``edit_measures`` measures
(the way CounterFact measures, with the course's stricter top-1 measures beside it).

Each fact is rewritten, with its first phrasing, to ``TARGETS`` other answers of its relation, by
each method at each strength of its knob; the rank-one edits at the subject write at its last
token (``Fact.subject_positions``). Reading a sweep: each edit at a method's default strength
(``at_default``), or at the weakest that reaches a p(new) (``at_least``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core.experiments.edit_measures import (
    METRICS,
    answer_ids,
    first_reaching,
    measure,
    unedited_reading,
)
from course_lib.core.experiments.edit_methods import (
    ROME,
    fine_tune_edit,
    fine_tune_steps,
    neuron_edit,
    rank_one_update_for,
)
from course_lib.core.experiments.fact_edits import PLAIN, key_covariance, new_answer, with_change
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions
from course_lib.core.i18n import N_
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads

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


def _changes(
    model: LanguageModel, corpus: Corpus, fact: int, new: str, C: dict, names: set[str]
) -> dict[str, tuple[int, torch.Tensor]]:
    """The rank-one updates of one edit at strength 1, those of ``names`` among: where tracing
    points, and at the subject's last token with and without ROME's safeguards:
    {method: (layer, change)}."""
    last = corpus.prompts()[0].shape[1] - 1  # the prompt's last word, where tracing points
    subject = corpus.facts[fact].subject_positions[-1]
    sites = {RANK_ONE: (1, last, PLAIN), ROME_SITE: (0, subject, ROME),
             PLAIN_SUBJECT: (0, subject, PLAIN)}  # fmt: skip
    return {
        name: (layer, rank_one_update_for(model, corpus, fact, new, layer, at, C[layer], recipe))
        for name, (layer, at, recipe) in sites.items()
        if name in names
    }


def edited_models(
    model: LanguageModel, corpus: Corpus, fact: int, new: str, scores, C: dict, names: set[str]
) -> Iterator[tuple[str, LanguageModel]]:
    """(method, the edited model) for each method of ``names`` at each of its strengths, weakest
    first; fine-tuning yields one copy, changed in place from one step to the next."""
    for name, (layer, change) in _changes(model, corpus, fact, new, C, names).items():
        for s in BY_NAME[name].strengths:
            yield name, with_change(model, layer, change, s)
    if NEURONS in names:
        for s in BY_NAME[NEURONS].strengths:
            yield NEURONS, neuron_edit(model, corpus, fact, new, scores=scores, strength=s)
    if FINE_TUNING in names:
        wanted = set(BY_NAME[FINE_TUNING].strengths)
        for step, edited in fine_tune_steps(model, corpus, fact, new, FT_LAYER, max(wanted)):
            if step in wanted:
                yield FINE_TUNING, edited
    if BOUNDED in names:
        for bound in BY_NAME[BOUNDED].strengths:
            yield BOUNDED, fine_tune_edit(model, corpus, fact, new, FT_LAYER, bound=bound)


def sweep_edit(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new: str,
    scores: torch.Tensor | None,
    C: dict,
    methods: Sequence[Method] = METHODS,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """One edit by every method of ``methods`` at every strength: {method: (metrics (strengths,
    len(METRICS)), which facts' top word it changed (strengths, facts))}. ``scores``: the
    attributions (knowledge neurons need them), ``C``: {layer: key covariance} (rank-one edits)."""
    out: dict[str, tuple[list, list]] = {m.name: ([], []) for m in methods}
    for name, edited in edited_models(model, corpus, fact, new, scores, C, set(out)):
        metrics, changed = measure(model, edited, corpus, fact, new)
        out[name][0].append(metrics)
        out[name][1].append(changed)
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


def _before(p: torch.Tensor, corpus: Corpus, fact: int, new: str) -> list[torch.Tensor]:
    """``BEFORE`` of one edit from the unedited model's probabilities ``p`` (2 x facts, vocab):
    the paraphrase read with its own words for the answers."""
    n, (old_id, new_id, old_2, new_2) = len(corpus.facts), answer_ids(corpus, fact, new)
    return [p[fact, new_id], p[fact, old_id], p[n + fact, new_2], p[n + fact, old_2]]


def _known(methods: Sequence[Method]) -> list[Method]:
    """``methods`` as a list, each one of ``METHODS`` (the sweep knows how to make those alone)."""
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError(f"methods must be among METHODS, named {list(BY_NAME)}; got {unknown}")
    return list(methods)


def sweep_edits(
    model: LanguageModel,
    corpus: Corpus,
    facts: Sequence[int] | None = None,
    answers: int = TARGETS,
    methods: Sequence[Method] = METHODS,
) -> Sweep:
    """Every fact (all by default) rewritten to each of ``answers`` other answers by every
    method of ``methods`` (all by default) at every strength."""
    facts = range(len(corpus.facts)) if facts is None else facts
    methods = _known(methods)
    needs_scores = any(m.name == NEURONS for m in methods)  # only knowledge neurons read them
    scores = attributions(model, corpus) if needs_scores else None
    C = {layer: key_covariance(model, corpus, layer) for layer in range(len(model.layers))}
    p = unedited_reading(model, corpus)[0]
    results: dict[str, list] = {m.name: [] for m in methods}
    changed: dict[str, list] = {m.name: [] for m in methods}
    before, edits = [], []
    with torch_threads(1):
        for fact in facts:
            for shift in range(answers):
                new = new_answer(corpus, fact, shift)
                before.append(_before(p, corpus, fact, new))
                edits.append((fact, new))
                for name, (rows, grid) in sweep_edit(
                    model, corpus, fact, new, scores, C, methods
                ).items():
                    results[name].append(rows)
                    changed[name].append(grid)
    return Sweep({k: np.array(v) for k, v in results.items()},
                 {k: np.array(v) for k, v in changed.items()}, np.array(before, dtype=float),
                 tuple(edits))  # fmt: skip


# ---- reading a sweep


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
