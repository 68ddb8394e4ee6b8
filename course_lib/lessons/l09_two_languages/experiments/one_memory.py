"""One memory or two: the units that carry a fact asked in English and in Chinese, and the units
each language's text depends on.

Each fact's units are ranked by lesson 5's attribution (``memory.attributions``: p(answer) as
trained minus p(answer) with the one unit zeroed at the prompt's last token), once for the English
prompt and once for the Chinese, and the top units compared: for the same fact, for two different
facts and by chance. Then the units that fire in one language only or mostly (Tang et al. 2024's
language activation probability entropy, LAPE, and their perplexity test).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache, partial

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core._validate import choice as one_of
from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions
from course_lib.core.experiments.statistics import holm_rejects
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.model.language_model import LanguageModel
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    LANGUAGES,
    in_language,
    prompt_groups,
)

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
    """Shared top units of each fact's two prompts: the same fact (facts,), two different facts
    (the mean over the other facts, (facts,)), how often the two lists intersect at all (Chen et
    al.'s count) for the same fact and for two different facts, what random units would share, and
    the permutation p-value of the same-fact mean (each English list paired with a random Chinese
    one, 1,000 times)."""

    same: np.ndarray
    different: np.ndarray
    meets_same: float
    meets_different: float
    chance: float
    p_value: float


def overlap(top_en: np.ndarray, top_zh: np.ndarray, units: int) -> Overlap:
    """The shared top units of English and Chinese prompts (``top_units`` of each, (facts, k)),
    against two different facts and against ``units`` drawn at random (k² / units expected)."""
    m = overlap_matrix(top_en, top_zh)
    n, k = m.shape[0], top_en.shape[1]
    off = ~np.eye(n, dtype=bool)
    rng = np.random.default_rng(0)
    same = np.diag(m).astype(float)
    shuffled = [m[np.arange(n), rng.permutation(n)].mean() for _ in range(1000)]
    return Overlap(
        same=same,
        different=np.array([m[i, off[i]].mean() for i in range(n)]),
        meets_same=float((same > 0).mean()),
        meets_different=float((m[off] > 0).mean()),
        chance=k * k / units,
        p_value=float((1 + sum(s >= same.mean() for s in shuffled)) / (1 + len(shuffled))),
    )


def fact_attributions(model: LanguageModel, corpus: Corpus, facts: np.ndarray) -> torch.Tensor:
    """``memory.attributions`` of ``facts`` (indices into ``corpus.facts``), prompts of any
    length: (len(facts), layers, d_ff)."""
    chosen = replace(corpus, facts=tuple(corpus.facts[i] for i in facts))
    out = torch.zeros(len(facts), len(model.layers), model.d_ff, dtype=torch.float64)
    for index, _, _ in prompt_groups(chosen):
        part = replace(chosen, facts=tuple(chosen.facts[i] for i in index))
        out[torch.from_numpy(index)] = attributions(model, part)
    return out


def tops(model: LanguageModel, corpus: Corpus, facts: np.ndarray, k: int = TOP):
    """Each language's top units for each of ``facts``: {language: (len(facts), k)}."""
    return {lang: top_units(fact_attributions(model, in_language(corpus, lang), facts), k)
            for lang in LANGUAGES}  # fmt: skip


def phrasing_tops(seed: int, facts: np.ndarray, k: int = TOP) -> dict[str, np.ndarray]:
    """The count's positive control: the top units of ``facts`` in the stored two-phrasing model
    of ``seed`` (one language, every token shared), asked in its first phrasing ("en") and its
    second ("zh"): {phrasing: (len(facts), k)}."""
    from course_lib.lessons.l09_two_languages.experiments import transfer

    model, corpus = transfer.stored_phrasings(seed), transfer.phrasing_corpus(seed)
    second = replace(corpus, facts=tuple(transfer.SecondPhrasing(*vars(f).values())
                                         for f in corpus.facts))  # fmt: skip
    return {lang: top_units(fact_attributions(model, view, facts), k)
            for lang, view in zip(LANGUAGES, (corpus, second), strict=True)}  # fmt: skip


@dataclass(frozen=True)
class Pooled:
    """The same-fact overlap pooled over models: the mean over models of each model's same-fact
    mean (``same``), the mean and 95th percentile of the same statistic when each model's first
    lists are paired with a random permutation of its second (``null``, ``null95``), the
    permutation p-value, and the excess over the null mean the test detects 4 times in 5 (normal
    approximation: 95th percentile + 0.84 standard deviations)."""

    same: float
    null: float
    null95: float
    p_value: float
    detectable: float


def pooled(lists: list[tuple[np.ndarray, np.ndarray]], draws: int = 1000, seed: int = 0) -> Pooled:
    """``Pooled`` of one model's (first lists, second lists) each, (facts, k) twice; each model's
    lists are permuted within that model, ``draws`` times. The statistic is compared in integer
    counts, so a shuffle that ties the observed value counts as at least as large."""
    if not lists:
        raise ValueError("lists must hold at least one model's (first, second) lists, got none")
    rng = np.random.default_rng(seed)
    matrices = [overlap_matrix(a, b) for a, b in lists]
    sizes = np.array([len(m) for m in matrices])
    # shared units are counted in integers and compared as integers: each model's mean is its sum
    # over its facts / its facts, and a mean of floats k / 12 differs in its last bit with the
    # order of the sum, so a float comparison would count some exact ties and miss others
    weights = np.lcm.reduce(sizes) // sizes  # the common denominator, per model
    count = [int(np.trace(m)) * int(w) for m, w in zip(matrices, weights, strict=True)]
    null_counts = np.array([
        sum(int(m[np.arange(len(m)), rng.permutation(len(m))].sum()) * int(w)
            for m, w in zip(matrices, weights, strict=True))
        for _ in range(positive_int("draws", draws))])  # fmt: skip
    scale = float(np.lcm.reduce(sizes)) * len(matrices)  # counts -> the mean of the models' means
    null, same = null_counts / scale, sum(count) / scale
    null95 = float(np.percentile(null, 95))
    return Pooled(
        same=same, null=float(null.mean()), null95=null95,
        p_value=float((1 + (null_counts >= sum(count)).sum()) / (1 + len(null))),
        detectable=null95 - float(null.mean()) + 0.8416 * float(null.std()),
    )  # fmt: skip


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
    layers = sorted({layer for layer, _ in units or []})
    fwd_hooks = [
        (f"layers.{i}.ffn.hook_hidden", partial(_zeroed, [u for j, u in units if j == i]))
        for i in layers
    ]
    out = []
    with torch.no_grad():
        for lang in range(len(LANGUAGES)):
            rows = tokens[language == lang]
            logits = model.run_with_hooks(rows[:, :-1], fwd_hooks=fwd_hooks)
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

        masks = [
            (f"layers.{i}.ffn.hook_hidden", partial(_masked, mask[:, None, i]))
            for i in range(layers)
        ]
        batch = rows.repeat(len(chunk), 1)
        with torch.no_grad():
            logits = model.run_with_hooks(batch[:, :-1], fwd_hooks=masks)
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
    from course_lib.lessons.l09_two_languages.experiments.bilingual import split_corpus
    from course_lib.lessons.l09_two_languages.experiments.bilingual_model import SEEDS, stored_model

    out = {}
    for seed in SEEDS:
        model, corpus = stored_model(seed), split_corpus(seed)
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
class Deactivation:
    """Tang et al.'s test of one selection: the ``units`` Tang et al.'s rule gives ``language`` in
    the model of ``seed``, zeroed at every position; each language's perplexity rise (own, other:
    exp of the loss change, minus 1); the 95th percentile of the own rise over as many random
    units (the stored draws), and the p-values against those draws of the own rise and of the
    contrast, own rise minus the other's: (1 + #{draws at least as large}) / (1 + draws);
    ``random_max``, the largest own rise of the draws: the smallest p, 1 / (1 + draws), needs a
    rise above it."""

    seed: int
    language: str
    units: int
    own: float
    other: float
    random95: float
    p_own: float
    p_contrast: float
    random_max: float = float("nan")


def deactivation(seed: int, probability: np.ndarray | None = None) -> list[Deactivation]:
    """``Deactivation`` of each language's selection in the stored model of ``seed`` (none for a
    language the rule gives no unit); ``probability``: the model's ``activation_probability``,
    computed here unless given."""
    from course_lib.lessons.l09_two_languages.experiments.bilingual import split_corpus
    from course_lib.lessons.l09_two_languages.experiments.bilingual_model import stored_model

    model, corpus = stored_model(seed), split_corpus(seed)
    if probability is None:
        probability = activation_probability(model, corpus)
    chosen = language_specific(probability)
    base = language_losses(model, corpus)
    out = []
    for language, units in chosen.items():
        if not units:
            continue
        own = LANGUAGES.index(language)
        rise = np.expm1(language_losses(model, corpus, units) - base)
        random = [np.expm1(stored_random_rise(seed, language, len(units), asked))
                  for asked in LANGUAGES]  # fmt: skip
        contrast, random_contrast = rise[own] - rise[1 - own], random[own] - random[1 - own]
        out.append(Deactivation(
            seed, language, len(units), float(rise[own]), float(rise[1 - own]),
            float(np.percentile(random[own], 95)),
            float((1 + (random[own] >= rise[own]).sum()) / (1 + len(random[own]))),
            float((1 + (random_contrast >= contrast).sum()) / (1 + len(random_contrast))),
            float(random[own].max()),
        ))  # fmt: skip
    return out


def holm(p_values, alpha: float = 0.05) -> np.ndarray:
    """Which of the hypotheses Holm's correction rejects at family level ``alpha``: (m,) p-values
    -> (m,) booleans (``core.experiments.statistics``). A p shifted by two standard errors may
    leave [0, 1]; it is clipped there, which changes no verdict."""
    return holm_rejects(np.clip(np.asarray(p_values, dtype=float), 0.0, 1.0), alpha)


if __name__ == "__main__":
    size = save_npz(RANDOM_FILE, random_baselines(), {"draws": RANDOM_DRAWS})
    print(f"{RANDOM_DRAWS} draws per selection; {size / 1e3:.0f} kB in {RANDOM_FILE}")


def _zeroed(chosen: list[int], h: torch.Tensor, _hook) -> torch.Tensor:
    h = h.clone()
    h[..., chosen] = 0.0
    return h


def _masked(mask: torch.Tensor, h: torch.Tensor, _hook) -> torch.Tensor:
    return h * mask
