"""Lesson 7's fact model: lesson 5's language model with each FFN split into a mixture of four
experts, top 2, trained on the same invented facts with the balancing loss (alpha 0.01, the
Switch Transformer's). Two budgets: experts of width 64 hold the dense FFN's parameters ("equal
total"), experts of width 128 spend its compute per token ("equal active"). A third model,
"shared expert", keeps the equal-total budget DeepSeekMoE's way: one of the four experts is
shared (every token runs it) and the router picks 1 of the other 3, its gate the router's
probability (a renormalised single gate is always 1 and would teach the router nothing).

Training one takes a minute or two, so the models are stored, one file each;
``python -m course_lib.lessons.l07_mixture_of_experts.experiments.fact_experts`` retrains them all (a test retrains the first
steps and compares the loss curve).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path

import numpy as np
import torch

from course_lib.core._validate import choice
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import (
    SETTINGS,
    Settings,
    corpus_of,
    fact_predictions,
    load_model,
    router_logits,
    save_model,
    train_language_model,
    training_tokens,
)
from course_lib.core.experiments.statistics import holm  # noqa: F401 (the lesson reads it here)
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.model.moe import expert_load

MOE_SETTINGS = {
    "equal total": replace(SETTINGS.reshaped(ffn="moe", num_experts=4, k=2, d_ff=64), alpha=0.01),
    "equal active": replace(SETTINGS.reshaped(ffn="moe", num_experts=4, k=2, d_ff=128), alpha=0.01),
    "shared expert": replace(
        SETTINGS.reshaped(
            ffn="moe", num_experts=3, k=1, d_ff=64, shared_experts=1, renormalise=False
        ),
        alpha=0.01,
    ),
}
STORED_SEEDS = {"equal total": (0, 1, 2), "equal active": (0,), "shared expert": (0, 1, 2)}


def settings_of(name: str, seed: int) -> Settings:
    """The training settings of model ``name`` with corpus and weights drawn from ``seed``."""
    return replace(MOE_SETTINGS[choice("name", name, MOE_SETTINGS)], seed=seed)


def model_file(name: str, seed: int) -> Path:
    return DATA / f"fact_moe_{name.replace(' ', '_')}_{seed}.npz"


@lru_cache(maxsize=8)
def stored_moe(name: str, seed: int = 0) -> tuple[LanguageModel, Corpus]:
    """A stored mixture-of-experts fact model and its corpus; callers must not train or edit it."""
    if seed not in STORED_SEEDS[choice("name", name, MOE_SETTINGS)]:
        raise ValueError(f"seed must be one of {list(STORED_SEEDS[name])} for {name!r}, got {seed}")
    model, settings, _ = load_model(model_file(name, seed))
    return model, corpus_of(settings)


def routes(model: LanguageModel, corpus: Corpus) -> np.ndarray:
    """The expert each layer's router ranks first at each fact prompt's last word, (facts, layers)."""
    prompts, _ = corpus.prompts()
    with torch.no_grad(), router_logits(model) as logits:
        model(prompts)
    return torch.stack([z[:, -1].argmax(dim=-1) for z in logits], dim=1).numpy()


def last_word_gates(model: LanguageModel, corpus: Corpus, layer: int) -> np.ndarray:
    """Each fact prompt's gates at its last word in ``layer``, (facts, experts): the weight the
    router gives each routed expert there (0 for the experts it does not choose)."""
    prompts, _ = corpus.prompts()
    gates = []
    with torch.no_grad(), model.hooks([(f"layers.{layer}.ffn.hook_gates", _keep(gates))]):
        model(prompts)
    return gates[0][:, -1].numpy()


def _keep(found: list):
    def hook(gates: torch.Tensor, _hook) -> torch.Tensor:
        found.append(gates)
        return gates

    return hook


def token_load(model: LanguageModel, corpus: Corpus) -> np.ndarray:
    """Each expert's share of the words the model reads in training (every line but its last
    word, <bos> kept, padding left out: the positions the balancing loss counts), as each layer's
    router ranks it first: (layers, experts), each row summing to 1."""
    tokens = training_tokens(corpus)[:, :-1]  # the positions the model read in training
    with torch.no_grad(), router_logits(model) as logits:
        model(tokens)
    real = tokens != 0
    return np.stack([expert_load(z[real]).numpy() for z in logits])


def routing_table(chosen: np.ndarray, labels: Sequence[str], experts: int) -> np.ndarray:
    """How many facts of each label go first to each expert: (labels, experts), rows in the
    order the labels first appear. ``chosen`` is one layer's column of ``routes``, ``labels``
    each fact's relation (or entity)."""
    groups = list(dict.fromkeys(labels))
    table = np.zeros((len(groups), experts), dtype=int)
    for label, expert in zip(labels, chosen, strict=True):
        table[groups.index(label), expert] += 1
    return table


def purity(table: np.ndarray) -> float:
    """The share of facts routed to their group's most used expert (1: each group has one
    expert)."""
    return float(table.max(axis=1).sum() / table.sum())


def own_experts(table: np.ndarray) -> int:
    """How many experts take every fact of one group and no other fact (a group's own expert)."""
    full = table == table.sum(axis=1, keepdims=True)  # (groups, experts): takes all of the group
    alone = (table > 0).sum(axis=0) == 1  # (experts,): takes facts of one group only
    return int((full.any(axis=0) & alone).sum())


