"""The experiment that decides: a fact taught in one language, asked in the other.

Each model's split (``bilingual.taught``) teaches a quarter of the facts in both languages, a
quarter in English only, a quarter in Chinese only and leaves a quarter untaught. A fact asked in
the language it was never taught answers in that language's own word, so "transfer" is measured
against what the model says of a fact it was never taught at all, asked in the same language: its
guess among the relation's answers. Over the four seeds each fact is taught each way once, so each
fact is its own control: taught only in the other language against never taught, asked in the same
language, in two different models (``paired``).

Only the three relations whose answers both languages use everywhere (colour, animal, food) are
asked: a capital's Chinese name occurs only in the lines that state it, so a capital taught in
English only has no Chinese name anywhere in the corpus (with the dictionary it has, but the
comparison is kept on the same facts).

The positive control asks the same of something a model of this size can carry over: two phrasings
of one language ("the colour of tumen is", "in tumen the colour is"), each fact taught in both, in
the first only, in the second only or in neither, the same rotation. ``python -m
course_lib.lessons.l09_two_languages.experiments.transfer`` retrains its four stored models (about
3 minutes each, one thread); a test retrains the first steps of one and compares.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core._validate import choice as one_of
from course_lib.core.experiments.facts import ANIMALS, COLOURS, FOODS, Corpus, Fact, make_corpus
from course_lib.core.experiments.memory import (
    build_model,
    save_model,
    stored_weights,
    train_language_model,
)
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.model.language_model import LanguageModel
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    CAPITALS,
    LANGUAGES,
    WORDS,
    StatedFact,
    answer_ids,
    in_language,
    next_token,
    split_corpus,
    taught,
)
from course_lib.lessons.l09_two_languages.experiments.bilingual_model import (
    SEEDS,
    settings_of,
    stored_model,
)

SHARED = ("colour", "animal", "food")  # relations whose answers occur in both languages' lines
MEASURES = ("top-1", "p(answer)", "rank")  # rank: among the relation's answers, 1 the highest
# How the fact was taught, seen from the language it is asked in
WAYS = ("taught here", "taught only in the other", "never taught")


@dataclass(frozen=True)
class Asked:
    """Every fact asked in one language of one model: whether its answer is the top token, its
    probability, and its rank among the answers of its relation in that language (1: the
    highest; 8 answers for colour, animal and food), (48,) each."""

    top1: np.ndarray
    p: np.ndarray
    rank: np.ndarray

    def measure(self, name: str) -> np.ndarray:
        return {"top-1": self.top1, "p(answer)": self.p, "rank": self.rank}[name]


def relation_answers(corpus: Corpus, language: str) -> dict[str, list[int]]:
    """Each relation's answers as ``language`` answers them, the token ids of their first tokens:
    the 12 capitals and the 8 colours, animals and foods, {relation: [id, ...]}."""
    words = {"capital": tuple(CAPITALS), "colour": COLOURS, "animal": ANIMALS, "food": FOODS}
    first = {"en": lambda w: w, "zh": lambda w: WORDS[w][0]}[one_of("language", language,
                                                                   LANGUAGES)]  # fmt: skip
    return {relation: corpus.encode([first(w) for w in ws]) for relation, ws in words.items()}


def ask(model: LanguageModel, corpus: Corpus, language: str) -> Asked:
    """Every fact of ``corpus`` asked after its prompt, in ``language``'s words (``Asked``)."""
    p = next_token(model, corpus)  # (facts, vocab)
    answers = answer_ids(corpus)
    candidates = relation_answers(corpus, language)
    rows = np.arange(len(answers))
    relations = [_relation(f) for f in corpus.facts]
    rank = np.array([int((p[i, candidates[r]] > p[i, answers[i]]).sum()) + 1
                     for i, r in enumerate(relations)])  # fmt: skip
    return Asked(p.argmax(-1).numpy() == answers, p[rows, answers].numpy(), rank)


def _relation(fact: Fact) -> str:
    """The fact's relation in lesson 5's English word."""
    return fact.english.relation if isinstance(fact, StatedFact) else fact.relation


def ways_seen_from(seed: int, language: str) -> np.ndarray:
    """How the split of ``seed`` taught each fact, seen from ``language``: one of ``WAYS`` per
    fact, (48,)."""
    way = taught(seed)
    other = LANGUAGES[1 - LANGUAGES.index(one_of("language", language, LANGUAGES))]
    return np.where(np.isin(way, ("both", language)), WAYS[0],
                    np.where(way == other, WAYS[1], WAYS[2]))  # fmt: skip


