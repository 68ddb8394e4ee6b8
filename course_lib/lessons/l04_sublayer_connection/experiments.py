"""Why the residual and the norm: small, seeded measurements through a stack of layers.

A toy encoder stack whose sublayer connections can be post-norm, pre-norm or norm-free, with the
residual path on or off. ``depth_profile`` measures, at initialisation, the activation scale after
every layer and the gradient of every layer's FFN W2 (Xiong et al. 2020, "On Layer Normalization in
the Transformer Architecture"); ``warmup_race`` trains post- and pre-norm with and without
learning-rate warm-up on a toy sequence task. Results are data (arrays), cached by arguments.

The race the lesson shows is stored (``RACE_FILE``, rebuilt with
``python -m course_lib.lessons.l04_sublayer_connection.experiments``): ``stored_warmup_races`` reads it, and
``warmup_race`` trains any setting now.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, stack_module_state, vmap

from course_lib.core._validate import choice, flag, int_at_least, positive_int
from course_lib.core.experiments import DTYPE, default_dtype
from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.core.experiments.training import adam_steps
from course_lib.core.model.sublayer import EncoderLayer, LayerNorm, SublayerConnection
from course_lib.core.threads import torch_threads

PLACEMENTS = ("post", "pre", "none")


class ToyConnection(SublayerConnection):
    """The model's ``SublayerConnection`` (no dropout), post-norm or pre-norm, with the two
    ablations this experiment measures: the norm nowhere (``placement="none"``) or the residual
    path off. x: (batch, seq_len, d_model) -> same shape."""

    def __init__(self, d_model: int, placement: str = "post", residual: bool = True) -> None:
        choice("placement", placement, PLACEMENTS)
        super().__init__(d_model, 0.0, norm_first=placement == "pre")
        self.placement, self.residual = placement, flag("residual", residual)

    def forward(self, x: torch.Tensor, sublayer: Callable) -> torch.Tensor:
        if self.residual and self.placement != "none":
            return super().forward(x, sublayer)  # the model's connection, its formula unchanged
        h = sublayer(self.norm(x) if self.placement == "pre" else x)  # an ablation of it
        out = x + h if self.residual else h
        return self.norm(out) if self.placement == "post" else out


def xavier_init(module: nn.Module) -> nn.Module:
    """Xavier-uniform weights and zero biases for every Linear, as common implementations of the
    Transformer use (tensor2tensor, The Annotated Transformer; the paper names no initialisation).
    PyTorch's own default init gives far smaller sublayer outputs. A module may name the order
    its parts draw their weights in (``init_order``); otherwise registration order."""
    parts = module.init_order() if hasattr(module, "init_order") else [module]
    for layer in (m for part in parts for m in part.modules()):
        if isinstance(layer, nn.Linear):
            nn.init.xavier_uniform_(layer.weight)
            nn.init.zeros_(layer.bias)
    return module


class ToyEncoder(nn.Module):
    """``depth`` encoder layers (attention + FFN, no dropout); pre-norm adds a final LayerNorm,
    as pre-norm models do. x: (batch, seq_len, d_model) -> same shape."""

    def __init__(
        self,
        depth: int,
        placement: str = "post",
        residual: bool = True,
        d_model: int = 32,
        num_heads: int = 4,
        d_ff: int = 128,
    ) -> None:
        super().__init__()
        self.layers = nn.ModuleList(
            EncoderLayer(d_model, num_heads, d_ff, 0.0, norm_first=placement == "pre")
            for _ in range(positive_int("depth", depth))
        )
        for layer in self.layers:  # the model's block, its connections those of the experiment
            layer.sublayers = nn.ModuleList(
                ToyConnection(d_model, placement, residual) for _ in range(2)
            )
        self.final_norm = LayerNorm(d_model) if placement == "pre" else nn.Identity()

    def init_order(self) -> list[nn.Module]:
        """Every attention, then every FFN: the order the stack's weights are drawn in, as it was
        built before its layers were the model's ``EncoderLayer`` (so its numbers stay)."""
        return [layer.self_attn for layer in self.layers] + [layer.ffn for layer in self.layers]

    def forward(self, x: torch.Tensor, trace: list | None = None) -> torch.Tensor:
        """``trace``, if given, collects the stream after every layer (for activation scales)."""
        for layer in self.layers:
            x = layer(x)
            if trace is not None:
                trace.append(x)
        return self.final_norm(x)


@dataclass(frozen=True)
class DepthProfile:
    """Measurements of one stack at initialisation (index 0 = the layer nearest the input)."""

    depth: int
    placement: str
    residual: bool
    activation_rms: np.ndarray  # (depth + 1,): RMS of the stream, input first
    w2_grad: np.ndarray  # (depth,): ‖∂L/∂W2‖ of each layer's FFN
    loss: float
    output_rms: float  # RMS of the stack's output: after the final LayerNorm for pre-norm


