"""Gradient descent on the triangles task: does training find the six edges the lesson builds
by hand? Helpers around ``course_lib.experiments.training`` (data, never plots).

``train_widths`` trains every width of a sweep in ONE batched model: each network is padded with
zero hidden units up to the widest one. A zero unit outputs act(0) = 0 and has zero weight out,
so its gradients are exactly zero and Adam never moves it: each padded network follows the same
path as ``train_mlp`` would give it alone (up to rounding), for the cost of a single run.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import torch
import torch.nn.functional as F

from course_lib._validate import choice, positive_int
from course_lib.experiments.training import TrainResult, init_weights, make_task
from course_lib.model.ffn import ACTIVATIONS
from course_lib.model.geometry import TRIANGLE_F, TRIANGLE_G, half_planes
from course_lib.threads import torch_threads

D_FFS = tuple(range(2, 13))
SEEDS = (0, 1, 2)
STEPS = 300
LR = 0.05
N_POINTS = 1000
_SWEEPS: dict[str, dict[int, TrainResult]] = {}  # activation -> the default sweep, once trained


def _padded_init(seed: int, d_ff: int, k: int, width: int) -> list[torch.Tensor]:
    """train_mlp's initialisation for (seed, d_ff), padded with zero units to ``width``."""
    w, pad = init_weights(seed, d_ff, k), width - d_ff
    return [
        F.pad(w["W1"], (0, pad)),
        F.pad(w["b1"], (0, pad)),
        F.pad(w["W2"], (0, 0, 0, pad)),
        w["b2"],
    ]


def _forward(params: list[torch.Tensor], x: torch.Tensor, activation: str) -> torch.Tensor:
    W1, b1, W2, b2 = params
    return torch.baddbmm(b2, ACTIVATIONS[activation](torch.baddbmm(b1, x, W1)), W2)


@lru_cache(maxsize=16)
def train_widths(
    activation: str = "relu",
    d_ffs: tuple[int, ...] = D_FFS,
    seeds: tuple[int, ...] = SEEDS,
    steps: int = STEPS,
    lr: float = LR,
) -> dict[int, TrainResult]:
    """2 -> d_ff -> 2 networks on (in_f, in_g) for every width and seed, trained together
    (full-batch Adam, as train_mlp); returns one TrainResult per width (cached by arguments)."""
    choice("activation", activation, ACTIVATIONS)
    positive_int("steps", steps)
    if not d_ffs or not seeds:
        raise ValueError(f"d_ffs and seeds must be non-empty, got {d_ffs!r} and {seeds!r}")
    for d_ff in d_ffs:
        positive_int("d_ff", d_ff)
    with torch_threads(1):
        return _train(activation, d_ffs, seeds, steps, lr)


def _train(activation, d_ffs, seeds, steps, lr) -> dict[int, TrainResult]:
    data, width = make_task("triangles", N_POINTS), max(d_ffs)
    pairs = [(d, s) for d in d_ffs for s in seeds]
    inits = [_padded_init(s, d, data.Y.shape[1], width) for d, s in pairs]
    params = [torch.stack(ts).requires_grad_() for ts in zip(*inits, strict=True)]
    # contiguous copies: bmm on a stride-0 (expanded) batch takes a path ~10x slower
    x = data.X.expand(len(pairs), -1, -1).contiguous()
    y = data.Y.expand(len(pairs), -1, -1).contiguous()
    optimizer = torch.optim.Adam(params, lr=lr)
    losses = np.empty((len(pairs), steps))
    for step in range(steps):
        optimizer.zero_grad()
        per_model = F.binary_cross_entropy_with_logits(
            _forward(params, x, activation), y, reduction="none"
        ).mean(dim=(1, 2))
        per_model.sum().backward()  # each model's gradient is its own loss's gradient
        optimizer.step()
        losses[:, step] = per_model.detach().numpy()
    with torch.no_grad():
        correct = (
            ((_forward(params, x, activation) > 0).float() == y).all(dim=2).float().mean(dim=1)
        )
    return _split(params, correct.numpy(), losses, activation, d_ffs, seeds)


def _split(params, accuracy, losses, activation, d_ffs, seeds) -> dict[int, TrainResult]:
    W1, b1, W2, b2 = (p.detach() for p in params)
    results, n = {}, len(seeds)
    for i, d in enumerate(d_ffs):
        rows = slice(i * n, (i + 1) * n)
        results[d] = TrainResult(
            "triangles", d, activation, tuple(seeds), W1[rows, :, :d], b1[rows, :, :d],
            W2[rows, :d], b2[rows], accuracy=accuracy[rows], losses=losses[rows],
        )  # fmt: skip
    return results


def width_sweep(
    activation: str = "relu", d_ffs: tuple[int, ...] = D_FFS, seeds: tuple[int, ...] = SEEDS
) -> np.ndarray:
    """Accuracy (every label right) for each width and seed: (len(d_ffs), len(seeds))."""
    results = train_widths(activation, tuple(d_ffs), tuple(seeds))
    if (tuple(d_ffs), tuple(seeds)) == (D_FFS, SEEDS):
        _SWEEPS[activation] = results
    return np.stack([results[d].accuracy for d in d_ffs])


def trained(d_ff: int, activation: str = "relu") -> TrainResult:
    """The default seeds' networks of width ``d_ff``: from the sweep if it ran, else trained alone,
    so a first visit trains one width only. Alone or padded they start from the same weights and
    follow the same steps; only rounding differs (long runs drift apart by ~1e-2 in a weight)."""
    if activation in _SWEEPS and d_ff in _SWEEPS[activation]:
        return _SWEEPS[activation][d_ff]
    return train_widths(activation, (positive_int("d_ff", d_ff),))[d_ff]


def hidden_lines(
    result: TrainResult, seed_index: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lines w_j · p + b_j = 0 of the hidden units of one trained network, normalised to
    |w_j| = 1: normals (d_ff, 2), offsets (d_ff,), and each unit's weight in the output (d_ff,)."""
    if not 0 <= seed_index < len(result.seeds):
        raise ValueError(f"seed_index must be in [0, {len(result.seeds)}), got {seed_index}")
    w = result.W1[seed_index].numpy().T  # (d_ff, 2)
    b = result.b1[seed_index, 0].numpy()
    norm = np.linalg.norm(w, axis=1)
    norm = np.where(norm == 0, 1.0, norm)
    importance = np.abs(result.W2[seed_index].numpy()).sum(axis=1) * norm
    return w / norm[:, None], b / norm, importance


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
