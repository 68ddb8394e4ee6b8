"""The one trainer every experiment uses, and the small batched MLPs of lessons 2 and 3.

Networks are trained together: the weights of every network are stacked and trained as one
batched model (torch.baddbmm), so a sweep over seeds, widths and activations costs little more
than one run. ``adam_steps`` is the training loop, written once; each experiment supplies its
models' losses. Results are data (never figures).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core._validate import choice, integer, positive_int, positive_number
from course_lib.core.experiments import DTYPE
from course_lib.core.experiments.tasks import TASKS, make_task
from course_lib.core.i18n import N_
from course_lib.core.model.ffn import ACTIVATIONS
from course_lib.core.progress import progress as progress_bar
from course_lib.core.threads import torch_threads


class Adam:
    """Adam (Kingma & Ba, 2015) on ``params``, each of which holds its gradient in ``.grad``:

        m ← β1·m + (1 − β1)·g        v ← β2·v + (1 − β2)·g²
        p ← p − lr/(1 − β1^t) · m / (√v/√(1 − β2^t) + ε)

    It computes what ``torch.optim.Adam`` computes with its defaults (no weight decay), in the
    same operations and order, so every stored run comes out bit for bit the same
    (tests/experiments/test_training.py checks both on a schedule). Written out here because
    ``torch.optim``'s first optimiser of a process imports ``torch._dynamo``: 1.5 s of a lesson's
    first training cell, for a compiler the course never uses."""

    def __init__(
        self,
        params: Sequence[torch.Tensor],
        lr: float,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
    ) -> None:
        self.params, self.lr, self.betas, self.eps = list(params), lr, betas, eps
        complex_ = [tuple(p.shape) for p in self.params if p.is_complex()]
        if complex_:  # torch.optim.Adam steps their real and imaginary parts apart
            raise TypeError(f"params must be real tensors, got complex ones of shapes {complex_}")
        self.m = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params]
        self.v = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params]
        self.t = [0] * len(self.params)  # per parameter: one without a gradient is not stepped

    @torch.no_grad()
    def step(self, lr: float | None = None) -> None:
        """One update of every parameter from its ``.grad``, at ``lr`` (else the rate given)."""
        lr = self.lr if lr is None else lr
        beta1, beta2 = self.betas
        for i, (p, m, v) in enumerate(zip(self.params, self.m, self.v, strict=True)):
            if p.grad is None:
                continue
            if p.grad.is_sparse:
                raise TypeError(f"params[{i}] has a sparse gradient; Adam takes dense ones")
            self.t[i] += 1
            step_size = lr / (1 - beta1 ** self.t[i])
            bias_correction2_sqrt = (1 - beta2 ** self.t[i]) ** 0.5
            m.lerp_(p.grad, 1 - beta1)
            v.mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
            p.addcdiv_(m, (v.sqrt() / bias_correction2_sqrt).add_(self.eps), value=-step_size)

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None


def adam_steps(
    params: Sequence[torch.Tensor],
    losses_at: Callable[[int], torch.Tensor],
    steps: int,
    lr: float,
    betas: tuple[float, float] = (0.9, 0.999),
    lr_at: Callable[[int], float] | None = None,
    progress: bool = False,
    description: str = N_("training: Adam steps"),
) -> np.ndarray:
    """The training loop: ``steps`` of full Adam on ``params``. ``losses_at(step)`` returns each
    model's loss, (models,); their sum is minimised, so each model follows its own gradient.
    ``lr_at(step)``, if given, sets the learning rate per step. With ``progress`` a bar shows the
    steps beside ``description`` (a catalogue text, course_lib.core.progress). Returns losses
    (models, steps)."""
    optimizer = Adam(params, lr=lr, betas=betas)
    history: np.ndarray | None = None
    for step in progress_bar(range(steps), description, show=progress):
        optimizer.zero_grad()
        per_model = losses_at(step)
        per_model.sum().backward()
        optimizer.step(None if lr_at is None else lr_at(step))
        # Copied into one array made once: a small tensor kept per step pins the freed pages of
        # the step's large ones (glibc's heap), 0.8 MB a step in a 10,000-step run.
        losses = per_model.detach().numpy()
        if history is None:
            history = np.empty((steps, *losses.shape), dtype=losses.dtype)
        history[step] = losses
    return np.ascontiguousarray(np.moveaxis(history, 0, 1))


def bce_per_model(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Binary cross-entropy of each model: logits, y (models, N, k) -> (models,)."""
    return F.binary_cross_entropy_with_logits(logits, y, reduction="none").mean(dim=(1, 2))


