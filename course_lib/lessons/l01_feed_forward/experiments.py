"""Lesson 1's measurement: the hidden activity of a freshly initialised FFN on a fixed batch.

``hidden_activity(d_ff, activation)`` runs the seed's test input (2 sequences of 4 tokens,
d_model = 512) through the first layer of an FFN of width ``d_ff`` and returns the hidden values
after the activation. It is pure: the same arguments give the same array whatever ran before, and
it leaves the global torch random state as it found it.

The FFN itself is float32, like the lesson's own: the lesson prints only the shares of positive
and exactly-zero units. Its input is drawn in float64 (``course_lib.core.experiments.DTYPE``) and then
rounded to float32: float32 ``torch.randn`` draws other numbers on AVX2 than on scalar kernels,
float64 draws the same on every CPU. nn.Linear's uniform initialisation is the same everywhere.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch
from torch import nn

from course_lib.core._validate import positive_int
from course_lib.core.experiments import DTYPE
from course_lib.core.model.ffn import activation_fn

D_MODEL = 512
TOKENS = 8  # the fixed batch: 2 sequences x 4 tokens
WIDEST_D_FF = 4096  # the widest layer; every narrower one is its first d_ff units
SEED = 0


@lru_cache(maxsize=1)
def fixed_batch() -> torch.Tensor:
    """The fixed input: 2 sequences of 4 tokens, d_model = 512 (the seed's test shape)."""
    g = torch.Generator().manual_seed(SEED)
    return torch.randn(2, 4, D_MODEL, generator=g, dtype=DTYPE).float()


@lru_cache(maxsize=1)
def _pre_activations() -> torch.Tensor:
    """x W1 + b1 of one FFN initialised with seed 0 at the widest d_ff: (8, WIDEST_D_FF).

    Only the first layer is built: FeedForward creates linear1 first, so with the same seed this
    is its W1 and b1 exactly (a test checks), at half the cost of initialising the whole FFN.
    """
    with torch.random.fork_rng(devices=[]):  # nn.Linear draws from the global generator
        torch.manual_seed(SEED)
        linear1 = nn.Linear(D_MODEL, WIDEST_D_FF)
    with torch.no_grad():
        return linear1(fixed_batch()).reshape(TOKENS, WIDEST_D_FF)


def hidden_activity(d_ff: int, activation: str) -> np.ndarray:
    """Hidden values act(x W1 + b1) of an initialised FFN on the fixed batch: (8, d_ff).

    nn.Linear draws each hidden unit's weights from U(-1/sqrt(d_model), 1/sqrt(d_model)) whatever
    d_ff is, so the first d_ff units of one wide layer are a fresh d_ff-wide layer: one matmul
    serves every width. ``activation`` is one of ``course_lib.core.model.ffn.ACTIVATIONS``.
    """
    positive_int("d_ff", d_ff)
    if d_ff > WIDEST_D_FF:
        raise ValueError(f"d_ff must be at most {WIDEST_D_FF}, got {d_ff}")
    act = activation_fn(activation)
    with torch.no_grad():  # a copy: the identity would hand out a view of the cached tensor
        return act(_pre_activations()[:, :d_ff]).numpy().copy()