@lru_cache(maxsize=256)
def depth_profile(
    depth: int, placement: str = "post", residual: bool = True, seed: int = 0
) -> DepthProfile:
    """One forward and backward pass of a fresh Xavier-initialised ``ToyEncoder`` (d_model 32)
    on random inputs (batch 8, seq 8) with a random linear read-out and cross-entropy loss."""
    positive_int("depth", depth)
    with torch_threads(1), default_dtype(DTYPE), torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)  # seeded locally: a cached call must not move the global RNG
        model = xavier_init(ToyEncoder(depth, placement, residual))
        head = nn.Linear(32, 16)
        x = torch.randn(8, 8, 32)
        target = torch.randint(0, 16, (8, 8))
        trace: list[torch.Tensor] = [x]
        output = model(x, trace)
        loss = F.cross_entropy(head(output).reshape(-1, 16), target.reshape(-1))
        loss.backward()
    rms = [float(t.detach().pow(2).mean().sqrt()) for t in trace]
    grads = [float(layer.ffn.linear2.weight.grad.norm()) for layer in model.layers]
    out_rms = float(output.detach().pow(2).mean().sqrt())
    return DepthProfile(
        depth, placement, residual, np.array(rms), np.array(grads), loss.item(), out_rms
    )


def mean_profile(
    depth: int,
    placement: str = "post",
    residual: bool = True,
    seeds: tuple[int, ...] = (0, 1, 2, 3),
) -> DepthProfile:
    """``depth_profile`` averaged over several initialisations, to see the trend through the noise."""
    if not seeds or not all(isinstance(s, int) for s in seeds):
        raise ValueError(f"seeds must be a non-empty tuple of ints, got {seeds!r}")
    runs = [depth_profile(depth, placement, residual, s) for s in seeds]
    return DepthProfile(
        depth,
        placement,
        residual,
        np.mean([r.activation_rms for r in runs], axis=0),
        np.mean([r.w2_grad for r in runs], axis=0),
        float(np.mean([r.loss for r in runs])),
        float(np.mean([r.output_rms for r in runs])),
    )


class ToySequenceModel(nn.Module):
    """Token embedding + learned positions -> ``ToyEncoder`` -> logits over the vocabulary.

    tokens: (batch, seq_len) ints -> logits (batch, seq_len, vocab).
    """

    def __init__(
        self, depth: int, placement: str, vocab: int = 8, seq_len: int = 6, d_model: int = 16
    ) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.randn(seq_len, d_model))
        self.encoder = ToyEncoder(depth, placement, True, d_model, num_heads=2, d_ff=4 * d_model)
        self.head = nn.Linear(d_model, vocab)
        xavier_init(self.encoder)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(self.embed(tokens) + self.pos))


def first_token_task(generator: torch.Generator, batch: int = 32, seq_len: int = 6, vocab: int = 8):
    """Random tokens (batch, seq_len); the target at every position is the first token."""
    tokens = torch.randint(0, vocab, (batch, seq_len), generator=generator)
    return tokens, tokens[:, :1].expand(-1, seq_len)


# A seed has learned the task when its final accuracy exceeds this (chance is 1/8). The race sits
# on an edge: a seed's accuracy after 80 steps moves by up to 0.13 when its inputs change by
# 1e-13 (docs/spread.md), and seeds cluster near 1 (learned) or below 0.65 (stalled); 0.8 keeps
# every seed on its side of the line.
LEARNED = 0.8
RACE_LR, RACE_SEEDS = 0.05, tuple(range(8))  # the race's peak learning rate and seeds


@dataclass(frozen=True)
class RaceResult:
    """One (norm placement, warm-up) setting trained from several seeds at once."""

    placement: str
    warmup_steps: int
    lr: float
    seeds: tuple[int, ...]
    losses: np.ndarray  # (seeds, steps): training loss per step
    accuracy: np.ndarray  # (seeds,): final accuracy on 256 fresh sequences

    @property
    def learned(self) -> int:
        """How many seeds learned the task: final accuracy above ``LEARNED``."""
        return int((self.accuracy > LEARNED).sum())


