"""Lesson 8's toy model at its default setting (n = 5 features in m = 2 dimensions, S = 0.9,
importance 0.9^i), trained from ``SEEDS`` starts as the notebook trains seed 0, and the two
controls that test what lets features share the plane: the same model without its ReLU (the
linear model Wᵀ W x + b) and with its bias held at 0. One start settles into one arrangement;
how often each arrangement comes out is a property of the training, not of one run.

``python -m course_lib.lessons.l08_superposition.experiments.toy_seeds --jobs 1`` retrains them
and rewrites ``SEEDS_FILE``.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.lessons.l08_superposition.experiments.toy import dimensionality, evaluate, train_toy

SEEDS_FILE = DATA / "toy_seeds.npz"
SEEDS = tuple(range(8))
SPARSITY, DECAY, N_FEATURES, N_HIDDEN = 0.9, 0.9, 5, 2
STEPS = 5000  # as the notebook trains seed 0
VARIANTS = ("relu", "b0", "linear")  # as trained; bias held at 0; no ReLU
KEPT = 0.5  # a feature is kept when its direction's norm is over this


def train_seed(seed: int, variant: str = "relu", steps: int = STEPS):
    """The default toy from ``seed``, as ``variant``: a ``toy.ToyRun`` of one instance."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {variant!r}")
    importance = DECAY ** np.arange(N_FEATURES)
    return train_toy(N_HIDDEN, np.array([SPARSITY]), importance[None], seed=seed, steps=steps,
                     relu=variant != "linear", bias=variant != "b0")  # fmt: skip


@dataclass(frozen=True)
class ToySeeds:
    """The stored runs: W (variants, seeds, m, n), b (variants, seeds, n), held-out loss
    (variants, seeds) and the first losses of each run (variants, seeds, ``FIRST``)."""

    W: np.ndarray
    b: np.ndarray
    loss: np.ndarray
    first_losses: np.ndarray

    def kept(self) -> np.ndarray:
        """Which features have a direction (norm over ``KEPT``): (variants, seeds, n) bool."""
        return np.linalg.norm(self.W, axis=-2) > KEPT

    def dimensionality(self) -> np.ndarray:
        """Each feature's D_i: (variants, seeds, n)."""
        return dimensionality(self.W)


FIRST = 20  # training losses kept: a fresh run's first steps are compared with them


def _train(job: tuple[str, int]) -> tuple[np.ndarray, ...]:
    run = train_seed(job[1], job[0])
    return run.W[0], run.b[0], evaluate(run)[0], run.losses[0, :FIRST]


def save_seeds(path: Path = SEEDS_FILE, jobs: int = 1) -> int:
    plan = [(variant, seed) for variant in VARIANTS for seed in SEEDS]
    with ProcessPoolExecutor(jobs) as pool:
        runs = list(pool.map(_train, plan))
    shape = (len(VARIANTS), len(SEEDS))
    W, b, loss, first = (np.stack([r[i] for r in runs]) for i in range(4))
    arrays = {"W": W.reshape(*shape, *W.shape[1:]), "b": b.reshape(*shape, -1),
              "loss": loss.reshape(shape), "first losses": first.reshape(*shape, -1)}  # fmt: skip
    settings = {"seeds": SEEDS, "variants": VARIANTS, "sparsity": SPARSITY, "decay": DECAY,
                "steps": STEPS}  # fmt: skip
    return save_npz(path, arrays, settings)


@lru_cache(maxsize=1)
def stored_seeds(path: Path = SEEDS_FILE) -> ToySeeds:
    """The stored runs (``python -m course_lib.lessons.l08_superposition.experiments.toy_seeds``
    rebuilds them)."""
    arrays, _ = load_npz(path, "set of toy models from several seeds",
                         "course_lib.lessons.l08_superposition.experiments.toy_seeds")  # fmt: skip
    return ToySeeds(arrays["W"], arrays["b"], arrays["loss"], arrays["first losses"])


if __name__ == "__main__":  # python -m …experiments.toy_seeds [--jobs N]
    workers = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    rebuild(lambda: save_seeds(jobs=workers), SEEDS_FILE, "the toy model from 8 seeds")