def accuracy(logits: torch.Tensor, y: torch.Tensor) -> np.ndarray:
    """Fraction of points with every label right, per model: (models, N, k) -> (models,)."""
    with torch.no_grad():
        return ((logits > 0) == (y > 0.5)).all(dim=2).double().mean(dim=1).numpy()


def uniform_layer(
    g: torch.Generator, fan_in: int, fan_out: int, spread: float = 1.0
) -> tuple[torch.Tensor, torch.Tensor]:
    """A linear layer's starting W (fan_in, fan_out) and b (1, fan_out), drawn from ``g`` in that
    order: uniform in ±1/sqrt(fan_in) like nn.Linear's default, W ``spread`` times wider."""
    bound = 1 / math.sqrt(fan_in)

    def uniform(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=g, dtype=DTYPE) * 2 - 1

    return uniform(fan_in, fan_out) * bound * spread, uniform(1, fan_out) * bound


def init_weights(seed: int, d_ff: int, k: int) -> dict[str, torch.Tensor]:
    """One seed's starting weights W1 (2, d_ff), b1 (1, d_ff), W2 (d_ff, k), b2 (1, k).

    ``uniform_layer`` for both layers, W1 three times wider so the lines start spread over the
    square; the same for a seed whether it is trained alone or in any batch.
    """
    g = torch.Generator().manual_seed(seed)
    W1, b1 = uniform_layer(g, 2, d_ff, spread=3)
    W2, b2 = uniform_layer(g, d_ff, k)
    return {"W1": W1, "b1": b1, "W2": W2, "b2": b2}


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

    def predict(self, points: np.ndarray | torch.Tensor) -> np.ndarray:
        """Probabilities (seeds, N, k) for points (N, 2)."""
        x = torch.as_tensor(points, dtype=DTYPE).expand(len(self.seeds), -1, -1)
        weights = [self.W1, self.b1, self.W2, self.b2]
        with torch.no_grad(), torch_threads(1):
            logits = mlp_logits(weights, x, ((self.activation, len(self.seeds)),))
        return torch.sigmoid(logits).numpy()


def stack_logits(layers: Sequence[torch.Tensor], x: torch.Tensor, activation: str) -> torch.Tensor:
    """Stacked networks of any depth, one per model: ``layers`` = [W1, b1, W2, b2, ...], each W
    (models, in, out) and b (models, 1, out); x (models, N, d_in) -> logits (models, N, d_out),
    ``activation`` between layers and none after the last."""
    h = x
    for i in range(0, len(layers), 2):
        h = torch.baddbmm(layers[i + 1], h, layers[i])
        if i + 2 < len(layers):
            h = ACTIVATIONS[activation](h)
    return h


def mlp_logits(params, x: torch.Tensor, blocks: Sequence[tuple[str, int]]) -> torch.Tensor:
    """Stacked networks 2 -> width -> k: x (models, N, 2) -> logits (models, N, k). ``blocks``
    lists (activation, how many consecutive models use it)."""
    W1, b1, W2, b2 = params
    pre = torch.baddbmm(b1, x, W1).split([n for _, n in blocks])
    hidden = torch.cat([ACTIVATIONS[a](part) for (a, _), part in zip(blocks, pre, strict=True)])
    return torch.baddbmm(b2, hidden, W2)


