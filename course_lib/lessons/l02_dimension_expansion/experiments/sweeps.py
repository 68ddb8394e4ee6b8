"""Sweeps: many small networks on one 2-D task, trained together as one batched model.

``sweep_widths`` trains every (activation, d_ff, seed) at once with ``training.train_mlps``,
widths grouped by the power of two they pad to; each network learns what it would learn alone.

The notebook's sweeps are precomputed into a small file (``SWEEP_FILE``, a few kB) by
``python -m course_lib.lessons.l02_dimension_expansion.experiments.sweeps``; ``load_sweep`` reads it back, and a test retrains part of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from course_lib.core._validate import choice, positive_int
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.experiments.training import train_mlps
from course_lib.core.model.ffn import ACTIVATIONS


@dataclass(frozen=True)
class WidthSweep:
    """Accuracy and last training loss of every network: arrays (activations, widths, seeds)."""

    task: str
    widths: tuple[int, ...]
    activations: tuple[str, ...]
    seeds: tuple[int, ...]
    accuracy: np.ndarray
    loss: np.ndarray

    def smallest_solving_width(self, activation: str, threshold: float = 0.97) -> int | None:
        """The smallest d_ff whose median accuracy over seeds reaches ``threshold`` (None if none)."""
        row = self.accuracy[
            self.activations.index(choice("activation", activation, self.activations))
        ]
        solved = [
            w
            for w, acc in zip(self.widths, np.median(row, axis=1), strict=True)
            if acc >= threshold
        ]
        return min(solved) if solved else None


def _check_grid(widths, activations, seeds) -> None:
    if not widths or not activations or not seeds:
        raise ValueError(
            f"widths, activations and seeds must be non-empty, got {widths}, {activations}, {seeds}"
        )
    for width in widths:
        positive_int("d_ff", width)
    if len(set(widths)) != len(widths):
        raise ValueError(f"widths must not repeat, got {widths}")
    for activation in activations:
        choice("activation", activation, ACTIVATIONS)
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        raise TypeError(f"seeds must be ints, got {seeds!r}")


def _groups(widths: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Widths grouped by the power of 2 they pad to, so padding wastes at most half."""
    buckets: dict[int, list[int]] = {}
    for width in widths:
        buckets.setdefault(1 << (width - 1).bit_length(), []).append(width)
    return [tuple(group) for _, group in sorted(buckets.items())]


@lru_cache(maxsize=32)
def sweep_widths(
    task: str,
    widths: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 16, 32, 64),
    activations: tuple[str, ...] = ("relu", "gelu", "silu", "tanh", "identity"),
    seeds: tuple[int, ...] = (0, 1, 2),
    steps: int = 200,
    lr: float = 0.05,
    n_points: int = 1000,
) -> WidthSweep:
    """Train a 2 -> d_ff -> k network for every width x activation x seed; cached by arguments."""
    _check_grid(widths, activations, seeds)
    positive_int("steps", steps)
    accuracy = np.empty((len(activations), len(widths), len(seeds)))
    loss = np.empty_like(accuracy)
    for group in _groups(tuple(widths)):
        runs = [(a, w, s) for a in activations for w in group for s in seeds]
        for run, result in zip(runs, train_mlps(task, runs, steps, lr, n_points), strict=True):
            index = (activations.index(run[0]), widths.index(run[1]), seeds.index(run[2]))
            accuracy[index], loss[index] = result.accuracy[0], result.losses[0, -1]
    return WidthSweep(task, tuple(widths), tuple(activations), tuple(seeds), accuracy, loss)


SWEEP_FILE = DATA / "width_sweeps.npz"


def save_sweeps(sweeps: list[WidthSweep], path: Path = SWEEP_FILE) -> None:
    """Store sweeps that share one grid (widths, activations, seeds) in a compressed .npz file."""
    first = sweeps[0]
    arrays = {"widths": np.array(first.widths), "activations": np.array(first.activations)}
    arrays["seeds"] = np.array(first.seeds)
    for sweep in sweeps:
        if (sweep.widths, sweep.activations, sweep.seeds) != (
            first.widths,
            first.activations,
            first.seeds,
        ):
            raise ValueError(
                f"sweeps must share one grid; {sweep.task!r} differs from {first.task!r}"
            )
        arrays[f"{sweep.task}.accuracy"], arrays[f"{sweep.task}.loss"] = sweep.accuracy, sweep.loss
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def load_sweep(task: str, path: Path = SWEEP_FILE) -> WidthSweep:
    """A stored sweep (made with ``sweep_widths``' defaults) for ``task``."""
    with np.load(path) as data:
        tasks = sorted({key.split(".")[0] for key in data.files if "." in key})
        choice("task", task, tasks)
        return WidthSweep(
            task,
            tuple(int(w) for w in data["widths"]),
            tuple(str(a) for a in data["activations"]),
            tuple(int(s) for s in data["seeds"]),
            data[f"{task}.accuracy"],
            data[f"{task}.loss"],
        )


if (
    __name__ == "__main__"
):  # regenerate SWEEP_FILE: python -m course_lib.lessons.l02_dimension_expansion.experiments.sweeps
    from course_lib.core.experiments.tasks import TASKS

    save_sweeps([sweep_widths(task) for task in TASKS])
    print(f"wrote {SWEEP_FILE}")
