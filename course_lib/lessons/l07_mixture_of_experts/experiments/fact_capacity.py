"""Lesson 7: does a mixture of experts hold more facts than a dense FFN? (Jelassi et al. 2024,
"Mixture of Parrots": at a fixed number of active parameters, more experts memorise more.)

Lesson 5's corpus with more invented entities (4 facts each: 48 to 1,000 facts), each fact
stated once and no filler (full-batch training weighs a fact the same either way), learned by a
narrower model than lesson 5's, d_model 16, so that the FFN must hold the facts: at d_model 64
even an FFN of width 4 learns all 1,000 (the embeddings hold them), at d_model 16 width 4 learns
30 of 200 and width 256 all of them. Three FFNs per layer:

    dense          width 64 (4 x d_model, as lesson 5's)
    equal active   4 experts of width 32, top 2: a word runs 64 units, the layer holds 128
    equal total    4 experts of width 16, top 2: the layer holds 64 units, a word runs 32

each trained with lesson 5's recipe (600 steps of full-batch Adam, warm-up and cosine decay;
the mixtures with the balancing loss, alpha 0.01) from two seeds per size.

``python -m course_lib.lessons.l07_mixture_of_experts.experiments.fact_capacity --jobs 2`` trains the 30 models and rewrites
``SWEEP_FILE``: 1,700 s on the building machine (2 cores, shared with other work; about half that
on two free cores), about twice as long with ``--jobs 1``.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from course_lib.core._validate import choice
from course_lib.core.experiments.memory import (
    SETTINGS,
    Settings,
    corpus_of,
    fact_predictions,
    train_language_model,
)
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.model.moe import moe_parameters

SWEEP_FILE = DATA / "fact_capacity.npz"
ENTITIES = (12, 25, 50, 100, 250)  # 4 facts each
SEEDS = (0, 1)
NARROW = replace(SETTINGS, d_model=16, repeats=1, filler_per_fact=0.0)
MODELS = {
    "dense": replace(NARROW, d_ff=64),
    "equal active": replace(NARROW, ffn="moe", num_experts=4, k=2, d_ff=32, alpha=0.01),
    "equal total": replace(NARROW, ffn="moe", num_experts=4, k=2, d_ff=16, alpha=0.01),
}


def settings_of(model: str, entities: int, seed: int) -> Settings:
    """The settings of ``model`` learning the facts of ``entities`` invented entities."""
    return replace(MODELS[choice("model", model, MODELS)], n_entities=entities, seed=seed)


def shape(model: str) -> tuple[int, int, int]:
    """(experts, width of each, k) of ``model``'s FFN; a dense FFN is one expert, k = 1."""
    s = MODELS[choice("model", model, MODELS)]
    return (s.num_experts, s.d_ff, s.k) if s.ffn == "moe" else (1, s.d_ff, 1)


def budget(model: str) -> dict[str, int]:
    """One FFN layer's parameters: "total" held and "active" per word (``moe_parameters``)."""
    experts, d_ff, k = shape(model)
    return moe_parameters(MODELS[model].d_model, d_ff, experts, k)


def train_one(job: tuple[str, int, int]) -> tuple[int, np.ndarray]:
    """(facts answered right, the loss curve) of one (model, entities, seed)."""
    settings = settings_of(*job)
    model, losses = train_language_model(settings)
    return int(fact_predictions(model, corpus_of(settings))[1].sum()), losses


@dataclass(frozen=True)
class FactSweep:
    """Facts right (models, sizes, seeds) and loss curves (models, sizes, seeds, steps)."""

    models: tuple[str, ...]
    entities: tuple[int, ...]
    seeds: tuple[int, ...]
    right: np.ndarray
    losses: np.ndarray

    @property
    def facts(self) -> tuple[int, ...]:
        return tuple(4 * n for n in self.entities)

    def share(self, model: str) -> np.ndarray:
        """The share of the facts ``model`` answers right: (sizes, seeds)."""
        return self.right[self.models.index(model)] / np.array(self.facts)[:, None]

    def all_learned(self, model: str) -> int:
        """The largest number of facts ``model`` learns every one of, on every seed (0: none)."""
        whole = (self.right[self.models.index(model)] == np.array(self.facts)[:, None]).all(1)
        return max((n for n, ok in zip(self.facts, whole, strict=True) if ok), default=0)


def save_sweep(path: Path = SWEEP_FILE, jobs: int = 1) -> int:
    """Train every (model, size, seed), largest first so two workers finish together; store the
    facts right and the loss curves; returns the file's size in bytes."""
    grid = [(m, n, s) for m in MODELS for n in ENTITIES for s in SEEDS]
    order = sorted(range(len(grid)), key=lambda i: -grid[i][1])
    with ProcessPoolExecutor(jobs) as pool:
        done = dict(zip(order, pool.map(train_one, [grid[i] for i in order]), strict=True))
    shape = (len(MODELS), len(ENTITIES), len(SEEDS))
    right = np.array([done[i][0] for i in range(len(grid))]).reshape(shape)
    losses = np.stack([done[i][1] for i in range(len(grid))]).reshape(*shape, -1)
    settings = {"models": tuple(MODELS), "entities": ENTITIES, "seeds": SEEDS}
    return save_npz(path, {"right": right, "losses": losses}, settings)


@lru_cache(maxsize=1)
def stored_sweep(path: Path = SWEEP_FILE) -> FactSweep:
    """The stored sweep (``python -m course_lib.lessons.l07_mixture_of_experts.experiments.fact_capacity`` rebuilds it)."""
    arrays, settings = load_npz(
        path,
        "sweep of fact counts",
        "course_lib.lessons.l07_mixture_of_experts.experiments.fact_capacity",
    )
    return FactSweep(
        tuple(settings["models"]),
        tuple(int(n) for n in settings["entities"]),
        tuple(int(s) for s in settings["seeds"]),
        arrays["right"],
        arrays["losses"],
    )


if (
    __name__ == "__main__"
):  # rebuild: python -m course_lib.lessons.l07_mixture_of_experts.experiments.fact_capacity [--jobs N]
    began = time.perf_counter()
    workers = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    size = save_sweep(jobs=workers)
    print(
        f"trained {len(MODELS) * len(ENTITIES) * len(SEEDS)} models in "
        f"{time.perf_counter() - began:.0f} s ({workers} at once); "
        f"{size / 1024:.0f} KiB in {SWEEP_FILE}"
    )