def _batched_models(depth: int, placement: str, seeds: tuple[int, ...]):
    """The models of every seed stacked into one set of tensors, run together with vmap."""
    models = []
    with torch.random.fork_rng(devices=[]):  # each seed's initialisation, the global RNG untouched
        for seed in seeds:
            torch.manual_seed(seed)
            models.append(ToySequenceModel(depth, placement))
    params, buffers = stack_module_state(models)
    skeleton = copy.deepcopy(models[0]).to("meta")

    def one(p, b, tokens):
        return functional_call(skeleton, (p, b), (tokens,))

    return params, buffers, vmap(one, in_dims=(0, 0, None), randomness="same")


def _losses(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Cross-entropy per seed: logits (seeds, batch, seq, vocab), target (batch, seq) -> (seeds,)."""
    flat = F.cross_entropy(
        logits.flatten(0, 2), target.expand(logits.shape[0], -1, -1).flatten(), reduction="none"
    )
    return flat.reshape(logits.shape[0], -1).mean(dim=1)


def learning_rate(step: int, steps: int, peak: float, warmup_steps: int) -> float:
    """Linear warm-up from 0 to ``peak`` over ``warmup_steps`` (学习率预热), then linear decay
    to 0 at ``steps``; with ``warmup_steps`` 0 the run starts at ``peak``. step counts from 0."""
    if not 0 <= step < steps:
        raise ValueError(f"step must lie in [0, {steps}), got {step!r}")
    warm = min(1.0, (step + 1) / warmup_steps) if warmup_steps else 1.0
    decay = 1.0 - max(0, step - warmup_steps) / (steps - warmup_steps)
    return peak * warm * decay


@lru_cache(maxsize=64)
def warmup_race(
    placement: str,
    warmup_steps: int = 20,
    lr: float = RACE_LR,
    steps: int = 80,
    depth: int = 2,
    seeds: tuple[int, ...] = RACE_SEEDS,
) -> RaceResult:
    """Adam on ``first_token_task`` for every seed at once, the learning rate following
    ``learning_rate`` (warm-up over ``warmup_steps``, 0 = none, then linear decay)."""
    choice("placement", placement, ("post", "pre"))
    positive_int("steps", steps)
    int_at_least("warmup_steps", warmup_steps, 0)
    if not seeds or not all(isinstance(s, int) for s in seeds):
        raise ValueError(f"seeds must be a non-empty tuple of ints, got {seeds!r}")
    with torch_threads(1), default_dtype(DTYPE):
        params, buffers, model = _batched_models(depth, placement, seeds)
        data = torch.Generator().manual_seed(1)

        def losses_at(_step: int) -> torch.Tensor:
            tokens, target = first_token_task(data)
            return _losses(model(params, buffers, tokens), target)

        losses = adam_steps(
            list(params.values()), losses_at, steps, lr, betas=(0.9, 0.98),
            lr_at=lambda step: learning_rate(step, steps, lr, warmup_steps),
        )  # fmt: skip
        tokens, target = first_token_task(torch.Generator().manual_seed(2), batch=256)
        with torch.no_grad():
            hits = model(params, buffers, tokens).argmax(-1) == target
    accuracy = hits.float().mean(dim=(1, 2)).numpy()
    return RaceResult(placement, warmup_steps, lr, tuple(seeds), losses, accuracy)


RACE_FILE = DATA / "warmup_race.npz"
RACES = (("post", 0), ("post", 20), ("pre", 0), ("pre", 20))  # (placement, warm-up steps)


def save_warmup_races(path: Path = RACE_FILE) -> int:
    """Train every setting of ``RACES`` with ``warmup_race``'s defaults and store the losses and
    accuracies; returns the file's size in bytes."""
    arrays: dict[str, object] = {}
    for placement, warmup in RACES:
        result = warmup_race.__wrapped__(placement, warmup)
        arrays[f"{placement}-{warmup}|losses"] = result.losses
        arrays[f"{placement}-{warmup}|accuracy"] = result.accuracy
    return save_npz(path, arrays, {"lr": RACE_LR, "seeds": RACE_SEEDS})


@lru_cache(maxsize=2)
def stored_warmup_races(path: Path = RACE_FILE) -> list[RaceResult]:
    """The stored race, one ``RaceResult`` per setting of ``RACES``, in that order."""
    arrays, settings = load_npz(
        path, "warm-up race", "course_lib.lessons.l04_sublayer_connection.experiments"
    )
    return [
        RaceResult(
            placement, warmup, settings["lr"], tuple(settings["seeds"]),
            arrays[f"{placement}-{warmup}|losses"], arrays[f"{placement}-{warmup}|accuracy"],
        )
        for placement, warmup in RACES
    ]  # fmt: skip


if (
    __name__ == "__main__"
):  # rebuild RACE_FILE: python -m course_lib.lessons.l04_sublayer_connection.experiments
    rebuild(save_warmup_races, RACE_FILE, f"{len(RACES)} settings")
