"""Lesson 7's live demo: how many experts, how many per point (k) and how strong the balancing
loss, and where the router sends the plane. Every setting is a stored, trained network
(``experiments.moe.ROUTER_FILE``), so a move only draws."""

from __future__ import annotations

from functools import lru_cache

from course_lib.core._validate import grid_value
from course_lib.core.i18n import N_
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l07_mixture_of_experts.experiments import (
    GRID_ALPHAS,
    GRID_EXPERTS,
    GRID_K,
    expert_map,
    router_runs,
)
from course_lib.lessons.l07_mixture_of_experts.figures import RouterPicture, RouterView


def router_data(experts: int, k: int, alpha: float) -> RouterPicture:
    """Seed 0's map and every seed's load and accuracy for one setting of the grid. The values
    are checked before the cache is asked: True hashes as 1 and would find 1's entry."""
    grid_value("experts", experts, GRID_EXPERTS)
    grid_value("k", k, GRID_K)
    grid_value("alpha", alpha, GRID_ALPHAS)
    return _router_data(experts, k, alpha)


@lru_cache(maxsize=32)
def _router_data(experts: int, k: int, alpha: float) -> RouterPicture:
    runs = router_runs(experts, k, (alpha,))
    picture = expert_map(runs.weights[0][0], k)
    return RouterPicture(experts, k, alpha, runs.seeds[0], picture, runs.load[0], runs.accuracy[0])


def demos() -> list[Demo]:
    return [
        Demo(
            "router",
            (
                Control("experts", GRID_EXPERTS, 8, kind="toggle", label=N_("experts")),
                Control("k", GRID_K, 2, kind="toggle"),
                Control("alpha", GRID_ALPHAS, 0.0, kind="toggle", label=N_("balance weight α")),
            ),
            data=router_data,
            view=RouterView,
        )
    ]
