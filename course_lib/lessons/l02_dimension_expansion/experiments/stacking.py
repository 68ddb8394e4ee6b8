"""Why two layers? Stacks of 1 to 4 linear layers at an equal parameter count, on one 2-D task.

A stack of L linear layers has L - 1 hidden layers of the same width h; h is chosen so the
parameter count is as close as possible to the budget (1 layer has no hidden layer: 3k weights).

The comparison the lesson shows, ``compare_depths("spiral")`` with its defaults, is stored
(``DEPTHS_FILE``, rebuilt with ``python -m course_lib.lessons.l02_dimension_expansion.experiments.stacking``): ``stored_depths``
reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core._validate import choice, positive_int
from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.core.experiments.tasks import TASKS, make_task
from course_lib.core.experiments.training import (
    accuracy,
    adam_steps,
    bce_per_model,
    stack_logits,
    uniform_layer,
)
from course_lib.core.model.ffn import ACTIVATIONS
from course_lib.core.threads import torch_threads


def stack_parameters(n_layers: int, width: int, d_in: int = 2, d_out: int = 1) -> int:
    """Weights and biases of d_in -> width -> ... -> width -> d_out with ``n_layers`` linear layers."""
    dims = [d_in] + [width] * (n_layers - 1) + [d_out]
    return sum(a * b + b for a, b in zip(dims[:-1], dims[1:], strict=True))


def width_for_budget(n_layers: int, budget: int, d_in: int = 2, d_out: int = 1) -> int:
    """The hidden width whose stack of ``n_layers`` layers comes closest to ``budget`` parameters."""
    if n_layers == 1:
        return 0
    candidates = range(1, budget + 1)
    return min(candidates, key=lambda h: abs(stack_parameters(n_layers, h, d_in, d_out) - budget))


@dataclass(frozen=True)
class DepthResult:
    """Per depth: the hidden width, the parameter count, and accuracy (depths, seeds)."""

    task: str
    depths: tuple[int, ...]
    widths: tuple[int, ...]
    parameters: tuple[int, ...]
    accuracy: np.ndarray


def _init_stack(dims: list[int], seeds: tuple[int, ...]) -> list[torch.Tensor]:
    """Every layer's W and b for every seed, stacked: ``uniform_layer``, the first layer spread
    three times wider as in ``init_weights``; one generator per seed and layer."""
    layers = []
    for index, (a, b) in enumerate(zip(dims[:-1], dims[1:], strict=True)):
        spread = 3 if index == 0 else 1
        drawn = [
            uniform_layer(torch.Generator().manual_seed(1000 * seed + index), a, b, spread)
            for seed in seeds
        ]
        layers += [torch.stack(ts).requires_grad_() for ts in zip(*drawn, strict=True)]
    return layers


def _train_stack(task, dims, activation, seeds, steps, lr, n_points) -> np.ndarray:
    data = make_task(task, n_points)
    x, y = data.X.expand(len(seeds), -1, -1), data.Y.expand(len(seeds), -1, -1)
    layers = _init_stack(dims, seeds)

    def logits() -> torch.Tensor:
        return stack_logits(layers, x, activation)

    adam_steps(layers, lambda _: bce_per_model(logits(), y), steps, lr)
    return accuracy(logits(), y)


@lru_cache(maxsize=16)
@torch_threads(1)
def compare_depths(
    task: str,
    depths: tuple[int, ...] = (1, 2, 3, 4),
    budget: int = 200,
    activation: str = "relu",
    seeds: tuple[int, ...] = (0, 1, 2),
    steps: int = 400,
    lr: float = 0.02,
    n_points: int = 2000,
) -> DepthResult:
    """Train stacks of each depth at ~``budget`` parameters on ``task``, every seed at once; cached.
    Every argument is checked here, none in the helpers."""
    choice("task", task, TASKS)
    choice("activation", activation, ACTIVATIONS)
    positive_int("budget", budget)
    positive_int("steps", steps)
    positive_int("n_points", n_points)
    if not depths or not seeds:
        raise ValueError(f"depths and seeds must be non-empty, got {depths} and {seeds}")
    for depth in depths:
        positive_int("depth", depth)
    k = make_task(task, n_points).Y.shape[1]
    accuracy = []
    for n_layers in depths:
        width = width_for_budget(n_layers, budget, d_out=k)
        dims = [2] + [width] * (n_layers - 1) + [k]
        accuracy.append(_train_stack(task, dims, activation, tuple(seeds), steps, lr, n_points))
    return _result(task, depths, budget, k, np.array(accuracy))


def _result(task: str, depths, budget: int, k: int, accuracy: np.ndarray) -> DepthResult:
    """The comparison's record: each depth's hidden width and parameters beside its accuracy."""
    widths = [width_for_budget(n, budget, d_out=k) for n in depths]
    params = [
        stack_parameters(n, w, d_out=k) if w else 3 * k for n, w in zip(depths, widths, strict=True)
    ]
    return DepthResult(task, tuple(depths), tuple(widths), tuple(params), accuracy)


DEPTHS_FILE = DATA / "depth_comparison.npz"
DEPTHS_TASK, DEPTHS_BUDGET = "spiral", 200  # the comparison the lesson shows


def save_depths(path: Path = DEPTHS_FILE) -> int:
    """Run ``compare_depths`` on the lesson's task and budget and store it; returns the size."""
    result = compare_depths.__wrapped__(DEPTHS_TASK, budget=DEPTHS_BUDGET)
    settings = {"task": DEPTHS_TASK, "budget": DEPTHS_BUDGET, "depths": result.depths}
    return save_npz(path, {"accuracy": result.accuracy}, settings)


@lru_cache(maxsize=2)
def stored_depths(path: Path = DEPTHS_FILE) -> DepthResult:
    """The stored ``compare_depths("spiral", budget=200)``: accuracies read, the counts computed."""
    arrays, settings = load_npz(
        path, "depth comparison", "course_lib.lessons.l02_dimension_expansion.experiments.stacking"
    )
    k = make_task(settings["task"], 10).Y.shape[1]
    return _result(settings["task"], settings["depths"], settings["budget"], k, arrays["accuracy"])


if (
    __name__ == "__main__"
):  # rebuild DEPTHS_FILE: python -m course_lib.lessons.l02_dimension_expansion.experiments.stacking
    rebuild(save_depths, DEPTHS_FILE, "the stacks")
