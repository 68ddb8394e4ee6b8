"""Lesson 6's measurements: small mixtures of experts (2 -> E experts of width d_ff -> labels) on
lessons 2 and 3's tasks, trained with the course's one trainer, with and without the Switch
Transformer's balancing loss. Every expert of every network is computed in one batched product
(at this size that is faster than sending each expert its own tokens); ``moe_outputs`` equals
``model.moe.MixtureOfExperts`` with the same weights (tested)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from course_lib._validate import int_at_least, positive_int
from course_lib.experiments.tasks import make_task
from course_lib.experiments.training import accuracy, adam_steps, uniform_layer
from course_lib.model.geometry import grid
from course_lib.model.moe import balancing_loss, expert_load, top_k_gates
from course_lib.threads import torch_threads


def moe_init(seed: int, num_experts: int, d_ff: int, out: int) -> dict[str, torch.Tensor]:
    """One network's starting weights, nn.Linear's uniform ranges: router (2, E) without a bias,
    then each expert's W1 (2, d_ff), b1, W2 (d_ff, out), b2, stacked over the experts."""
    g = torch.Generator().manual_seed(seed)
    router, _ = uniform_layer(g, 2, positive_int("num_experts", num_experts))
    layers = [
        (*uniform_layer(g, 2, d_ff), *uniform_layer(g, d_ff, out)) for _ in range(num_experts)
    ]
    W1, b1, W2, b2 = (torch.stack([layer[i] for layer in layers]) for i in range(4))
    return {"router": router, "W1": W1, "b1": b1, "W2": W2, "b2": b2}


def moe_outputs(
    w: dict[str, torch.Tensor], X: torch.Tensor, k: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """(Σ_i gates_i(x) FFN_i(x), the router's logits) for points X (N, 2): (..., N, out) and
    (..., N, E), for one network's weights or many stacked along leading dimensions."""
    logits = X @ w["router"]
    hidden = torch.relu(torch.einsum("nd,...edh->...enh", X, w["W1"]) + w["b1"])  # (.., E, N, h)
    experts = torch.einsum("...enh,...eho->...eno", hidden, w["W2"]) + w["b2"]  # every expert
    return torch.einsum("...ne,...eno->...no", top_k_gates(logits, k), experts), logits


@dataclass(frozen=True)
class RouterRuns:
    """Networks trained on ``task`` for each balancing weight alpha and seed."""

    task: str
    num_experts: int
    k: int
    d_ff: int
    alphas: tuple[float, ...]
    seeds: tuple[int, ...]
    load: np.ndarray  # (alphas, seeds, E): the share of points whose top expert is each
    accuracy: np.ndarray  # (alphas, seeds)
    weights: tuple[tuple[dict[str, torch.Tensor], ...], ...]  # [alpha][seed]

    def used(self, share: float = 0.05) -> np.ndarray:
        """(alphas, seeds): how many experts take more than ``share`` of the points."""
        return (self.load > share).sum(axis=-1)


def train_routers(
    task: str = "spiral",
    num_experts: int = 8,
    k: int = 2,
    d_ff: int = 6,
    alphas: Sequence[float] = (0.0, 0.1),
    seeds: Sequence[int] = (0, 1, 2, 3),
    steps: int = 300,
    lr: float = 0.02,
    points: int = 2000,
) -> RouterRuns:
    """Train one network per (alpha, seed) on ``points`` of the task: binary cross-entropy plus
    alpha times the balancing loss. The same seed starts from the same weights for every alpha."""
    data = make_task(task, points)
    int_at_least("k", k, 1)
    runs = [(alpha, seed) for alpha in alphas for seed in seeds]
    starts = [moe_init(seed, num_experts, d_ff, data.Y.shape[1]) for _, seed in runs]
    w = {name: torch.stack([s[name] for s in starts]).requires_grad_(True) for name in starts[0]}
    y = data.Y.expand(len(runs), -1, -1)

    def losses(_step: int) -> torch.Tensor:  # every network at once, stacked along dim 0
        out, logits = moe_outputs(w, data.X, k)
        task_loss = F.binary_cross_entropy_with_logits(out, y, reduction="none").mean(dim=(1, 2))
        balance = torch.stack(
            [balancing_loss(z, a) for z, (a, _) in zip(logits, runs, strict=True)]
        )
        return task_loss + balance

    with torch_threads(1):  # tiny tensors: one thread, not two fighting over a busy machine
        adam_steps(list(w.values()), losses, steps, lr)
    with torch.no_grad(), torch_threads(1):
        out, logits = moe_outputs(w, data.X, k)
        load = torch.stack([expert_load(top_k_gates(z, k)) for z in logits]).numpy()
        right = accuracy(out, y)
    shape = (len(alphas), len(seeds))
    frozen = [{name: t[i].detach() for name, t in w.items()} for i in range(len(runs))]
    weights = tuple(tuple(frozen[a * len(seeds) : (a + 1) * len(seeds)]) for a in range(shape[0]))
    return RouterRuns(
        task,
        num_experts,
        k,
        d_ff,
        tuple(alphas),
        tuple(seeds),
        load.reshape(*shape, num_experts),
        right.reshape(shape),
        weights,
    )


def expert_map(
    w: dict[str, torch.Tensor], k: int, resolution: int = 120
) -> tuple[np.ndarray, np.ndarray]:
    """On a resolution x resolution grid over [-1, 1]^2: the router's top expert at every point,
    and the network's output logit there (its decision boundary is where it crosses 0)."""
    points = torch.as_tensor(grid(resolution), dtype=w["router"].dtype)
    with torch.no_grad(), torch_threads(1):
        out, logits = moe_outputs(w, points, k)
    shape = (resolution, resolution)
    return logits.argmax(dim=-1).numpy().reshape(shape), out[:, 0].numpy().reshape(shape)
