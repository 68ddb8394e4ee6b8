"""Lesson 6's fair comparison of edits, stored: every edit along its knob, v* found to one
stopping rule at every site, and each edit read where its own p(new) reaches ``TARGET``.

- **v*, at every site** (``SITES``): Adam on its own loss (ROME's KL term, decay and clamp
  included for ROME) until the loss is below 0.05, where ROME's code stops, keeping the v* of
  lowest loss, at most ``CAP`` steps (``fact_edits.CONVERGED``); what the search capped at each
  of ``CHECKPOINTS`` returns is kept too, and each such edit measured at its full update.
- **the knobs** (``METHODS``): the scale of each rank-one update (also with C from the lines
  that state no fact), λ of the course's knowledge-neuron edit, the multiple of Meng et al.'s,
  fine-tuning's Adam steps (at a learning rate small enough that a step moves p(new) a little)
  and FT+L's bound ε; each measured at every strength of its grid (``curves``).
- **matched** (``matched``): for each edit, the first two strengths of its grid whose p(new)
  brackets ``TARGET``, narrowed by bisection on p(new) after the edited prompt until the two
  ends are within ``CLOSE`` of each other; both ends measured, every measure interpolated
  between them to p(new) = ``TARGET`` (``edit_measures.interpolated``). Fine-tuning's step is
  taken in part between two whole steps.

``python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_curves`` remakes the
file (about 19 minutes on two cores); a test remakes one edit's rows (``curves(model, corpus,
edits)``). ROME's search at the subject circles its minimum, so where it keeps its best v* moves
under a change in the last bits (fact 17's first edit: up to 150 steps, its p(new) by 0.04, docs/
spread.md); a rebuild elsewhere may count ROME's edits differently. The spread of a whole rebuild
(``lessons/l06_locating_and_editing/spread.py``, ``WHOLE_CURVES``) is not yet measured.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments import edit_measures, edit_methods, edit_sweep, fact_edits
from course_lib.core.experiments.edit_measures import METRICS
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.i18n import N_
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l06_locating_and_editing.experiments import editing
from course_lib.lessons.l06_locating_and_editing.experiments.matching import (
    CLOSE,
    TARGET,
    bounded,
    fine_tuning,
    linear,
    prompts_of,
    read_rows,
)

FILE = DATA / "edit_curves.npz"
CAP = 1000  # v*'s search: at most this many Adam steps
CHECKPOINTS = (10, 30, 100, 300, CAP)
ROME_CONVERGED = replace(edit_methods.ROME, steps=CAP, stop_below=0.05, keep_best=True)
FT_RATE = 3e-4  # fine-tuning's learning rate here: a step moves p(new) by a few hundredths

RANK_ONE, ROME_SITE, PLAIN_SUBJECT = (
    edit_sweep.RANK_ONE,
    edit_sweep.ROME_SITE,
    edit_sweep.PLAIN_SUBJECT,
)
FILLER_C = N_("rank-one, layer 1, last word, C from filler")
COURSE_KN = N_("knowledge neurons, the course's edit")
MENG_KN = N_("knowledge neurons, Meng et al.'s edit")
FINE_TUNING, BOUNDED = edit_sweep.FINE_TUNING, edit_sweep.BOUNDED

SCALES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.5, 2.0, 3.0)


@dataclass(frozen=True)
class Method:
    """An edit and the grid of its knob, weakest first (its first strength leaves the model as
    trained)."""

    name: str
    knob: str
    grid: tuple[float, ...]


METHODS = (
    Method(RANK_ONE, N_("scale of the update"), SCALES),
    Method(ROME_SITE, N_("scale of the update"), SCALES),
    Method(PLAIN_SUBJECT, N_("scale of the update"), SCALES),
    Method(FILLER_C, N_("scale of the update"), SCALES),
    Method(COURSE_KN, N_("λ"), (0, 0.025, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.3, 0.5, 1, 2, 3)),
    Method(MENG_KN, N_("multiple"), (0, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2)),
    Method(FINE_TUNING, N_("Adam steps"), tuple(range(0, 65, 5)) + (80, 100)),
    Method(
        BOUNDED,
        N_("L∞ bound ε"),
        (0, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01, 0.015, 0.02, 0.05),
    ),  # fmt: skip
)
BY_NAME = {m.name: m for m in METHODS}
# where each rank-one edit writes: (layer, position, its v* search, k* averaged)
SITES = {RANK_ONE: (1, "last", fact_edits.CONVERGED, False),
         ROME_SITE: (0, "subject", ROME_CONVERGED, True),
         PLAIN_SUBJECT: (0, "subject", fact_edits.CONVERGED, False)}  # fmt: skip
FT_LAYER = edit_sweep.FT_LAYER


@dataclass(frozen=True)
class Curves:
    """Every edit along every method's grid, ``curves[method]`` (edits, grid, len(METRICS));
    read where p(new) reaches ``TARGET``, ``matched[method]`` (edits, len(METRICS)), NaN where
    it never does, with the knob's value there and the bracket's final width in p(new),
    ``knob[method]`` and ``width[method]`` (edits,); each v* search's steps, loss and whether it
    stopped below 0.05, ``search[site]`` {"steps", "loss", "stopped"} (edits,) each, and at each
    checkpoint its full update measured, ``checkpoint[site]`` (checkpoints, edits,
    len(METRICS)); and the edits, (fact, new answer)."""

    curves: dict[str, np.ndarray]
    matched: dict[str, np.ndarray]
    knob: dict[str, np.ndarray]
    width: dict[str, np.ndarray]
    search: dict[str, dict[str, np.ndarray]]
    checkpoint: dict[str, np.ndarray]
    edits: tuple[tuple[int, str], ...]


def _positions(corpus: Corpus, edits, where: str) -> torch.Tensor:
    last = corpus.prompts()[0].shape[1] - 1
    return torch.tensor([last if where == "last" else corpus.facts[f].subject_positions[-1]
                         for f, _ in edits])  # fmt: skip


def _searches(model, corpus, edits) -> dict[str, fact_edits.ValueSearch]:
    """Every site's v* for every edit, to the stopping rule, with the checkpoints."""
    prompts, answers = prompts_of(corpus, edits)
    others = torch.stack([edit_methods.other_prompts(corpus, fact) for fact, _ in edits])
    return {
        site: fact_edits.target_values(
            model,
            prompts,
            answers,
            layer,
            _positions(corpus, edits, where),
            recipe,
            others if recipe.kl else None,
            CHECKPOINTS,
        )  # fmt: skip
        for site, (layer, where, recipe, _) in SITES.items()
    }


