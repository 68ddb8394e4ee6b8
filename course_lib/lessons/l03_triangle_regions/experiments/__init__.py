"""Gradient descent on the triangles task: does training find the six edges the lesson builds
by hand? Helpers around ``course_lib.core.experiments.training`` (data, never plots).

``train_widths`` trains every width of a sweep in ONE batched model (``training.train_mlps``, which
pads narrower networks with zero units that never move), for the cost of a single run.

``trained`` (one width's networks, trained on their own) reads them from ``TRAINED_FILE`` when
they are stored there, every width and activation the trained demo offers, so the demo draws
without training; ``python -m course_lib.lessons.l03_triangle_regions.experiments`` rebuilds the file (about 25 s),
and a test retrains a few and compares.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from course_lib.core._validate import choice, integer, positive_int
from course_lib.core.discovery import submodules
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.experiments.stored_runs import save_runs, stored_run
from course_lib.core.experiments.training import TrainResult, stack_results, train_mlps
from course_lib.core.model.ffn import ACTIVATIONS
from course_lib.core.model.geometry import TRIANGLE_F, TRIANGLE_G, half_planes, unit_lines

D_FFS = tuple(range(2, 13))
SEEDS = (0, 1, 2)
STEPS = 300
LR = 0.05
N_POINTS = 1000
STORED_ACTIVATIONS = ("relu", "gelu", "silu", "tanh")  # the trained demo's
TRAINED_FILE = DATA / "trained_triangles.npz"


@lru_cache(maxsize=64)  # the trained demo alone visits 44 (d_ff, activation) pairs
def train_widths(
    activation: str = "relu",
    d_ffs: tuple[int, ...] = D_FFS,
    seeds: tuple[int, ...] = SEEDS,
    steps: int = STEPS,
    lr: float = LR,
) -> dict[int, TrainResult]:
    """2 -> d_ff -> 2 networks on (in_f, in_g) for every width and seed, trained together by
    ``training.train_mlps``; one TrainResult (over seeds) per width, cached by arguments. Where a
    learner trains them: every argument is checked here."""
    choice("activation", activation, ACTIVATIONS)
    if not d_ffs or not seeds:
        raise ValueError(f"d_ffs and seeds must be non-empty, got {d_ffs!r} and {seeds!r}")
    for d_ff in d_ffs:
        positive_int("d_ff", d_ff)
    for seed in seeds:
        integer("seed", seed)
    positive_int("steps", steps)
    runs = [(activation, d, s) for d in d_ffs for s in seeds]
    results = train_mlps("triangles", runs, steps, lr, N_POINTS)
    n = len(seeds)
    return {d: stack_results(results[i * n : (i + 1) * n]) for i, d in enumerate(d_ffs)}


def width_sweep(
    activation: str = "relu", d_ffs: tuple[int, ...] = D_FFS, seeds: tuple[int, ...] = SEEDS
) -> np.ndarray:
    """Accuracy (every label right) for each width and seed: (len(d_ffs), len(seeds)). The stored
    networks (``stored_trained``, each width trained on its own) where the file holds every width
    at the default seeds, so that a lesson's Run All does not train them again; else trained now,
    every width in one batched model (``train_widths``: the same accuracies, tested)."""
    if tuple(seeds) == SEEDS:
        stored = [stored_trained(d, activation) for d in d_ffs]
        if None not in stored:
            return np.stack([result.accuracy for result in stored])
    results = train_widths(activation, tuple(d_ffs), tuple(seeds))
    return np.stack([results[d].accuracy for d in d_ffs])


def trained(d_ff: int, activation: str = "relu") -> TrainResult:
    """The default seeds' networks of width ``d_ff``, trained on their own: the stored ones when
    ``TRAINED_FILE`` holds them, else trained now (cached). The same whichever cells ran before;
    the sweep's padded networks of that width agree up to rounding."""
    positive_int("d_ff", d_ff)
    stored = stored_trained(d_ff, choice("activation", activation, ACTIVATIONS))
    return stored if stored is not None else train_widths(activation, (d_ff,))[d_ff]


@lru_cache(maxsize=64)
def stored_trained(d_ff: int, activation: str, path: Path = TRAINED_FILE) -> TrainResult | None:
    """The seeds' networks of width ``d_ff`` as ``path`` stores them (in ``stored_runs``' format,
    one run per seed, keyed by the training settings), or None if any is missing."""
    runs = [stored_run("triangles", d_ff, activation, s, STEPS, LR, N_POINTS, path) for s in SEEDS]
    return None if None in runs else stack_results(runs)


def _one_seed(result: TrainResult, i: int) -> TrainResult:
    """Seed ``i`` of a result over several seeds, as a single-seed result."""
    weights = (getattr(result, n)[i : i + 1] for n in ("W1", "b1", "W2", "b2"))
    return TrainResult(
        result.task, result.d_ff, result.activation, (result.seeds[i],), *weights,
        result.accuracy[i : i + 1], result.losses[i : i + 1],
    )  # fmt: skip


def save_trained(path: Path = TRAINED_FILE) -> int:
    """Train and store every width and activation of the trained demo; how many runs."""
    runs = [
        _one_seed(train_widths(activation, (d_ff,))[d_ff], i)
        for activation in STORED_ACTIVATIONS
        for d_ff in D_FFS
        for i in range(len(SEEDS))
    ]
    return save_runs(runs, STEPS, LR, N_POINTS, path)


def hidden_lines(
    result: TrainResult, seed_index: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lines w_j · p + b_j = 0 of the hidden units of one trained network, normalised to
    |w_j| = 1: normals (d_ff, 2), offsets (d_ff,), and each unit's weight in the output (d_ff,)."""
    if not 0 <= seed_index < len(result.seeds):
        raise ValueError(f"seed_index must be in [0, {len(result.seeds)}), got {seed_index}")
    W1, b1 = result.W1[seed_index].numpy(), result.b1[seed_index, 0].numpy()
    normals, offsets = unit_lines(W1, b1)
    importance = np.abs(result.W2[seed_index].numpy()).sum(axis=1) * np.linalg.norm(W1, axis=0)
    return normals, offsets, importance


def edge_match(
    result: TrainResult,
    seed_index: int = 0,
    polygons: Sequence[np.ndarray] = (TRIANGLE_F, TRIANGLE_G),
) -> np.ndarray:
    """For each true edge, the distance to the nearest learned line, comparing (normal, offset)
    up to sign: (total edges,). Near 0 means gradient descent found that edge."""
    normals, offsets, _ = hidden_lines(result, seed_index)
    learned = np.concatenate([normals, offsets[:, None]], axis=1)  # (d_ff, 3)
    true = np.concatenate([np.column_stack(half_planes(p)) for p in polygons])  # (E, 3)
    distance = np.minimum(
        np.linalg.norm(true[:, None] - learned[None], axis=2),
        np.linalg.norm(true[:, None] + learned[None], axis=2),
    )
    return distance.min(axis=1)


if (
    __name__ == "__main__"
):  # rebuild TRAINED_FILE: python -m course_lib.lessons.l03_triangle_regions.experiments
    start = time.perf_counter()
    runs = save_trained()
    print(
        f"trained {len(STORED_ACTIVATIONS) * len(D_FFS)} widths x activations, {len(SEEDS)} "
        f"seeds each, in {time.perf_counter() - start:.0f} s; wrote {runs} runs to {TRAINED_FILE}"
    )


__getattr__, __dir__ = submodules(__name__)  # its modules load when first used