def shared_facts() -> np.ndarray:
    """Which of the 48 facts belong to ``SHARED``'s relations: (48,) bool."""
    return np.array([f.relation in SHARED for f in make_corpus(0).facts])


# ---- the bilingual models: every fact asked in both languages, every seed


@lru_cache(maxsize=2)
def bilingual_answers(dictionary: bool = False) -> dict[tuple[int, str], Asked]:
    """Every stored model (without or with the dictionary) asked every fact in both languages:
    {(seed, language): Asked}."""
    out = {}
    for seed in SEEDS:
        model, corpus = stored_model(seed, dictionary), split_corpus(seed, dictionary)
        for language in LANGUAGES:
            out[seed, language] = ask(model, in_language(corpus, language), language)
    return out


@dataclass(frozen=True)
class Transfer:
    """One measure of the shared relations' facts, by how they were taught. ``by_way``: for each
    of ``WAYS``, the mean over the (fact, language) pairs of the fact's measure asked in that
    language (averaged over the seeds that taught it that way) and its 95 % bootstrap interval;
    ``difference``: each pair's measure when taught only in the other language minus when never
    taught (two models, the same question), its mean and 95 % bootstrap interval. The bootstrap
    resamples facts, a fact's two languages together. ``pairs``: how many pairs."""

    measure: str
    by_way: dict[str, tuple[float, float, float]]  # way -> (mean, low, high)
    difference: tuple[float, float, float]
    pairs: int


def _bootstrap(values: np.ndarray, picks: np.ndarray) -> tuple[float, float, float]:
    """The mean of ``values`` (items, ...) and the 2.5th and 97.5th percentiles of its mean over
    ``picks`` (draws, items), rows of resampled items."""
    means = values[picks].reshape(len(picks), -1).mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(values.mean()), float(low), float(high)


DRAWS = 20_000  # bootstrap draws: with 2,000 a rank bound moved by 0.03 with the draws


def mean_interval(values, draws: int = DRAWS, seed: int = 0) -> tuple[float, float, float]:
    """The mean of ``values`` (items, ...) and its 95 % bootstrap interval, the items (rows)
    resampled ``draws`` times by a local generator seeded ``seed``: (mean, low, high)."""
    values = np.asarray(values, dtype=float)
    picks = np.random.default_rng(seed).integers(len(values), size=(draws, len(values)))
    return _bootstrap(values, picks)


def paired(answers: dict[tuple[int, str], Asked], ways: dict[tuple[int, str], np.ndarray],
           measure: str, draws: int = DRAWS, seed: int = 0) -> Transfer:  # fmt: skip
    """``Transfer`` of ``measure`` from ``answers`` {(seed, language): Asked} and how each fact
    was taught seen from that language, ``ways`` {(seed, language): (48,)}."""
    one_of("measure", measure, MEASURES)
    keep = shared_facts()
    languages = sorted({lang for _, lang in answers})
    total = {way: np.zeros((len(keep), len(languages))) for way in WAYS}
    count = {way: np.zeros((len(keep), len(languages))) for way in WAYS}
    for (s, lang), asked in answers.items():
        column = languages.index(lang)
        for way in WAYS:
            here = ways[s, lang] == way
            total[way][here, column] += asked.measure(measure)[here]
            count[way][here, column] += 1
    if any((count[way][keep] == 0).any() for way in WAYS):
        raise ValueError("answers must ask every fact every way in every language (all seeds)")
    value = {way: (total[way] / np.maximum(count[way], 1))[keep] for way in WAYS}
    picks = np.random.default_rng(seed).integers(int(keep.sum()), size=(draws, int(keep.sum())))
    return Transfer(
        measure=measure,
        by_way={way: _bootstrap(v, picks) for way, v in value.items()},
        difference=_bootstrap(value[WAYS[1]] - value[WAYS[2]], picks),
        pairs=int(value[WAYS[1]].size),
    )


