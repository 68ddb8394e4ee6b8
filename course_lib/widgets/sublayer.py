"""Lesson 4's live demo: depth, norm placement and the residual path, redrawn at once."""

from __future__ import annotations

from functools import lru_cache

from matplotlib.figure import Figure

from course_lib.experiments.sublayer import depth_profile
from course_lib.plots.sublayer import DepthProfileView
from course_lib.widgets import Control, Demo

DEPTHS = (1, 2, 4, 8, 16)
NORMS = ("post", "pre", "none")
RESIDUALS = ("on", "off")


def render_depth_demo(depth: int = 8, norm: str = "post", residual: str = "on") -> Figure:
    """Per-layer W2 gradient and activation scale of one stack at initialisation (seed 0)."""
    if residual not in RESIDUALS:
        raise ValueError(f"residual must be one of {list(RESIDUALS)}, got {residual!r}")
    return _view().update(depth_profile(depth, norm, residual == "on"))


@lru_cache(maxsize=1)
def _view() -> DepthProfileView:
    return DepthProfileView()


def precompute() -> int:
    """Measure every (depth, norm, residual) of the demo now, so each later move only draws."""
    for depth in DEPTHS:
        for norm in NORMS:
            for residual in RESIDUALS:
                depth_profile(depth, norm, residual == "on")
    return len(DEPTHS) * len(NORMS) * len(RESIDUALS)


def demos() -> list[Demo]:
    return [
        Demo(
            "sublayer depth",
            (
                Control("depth", DEPTHS, 8),
                Control("norm", NORMS, "post", kind="toggle"),
                Control("residual", RESIDUALS, "on", kind="toggle"),
            ),
            render_depth_demo,
        )
    ]
