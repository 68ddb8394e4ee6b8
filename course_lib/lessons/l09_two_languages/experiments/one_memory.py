"""One memory or two: do the same FFN units carry a fact asked in English and in Chinese?

Each fact's units are ranked by lesson 5's attribution (``memory.attributions``: p(answer) as
trained minus p(answer) with the one unit zeroed at the prompt's last word), once for the English
prompt and once for the Chinese. Compared: the top units' overlap for the same fact, for two
different facts and by chance; what erasing one language's top units does to the other language's
answer; and which units fire in one language only (Tang et al. 2024's language activation
probability entropy, LAPE, and their perplexity test).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core._validate import choice as one_of
from course_lib.core._validate import positive_int
from course_lib.core.experiments.edit_measures import neighbours
from course_lib.core.experiments.facts import Corpus, Fact
from course_lib.core.experiments.memory import attributions, corpus_of, load_model
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.model.language_model import HiddenEdit, LanguageModel
from course_lib.lessons.l09_two_languages.experiments.bilingual import LANGUAGES, in_language

TOP = 10  # units per fact and language (of 2 x 256)
ACTIVE = 1e-4  # a unit fires above this: near 0 a ReLU unit's sign is the CPU's rounding


def top_units(scores: torch.Tensor, k: int = TOP) -> np.ndarray:
    """Each fact's ``k`` units of largest attribution, as flat indices layer * d_ff + unit:
    ``scores`` (facts, layers, d_ff) -> (facts, k)."""
    return scores.flatten(1).topk(positive_int("k", k)).indices.numpy()


def overlap_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a_i ∩ b_j| for every pair of facts: (facts, k) twice -> (facts, facts)."""
    return np.array([[len(set(x) & set(y)) for y in b] for x in a])


@dataclass(frozen=True)
class Overlap:
    """Shared top units: the same fact in both statements (facts,), two different facts (the mean
    over the other facts, (facts,)), of which the same relation, the same entity or the same
    answer (NaN for a fact whose answer no other fact has), what random units would share, the
    permutation p-value of the same-fact mean and the standard deviation of that mean over the
    permutations (the null): the resolution of the test."""

    same: np.ndarray
    different: np.ndarray
    same_relation: np.ndarray
    same_entity: np.ndarray
    same_answer: np.ndarray
    chance: float
    p_value: float
    null_sd: float

    @property
    def excess_bound(self) -> float:
        """How many more units the same fact could share than two different facts, at most, at
        95 % confidence: the measured excess plus 1.645 null standard deviations."""
        return float(self.same.mean() - self.different.mean() + 1.645 * self.null_sd)


def overlap(top_en: np.ndarray, top_zh: np.ndarray, corpus: Corpus, units: int) -> Overlap:
    """The shared top units of English and Chinese prompts (``top_units`` of each), against two
    different facts and against ``units`` drawn at random (k² / units expected)."""
    m = overlap_matrix(top_en, top_zh)
    n, k = m.shape[0], top_en.shape[1]
    off = ~np.eye(n, dtype=bool)
    facts = [getattr(f, "english", None) or f for f in corpus.facts]
    relation = np.array([[a.relation == b.relation for b in facts] for a in facts]) & off
    entity = np.array([[a.entity == b.entity for b in facts] for a in facts]) & off
    answer = np.array([[a.answer == b.answer for b in facts] for a in facts]) & off
    rng = np.random.default_rng(0)
    same = np.diag(m).astype(float)
    shuffled = [m[np.arange(n), rng.permutation(n)].mean() for _ in range(1000)]
    return Overlap(
        same=same,
        different=np.array([m[i, off[i]].mean() for i in range(n)]),
        same_relation=np.array([m[i, relation[i]].mean() for i in range(n)]),
        same_entity=np.array([m[i, entity[i]].mean() for i in range(n)]),
        same_answer=np.array(
            [m[i, answer[i]].mean() if answer[i].any() else np.nan for i in range(n)]
        ),  # fmt: skip
        chance=k * k / units,
        p_value=float((1 + sum(s >= same.mean() for s in shuffled)) / (1 + len(shuffled))),
        null_sd=float(np.std(shuffled)),
    )


