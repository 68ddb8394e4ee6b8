"""Small, seeded training runs on 2-D tasks, returned as data (never plots).

Networks of one shape are trained together: the weights of every seed are stacked and trained
as one batched model (torch.bmm), so a sweep over seeds costs little more than one run.
Every task is multi-label: targets (N, k) in {0, 1}, k sigmoid outputs, binary cross-entropy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch
import torch.nn.functional as F

from course_lib._validate import choice, positive_int
from course_lib.model.ffn import ACTIVATIONS
from course_lib.model.geometry import TRIANGLE_F, TRIANGLE_G, inside
from course_lib.threads import torch_threads  # noqa: F401  (re-exported: lessons import it from here)

# Every experiment computes in float64 and draws its random numbers in float64. PyTorch picks its
# vector kernels per CPU (AVX-512, AVX2, scalar), and in float32 the last-bit differences grow
# through training into visible digits; in float64 they stay far below anything a lesson prints.
# (float32 torch.randn even draws different numbers on AVX2 than on scalar kernels.)
DTYPE = torch.float64


def _triangles(points: np.ndarray) -> np.ndarray:
    return np.stack([inside(TRIANGLE_F, points), inside(TRIANGLE_G, points)], axis=1)


def _ring(points: np.ndarray) -> np.ndarray:
    radius = np.linalg.norm(points, axis=1)
    return ((radius > 0.45) & (radius < 0.85))[:, None]


def _xor(points: np.ndarray) -> np.ndarray:
    return (points[:, 0] * points[:, 1] > 0)[:, None]


def _spiral(points: np.ndarray) -> np.ndarray:
    radius = np.linalg.norm(points, axis=1)
    angle = np.arctan2(points[:, 1], points[:, 0])
    return (np.sin(angle + 3 * math.pi * radius) > 0)[:, None]


TASKS = {"triangles": _triangles, "ring": _ring, "xor": _xor, "spiral": _spiral}


@dataclass(frozen=True)
class Task:
    """Points X (N, 2) in [-1, 1]^2 and their labels Y (N, k) as float tensors."""

    name: str
    X: torch.Tensor
    Y: torch.Tensor


@lru_cache(maxsize=32)
def make_task(name: str, n_points: int = 2000, seed: int = 0) -> Task:
    """Uniform points in the square [-1, 1]^2 labelled by the task's rule (same seed, same points)."""
    choice("task", name, TASKS)
    positive_int("n_points", n_points)
    points = np.random.default_rng(seed).uniform(-1.0, 1.0, size=(n_points, 2))
    labels = TASKS[name](points).astype(np.float64)
    return Task(name, torch.tensor(points, dtype=DTYPE), torch.tensor(labels, dtype=DTYPE))


def label_grid(name: str, resolution: int = 200) -> np.ndarray:
    """The task's true labels on a resolution x resolution grid over [-1, 1]^2: (res, res, k)."""
    axis = np.linspace(-1.0, 1.0, positive_int("resolution", resolution))
    xx, yy = np.meshgrid(axis, axis)
    points = np.stack([xx.ravel(), yy.ravel()], axis=1)
    return TASKS[choice("task", name, TASKS)](points).reshape(resolution, resolution, -1)


@dataclass(frozen=True)
class TrainResult:
    """Stacked weights of ``len(seeds)`` networks 2 -> d_ff -> k, their accuracy and loss curves."""

    task: str
    d_ff: int
    activation: str
    seeds: tuple[int, ...]
    W1: torch.Tensor  # (seeds, 2, d_ff)
    b1: torch.Tensor  # (seeds, 1, d_ff)
    W2: torch.Tensor  # (seeds, d_ff, k)
    b2: torch.Tensor  # (seeds, 1, k)
    accuracy: np.ndarray  # (seeds,): fraction of points with every label right
    losses: np.ndarray  # (seeds, steps)

    def predict(self, points: torch.Tensor) -> torch.Tensor:
        """Probabilities (seeds, N, k) for points (N, 2)."""
        points = torch.as_tensor(points, dtype=self.W1.dtype)
        with torch.no_grad():
            return torch.sigmoid(_forward(self, points.expand(len(self.seeds), -1, -1)))


