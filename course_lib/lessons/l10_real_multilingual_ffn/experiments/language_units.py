"""Tang et al.'s language-specific units in the real model, and what zeroing them does to
English -> Chinese retrieval of parallel paragraphs, beside as many random units of matched
firing rates.

``python -m course_lib.lessons.l10_real_multilingual_ffn.experiments.language_units`` rebuilds
``course_lib/data/e5_retrieval.npz`` (each condition's similarities, a few minutes).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import torch

from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations, e5_model
from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import Corpus, stored_corpus
from course_lib.lessons.l10_real_multilingual_ffn.papers import TANG_2024

FILE = DATA / "e5_retrieval.npz"
MODULE = "course_lib.lessons.l10_real_multilingual_ffn.experiments.language_units"
PAIRS, LONGEST, DRAWS, SEED = 60, 48, 2, 0  # pairs retrieved among, their tokens, random draws


def activation_probability() -> np.ndarray:
    """How often each unit fires on each language's tokens: (layers, d_ff, languages)."""
    stored = activations.stored()
    return stored["fires"] / stored["tokens_per_language"]


def lape(probability: np.ndarray) -> np.ndarray:
    """Entropy of a unit's firing probabilities normalised over the languages (nats): 0 if it
    fires in one language only, log 2 if equally in both. (..., languages) -> (...)."""
    total = probability.sum(-1, keepdims=True)
    share = np.divide(probability, total, out=np.zeros_like(probability), where=total > 0)
    return -(share * np.log(np.where(share > 0, share, 1.0))).sum(-1)


def language_specific(probability: np.ndarray) -> dict[str, np.ndarray]:
    """Tang et al.'s selection: (layer, unit) rows for each language's units."""
    flat = probability.reshape(-1, 2)
    threshold = np.quantile(flat, TANG_2024["frequency quantile"])
    entropy = np.where(flat.max(-1) > threshold, lape(flat), np.inf)  # rare units left out
    chosen = np.argsort(entropy, kind="stable")[: round(TANG_2024["lowest share"] * len(flat))]
    d_ff = probability.shape[1]
    return {
        lang: np.array([divmod(int(u), d_ff) for u in chosen if flat[u, i] > threshold])
        for i, lang in enumerate(activations.LANGUAGES)
    }


def matched_random(units: np.ndarray, probability: np.ndarray, seed: int) -> np.ndarray:
    """As many random units as ``units``, each from the same layer, among the 20 units of that
    layer whose mean firing rate is nearest to its (the selected units themselves left out)."""
    rng = np.random.default_rng(seed)
    rate = probability.mean(-1)  # (layers, d_ff)
    taken = {tuple(u) for u in units}
    out = []
    for layer, unit in units:
        others = [u for u in np.argsort(np.abs(rate[layer] - rate[layer, unit]), kind="stable")
                  if (layer, u) not in taken][:20]  # fmt: skip
        pick = int(rng.choice(others))
        taken.add((layer, pick))
        out.append((layer, pick))
    return np.array(out)


def retrieval_pairs(corpus: Corpus) -> np.ndarray:
    """PAIRS pairs of distinct texts, both at most LONGEST tokens, drawn with a seeded generator."""
    _, tokenizer = e5_model.load_model()
    seen, short = set(), []
    for i, (en, zh) in enumerate(zip(corpus.english, corpus.chinese, strict=True)):
        if en in seen or zh in seen:
            continue
        seen |= {en, zh}
        if max(len(tokenizer("passage: " + t)) for t in (en, zh)) <= LONGEST:
            short.append(i)
    return np.sort(np.random.default_rng(SEED).choice(short, PAIRS, replace=False))


def zeroing(units: np.ndarray | None):
    """Hooks that set the GELU outputs of ``units`` (layer, unit) rows to zero at every token."""
    if units is None or len(units) == 0:
        return []
    by_layer: dict[int, list[int]] = {}
    for layer, unit in units:
        by_layer.setdefault(int(layer), []).append(int(unit))

    def hook_for(chosen: list[int]):
        def zero(hidden: torch.Tensor, _hook) -> torch.Tensor:
            hidden = hidden.clone()
            hidden[..., chosen] = 0.0
            return hidden

        return zero

    return [(f"layers.{layer}.ffn.hook_hidden", hook_for(u)) for layer, u in by_layer.items()]


