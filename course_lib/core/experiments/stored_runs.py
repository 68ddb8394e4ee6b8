"""Training runs stored on disk, so that a demo's move only draws.

Each stored run holds the weights, accuracy and loss curve ``train_mlp`` returns for the same
arguments (one seed), in float64 as trained; a value that is not stored is trained on the spot. ``python -m course_lib.core.experiments.stored_runs`` rebuilds the file
for lesson 2's width demo, and a test retrains a slice to prove the file still matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments.stored_file import DATA
from course_lib.core.experiments.tasks import TASKS
from course_lib.core.experiments.training import TrainResult, train_mlp

# Lesson 2's width demo: every width, activation and task it offers, trained with the sweep's
# settings. Every one is stored, so that no move of the demo trains a network.
WIDTHS = (1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128, 256)
ACTIVATIONS = ("relu", "gelu", "silu", "tanh", "identity")
STEPS, LR, N_POINTS = 200, 0.05, 1000
STORED_WIDTHS = WIDTHS
RUNS_FILE = DATA / "width_demo_runs.npz"
FIELDS = ("W1", "b1", "W2", "b2")


def _key(
    task: str, d_ff: int, activation: str, seed: int, steps: int, lr: float, n_points: int
) -> str:
    return f"{task}|{d_ff}|{activation}|{seed}|{steps}|{lr}|{n_points}"


def _pack(run: TrainResult) -> np.ndarray:
    """One float64 vector per run: W1, b1, W2, b2, accuracy, losses (few arrays keep the file small)."""
    parts = [getattr(run, name).numpy().ravel() for name in FIELDS]
    return np.concatenate([*parts, run.accuracy, run.losses[0]]).astype(np.float64)


def _unpack(vector: np.ndarray, d_ff: int, k: int) -> dict:
    sizes = {"W1": (1, 2, d_ff), "b1": (1, 1, d_ff), "W2": (1, d_ff, k), "b2": (1, 1, k)}
    fields, start = {}, 0
    for name, shape in sizes.items():
        size = int(np.prod(shape))
        fields[name] = torch.from_numpy(vector[start : start + size].reshape(shape).copy())
        start += size
    fields["accuracy"] = vector[start : start + 1].astype(float)
    fields["losses"] = vector[start + 1 :].astype(float)[None, :]
    return fields


def save_runs(
    runs: Iterable[TrainResult], steps: int, lr: float, n_points: int, path: Path = RUNS_FILE
) -> int:
    """Store single-seed runs exactly (float64); returns how many."""
    arrays: dict[str, np.ndarray] = {}
    for run in runs:
        if len(run.seeds) != 1:
            raise ValueError(f"runs must have one seed each, got seeds {run.seeds}")
        key = _key(run.task, run.d_ff, run.activation, run.seeds[0], steps, lr, n_points)
        arrays[f"{key}|k={run.b2.shape[-1]}"] = _pack(run)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    return len(arrays)


@lru_cache(maxsize=4)
def _load(path: Path) -> dict[str, tuple[int, np.ndarray]]:
    """{run key: (k, packed vector)} for every run in ``path`` (empty if there is no file)."""
    if not path.exists():
        return {}
    with np.load(path) as data:
        return {
            name.rsplit("|k=", 1)[0]: (int(name.rsplit("|k=", 1)[1]), data[name])
            for name in data.files
        }


def stored_or_trained(
    task: str,
    d_ff: int,
    activation: str,
    seed: int = 0,
    steps: int = STEPS,
    lr: float = LR,
    n_points: int = N_POINTS,
    path: Path = RUNS_FILE,
) -> TrainResult:
    """The stored run for these arguments if there is one, else ``train_mlp`` (cached)."""
    stored = stored_run(task, d_ff, activation, seed, steps, lr, n_points, path)
    if stored is None:
        return train_mlp(task, d_ff, activation, (seed,), steps, lr, n_points)
    return stored


def stored_run(
    task: str,
    d_ff: int,
    activation: str,
    seed: int,
    steps: int,
    lr: float,
    n_points: int,
    path: Path,
) -> TrainResult | None:
    """The run ``path`` stores for these arguments (one seed), or None."""
    stored = _load(path).get(_key(task, d_ff, activation, seed, steps, lr, n_points))
    if stored is None:
        return None
    k, vector = stored
    return TrainResult(task, d_ff, activation, (seed,), **_unpack(vector, d_ff, k))


if __name__ == "__main__":  # rebuild RUNS_FILE: python -m course_lib.core.experiments.stored_runs
    runs = [
        train_mlp(task, d_ff, activation, (0,), STEPS, LR, N_POINTS)
        for task in TASKS
        for activation in ACTIVATIONS
        for d_ff in STORED_WIDTHS
    ]
    print(f"wrote {save_runs(runs, STEPS, LR, N_POINTS)} runs to {RUNS_FILE}")
