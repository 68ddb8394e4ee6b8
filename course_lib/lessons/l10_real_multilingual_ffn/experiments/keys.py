"""Geva et al.'s keys in the real model, read from the stored pass: a unit's strongest contexts
in each language, and whether they share their token (a shallow pattern) or not."""

from __future__ import annotations

from functools import cache

import numpy as np

from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations, e5_model

SHARED = 0.5  # a unit's top contexts "share a token" when one token ends at least half of them
CHANCE_DRAWS, CHANCE_SEED = 2000, 1


def top_tokens() -> np.ndarray:
    """The token id at each sampled unit's top contexts: (layers, SAMPLED, languages, TOP)."""
    stored = activations.stored()
    return stored["tokens"][stored["top_token"]]


def most_common_share(tokens: np.ndarray) -> np.ndarray:
    """The share of the last axis taken by its most common value: (..., n) -> (...)."""
    flat = tokens.reshape(-1, tokens.shape[-1])
    shares = [np.unique(row, return_counts=True)[1].max() / len(row) for row in flat]
    return np.array(shares).reshape(tokens.shape[:-1])


def readable() -> np.ndarray:
    """Which sampled units have TOP contexts above zero in a language: (layers, SAMPLED,
    languages). A unit that fires on fewer tokens has its list filled with ties at zero, whose
    order says nothing about it; it is left out of the counts."""
    return activations.stored()["top_value"][..., -1] > 0


def shallow_units() -> np.ndarray:
    """Whether each sampled unit's top contexts mostly end on one token: (layers, SAMPLED,
    languages)."""
    return most_common_share(top_tokens()) >= SHARED


def shallow_share() -> np.ndarray:
    """The share of the readable sampled units whose top contexts mostly end on one token:
    (layers, languages)."""
    keep = readable()
    return (shallow_units() & keep).sum(1) / keep.sum(1)


def direction_shallow() -> np.ndarray:
    """The same rule read on random keys: for each layer's random directions in the FFN's input
    space, whether their TOP contexts (largest projections) mostly end on one token:
    (layers, DIRECTIONS, languages)."""
    from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls

    return (
        most_common_share(activations.stored()["tokens"][controls.stored()["direction_token"]])
        >= SHARED
    )


@cache
def chance_share() -> np.ndarray:
    """The same for TOP tokens drawn at random from each language's corpus: (languages,)."""
    stored = activations.stored()
    rng = np.random.default_rng(CHANCE_SEED)
    n_en = stored["tokens_per_language"][0]
    out = []
    for tokens in (stored["tokens"][:n_en], stored["tokens"][n_en:]):
        draws = tokens[rng.integers(len(tokens), size=(CHANCE_DRAWS, activations.TOP))]
        out.append((most_common_share(draws) >= SHARED).mean())
    return np.array(out)


def context(index: int, before: int = 6, after: int = 3) -> tuple[str, str, str]:
    """The text around corpus token ``index``, within its paragraph: (before, token, after)."""
    stored = activations.stored()
    _, tokenizer = e5_model.load_model()
    text = stored["text_of"]
    same = text == text[index]
    lo = max(int(np.argmax(same)), index - before)
    hi = min(len(same) - int(np.argmax(same[::-1])), index + after + 1)

    def words(ids) -> str:
        return "".join(tokenizer.pieces(ids)).replace("\u2581", " ")

    ids = stored["tokens"]
    return words(ids[lo:index]), words(ids[index : index + 1]).strip(), words(ids[index + 1 : hi])


def two_proportion_p(hits_a: int, n_a: int, hits_b: int, n_b: int) -> float:
    """Two-sided p of the difference between two shares (normal approximation, pooled)."""
    import math

    pooled = (hits_a + hits_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if spread == 0:
        return 1.0
    z = (hits_a / n_a - hits_b / n_b) / spread
    return math.erfc(abs(z) / math.sqrt(2))


def bottom_against_top(shallow: np.ndarray | None = None, keep: np.ndarray | None = None,
                       layers: int = 4) -> dict[str, tuple[float, float, float]]:  # fmt: skip
    """Per language: (shallow share in the first ``layers`` layers, in the last, two-sided p),
    over the sampled units (``shallow_units()`` and ``readable()`` unless given)."""
    shallow = shallow_units() if shallow is None else shallow  # (layers, n, languages)
    keep = readable() if keep is None else keep
    out = {}
    for i, lang in enumerate(activations.LANGUAGES):
        low, high = (
            shallow[:layers, :, i][keep[:layers, :, i]],
            shallow[-layers:, :, i][keep[-layers:, :, i]],
        )
        p = two_proportion_p(int(low.sum()), low.size, int(high.sum()), high.size)
        out[lang] = (float(low.mean()), float(high.mean()), p)
    return out


def active_share() -> np.ndarray:
    """Each layer's share of GELU outputs above zero over both languages' tokens: (layers,)."""
    stored = activations.stored()
    return stored["fires"].sum((1, 2)) / (
        stored["fires"].shape[1] * stored["tokens_per_language"].sum()
    )


def toy_active_share() -> float:
    """Lesson 5's fact model: the share of its ReLU units above zero per token, both layers."""
    from course_lib.core.experiments import memory

    model, corpus = memory.stored_model()
    return float(np.mean(memory.active_fraction(model, corpus)))