def _blocks(activations: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Runs of equal activations: ('relu', 'relu', 'tanh') -> (('relu', 2), ('tanh', 1))."""
    runs: list[list] = []
    for a in activations:
        if runs and runs[-1][0] == a:
            runs[-1][1] += 1
        else:
            runs.append([a, 1])
    return tuple((a, n) for a, n in runs)


def train_mlps(
    task: str, runs: Sequence[tuple[str, int, int]], steps: int, lr: float, n_points: int
) -> list[TrainResult]:
    """Train one 2 -> d_ff -> k network per (activation, d_ff, seed) of ``runs``, all at once.

    Narrower networks are zero-padded to the widest: a padded unit has zero weights in and out
    and act(0) = 0 for every activation here, so its gradients are zero and it never moves. Each
    network learns what it would learn alone (up to rounding). One TrainResult per run.
    """
    data, width = make_task(task, n_points), max(d for _, d, _ in runs)
    params = [p.requires_grad_() for p in _padded_init(runs, data.Y.shape[1], width)]
    # contiguous copies: bmm on a stride-0 (expanded) batch takes a path ~10x slower
    x = data.X.expand(len(runs), -1, -1).contiguous()
    y = data.Y.expand(len(runs), -1, -1).contiguous()
    blocks = _blocks([a for a, _, _ in runs])
    with torch_threads(1):
        losses = adam_steps(
            params, lambda _: bce_per_model(mlp_logits(params, x, blocks), y), steps, lr
        )
        correct = accuracy(mlp_logits(params, x, blocks), y)
    W1, b1, W2, b2 = (p.detach() for p in params)
    return [
        TrainResult(
            task,
            d,
            a,
            (s,),
            W1[i : i + 1, :, :d],
            b1[i : i + 1, :, :d],
            W2[i : i + 1, :d],
            b2[i : i + 1],
            accuracy=correct[i : i + 1],
            losses=losses[i : i + 1],
        )  # fmt: skip
        for i, (a, d, s) in enumerate(runs)
    ]


def _padded_init(runs, k: int, width: int) -> list[torch.Tensor]:
    """``init_weights`` of every run, zero-padded to ``width`` units and stacked."""
    inits = [init_weights(seed, d_ff, k) for _, d_ff, seed in runs]
    pads = [width - d_ff for _, d_ff, _ in runs]
    return [
        torch.stack([F.pad(w["W1"], (0, p)) for w, p in zip(inits, pads, strict=True)]),
        torch.stack([F.pad(w["b1"], (0, p)) for w, p in zip(inits, pads, strict=True)]),
        torch.stack([F.pad(w["W2"], (0, 0, 0, p)) for w, p in zip(inits, pads, strict=True)]),
        torch.stack([w["b2"] for w in inits]),
    ]


def stack_results(results: Sequence[TrainResult]) -> TrainResult:
    """Single-seed results of one task, width and activation as one TrainResult over seeds."""
    first = results[0]
    if any(
        (r.task, r.d_ff, r.activation) != (first.task, first.d_ff, first.activation)
        for r in results
    ):
        raise ValueError("results must share task, d_ff and activation to be stacked")
    return TrainResult(
        first.task, first.d_ff, first.activation, tuple(s for r in results for s in r.seeds),
        *(torch.cat([getattr(r, n) for r in results]) for n in ("W1", "b1", "W2", "b2")),
        accuracy=np.concatenate([r.accuracy for r in results]),
        losses=np.concatenate([r.losses for r in results]),
    )  # fmt: skip


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
    """One 2 -> d_ff -> k network per seed, trained together with full-batch Adam; cached. Where a
    learner trains one: every argument is checked here, none in the helpers it calls."""
    choice("task", task, TASKS)
    positive_int("d_ff", d_ff)
    choice("activation", activation, ACTIVATIONS)
    if not seeds or not isinstance(seeds, tuple):
        raise ValueError(f"seeds must be a non-empty tuple of ints, got {seeds!r}")
    for seed in seeds:
        integer("seed", seed)
    positive_int("steps", steps)
    positive_number("lr", lr)
    positive_int("n_points", n_points)
    runs = [(activation, d_ff, seed) for seed in seeds]
    return stack_results(train_mlps(task, runs, steps, lr, n_points))
