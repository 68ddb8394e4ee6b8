"""At Transformer scale: FFN students of width d_ff = ratio * d_model fit a fixed teacher network.

Each token x (d_model,) is drawn fresh every step (no over-fitting to a finite set), the target
is a wider random FFN's output, and the score is the fraction of the target's variance the
student leaves unexplained on held-out tokens. Students of one width train together (bmm).

The sweep the lesson shows, ``ratio_sweep()`` with its defaults, is stored (``SWEEP_FILE``, rebuilt
with ``python -m course_lib.lessons.l02_dimension_expansion.experiments.teacher``): ``stored_ratio_sweep`` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core._validate import positive_int
from course_lib.core.experiments import DTYPE
from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.core.experiments.training import adam_steps, stack_logits, uniform_layer
from course_lib.core.model.ffn import count_parameters, flops_per_token
from course_lib.core.threads import torch_threads


def teacher(d_model: int, d_ff: int, seed: int = 1234):
    """A fixed random GELU FFN (d_model -> d_ff -> d_model): the function every student imitates."""
    g = torch.Generator().manual_seed(seed)
    W1 = torch.randn(d_model, d_ff, generator=g, dtype=DTYPE) * 2 / d_model**0.5
    b1 = torch.randn(d_ff, generator=g, dtype=DTYPE) * 0.5
    W2 = torch.randn(d_ff, d_model, generator=g, dtype=DTYPE) / d_ff**0.5

    def f(x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x @ W1 + b1) @ W2

    return f


@dataclass(frozen=True)
class RatioSweep:
    """Per d_ff/d_model ratio: d_ff, parameters, FLOPs per token, unexplained variance (ratios, seeds)."""

    d_model: int
    steps: int  # Adam steps per student
    ratios: tuple[float, ...]
    d_ff: tuple[int, ...]
    parameters: tuple[int, ...]
    flops: tuple[int, ...]
    unexplained: np.ndarray


def _batches(target, d_model: int, steps: int, batch: int) -> list[tuple[torch.Tensor, ...]]:
    """Fresh tokens for every step and the teacher's outputs for them, then held-out tokens: the
    same for every student width, so the teacher runs once per token, not once per width."""
    data = torch.Generator().manual_seed(99)
    xs = [torch.randn(batch, d_model, generator=data, dtype=DTYPE) for _ in range(steps)]
    held_out = torch.randn(2048, d_model, generator=torch.Generator().manual_seed(7), dtype=DTYPE)
    with torch.no_grad():
        return [(x, target(x)) for x in xs] + [(held_out, target(held_out))]


def _fit(batches, d_model: int, d_ff: int, seeds, lr: float) -> np.ndarray:
    """Students of width ``d_ff``, one per seed, trained together from ``uniform_layer``'s start."""
    drawn = []
    for seed in seeds:
        g = torch.Generator().manual_seed(seed)
        drawn.append((*uniform_layer(g, d_model, d_ff), *uniform_layer(g, d_ff, d_model)))
    W1, b1, W2, b2 = (torch.stack(ts) for ts in zip(*drawn, strict=True))
    params = [t.requires_grad_() for t in (W1, b1, W2, b2)]

    def student(x: torch.Tensor) -> torch.Tensor:
        return stack_logits(params, x.expand(len(seeds), -1, -1), "relu")

    def losses(step: int) -> torch.Tensor:
        x, y = batches[step]
        return ((student(x) - y) ** 2).mean(dim=(1, 2))

    adam_steps(params, losses, len(batches) - 1, lr)
    with torch.no_grad():
        x, y = batches[-1]
        return (((student(x) - y) ** 2).mean(dim=(1, 2)) / y.var(dim=0).mean()).numpy()


@lru_cache(maxsize=8)
@torch_threads(1)
def ratio_sweep(
    d_model: int = 64,
    ratios: tuple[float, ...] = (0.25, 0.5, 1, 2, 4, 8),
    seeds: tuple[int, ...] = (0, 1),
    steps: int = 200,
    batch: int = 128,
    lr: float = 3e-3,
    teacher_ratio: int = 16,
) -> RatioSweep:
    """Fit a teacher of width teacher_ratio * d_model with students at each ratio; cached."""
    positive_int("d_model", d_model)
    positive_int("steps", steps)
    if not ratios or any(not isinstance(r, (int, float)) or r <= 0 for r in ratios):
        raise ValueError(f"ratios must be positive numbers, got {ratios!r}")
    if not seeds:
        raise ValueError("seeds must be non-empty, got ()")
    target = teacher(d_model, positive_int("teacher_ratio", teacher_ratio) * d_model)
    batches = _batches(target, d_model, steps, batch)
    widths = _widths(d_model, ratios)
    unexplained = np.array([_fit(batches, d_model, w, seeds, lr) for w in widths])
    return _sweep(d_model, steps, ratios, unexplained)


def _widths(d_model: int, ratios: tuple[float, ...]) -> tuple[int, ...]:
    return tuple(max(1, round(r * d_model)) for r in ratios)


def _sweep(
    d_model: int, steps: int, ratios: tuple[float, ...], unexplained: np.ndarray
) -> RatioSweep:
    """The sweep's record: each student's width, parameters and FLOPs beside what it missed."""
    widths = _widths(d_model, ratios)
    return RatioSweep(
        d_model,
        steps,
        tuple(ratios),
        widths,
        tuple(count_parameters(d_model, w) for w in widths),
        tuple(flops_per_token(d_model, w) for w in widths),
        unexplained,
    )


SWEEP_FILE = DATA / "ratio_sweep.npz"


def save_ratio_sweep(path: Path = SWEEP_FILE) -> int:
    """Run ``ratio_sweep`` with its defaults and store it; returns the file's size in bytes."""
    sweep = ratio_sweep.__wrapped__()
    settings = {"d_model": sweep.d_model, "steps": sweep.steps, "ratios": sweep.ratios}
    return save_npz(path, {"unexplained": sweep.unexplained}, settings)


@lru_cache(maxsize=2)
def stored_ratio_sweep(path: Path = SWEEP_FILE) -> RatioSweep:
    """The stored ``ratio_sweep()``: the students' unexplained variance read, the counts computed."""
    arrays, settings = load_npz(
        path, "ratio sweep", "course_lib.lessons.l02_dimension_expansion.experiments.teacher"
    )
    ratios = tuple(settings["ratios"])
    return _sweep(settings["d_model"], settings["steps"], ratios, arrays["unexplained"])


if (
    __name__ == "__main__"
):  # rebuild SWEEP_FILE: python -m course_lib.lessons.l02_dimension_expansion.experiments.teacher
    rebuild(save_ratio_sweep, SWEEP_FILE, "the sweep")
