"""One memory or two: do the same FFN units carry a fact asked in English and in Chinese?

Each fact's units are ranked by lesson 5's attribution (``memory.attributions``: p(answer) as
trained minus p(answer) with the one unit zeroed at the prompt's last word), once for the English
prompt and once for the Chinese. Compared: the top units' overlap for the same fact, for two
different facts and by chance; what erasing one language's top units does to the other language's
answer; and which units fire in one language only (Tang et al. 2024's language activation
probability entropy, LAPE, and their perplexity test).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions, scale_units
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
    """Shared top units: the same fact in both languages (facts,), two different facts (the mean
    over the other facts, (facts,)), of which the same relation or the same entity, what random
    units would share, and the permutation p-value of the same-fact mean."""

    same: np.ndarray
    different: np.ndarray
    same_relation: np.ndarray
    same_entity: np.ndarray
    chance: float
    p_value: float


def overlap(top_en: np.ndarray, top_zh: np.ndarray, corpus: Corpus, units: int) -> Overlap:
    """The shared top units of English and Chinese prompts (``top_units`` of each), against two
    different facts and against ``units`` drawn at random (k² / units expected)."""
    m = overlap_matrix(top_en, top_zh)
    n, k = m.shape[0], top_en.shape[1]
    off = ~np.eye(n, dtype=bool)
    facts = [f.english for f in corpus.facts]
    relation = np.array([[a.relation == b.relation for b in facts] for a in facts]) & off
    entity = np.array([[a.entity == b.entity for b in facts] for a in facts]) & off
    rng = np.random.default_rng(0)
    same = np.diag(m).astype(float)
    shuffled = [m[np.arange(n), rng.permutation(n)].mean() for _ in range(1000)]
    return Overlap(
        same=same,
        different=np.array([m[i, off[i]].mean() for i in range(n)]),
        same_relation=np.array([m[i, relation[i]].mean() for i in range(n)]),
        same_entity=np.array([m[i, entity[i]].mean() for i in range(n)]),
        chance=k * k / units,
        p_value=float((1 + sum(s >= same.mean() for s in shuffled)) / (1 + len(shuffled))),
    )


def _answer(
    model: LanguageModel, prompts: torch.Tensor, answers: torch.Tensor, edit: HiddenEdit | None
) -> tuple[np.ndarray, np.ndarray]:
    """p(answer) after each prompt and whether it is the top word: (n,) each."""
    with torch.no_grad():
        p = model(prompts, edit)[:, -1].softmax(-1)
    return p[torch.arange(len(answers)), answers].numpy(), (p.argmax(-1) == answers).numpy()


def erased(
    model: LanguageModel, corpus: Corpus, language: str, chosen: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each fact asked in ``language`` with its ``chosen`` units (facts, k; flat indices) zeroed at
    the prompt's last word: p(answer) after / before - 1 and whether the answer stays top-1,
    (facts,) each."""
    prompts, answers = in_language(corpus, language).prompts()
    before, _ = _answer(model, prompts, answers, None)
    change, kept = np.zeros(len(before)), np.zeros(len(before), dtype=bool)
    for i, row in enumerate(chosen):
        edit = scale_units([divmod(int(u), model.d_ff) for u in row], 0.0)
        p, top = _answer(model, prompts[i : i + 1], answers[i : i + 1], edit)
        change[i], kept[i] = p[0] / before[i] - 1, top[0]
    return change, kept


def other_fact(corpus: Corpus) -> np.ndarray:
    """For each fact, a control: the next entity's fact of the same relation, (facts,)."""
    facts = [f.english for f in corpus.facts]
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
