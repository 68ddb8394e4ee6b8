"""Lesson 8's test of monosemanticity on the fact prompts: does a dictionary feature respond to one
entity (or one relation) more purely than a unit does?

For each direction (a unit, a feature, a random rotation of the units), its activations at the 48
fact prompts' last word; its top prompts are the ``TOP`` most active among those where it is
active (above ``FIRING``); its purity is the share of them that share its most common relation (or entity).
Only directions active on at least 2 prompts count: one prompt is always pure. Not a paper's
metric: Bricken et al. judged features by hand and by automated interpretation over many more
contexts; this is the same question asked of labels the corpus has.

The two purities are one measure seen twice: each entity has one fact of each relation, so a top
four of one entity holds four relations (relation purity 1/4), and a top four of one relation
holds four entities. A direction that turns entity-pure turns relation-impure with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from course_lib.lessons.l08_superposition.experiments.polysemantic import FIRING

TOP = 4  # top prompts per direction: each entity has 4 facts, each relation 12


@dataclass(frozen=True)
class Purity:
    """Mean purity of the counted directions, by relation and by entity, and how many counted."""

    relation: float
    entity: float
    counted: int


def top_purity(acts: np.ndarray, labels: np.ndarray, top: int = TOP) -> np.ndarray:
    """Each direction's purity by ``labels`` (prompts,) over its top active prompts (> ``FIRING``):
    ``acts`` (prompts, directions) -> (directions,), NaN where fewer than 2 prompts are active."""
    out = np.full(acts.shape[1], np.nan)
    for j, column in enumerate(acts.T):
        active = np.flatnonzero(column > FIRING)
        if len(active) < 2:
            continue
        chosen = active[np.argsort(column[active])[::-1][:top]]
        out[j] = np.unique(labels[chosen], return_counts=True)[1].max() / len(chosen)
    return out


def purity(acts: np.ndarray, relations: np.ndarray, entities: np.ndarray) -> Purity:
    """``top_purity`` by relation and by entity, averaged over the directions it counts."""
    by_relation, by_entity = top_purity(acts, relations), top_purity(acts, entities)
    counted = ~np.isnan(by_relation)
    return Purity(float(by_relation[counted].mean()), float(by_entity[counted].mean()),
                  int(counted.sum()))  # fmt: skip


def shuffled_purity(
    acts: np.ndarray, relations: np.ndarray, entities: np.ndarray, shuffles: int, seed: int = 0
) -> np.ndarray:
    """Chance: ``purity`` with the facts' labels permuted together (relation and entity stay
    paired), ``shuffles`` times: (shuffles, 2), relation and entity purity."""
    rng = np.random.default_rng(seed)
    out = np.empty((shuffles, 2))
    for i in range(shuffles):
        order = rng.permutation(len(relations))
        found = purity(acts, relations[order], entities[order])
        out[i] = found.relation, found.entity
    return out


def random_rotation(d: int, seed: int = 0) -> torch.Tensor:
    """A uniformly random orthogonal (d, d) matrix (QR of a Gaussian, signs fixed), float64."""
    g = torch.Generator().manual_seed(seed)
    q, r = torch.linalg.qr(torch.randn(d, d, generator=g, dtype=torch.float64))
    return q * torch.sign(torch.diagonal(r))


def permutation_p(a: np.ndarray, b: np.ndarray, draws: int = 5000, seed: int = 0) -> float:
    """One-sided p-value that the mean of ``a`` exceeds the mean of ``b`` by chance: the share of
    random relabellings of the pooled values whose difference of means is at least the observed,
    counting the data as one of them."""
    rng = np.random.default_rng(seed)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    pooled, observed = np.concatenate([a, b]), a.mean() - b.mean()
    shuffled = rng.permuted(np.tile(pooled, (draws, 1)), axis=1)  # (draws, pooled)
    differences = shuffled[:, : len(a)].mean(1) - shuffled[:, len(a) :].mean(1)
    return float(((differences >= observed - 1e-12).sum() + 1) / (draws + 1))