def shuffled_purities(
    chosen: np.ndarray, labels: Sequence[str], experts: int, draws: int = 5000, seed: int = 0
) -> np.ndarray:
    """The purity the same routes score when dealt to the facts at random, once per shuffle from
    a seeded generator, (draws,): what routing that ignores the labels scores, given how unevenly
    the experts are used."""
    groups = list(dict.fromkeys(labels))
    codes = np.array([groups.index(label) for label in labels])
    g = np.random.default_rng(seed)
    shuffled = np.asarray(chosen)[np.argsort(g.random((draws, len(codes))), axis=1)]
    cells = (np.arange(draws)[:, None] * len(groups) + codes[None, :]) * experts + shuffled
    counts = np.bincount(cells.ravel(), minlength=draws * len(groups) * experts)
    return counts.reshape(draws, len(groups), experts).max(axis=2).sum(axis=1) / len(codes)


def chance_purity(
    chosen: np.ndarray, labels: Sequence[str], experts: int, draws: int = 5000, seed: int = 0
) -> float:
    """The mean of ``shuffled_purities`` (its standard error is below 0.001 for the lesson's 48
    facts)."""
    return float(shuffled_purities(chosen, labels, experts, draws, seed).mean())


def purity_p_value(
    chosen: np.ndarray, labels: Sequence[str], experts: int, draws: int = 5000, seed: int = 0
) -> float:
    """The permutation test's one-sided p-value of the routes' purity against the shuffles of
    ``shuffled_purities``: (1 + shuffles scoring at least as pure) / (1 + draws), so never below
    1 / (1 + draws)."""
    table = routing_table(np.asarray(chosen), labels, experts)
    scores = shuffled_purities(chosen, labels, experts, draws, seed)
    return float((1 + (scores >= purity(table) - 1e-12).sum()) / (1 + draws))


def nearest_own(table: np.ndarray) -> int | None:
    """How close the routes come to giving a group an expert of its own: the fewest facts of
    other groups that an expert taking every fact of one group also takes (0: an own expert), or
    None where no expert takes a whole group."""
    full = table == table.sum(axis=1, keepdims=True)  # (groups, experts): takes all of the group
    others = table.sum(axis=0)[None, :] - table  # (groups, experts): the facts of other groups
    return int(others[full].min()) if full.any() else None


def erased(
    model: LanguageModel, layer: int, expert: int, last_only: bool = False, shared: bool = False
) -> AbstractContextManager[LanguageModel]:
    """While the block runs, ``expert`` of ``layer`` (a routed one, or with ``shared`` a shared
    one) outputs zeros: its tokens keep only their other experts' shares (and the residual path).
    ``last_only``: only at each line's last word (lesson 5 erased units there), where a routed
    expert gets no gate (the router's weight for it is 0 there) and a shared one outputs zeros.
    Through the model's hook points, so the mixture erases it however it is called."""
    moe = model.layers[layer].ffn
    pool = moe.shared if shared else moe.experts
    if not 0 <= expert < len(pool):
        raise ValueError(f"expert must be in [0, {len(pool)}), got {expert}")
    where = f"layers.{layer}.ffn"
    if last_only and not shared:
        return model.hooks([(f"{where}.hook_gates", partial(_no_gate_at_last, expert))])
    output = f"{where}.{'shared' if shared else 'experts'}.{expert}.hook_out"
    return model.hooks([(output, _zeros_at_last if last_only else _zeros)])


def _zeros(out: torch.Tensor, _hook) -> torch.Tensor:
    return torch.zeros_like(out)


def _zeros_at_last(out: torch.Tensor, _hook) -> torch.Tensor:
    """A shared expert's output (batch, L, d_model), zero at each line's last word."""
    out = out.clone()
    out[:, -1] = 0
    return out


def _no_gate_at_last(expert: int, gates: torch.Tensor, _hook) -> torch.Tensor:
    """The gates (batch, L, E) with ``expert``'s set to 0 at each line's last word: the router
    does not send that word to it."""
    gates = gates.clone()
    gates[:, -1, expert] = 0
    return gates


def facts_lost(
    model: LanguageModel,
    corpus: Corpus,
    layer: int,
    expert: int,
    last_only: bool = False,
    shared: bool = False,
) -> np.ndarray:
    """Which facts the model answers right, but no longer with ``expert`` of ``layer`` erased
    (everywhere, or at the prompt's last word only; a routed expert, or a shared one): (facts,)
    bool."""
    right = fact_predictions(model, corpus)[1]
    with erased(model, layer, expert, last_only, shared):
        still = fact_predictions(model, corpus)[1]
    return right & ~still


def rebuild(name: str, seed: int) -> str:
    """Train model ``name`` for ``seed`` and store it; one line saying what was done."""
    settings = settings_of(name, seed)
    began = time.perf_counter()
    model, curve = train_language_model(settings)
    size = save_model(model, settings, curve, model_file(name, seed))
    right = fact_predictions(model, corpus_of(settings))[1]
    return (
        f"{name}, seed {seed}: {settings.steps} steps in {time.perf_counter() - began:.0f} s, "
        f"loss {curve[-1]:.3f}, facts right {int(right.sum())} of {right.size}, "
        f"{size / 1e3:.0f} kB in {model_file(name, seed).name}"
    )


if (
    __name__ == "__main__"
):  # rebuild: python -m course_lib.lessons.l07_mixture_of_experts.experiments.fact_experts [NAME SEED]
    wanted = [(sys.argv[1], int(sys.argv[2]))] if len(sys.argv) == 3 else None
    for name, seeds in STORED_SEEDS.items():
        for seed in seeds:
            if wanted is None or (name, seed) in wanted:
                print(rebuild(name, seed), flush=True)
