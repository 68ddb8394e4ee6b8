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
from functools import cache
from math import comb, prod

import numpy as np
import torch

from course_lib.lessons.l08_superposition.experiments.polysemantic import FIRING

TOP = 4  # top prompts per direction: each entity has 4 facts, each relation 12
GRID = 12  # a purity over 2 to 4 prompts is a multiple of 1/2, 1/3 or 1/4: of 1/12


@dataclass(frozen=True)
class Purity:
    """Mean purity of the counted directions, by relation and by entity, and how many counted."""

    relation: float
    entity: float
    counted: int


def _top_prompts(acts: np.ndarray, top: int = TOP) -> np.ndarray:
    """Each direction's top active prompts (> ``FIRING``), most active first: (directions, top)
    indices, -1 where fewer are active; a row with fewer than 2 active is all -1."""
    out = np.full((acts.shape[1], top), -1)
    for j, column in enumerate(acts.T):
        active = np.flatnonzero(column > FIRING)
        if len(active) >= 2:
            chosen = active[np.argsort(column[active])[::-1][:top]]
            out[j, : len(chosen)] = chosen
    return out


def _purity_of(chosen: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The most common label's share of each row of ``chosen`` (..., directions, top) prompt
    indices (-1: none), by ``labels`` (prompts,): (..., directions), NaN for an empty row."""
    codes = np.unique(labels, return_inverse=True)[1]
    held = chosen >= 0
    onehot = (codes[chosen][..., None] == np.arange(codes.max() + 1)) & held[..., None]
    with np.errstate(invalid="ignore"):
        return onehot.sum(-2).max(-1) / np.where(held.sum(-1) >= 2, held.sum(-1), np.nan)


def top_purity(acts: np.ndarray, labels: np.ndarray, top: int = TOP) -> np.ndarray:
    """Each direction's purity by ``labels`` (prompts,) over its top active prompts (> ``FIRING``):
    ``acts`` (prompts, directions) -> (directions,), NaN where fewer than 2 prompts are active."""
    return _purity_of(_top_prompts(acts, top), np.asarray(labels))


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
    chosen = _top_prompts(acts)  # the top prompts do not depend on the labels
    counted = (chosen >= 0).sum(-1) >= 2
    orders = np.stack([rng.permutation(len(relations)) for _ in range(shuffles)])  # (shuffles, p)
    picked = np.where(chosen[counted] >= 0, orders[:, chosen[counted]], -1)  # (shuffles, d, top)
    return np.stack([_purity_of(picked, np.asarray(labels)).mean(-1)
                     for labels in (relations, entities)], -1)  # fmt: skip


def _counts(n: int, sizes: tuple[int, ...]):
    """Every way ``n`` draws fall into classes of ``sizes``: tuples of counts, each at most its
    class's size, summing to ``n``."""
    if not sizes:
        yield () if n == 0 else None
        return
    for first in range(min(n, sizes[0]) + 1):
        for rest in _counts(n - first, sizes[1:]):
            if rest is not None:
                yield (first, *rest)


@cache
def _expected_share(n: int, sizes: tuple[int, ...]) -> float:
    """The most common class's expected share of ``n`` prompts drawn without replacement from
    classes of ``sizes`` (the multivariate hypergeometric law): exact."""
    total = comb(sum(sizes), n)
    return sum(prod(comb(s, c) for s, c in zip(sizes, counts, strict=True)) * max(counts)
               for counts in _counts(n, sizes)) / total / n  # fmt: skip


def chance_purity(acts: np.ndarray, relations: np.ndarray, entities: np.ndarray) -> np.ndarray:
    """Chance, exactly: the mean purity ``purity`` would give, by relation and by entity, were the
    facts' labels permuted at random, i.e. the mean of ``shuffled_purity`` over every
    permutation. A direction's top n prompts then carry n labels drawn without replacement: (2,)."""
    held = (_top_prompts(acts) >= 0).sum(-1)
    held = held[held >= 2]
    out = []
    for labels in (relations, entities):
        sizes = tuple(int(c) for c in np.unique(labels, return_counts=True)[1])
        out.append(np.mean([_expected_share(int(n), sizes) for n in held]))
    return np.array(out)


def random_rotation(d: int, seed: int = 0) -> torch.Tensor:
    """A uniformly random orthogonal (d, d) matrix (QR of a Gaussian, signs fixed), float64."""
    g = torch.Generator().manual_seed(seed)
    q, r = torch.linalg.qr(torch.randn(d, d, generator=g, dtype=torch.float64))
    return q * torch.sign(torch.diagonal(r))


def permutation_p(a: np.ndarray, b: np.ndarray) -> float:
    """One-sided p-value that the mean of ``a`` exceeds the mean of ``b`` by chance, exactly: the
    share of all the ways to split the pooled values into groups of ``len(a)`` and ``len(b)`` whose
    difference of means is at least the observed (the data's own split among them). Counted, not
    drawn: the purities are multiples of 1/``GRID``, so the number of ways to pick ``len(a)`` of
    them with each sum is a count over the distinct values and their multiplicities."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    pooled = np.concatenate([a, b])
    units = np.rint(pooled * GRID)
    if not len(a) or np.abs(pooled * GRID - units).max() > 1e-9:
        raise ValueError(f"a and b must be purities, multiples of 1/{GRID}, a not empty")
    k, units = len(a), units.astype(int)
    observed = int(units[:k].sum())  # the difference of means rises with a's sum
    ways = np.zeros((k + 1, int(units.max()) * k + 1))  # (values picked, their sum in 1/GRID)
    ways[0, 0] = 1.0
    for value, count in zip(*np.unique(units, return_counts=True), strict=True):
        picked = np.zeros_like(ways)
        for t in range(min(int(count), k) + 1):  # t of the ``count`` values equal to ``value``
            shift = t * int(value)
            picked[t:, shift:] += comb(int(count), t) * ways[: k + 1 - t, : ways.shape[1] - shift]
        ways = picked
    return float(ways[k, observed:].sum() / comb(len(pooled), k))
