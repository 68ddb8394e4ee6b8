"""Lesson 1's live demo: d_ff and the activation against size, cost and hidden activity."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch
from matplotlib.figure import Figure

from course_lib._validate import positive_int
from course_lib.model.ffn import (
    ACTIVATIONS,
    FeedForward,
    activation_fn,
    count_parameters,
    flops_per_token,
)
from course_lib.plots.ffn import HiddenActivityView
from course_lib.widgets import Control, Demo

D_MODEL = 512
D_FF_VALUES = (64, 128, 256, 512, 1024, 2048, 4096)


@lru_cache(maxsize=1)
def fixed_batch() -> torch.Tensor:
    """The fixed input every view uses: 2 sequences of 4 tokens, d_model = 512 (the seed's shape)."""
    return torch.randn(2, 4, D_MODEL, generator=torch.Generator().manual_seed(0))


@lru_cache(maxsize=1)
def _pre_activations() -> torch.Tensor:
    """x W1 + b1 of one freshly initialised FFN (seed 0) with the widest d_ff: (8, max d_ff)."""
    torch.manual_seed(0)
    widest = FeedForward(D_MODEL, max(D_FF_VALUES), dropout=0.0).eval()
    with torch.no_grad():
        return widest.linear1(fixed_batch()).reshape(-1, max(D_FF_VALUES))


def hidden_activity(d_ff: int, activation: str) -> np.ndarray:
    """Hidden values act(x W1 + b1) of an initialised FFN on the fixed batch: (8, d_ff).

    nn.Linear draws each hidden unit's weights from U(-1/sqrt(d_model), 1/sqrt(d_model)) whatever
    d_ff is, so the first d_ff units of one wide layer are a fresh d_ff-wide layer: one matmul
    serves every slider value.
    """
    positive_int("d_ff", d_ff)
    if d_ff > max(D_FF_VALUES):
        raise ValueError(f"d_ff must be at most {max(D_FF_VALUES)}, got {d_ff}")
    with torch.no_grad():
        return activation_fn(activation)(_pre_activations()[:, :d_ff]).numpy()


@lru_cache(maxsize=1)
def _view() -> HiddenActivityView:
    return HiddenActivityView()


def render_width_demo(d_ff: int = 2048, activation: str = "relu") -> Figure:
    """The demo's picture for one slider value and one activation (one figure, updated in place)."""
    return _view().update(
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
