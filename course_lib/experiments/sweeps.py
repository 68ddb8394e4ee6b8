"""Sweeps: many small networks on one 2-D task, trained together as one batched model.

``sweep_widths`` trains every (activation, d_ff, seed) at once: widths are zero-padded to a
shared size. A padded unit has zero weights in and out and act(0) = 0 for every activation here,
so its gradients are zero and it stays switched off: each network learns exactly what
``experiments.train_mlp`` would teach it alone.

The notebook's sweeps are precomputed into a small file (``SWEEP_FILE``, a few kB) by
``python -m course_lib.experiments.sweeps``; ``load_sweep`` reads it back, and a test retrains part of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from course_lib._validate import choice, positive_int
from course_lib.experiments.training import init_weights, make_task, torch_threads
from course_lib.model.ffn import ACTIVATIONS


@dataclass(frozen=True)
class WidthSweep:
    """Accuracy and final loss of every network: arrays (activations, widths, seeds)."""

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


def _padded_group(widths, activations, seeds, k: int):
    """Stacked, zero-padded weights of every (activation, width, seed), activation-major."""
    size = max(widths)
    tensors = {"W1": [], "b1": [], "W2": [], "b2": []}
    for _ in activations:
        for width in widths:
            for seed in seeds:
                weights = init_weights(seed, width, k)
                pad = size - width
                tensors["W1"].append(F.pad(weights["W1"], (0, pad)))
                tensors["b1"].append(F.pad(weights["b1"], (0, pad)))
                tensors["W2"].append(F.pad(weights["W2"], (0, 0, 0, pad)))
                tensors["b2"].append(weights["b2"])
    return {name: torch.stack(ts).requires_grad_() for name, ts in tensors.items()}


def _train_group(task: str, widths, activations, seeds, steps, lr, n_points):
    """(accuracy, final loss) arrays (activations, widths, seeds) for one padded group."""
    data = make_task(task, n_points)
    params = _padded_group(widths, activations, seeds, data.Y.shape[1])
    block = len(widths) * len(seeds)
    x = data.X.expand(len(params["W1"]), -1, -1)
    y = data.Y.expand(len(params["W1"]), -1, -1)

    def forward() -> torch.Tensor:
        pre = torch.baddbmm(params["b1"], x, params["W1"])
        hidden = torch.cat(
            [ACTIVATIONS[a](pre[i * block : (i + 1) * block]) for i, a in enumerate(activations)]
        )
        return torch.baddbmm(params["b2"], hidden, params["W2"])

    optimizer = torch.optim.Adam(list(params.values()), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.binary_cross_entropy_with_logits(forward(), y, reduction="none").mean(dim=(1, 2))
        loss.sum().backward()
        optimizer.step()
    with torch.no_grad():
        logits = forward()
        loss = F.binary_cross_entropy_with_logits(logits, y, reduction="none").mean(dim=(1, 2))
        accuracy = ((logits > 0).float() == y).all(dim=2).float().mean(dim=1)
    shape = (len(activations), len(widths), len(seeds))
    return accuracy.numpy().reshape(shape), loss.numpy().reshape(shape)


def _groups(widths: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Widths grouped by the power of 2 they pad to, so padding wastes at most half."""
    buckets: dict[int, list[int]] = {}
    for width in widths:
        buckets.setdefault(1 << (width - 1).bit_length(), []).append(width)
    return [tuple(group) for _, group in sorted(buckets.items())]


@lru_cache(maxsize=32)
@torch_threads(1)
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
        columns = [widths.index(w) for w in group]
        accuracy[:, columns], loss[:, columns] = _train_group(
            task, group, activations, seeds, steps, lr, n_points
        )
    return WidthSweep(task, tuple(widths), tuple(activations), tuple(seeds), accuracy, loss)


SWEEP_FILE = Path(__file__).parent.parent / "data" / "width_sweeps.npz"


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


if __name__ == "__main__":  # regenerate SWEEP_FILE: python -m course_lib.experiments.sweeps
    from course_lib.experiments.training import TASKS

    save_sweeps([sweep_widths(task) for task in TASKS])
    print(f"wrote {SWEEP_FILE}")
