"""Lesson 1's live demo: d_ff and the activation against size, cost and hidden activity."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.model.ffn import ACTIVATIONS, count_parameters, flops_per_token
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l01_feed_forward.experiments import D_MODEL, WIDEST_D_FF, hidden_activity
from course_lib.lessons.l01_feed_forward.figures import HiddenActivityData, HiddenActivityView

D_FF_VALUES = (64, 128, 256, 512, 1024, 2048, WIDEST_D_FF)


def width_data(d_ff: int, activation: str) -> HiddenActivityData:
    """The hidden values of a freshly initialised 512 -> d_ff FFN on the fixed batch (8 tokens),
    with its parameter count and FLOPs per token. Pure: the same controls give the same data."""
    return HiddenActivityData(
        hidden=hidden_activity(d_ff, activation),
        d_ff=d_ff,
        activation=activation,
        parameters=count_parameters(D_MODEL, d_ff),
        flops=flops_per_token(D_MODEL, d_ff),
    )


def width_demo() -> Demo:
    """The demo: a d_ff slider and an activation dropdown, drawn by a ``HiddenActivityView``."""
    return Demo(
        name="ffn width and activation",
        controls=(
            Control("d_ff", D_FF_VALUES, 2048),
            Control(
                "activation", tuple(ACTIVATIONS), "relu", kind="dropdown", label=N_("activation")
            ),
        ),
        data=width_data,
        view=HiddenActivityView,
    )


def demos() -> list[Demo]:
    return [width_demo()]
