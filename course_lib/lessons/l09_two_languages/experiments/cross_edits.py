"""Trace and edit across languages: causal tracing of each language's prompts, and every edit of
lesson 6 (``edit_sweep.METHODS``, each at its six strengths) made with one language's prompt and
asked in both.

An edit made in English is measured by ``edit_measures.measure`` on the corpus whose facts are
stated in English, so its "paraphrase" is the Chinese prompt, read with the Chinese words of the
old and the new answer: CounterFact's paraphrase score there is the edit's reach into the other
language. Each fact is rewritten to one other answer of its relation (``fact_edits.new_answer``
in the edited language's words), in each model (three seeds, without and with the
dictionary).

Sweeping 6 models x 2 directions x 48 facts takes about 20 minutes, so the results are stored:
``python -m course_lib.lessons.l09_two_languages.experiments.cross_edits`` remakes them (a test
remakes one fact's edits and compares).
"""

from __future__ import annotations

import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments import edit_measures, edit_sweep
from course_lib.core.experiments.edit_measures import METRICS
from course_lib.core.experiments.fact_edits import key_covariance, new_answer
from course_lib.core.experiments.memory import attributions
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.experiments.tracing import Trace, causal_trace
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    LANGUAGES,
    bilingual_corpus,
    in_language,
)
from course_lib.lessons.l09_two_languages.experiments.bilingual_model import SEEDS, stored_model

VARIANTS = (False, True)  # without and with the dictionary


def edits_file(dictionary: bool) -> Path:
    return DATA / f"cross_edits{'_dictionary' if dictionary else ''}.npz"


def trace(model: LanguageModel, language: str, dictionary: bool = False) -> Trace:
    """Causal tracing of the FFN's output for every fact asked in ``language``: the subject's
    tokens corrupted, one layer's FFN output at one position restored."""
    return causal_trace(
        model, in_language(bilingual_corpus(dictionary=dictionary), language), "ffn"
    )


def sweep(
    model: LanguageModel, language: str, dictionary: bool = False, facts=None
) -> edit_sweep.Sweep:
    """Every fact (or ``facts``) rewritten with its ``language`` prompt by every method of lesson 6
    at every strength; its paraphrase is the other language."""
    corpus = in_language(bilingual_corpus(dictionary=dictionary), language)
    return edit_sweep.sweep_edits(model, corpus, facts, answers=1)


def _key(dictionary: bool, seed: int, language: str, method: str) -> str:
    return f"{'dictionary' if dictionary else 'plain'}|{seed}|{language}|{method}"


def sweep_all(dictionary: bool) -> dict[str, np.ndarray]:
    """Every seed's sweep in both directions: {key: (48, strengths, len(METRICS))}, and each
    model's p(new) and p(old) before the edit under "before|..." (48, 4)."""
    out = {}
    for seed in SEEDS:
        model = stored_model(seed, dictionary)
        for language in LANGUAGES:
            start = time.perf_counter()
            result = sweep(model, language, dictionary)
            for method, rows in result.results.items():
                out[_key(dictionary, seed, language, method)] = rows
            out["before|" + _key(dictionary, seed, language, "")] = result.before
            print(f"seed {seed}, {language}: {time.perf_counter() - start:.0f} s", flush=True)
    return out


def save(results: dict[str, np.ndarray], path: Path) -> int:
    methods = tuple(m.name for m in edit_sweep.METHODS)
    return save_npz(path, results, {"metrics": METRICS, "methods": methods, "seeds": SEEDS})


@lru_cache(maxsize=2)
def stored(path: Path) -> dict[str, np.ndarray]:
    """The stored sweeps of one file, read once; callers read them, never write them."""
    module = "course_lib.lessons.l09_two_languages.experiments.cross_edits"
    arrays, settings = load_npz(path, "sweep of cross-lingual edits", module)
    if settings["metrics"] != METRICS:
        raise ValueError(f"{path} holds other metrics than edit_measures.METRICS; rebuild it")
    return arrays


def results(method: str, language: str, dictionary: bool = False) -> np.ndarray:
    """One method's edits made in ``language``, every seed: (seeds, 48, strengths, METRICS)."""
    data = stored(edits_file(dictionary))
    return np.stack([data[_key(dictionary, seed, language, method)] for seed in SEEDS])


def before(language: str, dictionary: bool = False) -> np.ndarray:
    """Each model's reading before any edit made in ``language``, every seed: (seeds, 48,
    len(edit_sweep.BEFORE)): p(new) and p(old) after the edited prompt, then after the other
    language's."""
    data = stored(edits_file(dictionary))
    return np.stack([data["before|" + _key(dictionary, seed, language, "")] for seed in SEEDS])


def column(rows: np.ndarray, metric: str) -> np.ndarray:
    return rows[..., METRICS.index(metric)]


