"""Gradient descent on the triangles task: does training find the six edges the lesson builds
by hand? Helpers around ``course_lib.experiments.training`` (data, never plots).

``train_widths`` trains every width of a sweep in ONE batched model (``training.train_mlps``, which
pads narrower networks with zero units that never move), for the cost of a single run.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from course_lib._validate import positive_int
from course_lib.experiments.training import TrainResult, stack_results, train_mlps
from course_lib.model.geometry import TRIANGLE_F, TRIANGLE_G, half_planes, unit_lines

D_FFS = tuple(range(2, 13))
SEEDS = (0, 1, 2)
STEPS = 300
LR = 0.05
N_POINTS = 1000


@lru_cache(maxsize=64)  # the trained demo alone visits 44 (d_ff, activation) pairs
def train_widths(
    activation: str = "relu",
    d_ffs: tuple[int, ...] = D_FFS,
    seeds: tuple[int, ...] = SEEDS,
    steps: int = STEPS,
    lr: float = LR,
) -> dict[int, TrainResult]:
    """2 -> d_ff -> 2 networks on (in_f, in_g) for every width and seed, trained together by
    ``training.train_mlps``; one TrainResult (over seeds) per width, cached by arguments."""
    if not d_ffs or not seeds:
        raise ValueError(f"d_ffs and seeds must be non-empty, got {d_ffs!r} and {seeds!r}")
    runs = [(activation, d, s) for d in d_ffs for s in seeds]
    results = train_mlps("triangles", runs, steps, lr, N_POINTS)
    n = len(seeds)
    return {d: stack_results(results[i * n : (i + 1) * n]) for i, d in enumerate(d_ffs)}


def width_sweep(
    activation: str = "relu", d_ffs: tuple[int, ...] = D_FFS, seeds: tuple[int, ...] = SEEDS
) -> np.ndarray:
    """Accuracy (every label right) for each width and seed: (len(d_ffs), len(seeds))."""
    results = train_widths(activation, tuple(d_ffs), tuple(seeds))
    return np.stack([results[d].accuracy for d in d_ffs])


def trained(d_ff: int, activation: str = "relu") -> TrainResult:
    """The default seeds' networks of width ``d_ff``, trained on their own (cached): the same
    whichever cells ran before. The sweep's padded networks of that width agree up to rounding."""
    return train_widths(activation, (positive_int("d_ff", d_ff),))[d_ff]


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
