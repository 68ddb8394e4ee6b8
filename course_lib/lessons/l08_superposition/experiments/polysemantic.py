"""Lesson 8's count of polysemantic units in lesson 5's fact model: for each FFN unit, how many of
the 48 facts count it among their knowledge neurons (Dai et al.'s threshold on lesson 5's
attributions), and how many relations and entities those facts span, against two shuffles that
keep each fact's number of knowledge neurons: one draws them from the units that fire at its
prompt, the other as the real ones are, from the same layer and the same tenth of those units by
how much each writes into the stream there (‖h_i v_i‖), so that only which unit it is is left
to chance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import knowledge_neurons
from course_lib.core.model.language_model import LanguageModel


@dataclass(frozen=True)
class Sharing:
    """How the facts' knowledge neurons are shared among units, from a mask (facts, units)."""

    units_used: int  # units that are a knowledge neuron of at least one fact
    pairs: int  # (fact, unit) pairs: each fact's knowledge neurons, summed over the facts
    most_facts: int  # the most facts one unit serves
    facts_per_unit: float  # mean over the units used
    shared: int  # units serving 2 or more facts
    relations_per_unit: float  # mean number of distinct relations among a used unit's facts
    entities_per_unit: float
    relation_purity: float  # units serving 2+ facts: mean share of their facts in one relation


def sharing(mask: np.ndarray, relations: np.ndarray, entities: np.ndarray) -> Sharing:
    """``mask`` (facts, units): which units are which fact's knowledge neurons; ``relations`` and
    ``entities`` (facts,) label each fact."""
    used = mask.any(0)
    served = mask[:, used]  # (facts, used units)
    per_unit = served.sum(0)

    def distinct(labels: np.ndarray) -> np.ndarray:  # (used units,)
        return np.array([len(set(labels[column])) for column in served.T])

    multi = served[:, per_unit >= 2]
    purity = [np.unique(relations[col], return_counts=True)[1].max() / col.sum() for col in multi.T]
    return Sharing(
        int(used.sum()), int(mask.sum()), int(per_unit.max()), float(per_unit.mean()),
        int((per_unit >= 2).sum()), float(distinct(relations).mean()),
        float(distinct(entities).mean()), float(np.mean(purity)) if purity else float("nan"),
    )  # fmt: skip


def fact_labels(corpus: Corpus) -> tuple[np.ndarray, np.ndarray]:
    """Each fact's relation and entity, (facts,) strings each."""
    return (
        np.array([f.relation for f in corpus.facts]),
        np.array([f.entity for f in corpus.facts]),
    )


FIRING = 1e-4  # silent below: near 0 a unit's sign is the CPU's (h of 1e-9 occur); none in 0.86e-4-1.28e-4


def firing_units(model: LanguageModel, corpus: Corpus) -> np.ndarray:
    """Which units fire (h > ``FIRING``) at each fact prompt's last word: (facts, layers · d_ff)
    bool."""
    prompts, _ = corpus.prompts()
    with torch.no_grad():
        hidden = model.ffn_hidden(prompts)[:, :, -1]  # (layers, facts, d_ff)
    return (hidden > FIRING).permute(1, 0, 2).reshape(len(prompts), -1).numpy()


def knowledge_mask(scores) -> np.ndarray:
    """Each fact's knowledge neurons as a (facts, layers · d_ff) mask."""
    mask = knowledge_neurons(scores)
    return mask.reshape(len(mask), -1)


def write_sizes(model: LanguageModel, corpus: Corpus) -> np.ndarray:
    """How much each unit writes into the stream at each fact prompt's last word, h_i ‖v_i‖
    (v_i its value vector): (facts, layers · d_ff)."""
    prompts, _ = corpus.prompts()
    with torch.no_grad():
        hidden = model.ffn_hidden(prompts)[:, :, -1]  # (layers, facts, d_ff)
        norms = torch.stack([model.values(i).norm(dim=-1) for i in range(len(hidden))])
        return (hidden * norms[:, None]).permute(1, 0, 2).reshape(len(prompts), -1).numpy()


def matched_pools(
    mask: np.ndarray, fires: np.ndarray, write: np.ndarray, d_ff: int, bins: int = 10
) -> list[tuple[int, np.ndarray, int]]:
    """Where the matched shuffle draws: (fact, pool, count) for each fact, layer and tenth
    (``bins``) of the layer's firing units ranked by ``write`` at that fact's prompt, the pool
    being the units of that tenth and count the fact's knowledge neurons among them."""
    pools = []
    for fact in range(len(mask)):
        for start in range(0, mask.shape[1], d_ff):  # one layer at a time
            firing = start + np.flatnonzero(fires[fact, start : start + d_ff])
            ranked = firing[np.argsort(-write[fact, firing], kind="stable")]
            tenth = np.arange(len(ranked)) * bins // max(len(ranked), 1)
            for b in np.unique(tenth[mask[fact, ranked]]):
                pool = ranked[tenth == b]
                pools.append((fact, pool, int(mask[fact, pool].sum())))
    return pools


