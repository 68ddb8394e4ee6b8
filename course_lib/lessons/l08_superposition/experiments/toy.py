"""Lesson 8: superposition in the toy model of Elhage et al. 2022 ("Toy Models of Superposition").

n sparse features squeezed into m < n dimensions and read out through a ReLU:

    h = W x              (m,)        W: (m, n), column W_i is feature i's direction
    x' = ReLU(Wᵀ h + b)  (n,)

trained to reconstruct x, each feature weighted by its importance I_i:
loss = mean over the batch of Σ_i I_i (x_i − x'_i)². Each feature is 0 with probability S (the
sparsity) and uniform in [0, 1] otherwise. Many such models train at once, one per setting
("instances" in the paper's code): W (instances, m, n), b (instances, n).

The paper's code trains with AdamW (weight decay 0.01), lr 1e-3, batches of 1024, 10,000 steps;
here the course's one trainer (Adam, no weight decay) with the same rate, batch and steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core.experiments import DTYPE
from course_lib.core.experiments.training import adam_steps
from course_lib.core.i18n import N_
from course_lib.core.threads import torch_threads

STEPS, BATCH, LR = 10_000, 1024, 1e-3  # the paper's code


def feature_batch(g: torch.Generator, batch: int, sparsity: torch.Tensor, n: int) -> torch.Tensor:
    """A batch of inputs for every instance: (batch, instances, n); feature i of instance k is 0
    with probability ``sparsity[k]``, else uniform in [0, 1]."""
    instances = len(sparsity)
    values = torch.rand(batch, instances, n, generator=g, dtype=DTYPE)
    present = torch.rand(batch, instances, n, generator=g, dtype=DTYPE) >= sparsity[:, None]
    return torch.where(present, values, torch.zeros((), dtype=DTYPE))


def reconstruct(
    W: torch.Tensor, b: torch.Tensor, x: torch.Tensor, relu: bool = True
) -> torch.Tensor:
    """x' = ReLU(Wᵀ W x + b): W (instances, m, n), b (instances, n), x (batch, instances, n).
    ``relu=False``: the linear model Wᵀ W x + b, the paper's control."""
    h = torch.einsum("kmn,bkn->bkm", W, x)  # (batch, instances, m)
    out = torch.einsum("kmn,bkm->bkn", W, h) + b
    return torch.relu(out) if relu else out


def weighted_loss(
    W: torch.Tensor,
    b: torch.Tensor,
    x: torch.Tensor,
    importance: torch.Tensor,
    relu: bool = True,
) -> torch.Tensor:
    """Each instance's loss, mean over the batch of Σ_i I_i (x_i − x'_i)²: (instances,).
    ``importance``: (instances, n)."""
    return (importance * (x - reconstruct(W, b, x, relu)) ** 2).sum(-1).mean(0)


@dataclass(frozen=True)
class ToyRun:
    """Trained toy models, one per setting: W (instances, m, n), b (instances, n), the losses at
    every step (instances, steps) and the settings each instance was trained with."""

    W: np.ndarray
    b: np.ndarray
    losses: np.ndarray
    sparsity: np.ndarray  # (instances,)
    importance: np.ndarray  # (instances, n)
    relu: bool = True


def train_toy(
    m: int,
    sparsity: np.ndarray,
    importance: np.ndarray,
    seed: int = 0,
    steps: int = STEPS,
    batch: int = BATCH,
    lr: float = LR,
    relu: bool = True,
    bias: bool = True,
    progress: bool = False,
) -> ToyRun:
    """Train one toy model per row of ``importance`` (instances, n), with that instance's
    ``sparsity`` (instances,), all at once. W starts Xavier-normal (the paper's code), b at 0.
    Controls: ``relu=False`` trains the linear model, ``bias=False`` keeps b at 0. With
    ``progress`` a bar counts the Adam steps (course_lib.core.progress)."""
    S = torch.as_tensor(np.asarray(sparsity, dtype=float), dtype=DTYPE)
    weights = torch.as_tensor(np.asarray(importance, dtype=float), dtype=DTYPE)
    instances, n = weights.shape
    g = torch.Generator().manual_seed(seed)
    std = (2 / (m + n)) ** 0.5  # Xavier normal
    W = (std * torch.randn(instances, m, n, generator=g, dtype=DTYPE)).requires_grad_()
    b = torch.zeros(instances, n, dtype=DTYPE, requires_grad=bias)
    trained = [W, b] if bias else [W]
    with torch_threads(1):
        losses = adam_steps(
            trained,
            lambda _: weighted_loss(W, b, feature_batch(g, batch, S, n), weights, relu),
            steps,
            lr,
            progress=progress,
            description=N_("training the toy model: Adam steps"),
        )
    W_, b_ = W.detach().numpy(), b.detach().numpy()
    return ToyRun(W_, b_, losses, S.numpy(), weights.numpy(), relu)


def dimensionality(W: np.ndarray) -> np.ndarray:
    """Each feature's dimensionality (the paper's D_i): ‖W_i‖² / Σ_j (Ŵ_i · W_j)², the share of
    a dimension feature i has to itself. W: (..., m, n) -> (..., n); a feature with no direction
    (‖W_i‖ = 0) has D_i = 0."""
    norms = np.linalg.norm(W, axis=-2)  # (..., n)
    unit = W / np.maximum(norms, 1e-12)[..., None, :]
    overlaps = np.einsum("...mi,...mj->...ij", unit, W) ** 2  # (Ŵ_i · W_j)²
    return np.where(norms > 1e-12, norms**2 / np.maximum(overlaps.sum(-1), 1e-24), 0.0)


def evaluate(run: ToyRun, samples: int = 20_000, seed: int = 1) -> np.ndarray:
    """Each instance's loss on a fixed sample of ``samples`` inputs drawn apart from training:
    (instances,). Compares seeds fairly; the training losses are each one random batch."""
    g = torch.Generator().manual_seed(seed)
    W, b = torch.as_tensor(run.W), torch.as_tensor(run.b)
    S, weights = torch.as_tensor(run.sparsity), torch.as_tensor(run.importance)
    with torch.no_grad():
        x = feature_batch(g, samples, S, weights.shape[1])
        return weighted_loss(W, b, x, weights, run.relu).numpy()
