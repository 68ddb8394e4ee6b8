"""Lesson 8's feature browser: a dictionary feature's top contexts in the corpus and the words its
decoder direction promotes, read through the unembedding as lesson 5 reads a unit's value."""

from __future__ import annotations

import torch

from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import top_prefixes
from course_lib.core.model.language_model import LanguageModel
from course_lib.lessons.l08_superposition.experiments.dictionary import SparseDictionary
from course_lib.lessons.l08_superposition.experiments.fact_dictionaries import (
    LAYER,
    scored_positions,
)


def top_contexts(
    model: LanguageModel, corpus: Corpus, sae: SparseDictionary, feature: int, k: int = 5
) -> list[tuple[str, float]]:
    """The ``k`` distinct corpus prefixes on which the SAE's ``feature`` is most active, with its
    activation at their last word: [(prefix, activation)], most active first."""
    inputs, scored = scored_positions(corpus)
    with torch.no_grad():
        hidden = model.ffn_hidden(inputs)[LAYER]  # (lines, L, d_ff)
        acts = sae.encode(hidden.float())[..., feature].masked_fill(~scored, -1.0)  # (lines, L)
    found = top_prefixes(acts, inputs, corpus, k)
    return [(" ".join(prefix), value) for prefix, value in found.items() if value > 0]


def promoted_words(
    model: LanguageModel, corpus: Corpus, sae: SparseDictionary, feature: int, k: int = 5
) -> list[tuple[str, float]]:
    """The ``k`` words the feature's decoder direction d (d_ff,) raises most when written back
    through the FFN's values and the unembedding, d W2 E^T: the direct path, as lesson 5 reads a
    unit's value vector."""
    with torch.no_grad():
        direction = sae.W_dec[feature].double()  # (d_ff,): what the feature adds to the units
        top = (direction @ model.value_logits(LAYER)).topk(k)  # (vocab,)
    return list(zip(corpus.decode(top.indices), top.values.tolist(), strict=True))