def matched_masks(
    mask: np.ndarray, pools: list[tuple[int, np.ndarray, int]], shuffles: int, seed: int = 0
) -> list[np.ndarray]:
    """``shuffles`` masks in which each fact keeps its number of knowledge neurons in each layer
    and tenth by write size (``matched_pools``), drawn at random within them."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(shuffles):
        drawn = np.zeros_like(mask)
        for fact, pool, count in pools:
            drawn[fact, rng.choice(pool, size=count, replace=False)] = True
        out.append(drawn)
    return out


def matched_draws(
    mask: np.ndarray, pools: list[tuple[int, np.ndarray, int]], shuffles: int, seed: int = 0
) -> np.ndarray:
    """What ``matched_masks`` draws, all shuffles at once: (shuffles, facts, units) bool, each
    fact keeping its count in each pool, the units of a pool drawn alike (the first ``count`` of
    a random order of the pool)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((shuffles, *mask.shape), dtype=bool)
    for fact, pool, count in pools:
        order = np.argsort(rng.random((shuffles, len(pool))), axis=1)[:, :count]  # (shuffles, c)
        out[np.arange(shuffles)[:, None], fact, pool[order]] = True
    return out


def matched_shuffle(
    mask: np.ndarray,
    pools: list[tuple[int, np.ndarray, int]],
    relations: np.ndarray,
    shuffles: int,
    chunk: int = 1000,
) -> tuple[np.ndarray, np.ndarray]:
    """``used_and_purity`` of ``shuffles`` matched draws, ``chunk`` at a time (``matched_draws``
    with seeds 0, 1, …), so that the masks are never all held at once: (shuffles,) each."""
    parts = [used_and_purity(matched_draws(mask, pools, min(chunk, shuffles - start), i), relations)
             for i, start in enumerate(range(0, shuffles, chunk))]  # fmt: skip
    return np.concatenate([u for u, _ in parts]), np.concatenate([q for _, q in parts])


def top_tenth_share(
    mask: np.ndarray, fires: np.ndarray, write: np.ndarray, d_ff: int, bins: int = 10
) -> float:
    """The share of the (fact, unit) pairs of ``mask`` whose unit is in the top tenth (``bins``)
    of its layer's firing units at that fact's prompt, ranked by ``write``, as ``matched_pools``
    ranks them: a tenth if writing much made a unit no likelier to pass the threshold."""
    top = []
    for fact in range(len(mask)):
        for start in range(0, mask.shape[1], d_ff):
            firing = start + np.flatnonzero(fires[fact, start : start + d_ff])
            ranked = firing[np.argsort(-write[fact, firing], kind="stable")]
            tenth = np.arange(len(ranked)) * bins // max(len(ranked), 1)
            top += list(tenth[mask[fact, ranked]] == 0)
    return float(np.mean(top))


def used_and_purity(masks: np.ndarray, relations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sharing``'s ``units_used`` and ``relation_purity`` of each of ``masks`` (shuffles, facts,
    units), at once: (shuffles,) each."""
    labels = np.unique(relations)
    onehot = (relations[:, None] == labels).astype(np.int32)  # (facts, relations)
    counts = np.einsum("sfu,fr->sru", masks.astype(np.int32), onehot)  # (shuffles, relations, u)
    served = counts.sum(1)  # (shuffles, units): facts per unit
    shared = served >= 2
    share = np.where(shared, counts.max(1) / np.maximum(served, 1), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):  # no shared unit: nan, as sharing's
        return (served > 0).sum(1), share.sum(1) / shared.sum(1)


def shuffled_masks(
    mask: np.ndarray, fires: np.ndarray, shuffles: int, seed: int = 0
) -> list[np.ndarray]:
    """``shuffles`` masks in which each fact keeps its number of knowledge neurons, drawn at random
    from the units that fire at its prompt: units chosen with no regard to the facts."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(shuffles):
        drawn = np.zeros_like(mask)
        for fact, count in enumerate(mask.sum(1)):
            drawn[fact, rng.choice(np.flatnonzero(fires[fact]), size=count, replace=False)] = True
        out.append(drawn)
    return out
