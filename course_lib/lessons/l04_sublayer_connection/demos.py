"""Lesson 4's live demo: depth, norm placement and the residual path, redrawn at once."""

from __future__ import annotations

from itertools import product

from course_lib.core._validate import choice
from course_lib.core.i18n import N_
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l04_sublayer_connection.experiments import (
    PLACEMENTS,
    DepthProfile,
    depth_profile,
)
from course_lib.lessons.l04_sublayer_connection.figures import DepthProfileView

DEPTHS = (1, 2, 4, 8, 16)
NORMS = PLACEMENTS  # "post", "pre", "none"
RESIDUALS = ("on", "off")


def depth_data(depth: int, norm: str, residual: str) -> DepthProfile:
    """One stack at initialisation (seed 0): per-layer ‖∂L/∂W2‖ and the stream's RMS after
    each layer. Pure: ``depth_profile`` is a cached, seeded measurement."""
    choice("norm", norm, NORMS)
    choice("residual", residual, RESIDUALS)
    return depth_profile(depth, norm, residual == "on")


def precompute() -> int:
    """Measure every (depth, norm, residual) of the demo now, so each later move only draws.
    Returns how many settings it measured."""
    settings = list(product(DEPTHS, NORMS, RESIDUALS))
    for depth, norm, residual in settings:
        depth_data(depth, norm, residual)
    return len(settings)


def demos() -> list[Demo]:
    return [
        Demo(
            "sublayer depth",
            (
                Control("depth", DEPTHS, 8, label=N_("layers")),
                Control(
                    "norm",
                    NORMS,
                    "post",
                    kind="toggle",
                    labels=(N_("post-norm"), N_("pre-norm"), N_("no norm")),
                    label=N_("normalisation"),
                ),
                Control(
                    "residual",
                    RESIDUALS,
                    "on",
                    kind="toggle",
                    labels=(N_("on"), N_("off")),
                    label=N_("residual connection"),
                ),
            ),
            data=depth_data,
            view=DepthProfileView,
        )
    ]
