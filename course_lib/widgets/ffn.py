"""Lesson 1's live demo: d_ff and the activation against size, cost and hidden activity."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch
from matplotlib.figure import Figure

from course_lib.ffn import ACTIVATIONS, FeedForward, count_parameters, flops_per_token
from course_lib.plots.ffn import hidden_activity_figure
from course_lib.widgets import Control, Demo

D_MODEL = 512
D_FF_VALUES = (64, 128, 256, 512, 1024, 2048, 4096)


@lru_cache(maxsize=1)
def fixed_batch() -> torch.Tensor:
    """The fixed input every view uses: 2 sequences of 4 tokens, d_model = 512 (the seed's shape)."""
    return torch.randn(2, 4, D_MODEL, generator=torch.Generator().manual_seed(0))


@lru_cache(maxsize=64)
def hidden_activity(d_ff: int, activation: str) -> np.ndarray:
    """Hidden values act(x W1 + b1) of a freshly initialised FFN (seed 0) on the fixed batch: (8, d_ff)."""
    torch.manual_seed(0)
    ffn = FeedForward(D_MODEL, d_ff, dropout=0.0, activation=activation).eval()
    with torch.no_grad():
        return ffn.hidden(fixed_batch()).reshape(-1, d_ff).numpy()


def render_width_demo(d_ff: int = 2048, activation: str = "relu") -> Figure:
    """The demo's picture for one slider value and one activation."""
    return hidden_activity_figure(
        hidden_activity(d_ff, activation),
        d_ff,
        activation,
        count_parameters(D_MODEL, d_ff),
        flops_per_token(D_MODEL, d_ff),
    )


def width_demo() -> Demo:
    return Demo(
        name="ffn width and activation",
        controls=(
            Control("d_ff", D_FF_VALUES, 2048),
            Control("activation", tuple(ACTIVATIONS), "relu", kind="dropdown"),
        ),
        render=render_width_demo,
    )


def demos() -> list[Demo]:
    return [width_demo()]