# ---- the control the sweep lacks: what an edit does to the facts it was not asked to change

CONTROL_METHODS = (edit_sweep.RANK_ONE, edit_sweep.NEURONS, edit_sweep.FINE_TUNING)
CONTROL_MEASURES = ("other facts' p(answer), same language", "other facts' p(answer), other "
                    "language", "relation's other facts answering the new word, other language")  # fmt: skip


def control_file() -> Path:
    return DATA / "cross_edits_control.npz"


def control_sweep(model: LanguageModel, language: str, facts=None) -> dict[str, np.ndarray]:
    """Every fact (or ``facts``) rewritten with its ``language`` prompt to the sweep's new answer
    by each of ``CONTROL_METHODS`` at each strength, as ``sweep`` makes the edits, and measured
    on the facts it was not asked to change: each of ``CONTROL_MEASURES`` (the mean change of
    the other facts' p(answer) after their prompt in the edited language and in the other
    language; the share of the relation's other facts, those whose answer is not the new one,
    whose other-language prompt now gives the new answer's word), {method: (facts, strengths,
    3)}."""
    corpus = in_language(bilingual_corpus(), language)
    n = len(corpus.facts)
    facts = range(n) if facts is None else facts
    scores = attributions(model, corpus)
    C = {layer: key_covariance(model, corpus, layer) for layer in range(len(model.layers))}
    answers = [corpus.prompts(paraphrased)[1] for paraphrased in (False, True)]
    rows = torch.arange(n)

    def reading(m: LanguageModel) -> tuple[torch.Tensor, torch.Tensor]:
        p = edit_measures.read(m, corpus)[0]
        return p[:n][rows, answers[0]], p[n:]  # own answers (edited language); other language

    base_own, base_other = reading(model)
    out = {name: [] for name in CONTROL_METHODS}
    with torch_threads(1):
        for fact in facts:
            new = new_answer(corpus, fact)
            new_word = edit_measures.answer_ids(corpus, fact, new)[3]  # in the other language
            others = rows != fact
            relation = torch.tensor([f.relation == corpus.facts[fact].relation and i != fact
                                     and f.answer != new for i, f in enumerate(corpus.facts)])  # fmt: skip
            grid = {name: [] for name in CONTROL_METHODS}
            for name, edited in edit_sweep.edited_models(
                model, corpus, fact, new, scores, C, set(CONTROL_METHODS)
            ):
                own, other = reading(edited)
                grid[name].append([
                    float((own - base_own)[others].mean()),
                    float((other[rows, answers[1]] - base_other[rows, answers[1]])[others].mean()),
                    float((other[relation].argmax(-1) == new_word).double().mean()),
                ])  # fmt: skip
            for name in CONTROL_METHODS:
                out[name].append(grid[name])
    return {name: np.array(v) for name, v in out.items()}


def control_all() -> dict[str, np.ndarray]:
    """``control_sweep`` of every seed's model (no dictionary), both directions:
    {"seed|language|method": (48, strengths, 3)}."""
    out = {}
    for seed in SEEDS:
        for language in LANGUAGES:
            start = time.perf_counter()
            for method, rows in control_sweep(stored_model(seed), language).items():
                out[_key(False, seed, language, method)] = rows
            print(f"seed {seed}, {language}: {time.perf_counter() - start:.0f} s", flush=True)
    return out


@lru_cache(maxsize=1)
def stored_control() -> dict[str, np.ndarray]:
    """The stored ``control_all``, read once; callers read it, never write it."""
    module = "course_lib.lessons.l09_two_languages.experiments.cross_edits control"
    arrays, settings = load_npz(control_file(), "control of cross-lingual edits", module)
    if settings["measures"] != CONTROL_MEASURES:
        raise ValueError(f"{control_file()} holds other measures than CONTROL_MEASURES; rebuild it")
    return arrays


def control(method: str, language: str) -> np.ndarray:
    """One method's edits made in ``language``, measured on the other facts, every seed: (seeds,
    48, strengths, len(CONTROL_MEASURES))."""
    data = stored_control()
    return np.stack([data[_key(False, seed, language, method)] for seed in SEEDS])


if __name__ == "__main__":  # [dictionary]: the models trained with the dictionary; control: the
    # other facts' readings (``control_all``)
    start = time.perf_counter()
    if "control" in sys.argv[1:]:
        size = save_npz(control_file(), control_all(), {"measures": CONTROL_MEASURES,
                                                         "seeds": SEEDS})  # fmt: skip
        path = control_file()
    else:
        dictionary = "dictionary" in sys.argv[1:]
        size, path = save(sweep_all(dictionary), edits_file(dictionary)), edits_file(dictionary)
    print(f"{time.perf_counter() - start:.0f} s; {size / 1e3:.0f} kB in {path}")