def _site_changes(model, corpus, edits, site, values: torch.Tensor, C) -> list[dict]:
    layer, where, _, averaged = SITES[site]
    positions = _positions(corpus, edits, where)
    return [{layer: edit_methods.rank_one_change(model, corpus, fact, layer, int(positions[i]),
                                                 values[i], C, averaged)}
            for i, (fact, _) in enumerate(edits)]  # fmt: skip


# ---- the whole comparison


def curves(model: LanguageModel, corpus: Corpus, edits: Sequence[tuple[int, str]]) -> Curves:
    """Every method of ``METHODS`` along its grid for each of ``edits`` (fact, new answer), and
    each read where its p(new) reaches ``TARGET``; every site's v* search, its checkpoints'
    edits measured at their full update."""
    edits = tuple(edits)
    out: dict[str, dict] = {"curves": {}, "matched": {}, "knob": {}, "width": {}}

    def keep(name, result):
        for key, value in zip(("curves", "matched", "knob", "width"), result, strict=True):
            out[key][name] = value

    with torch_threads(1):
        found = _searches(model, corpus, edits)
        C = {layer: fact_edits.key_covariance(model, corpus, layer) for layer in (0, 1)}
        filler = fact_edits.key_covariance(model, corpus, 1, facts=False)
        checkpoint = {}
        for site, search in found.items():
            layer = SITES[site][0]
            checkpoint[site] = np.stack([
                read_rows(model, corpus, edits, _rows(_site_changes(model, corpus, edits, site,
                                                                search.checkpoints[c], C[layer])),
                      False)
                for c in CHECKPOINTS])  # fmt: skip
            base = _site_changes(model, corpus, edits, site, search.values, C[layer])
            keep(site, linear(model, corpus, edits, base, SCALES))
        base = _site_changes(model, corpus, edits, RANK_ONE, found[RANK_ONE].values, filler)
        keep(FILLER_C, linear(model, corpus, edits, base, SCALES))
        scores = attributions(model, corpus)
        for name, form in ((COURSE_KN, edit_methods.COURSE_NEURONS),
                           (MENG_KN, edit_methods.MENG_NEURONS)):  # fmt: skip
            base = [edit_methods.neuron_form_change(model, corpus, fact, new, form, scores)
                    for fact, new in edits]  # fmt: skip
            keep(name, linear(model, corpus, edits, base, BY_NAME[name].grid))
        keep(
            FINE_TUNING,
            fine_tuning(model, corpus, edits, BY_NAME[FINE_TUNING].grid, FT_LAYER, FT_RATE),
        )
        keep(BOUNDED, bounded(model, corpus, edits, BY_NAME[BOUNDED].grid, FT_LAYER))
    search = {site: {"steps": s.steps, "loss": s.loss, "stopped": s.stopped}
              for site, s in found.items()}  # fmt: skip
    return Curves(**out, search=search, checkpoint=checkpoint, edits=edits)


