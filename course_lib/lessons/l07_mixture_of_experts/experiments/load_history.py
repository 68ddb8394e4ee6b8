"""Lesson 7: does a router's load collapse as training goes on, where the inputs are not 2-D?

Lesson 5's fact model (d_model 64) with each FFN split into 4 experts of width 64, top 2 (the
"equal total" model of ``fact_experts``), trained on the same corpus without the balancing loss
(alpha 0) and with it (alpha 0.01, the Switch Transformer's), from three seeds each. At every
step, before the update, each layer's router is read on the real tokens (the positions the
balancing loss counts): the share of tokens whose first choice is each expert, and each expert's
share of all top-2 assignments.

``python -m course_lib.lessons.l07_mixture_of_experts.experiments.load_history --jobs 2`` retrains the six models and rewrites
``HISTORY_FILE``: 448 s with two at once on the building machine (2 cores), about twice that with
``--jobs 1``. The alpha 0.01 runs have the settings of ``fact_experts``' stored equal-total models;
trained again here their losses agree with the stored ones to about 1e-9 for the first hundred
steps and drift apart by up to 1e-4 later (the routers' top-2 choices flip on last bits), so a
fresh-run test compares the first steps only.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments.memory import (
    Settings,
    corpus_of,
    fact_predictions,
    train_language_model,
    training_tokens,
)
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.model.moe import assignments, expert_load, top_k_gates
from course_lib.lessons.l07_mixture_of_experts.experiments.fact_experts import MOE_SETTINGS

HISTORY_FILE = DATA / "load_history.npz"
ALPHAS = (0.0, 0.01)
SEEDS = (0, 1, 2)
BASE = MOE_SETTINGS["equal total"]


def settings_of(alpha: float, seed: int) -> Settings:
    """The equal-total model's settings with balancing weight ``alpha`` and ``seed``."""
    return replace(BASE, alpha=alpha, seed=seed)


def real_tokens(seed: int) -> np.ndarray:
    """The token ids the routers read in training, one per real position (padding left out), for
    ``seed``'s corpus (each seed invents its own facts): what ``train_with_load`` counts."""
    tokens = training_tokens(corpus_of(settings_of(0.0, seed)))[:, :-1]
    return tokens[tokens != 0].numpy()


def frequency_null_shares(seeds: tuple[int, ...] = SEEDS, starts: int = 1000) -> np.ndarray:
    """``frequency_busiest``'s null on each seed's own tokens, every seed's draws together
    (seeds x ``starts``,): what a start's busiest share is tested against."""
    from course_lib.lessons.l07_mixture_of_experts.experiments import frequency_busiest

    d, experts = BASE.model.d_model, BASE.model.num_experts
    return np.concatenate(
        [frequency_busiest(real_tokens(s), d=d, experts=experts, starts=starts) for s in seeds]
    )


def frequency_null(
    start: np.ndarray, seeds: tuple[int, ...] = SEEDS, starts: int = 1000
) -> tuple[np.ndarray, float, int, float]:
    """The busiest shares at the start, ``start`` (seeds, layers), against ``frequency_busiest``'s
    null on each seed's own tokens (``starts`` random routers d_model -> E each): the p-values
    (seeds, layers), (1 + the draws at least as busy) / (1 + draws); the null's mean over every
    seed; and seed ``seeds[0]``'s number of word types and its 4 commonest words' share of the
    tokens."""
    from course_lib.lessons.l07_mixture_of_experts.experiments import frequency_busiest

    start = np.asarray(start, dtype=float)
    if start.shape != (len(seeds), BASE.model.num_layers):
        raise ValueError(
            f"start must have shape {(len(seeds), BASE.model.num_layers)}, got {start.shape}"
        )
    tokens = [real_tokens(seed) for seed in seeds]
    d, experts = BASE.model.d_model, BASE.model.num_experts
    null = [frequency_busiest(t, d=d, experts=experts, starts=starts) for t in tokens]
    p = np.array(  # (1 + hits) / (1 + draws), as routing_tests counts: never 0
        [
            [(1 + np.sum(n >= b)) / (1 + n.size) for b in row]
            for n, row in zip(null, start, strict=True)
        ]
    )
    words = np.bincount(tokens[0])
    common = float(np.sort(words)[-4:].sum() / words.sum())
    return p, float(np.mean(null)), int((words > 0).sum()), common


