"""Why two layers? Stacks of 1 to 4 linear layers at an equal parameter count, on one 2-D task.

A stack of L linear layers has L - 1 hidden layers of the same width h; h is chosen so the
parameter count is as close as possible to the budget (1 layer has no hidden layer: 3k weights).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from course_lib._validate import choice, positive_int
from course_lib.experiments.tasks import make_task
from course_lib.experiments.training import (
    accuracy,
    adam_steps,
    bce_per_model,
    stack_logits,
    uniform_layer,
)
from course_lib.model.ffn import ACTIVATIONS
from course_lib.threads import torch_threads


def stack_parameters(n_layers: int, width: int, d_in: int = 2, d_out: int = 1) -> int:
    """Weights and biases of d_in -> width -> ... -> width -> d_out with ``n_layers`` linear layers."""
    positive_int("n_layers", n_layers)
    positive_int("width", width)
    dims = [d_in] + [width] * (n_layers - 1) + [d_out]
    return sum(a * b + b for a, b in zip(dims[:-1], dims[1:], strict=True))


def width_for_budget(n_layers: int, budget: int, d_in: int = 2, d_out: int = 1) -> int:
    """The hidden width whose stack of ``n_layers`` layers comes closest to ``budget`` parameters."""
    positive_int("budget", budget)
    if positive_int("n_layers", n_layers) == 1:
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
    """Train stacks of each depth at ~``budget`` parameters on ``task``, every seed at once; cached."""
    choice("activation", activation, ACTIVATIONS)
    positive_int("steps", steps)
    if not depths or not seeds:
        raise ValueError(f"depths and seeds must be non-empty, got {depths} and {seeds}")
    k = make_task(task, n_points).Y.shape[1]
    widths, params, accuracy = [], [], []
    for n_layers in depths:
        width = width_for_budget(n_layers, budget, d_out=k)
        dims = [2] + [width] * (n_layers - 1) + [k]
        widths.append(width)
        params.append(stack_parameters(n_layers, max(width, 1), d_out=k) if width else 3 * k)
        accuracy.append(_train_stack(task, dims, activation, tuple(seeds), steps, lr, n_points))
    return DepthResult(task, tuple(depths), tuple(widths), tuple(params), np.array(accuracy))