def per_model_difference(answers: dict[tuple[int, str], Asked], seed: int,
                         measure: str = "top-1") -> float:  # fmt: skip
    """One model's difference of ``measure``, facts taught only in the other language minus facts
    never taught, each the mean over the shared facts (``shared_facts``) asked in one language,
    then the mean over the languages: the spread between models the fact bootstrap leaves out."""
    one_of("measure", measure, MEASURES)
    keep, out = shared_facts(), []
    for lang in sorted({lang for s, lang in answers if s == seed}):
        ways, value = ways_seen_from(seed, lang), answers[seed, lang].measure(measure)
        out.append(value[keep & (ways == WAYS[1])].mean() - value[keep & (ways == WAYS[2])].mean())
    if not out:
        raise ValueError(f"seed must be a seed the answers hold, got {seed!r}")
    return float(np.mean(out))


def bilingual_transfer(measure: str, dictionary: bool = False) -> Transfer:
    """``paired`` over the stored bilingual models, without or with the dictionary."""
    answers = bilingual_answers(dictionary)
    ways = {(s, lang): ways_seen_from(s, lang) for s, lang in answers}
    return paired(answers, ways, measure)


# ---- the positive control: two phrasings of one language, the same split

PHRASINGS = ("first", "second")  # "the colour of tumen is", "in tumen the colour is"


def phrasing_corpus(seed: int) -> Corpus:
    """Lesson 6's corpus (each fact in two English phrasings, as much filler) without the
    statements the split of ``seed`` does not teach: "en" of the split is the first phrasing,
    "zh" the second."""
    full = make_corpus(0, paraphrases=True)
    way = taught(seed)
    dropped = {f.sentence for f, w in zip(full.facts, way, strict=True) if w in ("zh", "none")}
    dropped |= {f.paraphrased_sentence for f, w in zip(full.facts, way, strict=True)
                if w in ("en", "none")}  # fmt: skip
    return replace(full, lines=tuple(line for line in full.lines if line not in dropped))


def phrasing_file(seed: int) -> Path:
    return DATA / f"phrasings_lm_{seed}.npz"


def train_phrasings(seed: int) -> tuple[LanguageModel, np.ndarray]:
    """The two-phrasing model of ``seed`` and its loss curve (steps,), lesson 5's recipe."""
    return train_language_model(settings_of(seed), corpus=phrasing_corpus(seed))


@lru_cache(maxsize=len(SEEDS))
def stored_phrasings(seed: int = 0) -> LanguageModel:
    """The stored two-phrasing model of ``seed`` (float64, eval mode), loaded once."""
    path = phrasing_file(settings_of(seed).seed)
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing; rebuild it with python -m "
                                "course_lib.lessons.l09_two_languages.experiments.transfer")  # fmt: skip
    model = build_model(settings_of(seed), len(phrasing_corpus(seed).vocabulary))
    model.load_state_dict({k: torch.from_numpy(v) for k, v in stored_weights(path).items()})
    return model.eval()


@dataclass(frozen=True)
class SecondPhrasing(Fact):
    """A fact asked with its second phrasing, "in tumen the colour is"."""

    @property
    def prompt(self) -> tuple[str, ...]:
        return self.paraphrase


@lru_cache(maxsize=1)
def phrasing_answers() -> dict[tuple[int, str], Asked]:
    """Every stored two-phrasing model asked every fact in both phrasings, keyed as the
    bilingual models' ("en": the first phrasing, "zh": the second)."""
    out = {}
    for seed in SEEDS:
        model, corpus = stored_phrasings(seed), phrasing_corpus(seed)
        second = replace(
            corpus, facts=tuple(SecondPhrasing(*vars(f).values()) for f in corpus.facts)
        )
        out[seed, "en"], out[seed, "zh"] = ask(model, corpus, "en"), ask(model, second, "en")
    return out


def phrasing_transfer(measure: str) -> Transfer:
    """``paired`` over the two-phrasing models: a fact taught in one phrasing, asked in the
    other."""
    answers = phrasing_answers()
    ways = {(s, lang): ways_seen_from(s, lang) for s, lang in answers}
    return paired(answers, ways, measure)


if __name__ == "__main__":
    for seed in [int(s) for s in sys.argv[1:]] or SEEDS:
        start = time.perf_counter()
        model, curve = train_phrasings(seed)
        size = save_model(model, settings_of(seed), curve, phrasing_file(seed))
        print(f"seed {seed}: {time.perf_counter() - start:.0f} s, loss {curve[-1]:.3f}, "
              f"{size / 1e3:.0f} kB in {phrasing_file(seed).name}", flush=True)  # fmt: skip