def _answer(
    model: LanguageModel, prompts: torch.Tensor, answers: torch.Tensor, edit: HiddenEdit | None
) -> tuple[np.ndarray, np.ndarray]:
    """p(answer) after each prompt and whether it is the top word: (n,) each."""
    with torch.no_grad():
        p = model(prompts, edit)[:, -1].softmax(-1)
    return p[torch.arange(len(answers)), answers].numpy(), (p.argmax(-1) == answers).numpy()


def erased(
    model: LanguageModel, prompts: torch.Tensor, answers: torch.Tensor, chosen: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each fact's prompt (facts, L) with its ``chosen`` units (facts, k; flat indices) zeroed at
    the last word: p(answer) after / before - 1 and whether the answer (facts,) stays top-1,
    (facts,) each. One pass: row i of the batch erases row i's units only."""
    layer, unit = np.divmod(chosen, model.d_ff)  # (facts, k) each
    rows = np.repeat(np.arange(len(chosen)), chosen.shape[1]).reshape(chosen.shape)

    def erase(index: int, h: torch.Tensor) -> torch.Tensor:
        here = layer == index
        h = h.clone()
        h[rows[here], -1, unit[here]] = 0.0
        return h

    before, _ = _answer(model, prompts, answers, None)
    after, kept = _answer(model, prompts, answers, erase)
    return after / before - 1, kept


def other_fact(corpus: Corpus) -> np.ndarray:
    """For each fact, a control: the next entity's fact of the same relation, (facts,)."""
    facts = [getattr(f, "english", f) for f in corpus.facts]
    out = []
    for i, f in enumerate(facts):
        same = [j for j, g in enumerate(facts) if g.relation == f.relation]
        out.append(same[(same.index(i) + 1) % len(same)])
    return np.array(out)


def tops(model: LanguageModel, corpus: Corpus, k: int = TOP) -> dict[str, np.ndarray]:
    """Each language's top units per fact: {language: (facts, k)}."""
    return {
        lang: top_units(attributions(model, in_language(corpus, lang)), k) for lang in LANGUAGES
    }


# ---- units that fire in one language only (Tang et al. 2024)


def line_language(corpus: Corpus) -> np.ndarray:
    """Each line's language, 0 English, 1 Chinese (a Chinese line's words are characters):
    (lines,)."""
    return np.array([int(all(len(w) == 1 and w > "\u2e80" for w in line)) for line in corpus.lines])


def activation_probability(model: LanguageModel, corpus: Corpus) -> np.ndarray:
    """How often each unit fires (above ``ACTIVE``) on each language's tokens (<bos> and padding
    left out): (layers, d_ff, languages)."""
    tokens, language = corpus.tokens(), line_language(corpus)
    with torch.no_grad():
        fires = (model.ffn_hidden(tokens) > ACTIVE).double()  # (layers, lines, L, d_ff)
    real = (tokens != 0).double()
    real[:, 0] = 0
    out = []
    for lang in range(len(LANGUAGES)):
        mask = real * torch.from_numpy(language == lang).double()[:, None]
        out.append((fires * mask[None, :, :, None]).sum((1, 2)) / mask.sum())
    return torch.stack(out, -1).numpy()


def lape(probability: np.ndarray) -> np.ndarray:
    """Tang et al.'s language activation probability entropy: the entropy of each unit's
    activation probabilities normalised over the languages; 0 for a unit that fires in one
    language only, log 2 for one that fires equally in both. (..., languages) -> (...)."""
    share = probability / np.maximum(probability.sum(-1, keepdims=True), 1e-300)
    logs = np.log(np.where(share > 0, share, 1.0))
    return -(share * logs).sum(-1)


def language_specific(probability: np.ndarray, bottom: float = 0.01, floor: float = 0.95):
    """Tang et al.'s selection: among units whose largest activation probability is above the
    ``floor`` quantile of all units' probabilities, those in the lowest ``bottom`` of LAPE; each
    assigned to the languages where its probability is above that quantile. Returns
    {language: [(layer, unit), ...]}."""
    flat = probability.reshape(-1, probability.shape[-1])
    threshold = np.quantile(flat, floor)
    scores = lape(flat)
    eligible = np.flatnonzero(flat.max(-1) > threshold)
    count = max(1, round(bottom * len(flat)))
    chosen = eligible[np.argsort(scores[eligible], kind="stable")[:count]]
    d_ff = probability.shape[1]
    return {
        lang: [divmod(int(u), d_ff) for u in chosen if flat[u, i] > threshold]
        for i, lang in enumerate(LANGUAGES)
    }


def one_language_only(probability: np.ndarray, at_least: float = 0.01) -> np.ndarray:
    """Units that fire on at least ``at_least`` of one language's tokens and never on the other's,
    counted per layer: (layers, languages)."""
    p = probability
    return np.stack(
        [((p[..., i] >= at_least) & (p[..., 1 - i] == 0)).sum(-1) for i in range(2)], -1
    )


def language_losses(
    model: LanguageModel, corpus: Corpus, units: list[tuple[int, int]] | None = None
) -> np.ndarray:
    """Each language's next-token loss on its own lines, with ``units`` (layer, unit) zeroed at
    every position if given: (languages,). Tang et al. measure perplexity, exp(loss)."""
    tokens, language = corpus.tokens(), line_language(corpus)
    edit = None
    if units:

        def edit(index: int, h: torch.Tensor) -> torch.Tensor:
            chosen = [u for layer, u in units if layer == index]
            h = h.clone()
            h[..., chosen] = 0.0
            return h

    out = []
    with torch.no_grad():
        for lang in range(len(LANGUAGES)):
            rows = tokens[language == lang]
            logits = model(rows[:, :-1], edit)
            out.append(float(F.cross_entropy(logits.transpose(1, 2), rows[:, 1:], ignore_index=0)))
    return np.array(out)


def random_units_rise(
    model: LanguageModel,
    corpus: Corpus,
    count: int,
    language: str,
    draws: int = 100,
    seed: int = 0,
) -> np.ndarray:
    """The baseline of Tang et al.'s deactivation test: ``language``'s loss rise when ``count``
    units drawn at random from all of the FFNs' units are zeroed at every position, ``draws``
    times (draw i: the i-th ``rng.choice`` of a local generator seeded ``seed``), as
    ``language_losses`` measures it, several draws per forward pass: (draws,)."""
    rng = np.random.default_rng(seed)
    layers, d_ff = len(model.layers), model.d_ff
    keep = torch.ones(draws, layers, d_ff, dtype=torch.float64)
    for i in range(draws):
        layer, unit = np.divmod(rng.choice(layers * d_ff, count, replace=False), d_ff)
        keep[i, layer, unit] = 0.0
    lang = LANGUAGES.index(one_of("language", language, LANGUAGES))
    # each distinct line once, weighted by how often it occurs: the same mean, half the work
    rows, counts = torch.unique(
        corpus.tokens()[line_language(corpus) == lang], dim=0, return_counts=True
    )
    out = np.zeros(draws)
    for start in range(0, draws, 10):
        chunk = keep[start : start + 10]  # (c, layers, d_ff)
        mask = chunk.repeat_interleave(len(rows), dim=0)  # one per (draw, line)

        def edit(index: int, h: torch.Tensor, mask=mask) -> torch.Tensor:
            return h * mask[:, None, index]

        batch = rows.repeat(len(chunk), 1)
        with torch.no_grad():
            logits = model(batch[:, :-1], edit)
        target = batch[:, 1:]
        loss = F.cross_entropy(logits.transpose(1, 2), target, reduction="none")
        real = (target != 0).double() * counts.repeat(len(chunk)).double()[:, None]
        weighted = (loss * real).reshape(len(chunk), -1).sum(1)
        out[start : start + len(chunk)] = (weighted / real.reshape(len(chunk), -1).sum(1)).numpy()
    return out - language_losses(model, corpus)[lang]


# Tang et al.'s baseline for every stored model (three seeds, each language's selection): 500
# draws of random units (with 50, a p-value rested on a few lucky draws) take about 3 min, so they
# are stored; ``python -m
# course_lib.lessons.l09_two_languages.experiments.one_memory`` remakes them (a test remakes one
# selection's and compares).

RANDOM_DRAWS = 500
RANDOM_FILE = DATA / "bilingual_random_units.npz"
_MODULE = "course_lib.lessons.l09_two_languages.experiments.one_memory"


def random_baselines() -> dict[str, np.ndarray]:
    """For each stored model (no dictionary) and each language's units by Tang et al.'s rule,
    ``random_units_rise`` of as many random units, ``RANDOM_DRAWS`` draws, in each language (the
    same draws: one generator seeded alike): {"seed|selection's language|asked in": (draws,)},
    and the size of each selection under "count|seed|language"."""
    from course_lib.lessons.l09_two_languages.experiments.bilingual import bilingual_corpus
    from course_lib.lessons.l09_two_languages.experiments.bilingual_model import SEEDS, stored_model

    corpus, out = bilingual_corpus(), {}
    for seed in SEEDS:
        model = stored_model(seed)
        chosen = language_specific(activation_probability(model, corpus))
        for language, units in chosen.items():
            if units:
                out[f"count|{seed}|{language}"] = np.array(len(units))
                for asked in LANGUAGES:
                    out[f"{seed}|{language}|{asked}"] = random_units_rise(
                        model, corpus, len(units), asked, RANDOM_DRAWS
                    )
    return out


@lru_cache(maxsize=1)
def _stored_baselines() -> dict[str, np.ndarray]:
    arrays, settings = load_npz(RANDOM_FILE, "baseline of random units", _MODULE)
    if settings["draws"] != RANDOM_DRAWS:
        raise ValueError(f"{RANDOM_FILE} holds {settings['draws']} draws, not {RANDOM_DRAWS}; "
                         f"rebuild it with python -m {_MODULE}")  # fmt: skip
    return arrays


def stored_random_rise(
    seed: int, language: str, count: int, asked: str | None = None
) -> np.ndarray:
    """The stored ``random_units_rise`` of the model of ``seed`` (no dictionary) for ``count``
    random units, as ``random_baselines`` drew them for ``language``'s selection, measured on
    ``asked``'s lines (by default ``language``'s own): (draws,)."""
    key = f"{seed}|{one_of('language', language, LANGUAGES)}"
    asked = language if asked is None else one_of("asked", asked, LANGUAGES)
    arrays = _stored_baselines()
    if "count|" + key not in arrays:
        stored = sorted(k.removeprefix("count|") for k in arrays if k.startswith("count|"))
        raise ValueError(f"seed and language must name a stored selection, got {key!r}; "
                         f"stored: {stored}")  # fmt: skip
    if int(arrays["count|" + key]) != count:
        raise ValueError(f"count must be the stored selection's size "
                         f"{int(arrays['count|' + key])}, got {count}")  # fmt: skip
    return arrays[f"{key}|{asked}"].copy()


@dataclass(frozen=True)
class Subject:
    """How alike one layer reads an entity's two names, at the subject's last token: the mean
    cosine of its FFN hidden units between an English and a Chinese prompt about the same entity
    and about different entities; the permutation p-value of their gap (the entities' Chinese
    names shuffled)."""

    same: float
    different: float
    p_value: float

    @property
    def gap(self) -> float:
        return self.same - self.different


def subject_similarity(
    model: LanguageModel, corpus: Corpus, layer: int, draws: int = 1000
) -> Subject:
    """``Subject`` of ``layer`` over ``corpus``'s facts."""
    hidden = {}
    for language in LANGUAGES:
        view = in_language(corpus, language)
        prompts, _ = view.prompts()
        with torch.no_grad():
            h = model.ffn_hidden(prompts)[layer, :, view.facts[0].subject_positions[-1]]
        hidden[language] = F.normalize(h, dim=-1)
    across = (hidden["en"] @ hidden["zh"].T).numpy()
    entities = np.array([f.english.entity for f in corpus.facts])
    names = np.unique(entities)

    def gap(chinese: np.ndarray) -> float:
        same = entities[:, None] == chinese[None, :]
        return float(across[same].mean() - across[~same].mean())

    measured = gap(entities)
    rng = np.random.default_rng(0)
    shuffled = []
    for _ in range(draws):
        renamed = dict(zip(names, rng.permutation(names), strict=True))
        shuffled.append(gap(np.array([renamed[e] for e in entities])))
    same = entities[:, None] == entities[None, :]
    return Subject(
        same=float(across[same].mean()),
        different=float(across[~same].mean()),
        p_value=float((1 + sum(s >= measured for s in shuffled)) / (1 + draws)),
    )


@dataclass(frozen=True)
class Report:
    """One model's answer to "one memory or two?": the top units' overlap, each language's
    answer after erasing its own top units, the other language's top units of the same fact and
    of a control fact (mean change of p(answer), share still top-1), and the subject's hidden
    units' cosine across languages per layer (``Subject``); ``top``: each language's top units
    per fact, {language: (facts, k)} flat indices, as ``tops`` gives them."""

    overlap: Overlap
    erasures: dict[
        tuple[str, str], tuple[float, float]
    ]  # (asked in, whose units) -> (change, kept)
    subject: tuple[Subject, ...]  # per layer
    top: dict[str, np.ndarray]


def report(model: LanguageModel, corpus: Corpus, k: int = TOP) -> Report:
    """``Report`` of ``model`` on ``corpus``'s facts."""
    top = tops(model, corpus, k)
    control = other_fact(corpus)
    erasures = {}
    for asked in LANGUAGES:
        other = LANGUAGES[1 - LANGUAGES.index(asked)]
        for whose, chosen in (("own", top[asked]), ("same fact", top[other]),
                              ("other fact", top[other][control])):  # fmt: skip
            change, kept = erased(model, *in_language(corpus, asked).prompts(), chosen)
            erasures[asked, whose] = (float(change.mean()), float(kept.mean()))
    units = len(model.layers) * model.d_ff
    return Report(
        overlap(top["en"], top["zh"], corpus, units),
        erasures,
        tuple(subject_similarity(model, corpus, layer) for layer in range(len(model.layers))),
        top,
    )


# ---- the test's power: lesson 6's model, each fact in two English phrasings

TWO_PHRASINGS_FILE = DATA / "fact_lm_paraphrased.npz"  # lesson 6's stored model


@dataclass(frozen=True)
class _Asked(Fact):
    """A fact asked with its paraphrase ("in tumen the capital is")."""

    @property
    def prompt(self) -> tuple[str, ...]:
        return ("in", self.entity, "the", self.relation, "is")


@lru_cache(maxsize=1)
def _phrasings(k: int) -> tuple[LanguageModel, tuple[Corpus, Corpus], tuple[np.ndarray, ...]]:
    """Lesson 6's model, its corpus asked in the first and in the second phrasing, and each
    phrasing's top units (facts, k), read once; callers must not edit them."""
    model, settings, _ = load_model(TWO_PHRASINGS_FILE)
    first = corpus_of(settings)
    second = replace(
        first, facts=tuple(_Asked(f.entity, f.relation, f.answer) for f in first.facts)
    )
    views = (first, second)
    return model, views, tuple(top_units(attributions(model, c), k) for c in views)


def phrasings_report(k: int = TOP) -> Overlap:
    """``overlap`` of the top units of each fact's two English phrasings, in the model trained on
    both (lesson 6's): where one memory serves two statements, the test should find it."""
    model, (corpus, _), (first, second) = _phrasings(k)
    return overlap(first, second, corpus, len(model.layers) * model.d_ff)


def phrasings_erasures(k: int = TOP) -> dict[str, tuple[float, float, float]]:
    """The erasure test's positive control, on lesson 6's model: each fact asked in one phrasing
    with the other phrasing's top units zeroed at the last word, those of the same fact, of
    ``other_fact``'s and of another fact with the same answer (CounterFact's first neighbour):
    {"first asked" | "second asked": (mean change of p(answer) with each), over the facts that
    have a fact of the same answer}."""
    model, views, tops_ = _phrasings(k)
    partner = np.array([(neighbours(views[0], i) or [-1])[0] for i in range(len(views[0].facts))])
    has = partner >= 0
    controls = (np.arange(len(partner)), other_fact(views[0]), np.where(has, partner, 0))
    out = {}
    for asked, name in enumerate(("first asked", "second asked")):
        prompts, answers = views[asked].prompts()
        other = tops_[1 - asked]
        changes = [erased(model, prompts, answers, other[c])[0][has].mean() for c in controls]
        out[name] = tuple(float(x) for x in changes)
    return out


if __name__ == "__main__":
    size = save_npz(RANDOM_FILE, random_baselines(), {"draws": RANDOM_DRAWS})
    print(f"{RANDOM_DRAWS} draws per selection; {size / 1e3:.0f} kB in {RANDOM_FILE}")
