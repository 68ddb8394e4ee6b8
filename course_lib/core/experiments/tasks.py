"""The 2-D tasks lessons 2 and 3 train on: points in the square [-1, 1]^2 and their labels.

Every task is multi-label: targets (N, k) in {0, 1}, one sigmoid output per label.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from course_lib.core.experiments import DTYPE
from course_lib.core.model.geometry import TRIANGLE_F, TRIANGLE_G, grid, inside


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
    """Uniform points in the square [-1, 1]^2 labelled by the task's rule (same seed, same points).
    ``name`` is one of ``TASKS``: its callers check what a learner gives (``training.train_mlp``)."""
    points = np.random.default_rng(seed).uniform(-1.0, 1.0, size=(n_points, 2))
    labels = TASKS[name](points).astype(np.float64)
    return Task(name, torch.tensor(points, dtype=DTYPE), torch.tensor(labels, dtype=DTYPE))


def label_grid(name: str, resolution: int = 200) -> np.ndarray:
    """The task's true labels on a resolution x resolution grid over [-1, 1]^2: (res, res, k)."""
    points = grid(resolution)
    return TASKS[name](points).reshape(resolution, resolution, -1)