def similarities(corpus: Corpus, pairs: np.ndarray, units: np.ndarray | None = None) -> np.ndarray:
    """cos(English paragraph i, Chinese paragraph j) over ``pairs``, ``units`` zeroed in both."""
    model, tokenizer = e5_model.load_model()
    embedded = []
    for texts in (corpus.english, corpus.chinese):
        ids, mask = e5_model.batch(tokenizer, [texts[i] for i in pairs])
        with torch.no_grad(), model.hooks(zeroing(units)):
            embedded.append(e5_model.mean_pool(model(ids, mask), mask).numpy())
    return embedded[0] @ embedded[1].T


def retrieval(similarity: np.ndarray) -> tuple[float, float]:
    """(top-1 accuracy, mean margin): an English paragraph retrieves its twin if the twin is the
    most similar Chinese paragraph; the margin is cos(twin) minus the best other cos."""
    n = len(similarity)
    twin = np.diag(similarity)
    others = np.where(np.eye(n, dtype=bool), -np.inf, similarity).max(1)
    return float((similarity.argmax(1) == np.arange(n)).mean()), float((twin - others).mean())


def save(path=FILE) -> int:
    corpus, probability = stored_corpus(), activation_probability()
    pairs, selected = retrieval_pairs(corpus), language_specific(probability)
    arrays = {"pairs": pairs, "base": similarities(corpus, pairs)}
    for lang, units in selected.items():
        arrays[f"zeroed {lang}"] = similarities(corpus, pairs, units)
        for draw in range(DRAWS):
            random = matched_random(units, probability, seed=100 * SEED + 10 * draw + len(lang))
            arrays[f"random {lang} {draw}"] = similarities(corpus, pairs, random)
    return save_npz(
        path, arrays, {"pairs": PAIRS, "longest": LONGEST, "draws": DRAWS, "seed": SEED}
    )


@cache
def stored() -> dict[str, np.ndarray]:
    return load_npz(FILE, "retrieval with units zeroed", MODULE)[0]


if __name__ == "__main__":
    rebuild(save, FILE, "nothing (retrieval with units zeroed)")


def per_layer(selected: dict[str, np.ndarray], layers: int = 12) -> dict[str, np.ndarray]:
    """How many of each language's units sit in each layer: {language: (layers,)}."""
    return {lang: np.bincount(units[:, 0], minlength=layers) if len(units) else np.zeros(layers, int)
            for lang, units in selected.items()}  # fmt: skip


def margins(similarity: np.ndarray) -> np.ndarray:
    """Each English paragraph's margin: cos(its twin) minus the best other Chinese cos: (pairs,)."""
    n = len(similarity)
    return np.diag(similarity) - np.where(np.eye(n, dtype=bool), -np.inf, similarity).max(1)


def paired_p(a: np.ndarray, b: np.ndarray, shuffles: int = 10_000, seed: int = 0) -> float:
    """Two-sided p that the mean of a - b is 0: the pairs' signs flipped at random."""
    rng = np.random.default_rng(seed)
    d = np.asarray(a) - np.asarray(b)
    flips = rng.choice([-1.0, 1.0], size=(shuffles, len(d)))
    return float(((np.abs((flips * d).mean(1)) >= abs(d.mean())).sum() + 1) / (shuffles + 1))


def holm(p_values: list[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given."""
    order = np.argsort(p_values)
    adjusted, running = np.empty(len(p_values)), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted.tolist()


def retrieval_summary(stored: dict[str, np.ndarray]) -> dict[str, tuple[int, float, float]]:
    """Each condition's (units zeroed, top-1 accuracy, mean margin); the random draws averaged."""
    selected = language_specific(activation_probability())
    out = {"none": (0, *retrieval(stored["base"]))}
    for lang, units in selected.items():
        out[lang] = (len(units), *retrieval(stored[f"zeroed {lang}"]))
        draws = [retrieval(stored[f"random {lang} {d}"]) for d in range(DRAWS)]
        out[f"random {lang}"] = (len(units), *np.mean(draws, axis=0))
    return out


def against_random(stored: dict[str, np.ndarray]) -> dict[str, tuple[float, float, float]]:
    """Per language: how much zeroing its units changes the mean margin, how much as many matched
    random units change it (mean over the draws), and the paired p between the two over the pairs."""
    base = margins(stored["base"])
    out = {}
    for lang in activations.LANGUAGES:
        own = margins(stored[f"zeroed {lang}"])
        random = np.mean([margins(stored[f"random {lang} {d}"]) for d in range(DRAWS)], axis=0)
        out[lang] = (
            float((own - base).mean()),
            float((random - base).mean()),
            paired_p(own, random),
        )
    return out
