"""Every context lesson 5's fact model can be read on: the lines its corpus generator can make.

Lesson 5's corpus holds 384 lines, and a position's activations depend only on its prefix, so
its 2,709 scored positions give 661 distinct inputs to each FFN: too few for a dictionary of 256
or more features, which can give each input an entry of its own. The generator can say more. Its
six filler templates draw every slot afresh (12 entities, 4 seasons, 8 adjectives, 8 foods, 8
animals, 8 colours): 656 filler lines in all, of which the corpus drew 192 (153 of them distinct).
Every filler line and every fact line, read by the same stored model, give the grammar's
distinct contexts, each counted once: weighted as the generator draws them, a handful of short
prefixes ("<bos>", "<bos> the") would outweigh the rest, and a held-out set's FVU would hinge on
which of them it drew.
"""

from __future__ import annotations

import itertools
import string
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from course_lib.core.experiments.facts import (
    ADJECTIVES,
    ANIMALS,
    BOS,
    COLOURS,
    FILLER_TEMPLATES,
    FOODS,
    MAX_LEN,
    SEASONS,
    Corpus,
)
from course_lib.core.experiments.memory import training_tokens
from course_lib.core.model.language_model import LanguageModel
from course_lib.lessons.l08_superposition.experiments.fact_dictionaries import LAYER, LayerRows

HELD_OUT = 0.2  # of the grammar's distinct contexts, never trained on: the regime test
SPLIT_SEED = 0


def grammar_lines(corpus: Corpus) -> tuple[tuple[str, ...], ...]:
    """Every filler line the corpus' generator can make (each template with every value of each
    slot, in template order), then every fact's sentence: 656 + 48 lines for lesson 5's corpus."""
    entities = tuple(dict.fromkeys(f.entity for f in corpus.facts))
    slots = {"entity": entities, "season": SEASONS, "adjective": ADJECTIVES, "food": FOODS,
             "animal": ANIMALS, "colour": COLOURS}  # fmt: skip
    lines = []
    for template in FILLER_TEMPLATES:
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        for values in itertools.product(*(slots[name] for name in names)):
            lines.append(tuple(template.format(**dict(zip(names, values, strict=True))).split()))
    return (*lines, *(f.sentence for f in corpus.facts))


def grammar_tokens(corpus: Corpus) -> torch.Tensor:
    """The grammar's lines as the model reads them, <bos> + words, padded: (lines, L) int64, L the
    longest line's length (as ``memory.training_tokens``)."""
    rows = [corpus.encode((BOS, *line)) for line in grammar_lines(corpus)]
    tokens = torch.tensor([row + [0] * (MAX_LEN - len(row)) for row in rows], dtype=torch.int64)
    return tokens[:, : int((tokens != 0).sum(dim=1).max())]


@dataclass(frozen=True)
class Contexts:
    """The grammar's distinct contexts for one FFN (``rows``, each weighted 1 / contexts) and, for
    each, whether lesson 5's corpus has it (``in_corpus``) and whether it lies on a fact line
    only (``fact``); ``held_out`` the contexts no split dictionary trains on, ``tokens`` the
    grammar's lines (rows.row_of indexes their positions)."""

    rows: LayerRows
    in_corpus: np.ndarray  # (contexts,) bool
    fact: np.ndarray  # (contexts,) bool
    held_out: np.ndarray  # (contexts,) bool
    tokens: torch.Tensor  # (lines, L)


def _prefixes(tokens: torch.Tensor) -> list[tuple[int, ...]]:
    """The prefix (ids up to and including each scored position) of every scored position of
    ``tokens`` (lines, L), in row-major order: a position's activations depend on it alone."""
    inputs, scored = tokens[:, :-1].tolist(), (tokens[:, 1:] != 0).tolist()
    return [tuple(line[: t + 1]) for line, keep in zip(inputs, scored, strict=True)
            for t, s in enumerate(keep) if s]  # fmt: skip


def _rows(model: LanguageModel, tokens: torch.Tensor, layer: int) -> LayerRows:
    """One row per distinct prefix of ``tokens``' scored positions, each weighted equally: the
    FFN's input LN(x), hidden units and output there."""
    prefixes = _prefixes(tokens)
    index = {p: i for i, p in enumerate(dict.fromkeys(prefixes))}
    inputs, scored = tokens[:, :-1], tokens[:, 1:] != 0
    row_of = torch.full(scored.shape, -1, dtype=torch.int64)
    row_of[scored] = torch.tensor([index[p] for p in prefixes])
    first = torch.zeros(len(index), dtype=torch.int64)  # one scored position of each row
    flat = scored.flatten().nonzero().flatten()
    first[row_of.flatten()[flat].flip(0)] = flat.flip(0)
    ffn = model.layers[layer].ffn
    with torch.no_grad():
        _, cache = model.run_with_cache(inputs, names_filter=[f"layers.{layer}.hook_resid_mid"])
        x = model.layers[layer].sublayers[1].norm(cache[f"layers.{layer}.hook_resid_mid"])
        x = x.reshape(-1, x.shape[-1])[first]
        hidden = ffn.hidden(x)
        weight = torch.full((len(index),), 1 / len(index), dtype=x.dtype)
        return LayerRows(x, hidden, ffn.linear2(hidden), weight, row_of)


def held_out_contexts(n: int, seed: int = SPLIT_SEED) -> np.ndarray:
    """A seeded ``HELD_OUT`` share of ``n`` contexts: (n,) bool."""
    held = np.zeros(n, dtype=bool)
    held[np.random.default_rng(seed).permutation(n)[: round(n * HELD_OUT)]] = True
    return held


@lru_cache(maxsize=2)
def grammar_contexts(model: LanguageModel, corpus: Corpus, layer: int = LAYER) -> Contexts:
    """The grammar's distinct contexts at ``layer``'s FFN, read by ``model`` (cached: callers must
    not change what it returns)."""
    tokens = grammar_tokens(corpus)
    rows = _rows(model, tokens, layer)
    prefixes = list(dict.fromkeys(_prefixes(tokens)))
    seen = set(_prefixes(training_tokens(corpus)))
    on_filler = set(_prefixes(tokens[: -len(corpus.facts)]))  # the fact lines come last
    in_corpus = np.array([p in seen for p in prefixes])
    fact = np.array([p not in on_filler for p in prefixes])
    return Contexts(rows, in_corpus, fact, held_out_contexts(len(prefixes)), tokens)