def _rows(changes: list[dict]) -> Callable[[Sequence[int]], dict]:
    """A ``read_rows`` change function from one change per edit ({layer: (d_model, d_ff)})."""
    return lambda rows: {layer: torch.stack([changes[r][layer] for r in rows])
                         for layer in changes[0]}  # fmt: skip


def all_edits(corpus: Corpus) -> tuple[tuple[int, str], ...]:
    """Every fact rewritten to each of ``edit_sweep.TARGETS`` other answers (144 edits)."""
    return tuple((fact, fact_edits.new_answer(corpus, fact, shift))
                 for fact in range(len(corpus.facts)) for shift in range(edit_sweep.TARGETS))  # fmt: skip


# ---- reading the result


def reaching(result: Curves, method: str) -> np.ndarray:
    """Which edits reach p(new) = ``TARGET`` along the method's knob: (edits,) bool."""
    return ~np.isnan(result.matched[method][:, METRICS.index("p(new)")])


def mean_curve(result: Curves, method: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A method along its grid: the mean p(new), and CounterFact's NS and PS (percent), (grid,)
    each."""
    rows = result.curves[method]
    scores = [edit_measures.counterfact(rows[:, j]) for j in range(rows.shape[1])]
    p_new = rows[..., METRICS.index("p(new)")].mean(axis=0)
    return p_new, np.array([s["NS"] for s in scores]), np.array([s["PS"] for s in scores])


def at_score(result: Curves, method: str, score: str, value: float) -> dict[str, float]:
    """CounterFact's scores of a method where its ``score`` (ES, PS or NS, over all edits) first
    reaches ``value`` along its grid, each interpolated linearly between the two grid strengths
    that bracket it; the knob's value there under "knob"."""
    rows, grid = result.curves[method], np.array(BY_NAME[method].grid)
    scores = [edit_measures.counterfact(rows[:, j]) for j in range(len(grid))]
    curve = np.array([s[score] for s in scores])
    high = int(np.argmax(curve >= value))
    if curve[high] < value or high == 0:
        raise ValueError(f"value must be reached past the first strength of {method}, got {value}")
    t = (value - curve[high - 1]) / (curve[high] - curve[high - 1])
    out = {k: scores[high - 1][k] + t * (scores[high][k] - scores[high - 1][k]) for k in scores[0]}
    return out | {"knob": grid[high - 1] + t * (grid[high] - grid[high - 1])}


# ---- stored


FIELDS = ("curves", "matched", "knob", "width")


def save(result: Curves, path: Path = FILE) -> int:
    arrays = {f"{field}|{name}": value for field in FIELDS
              for name, value in getattr(result, field).items()}  # fmt: skip
    for site, found in result.search.items():
        arrays |= {f"search {key}|{site}": value for key, value in found.items()}
        arrays[f"checkpoint|{site}"] = result.checkpoint[site]
    arrays["facts"] = np.array([fact for fact, _ in result.edits])
    arrays["new"] = np.array([new for _, new in result.edits])
    arrays |= {f"grid|{m.name}": np.array(m.grid, dtype=float) for m in METHODS}
    return save_npz(path, arrays, {"metrics": METRICS, "target": TARGET, "checkpoints": CHECKPOINTS,
                                   "close": CLOSE, "cap": CAP})  # fmt: skip


@lru_cache(maxsize=1)
def stored(path: Path = FILE) -> Curves:
    """``curves`` of all 144 edits of the two-phrasing model, as stored."""
    module = "course_lib.lessons.l06_locating_and_editing.experiments.edit_curves"
    arrays, settings = load_npz(path, "edits along their knobs", module)
    grids = all(np.array_equal(arrays[f"grid|{m.name}"], m.grid) for m in METHODS)
    if settings["metrics"] != METRICS or settings["target"] != TARGET or not grids:
        raise ValueError(f"{path} holds other metrics, target or grids; rebuild it")
    fields = {field: {m.name: arrays[f"{field}|{m.name}"] for m in METHODS} for field in FIELDS}
    search = {site: {key: arrays[f"search {key}|{site}"] for key in ("steps", "loss", "stopped")}
              for site in SITES}  # fmt: skip
    checkpoint = {site: arrays[f"checkpoint|{site}"] for site in SITES}
    edits = tuple((int(f), str(w)) for f, w in zip(arrays["facts"], arrays["new"], strict=True))
    return Curves(**fields, search=search, checkpoint=checkpoint, edits=edits)


if (
    __name__ == "__main__"
):  # python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_curves
    begin = time.perf_counter()
    model, corpus = editing.paraphrased_model()
    edits = all_edits(corpus)
    if sys.argv[1:]:  # facts, for a look at a few
        edits = tuple(e for e in edits if e[0] in {int(a) for a in sys.argv[1:]})
    size = save(curves(model, corpus, edits))
    print(f"{size / 1024:.0f} KiB in {FILE}, {time.perf_counter() - begin:.0f} s")
