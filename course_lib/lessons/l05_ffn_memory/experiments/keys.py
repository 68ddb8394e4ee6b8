"""Lesson 5's reading of the trained FFNs' keys: every unit's trigger prefixes at once (Geva et
al.'s trigger examples), the lesson's own rule that sorts keys into shallow (a token) and semantic
(a relation or an entity) patterns, and the same rule on untrained draws of the weights, the
baseline a count needs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np
import torch

from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import RELATIONS, Corpus
from course_lib.core.experiments.memory import Settings, build_model
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads

PATTERNS = ("token", "relation", "entity", "mixed")  # token: shallow; relation, entity: semantic


@dataclass(frozen=True)
class PrefixActivations:
    """Every distinct corpus prefix (<bos> left out) and each FFN unit's activation at its last
    word: ``values`` (layers, prefixes, d_ff)."""

    prefixes: tuple[tuple[str, ...], ...]
    values: np.ndarray

    def triggers(self, layer: int, unit: int, k: int = 5) -> list[tuple[str, ...]]:
        """The ``k`` prefixes that fire ``unit`` of ``layer`` most, strongest first."""
        order = np.argsort(-self.values[layer, :, unit], kind="stable")[: positive_int("k", k)]
        return [self.prefixes[i] for i in order]


@torch_threads(1)  # a tiny model: waking other threads costs more than it saves
def prefix_activations(model: LanguageModel, corpus: Corpus) -> PrefixActivations:
    """One forward pass over the distinct lines; a causal model's activation at a word depends on
    its prefix only, so each distinct prefix is read once."""
    tokens = torch.unique(corpus.tokens(), dim=0)  # (lines, L)
    with torch.no_grad():
        hidden = model.ffn_hidden(tokens)  # (layers, lines, L, d_ff)
    where: dict[tuple[str, ...], tuple[int, int]] = {}
    for line in range(tokens.shape[0]):
        for position in range(1, int((tokens[line] != 0).sum())):
            where.setdefault(tuple(corpus.decode(tokens[line, 1 : position + 1])), (line, position))
    lines, positions = (torch.tensor(v) for v in zip(*where.values(), strict=True))
    return PrefixActivations(tuple(where), hidden[:, lines, positions].numpy())


def pattern_of(triggers: list[tuple[str, ...]], entities: set[str], share: float = 0.6) -> str:
    """The rule: "relation" if at least ``share`` of the triggers state the same relation (the
    word after "the" in "the capital of ..."); else "entity" if as many name the same entity
    before their last word; else "token" (shallow) if as many end in the same word; else "mixed"."""

    def commonest_share(labels: list[str | None]) -> float:
        label, count = Counter(labels).most_common(1)[0]
        return 0.0 if label is None else count / len(labels)

    relation = [next((w for w in t if w in RELATIONS), None) for t in triggers]
    entity = [next((w for w in t[:-1] if w in entities), None) for t in triggers]
    for name, labels in (("relation", relation), ("entity", entity)):
        if commonest_share(labels) >= share:
            return name
    return "token" if commonest_share([t[-1] for t in triggers]) >= share else "mixed"


def classify_units(
    model: LanguageModel, corpus: Corpus, k: int = 5, share: float = 0.6
) -> np.ndarray:
    """Each unit's pattern (one of ``PATTERNS``) from its top-``k`` trigger prefixes:
    (layers, d_ff) of str."""
    acts = prefix_activations(model, corpus)
    entities = {f.entity for f in corpus.facts}
    layers, d_ff = acts.values.shape[0], acts.values.shape[2]
    return np.array(
        [
            [pattern_of(acts.triggers(i, u, k), entities, share) for u in range(d_ff)]
            for i in range(layers)
        ]
    )


KINDS = ("token", "semantic", "mixed")  # the patterns grouped: shallow, semantic, neither


def pattern_counts(patterns: np.ndarray) -> np.ndarray:
    """How many units of each layer have each kind of ``KINDS`` (relation and entity counted as
    semantic): (layers, 3), from ``classify_units``' (layers, d_ff)."""
    return np.stack(
        [(patterns == "token").sum(-1), np.isin(patterns, ["relation", "entity"]).sum(-1),
         (patterns == "mixed").sum(-1)], axis=-1,
    )  # fmt: skip


def untrained_pattern_counts(
    settings: Settings, corpus: Corpus, seeds: tuple[int, ...], k: int = 5, share: float = 0.6
) -> np.ndarray:
    """The rule's counts (``pattern_counts``) on the same corpus for untrained models, the
    initial weights drawn from each of ``seeds`` (``settings.seed`` is the trained model's own
    starting point): (seeds, layers, 3). What the rule finds in random weights is what training
    cannot take credit for."""
    vocab = len(corpus.vocabulary)
    return np.array(
        [
            pattern_counts(
                classify_units(build_model(replace(settings, seed=s), vocab), corpus, k, share)
            )
            for s in seeds
        ]
    )