@dataclass(frozen=True)
class LoadRun:
    """One model's training: every step's loads, (steps, layers, E), the loss curve (steps,) and
    how many facts it answers at the end."""

    first: np.ndarray  # the share of real tokens whose first choice is each expert
    assigned: np.ndarray  # each expert's share of all top-k assignments
    losses: np.ndarray
    facts_right: int


def train_with_load(settings: Settings) -> LoadRun:
    """Train ``settings``' model (``memory.train_language_model``) and read its routers at every
    step."""
    first: list[np.ndarray] = []
    assigned: list[np.ndarray] = []

    def watch(logits: list[torch.Tensor], real: torch.Tensor) -> None:
        words = [z[real] for z in logits]  # (real tokens, E) per layer
        first.append(np.stack([expert_load(z).numpy() for z in words]))
        counts = [assignments(top_k_gates(z, settings.model.k)).double() for z in words]
        assigned.append(np.stack([(c / c.sum()).numpy() for c in counts]))

    model, losses = train_language_model(settings, watch)
    right = int(fact_predictions(model, corpus_of(settings))[1].sum())
    return LoadRun(np.stack(first), np.stack(assigned), losses, right)


@dataclass(frozen=True)
class LoadHistories:
    """Every run, indexed [alpha, seed]: loads (alphas, seeds, steps, layers, E), losses
    (alphas, seeds, steps), facts right (alphas, seeds) of ``facts``."""

    alphas: tuple[float, ...]
    seeds: tuple[int, ...]
    first: np.ndarray
    assigned: np.ndarray
    losses: np.ndarray
    facts_right: np.ndarray
    facts: int

    def busiest(self, kind: str = "first") -> np.ndarray:
        """The busiest expert's share at every step: (alphas, seeds, steps, layers)."""
        return getattr(self, kind).max(axis=-1)


def _run(job: tuple[float, int]) -> LoadRun:
    return train_with_load(settings_of(*job))


def save_histories(path: Path = HISTORY_FILE, jobs: int = 1) -> int:
    """Train every (alpha, seed) and store the loads, losses and facts right; the file's size."""
    grid = [(alpha, seed) for alpha in ALPHAS for seed in SEEDS]
    with ProcessPoolExecutor(jobs) as pool:
        runs = list(pool.map(_run, grid))
    shape = (len(ALPHAS), len(SEEDS))
    arrays = {
        name: np.stack([getattr(run, name) for run in runs]).reshape(
            *shape, -1, *runs[0].first.shape[1:]
        )
        for name in ("first", "assigned")
    }
    arrays["losses"] = np.stack([run.losses for run in runs]).reshape(*shape, -1)
    arrays["facts_right"] = np.array([run.facts_right for run in runs]).reshape(shape)
    facts = len(corpus_of(BASE).facts)
    settings = {"alphas": ALPHAS, "seeds": SEEDS, "facts": facts, "model": repr(BASE)}
    return save_npz(path, arrays, settings)


@lru_cache(maxsize=1)
def stored_histories(path: Path = HISTORY_FILE) -> LoadHistories:
    """The stored runs (``python -m course_lib.lessons.l07_mixture_of_experts.experiments.load_history`` rebuilds them)."""
    arrays, settings = load_npz(
        path,
        "set of load histories",
        "course_lib.lessons.l07_mixture_of_experts.experiments.load_history",
    )
    return LoadHistories(
        tuple(float(a) for a in settings["alphas"]),
        tuple(int(s) for s in settings["seeds"]),
        arrays["first"],
        arrays["assigned"],
        arrays["losses"],
        arrays["facts_right"],
        int(settings["facts"]),
    )


if (
    __name__ == "__main__"
):  # rebuild: python -m course_lib.lessons.l07_mixture_of_experts.experiments.load_history [--jobs N]
    began = time.perf_counter()
    workers = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    size = save_histories(jobs=workers)
    print(
        f"trained {len(ALPHAS) * len(SEEDS)} models in {time.perf_counter() - began:.0f} s "
        f"({workers} at once); {size / 1024:.0f} KiB in {HISTORY_FILE}"
    )
