"""Edit in one language, ask in the other: three of lesson 6's edits (``METHODS``: the rank-one
edit at layer 1's last token, knowledge neurons, fine-tuning W2), each at its six strengths, made
with one language's prompt of a fact the model was taught in both languages and read in both.

Each edit rewrites the fact to another answer of its relation (``new_answer``) and is read, at
every strength, as ``MEASURES`` lists: p(new) and p(old) after the edited prompt and after the
other language's prompt (there with that language's words for the two answers); and, as the
baseline of an edit that reaches no fact in particular, the same relation's other facts taught in
the other language (their answer not the new one), the edit not asked to change them: their mean
p(new word) there, and the same in the edited language. An edit is built on the facts of its
relation alone (``relation_view``), where every prompt of a language has one length.

Sweeping 4 models x 2 languages x 12 facts takes about 3 minutes, so the results are stored:
``python -m course_lib.lessons.l09_two_languages.experiments.cross_edits`` remakes them (a test
remakes one fact's edits and compares).
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments import edit_sweep
from course_lib.core.experiments.fact_edits import key_covariance
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    LANGUAGES,
    WORDS,
    in_language,
    next_token,
    split_corpus,
    taught,
    taught_in,
)
from course_lib.lessons.l09_two_languages.experiments.bilingual_model import SEEDS, stored_model

METHODS = (edit_sweep.RANK_ONE, edit_sweep.NEURONS, edit_sweep.FINE_TUNING)
MEASURES = (
    "p(new)", "p(old)", "p(new), other language", "p(old), other language",
    "neighbours' p(new), other language", "neighbours' p(new), edited language",
)  # fmt: skip
FILE = DATA / "cross_edits.npz"
_MODULE = "course_lib.lessons.l09_two_languages.experiments.cross_edits"


def edited_facts(seed: int) -> np.ndarray:
    """The facts the split of ``seed`` teaches in both languages, the ones edited: (12,) indices."""
    return np.flatnonzero(taught(seed) == "both")


def new_answer(seed: int, fact: int) -> str:
    """The answer (lesson 5's English word) fact ``fact`` is rewritten to: the next answer of its
    relation, in sorted order, among those the model of ``seed`` knows in both languages (a
    capital only if its fact is taught in both; every colour, animal and food is in both
    languages' filler)."""
    facts = split_corpus(seed).facts
    target = facts[fact].english
    known = taught(seed) == "both" if target.relation == "capital" else np.ones(len(facts), bool)
    answers = sorted({f.english.answer for f, k in zip(facts, known, strict=True)
                      if k and f.english.relation == target.relation} - {target.answer})  # fmt: skip
    return answers[fact % len(answers)]


def relation_view(corpus: Corpus, fact: int, language: str) -> tuple[Corpus, int]:
    """The facts of ``fact``'s relation, stated in ``language`` (every prompt one length), and
    ``fact``'s index among them."""
    relation = corpus.facts[fact].english.relation
    index = [i for i, f in enumerate(corpus.facts) if f.english.relation == relation]
    view = in_language(corpus, language)
    return replace(view, facts=tuple(view.facts[i] for i in index)), index.index(fact)


def _word(english: str, language: str) -> str:
    """An answer's first token in ``language``."""
    return english if language == "en" else WORDS[english][0]


def _reading(model: LanguageModel, views: dict[str, Corpus]) -> dict[str, torch.Tensor]:
    return {lang: next_token(model, view) for lang, view in views.items()}


def sweep_fact(model: LanguageModel, seed: int, fact: int, language: str) -> dict[str, np.ndarray]:
    """Fact ``fact`` rewritten with its ``language`` prompt by each of ``METHODS`` at each
    strength: {method: (strengths, len(MEASURES))}, and the unedited model's reading under
    "before" (len(MEASURES),)."""
    corpus = split_corpus(seed)
    other = LANGUAGES[1 - LANGUAGES.index(language)]
    view, i = relation_view(corpus, fact, language)
    views = {lang: relation_view(corpus, fact, lang)[0] for lang in LANGUAGES}
    old, new = corpus.facts[fact].english.answer, new_answer(seed, fact)
    ids = {lang: view.encode([_word(old, lang), _word(new, lang)]) for lang in LANGUAGES}
    members = [j for j, f in enumerate(corpus.facts)
               if f.english.relation == corpus.facts[fact].english.relation]  # fmt: skip
    answers = [corpus.facts[j].english.answer for j in members]
    neighbours = {lang: [k for k, (j, a) in enumerate(zip(members, answers, strict=True))
                         if j != fact and a != new and taught_in(seed, lang)[j]]
                  for lang in LANGUAGES}  # fmt: skip

    def measure(m: LanguageModel) -> list[float]:
        p = _reading(m, views)
        (old_e, new_e), (old_o, new_o) = ids[language], ids[other]
        return [float(x) for x in (
            p[language][i, new_e], p[language][i, old_e], p[other][i, new_o], p[other][i, old_o],
            p[other][neighbours[other], new_o].mean(), p[language][neighbours[language], new_e].mean(),
        )]  # fmt: skip

    scores = attributions(model, view)
    C = {layer: key_covariance(model, corpus, layer) for layer in range(len(model.layers))}
    out = {name: [] for name in METHODS}
    for name, edited in edit_sweep.edited_models(
        model, view, i, _word(new, language), scores, C, set(METHODS)
    ):
        out[name].append(measure(edited))
    return {name: np.array(rows) for name, rows in out.items()} | {
        "before": np.array(measure(model))
    }


def sweep_all() -> dict[str, np.ndarray]:
    """Every model's edited facts (``edited_facts``), edited in each language:
    {"seed|language|method": (12, strengths, len(MEASURES)), "seed|language|before": (12,
    len(MEASURES))}."""
    out = {}
    with torch_threads(1):
        for seed in SEEDS:
            model = stored_model(seed)
            for language in LANGUAGES:
                start = time.perf_counter()
                rows = [sweep_fact(model, seed, int(f), language) for f in edited_facts(seed)]
                for key in (*METHODS, "before"):
                    out[f"{seed}|{language}|{key}"] = np.stack([r[key] for r in rows])
                print(f"seed {seed}, {language}: {time.perf_counter() - start:.0f} s", flush=True)
    return out


@lru_cache(maxsize=1)
def stored() -> dict[str, np.ndarray]:
    """The stored sweep, read once; callers read it, never write it."""
    arrays, settings = load_npz(FILE, "sweep of edits across languages", _MODULE)
    if settings["measures"] != MEASURES or settings["methods"] != METHODS:
        raise ValueError(f"{FILE} holds other measures or methods than this module's; rebuild it "
                         f"with python -m {_MODULE}")  # fmt: skip
    return arrays


def results(method: str, language: str) -> np.ndarray:
    """One method's edits made in ``language``, every seed: (seeds, 12, strengths, MEASURES)."""
    return np.stack([stored()[f"{seed}|{language}|{method}"] for seed in SEEDS])


def before(language: str) -> np.ndarray:
    """The models' readings before the edits made in ``language``: (seeds, 12, MEASURES)."""
    return np.stack([stored()[f"{seed}|{language}|before"] for seed in SEEDS])


def column(rows: np.ndarray, measure: str) -> np.ndarray:
    return rows[..., MEASURES.index(measure)]


def file_path() -> Path:
    return FILE


if __name__ == "__main__":
    start = time.perf_counter()
    size = save_npz(FILE, sweep_all(), {"measures": MEASURES, "methods": METHODS, "seeds": SEEDS})
    print(f"{time.perf_counter() - start:.0f} s; {size / 1e3:.0f} kB in {FILE}")