def _forward(p, x: torch.Tensor) -> torch.Tensor:
    hidden = ACTIVATIONS[p.activation](torch.baddbmm(p.b1, x, p.W1))
    return torch.baddbmm(p.b2, hidden, p.W2)


@dataclass
class _Params:
    activation: str
    W1: torch.Tensor
    b1: torch.Tensor
    W2: torch.Tensor
    b2: torch.Tensor


def init_weights(seed: int, d_ff: int, k: int) -> dict[str, torch.Tensor]:
    """One seed's starting weights W1 (2, d_ff), b1 (1, d_ff), W2 (d_ff, k), b2 (1, k).

    Uniform like nn.Linear's default, W1 three times wider so the lines start spread over the
    square; the same for a seed whether it is trained alone or in any batch.
    """
    g = torch.Generator().manual_seed(seed)
    bound1, bound2 = 1 / math.sqrt(2), 1 / math.sqrt(d_ff)
    return {
        "W1": (torch.rand(2, d_ff, generator=g, dtype=DTYPE) * 2 - 1) * bound1 * 3,
        "b1": (torch.rand(1, d_ff, generator=g, dtype=DTYPE) * 2 - 1) * bound1,
        "W2": (torch.rand(d_ff, k, generator=g, dtype=DTYPE) * 2 - 1) * bound2,
        "b2": (torch.rand(1, k, generator=g, dtype=DTYPE) * 2 - 1) * bound2,
    }


def _init(seeds: tuple[int, ...], d_ff: int, k: int, activation: str) -> _Params:
    per_seed = [init_weights(seed, d_ff, k) for seed in seeds]
    stacked = {
        name: torch.stack([w[name] for w in per_seed]).requires_grad_() for name in per_seed[0]
    }
    return _Params(activation, **stacked)


@lru_cache(maxsize=256)
def train_mlp(
    task: str,
    d_ff: int,
    activation: str = "relu",
    seeds: tuple[int, ...] = (0,),
    steps: int = 300,
    lr: float = 0.03,
    n_points: int = 2000,
) -> TrainResult:
    """Train one 2 -> d_ff -> k network per seed, all at once, full-batch Adam; cached by arguments."""
    positive_int("d_ff", d_ff)
    positive_int("steps", steps)
    choice("activation", activation, ACTIVATIONS)
    if not seeds or not all(isinstance(s, int) for s in seeds):
        raise ValueError(f"seeds must be a non-empty tuple of ints, got {seeds!r}")
    data = make_task(task, n_points)
    x = data.X.expand(len(seeds), -1, -1)
    y = data.Y.expand(len(seeds), -1, -1)
    params = _init(tuple(seeds), d_ff, data.Y.shape[1], activation)
    tensors = [params.W1, params.b1, params.W2, params.b2]
    optimizer = torch.optim.Adam(tensors, lr=lr)
    losses = np.empty((len(seeds), steps))
    for step in range(steps):
        optimizer.zero_grad()
        per_seed = F.binary_cross_entropy_with_logits(
            _forward(params, x), y, reduction="none"
        ).mean(dim=(1, 2))
        per_seed.sum().backward()  # sum: each seed's gradient is its own loss's gradient
        optimizer.step()
        losses[:, step] = per_seed.detach().numpy()
    with torch.no_grad():
        correct = ((_forward(params, x) > 0).float() == y).all(dim=2).float().mean(dim=1)
    detached = {name: t.detach() for name, t in zip(("W1", "b1", "W2", "b2"), tensors, strict=True)}
    return TrainResult(
        task, d_ff, activation, tuple(seeds), **detached, accuracy=correct.numpy(), losses=losses
    )
