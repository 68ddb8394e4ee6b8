"""Lesson 2 demos: width and activation against decision regions, linear regions, gated budgets."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure

from course_lib.experiments.stored_runs import stored_or_trained
from course_lib.experiments.training import TASKS, init_weights, torch_threads
from course_lib.model.ffn import GATED_VARIANTS, count_gated_parameters, equal_budget_gated_d_ff
from course_lib.model.linear_regions import count_regions
from course_lib.plots.expansion import DecisionView, gated_budget_figure, region_picture
from course_lib.widgets import Control, Demo

WIDTHS = (1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128, 256)
ACTIVATIONS = ("relu", "gelu", "silu", "tanh", "identity")
STEPS, LR, N_POINTS = (
    200,
    0.05,
    1000,
)  # the sweep's settings; a first visit to d_ff=256 stays under 1 s
STORED_WIDTHS = tuple(
    w for w in WIDTHS if w <= 64
)  # trained ahead (stored_runs): a first visit only draws


def render_width(d_ff: int, activation: str, task: str) -> Figure:
    """Train (or fetch from the cache) a 2 -> d_ff -> k network and draw its decision regions."""
    with torch_threads(1):
        result = stored_or_trained(task, d_ff, activation, 0, STEPS, LR, N_POINTS)
    return _decision_view().update(result)


@lru_cache(maxsize=1)
def _decision_view() -> DecisionView:
    return DecisionView()


def render_regions(d_ff: int, seed: int) -> Figure:
    """The linear regions of an untrained ReLU layer 2 -> d_ff (the start of every training run)."""
    weights = init_weights(seed, d_ff, 1)
    W1, b1 = weights["W1"].numpy(), weights["b1"].numpy().ravel()
    return region_picture(W1, b1, count_regions(W1, b1))


def render_gated(d_model: int, d_ff: int, variant: str) -> Figure:
    """Live parameter counter: plain FFN against ReGLU/GEGLU/SwiGLU at the same and equal budget."""
    d_ff_equal = equal_budget_gated_d_ff(d_ff)
    fig = gated_budget_figure(
        d_model,
        d_ff,
        2 * d_model * d_ff,
        count_gated_parameters(d_model, d_ff),
        count_gated_parameters(d_model, d_ff_equal),
        d_ff_equal,
    )
    fig.axes[0].set_title(f"{variant}, d_model = {d_model}")
    return fig


def demos() -> list[Demo]:
    return [
        Demo(
            "width",
            (
                Control("d_ff", WIDTHS, 6),
                Control("activation", ACTIVATIONS, "relu", kind="dropdown"),
                Control("task", tuple(TASKS), "triangles", kind="dropdown"),
            ),
            render_width,
            trains=True,
            busy_text="training…",
        ),
        Demo(
            "regions",
            (Control("d_ff", (1, 2, 3, 4, 6, 8, 16, 32, 64), 8), Control("seed", (0, 1, 2, 3), 0)),
            render_regions,
        ),
        Demo(
            "gated",
            (
                Control("d_model", (64, 256, 512, 768, 1024), 512),
                Control("d_ff", tuple(int(v) for v in np.array([1, 2, 3, 4, 6, 8]) * 512), 2048),
                Control("variant", tuple(GATED_VARIANTS), "swiglu", kind="dropdown"),
            ),
            render_gated,
        ),
    ]
