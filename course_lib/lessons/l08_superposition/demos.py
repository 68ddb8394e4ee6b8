"""Lesson 8's live demo: the toy model of superposition at each sparsity and importance decay of
the stored grid (``experiments.toy_grid``), so a move only draws."""

from __future__ import annotations

from functools import lru_cache

from course_lib.core._validate import grid_value
from course_lib.core.i18n import N_
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l08_superposition.experiments.toy import dimensionality
from course_lib.lessons.l08_superposition.experiments.toy_grid import (
    CURVE_EVERY,
    DECAYS,
    SPARSITIES,
    stored_grid,
)
from course_lib.lessons.l08_superposition.figures import ToyPicture, ToyView

# The stored sparsities are 1 - 20^-t (0.2831288…): the slider offers them to two decimals
SHOWN_SPARSITIES = tuple(round(S, 2) for S in SPARSITIES)


def toy_data(sparsity: float, decay: float) -> ToyPicture:
    """The stored model of one setting: ``sparsity`` as the slider shows it (two decimals),
    ``decay`` of the importance I_i = decay^i. Checked before the cache is asked (True == 1)."""
    grid_value("sparsity", sparsity, SHOWN_SPARSITIES)
    grid_value("decay", decay, DECAYS)
    return _toy_data(sparsity, decay)


@lru_cache(maxsize=64)
def _toy_data(sparsity: float, decay: float) -> ToyPicture:
    grid = stored_grid("superposition")
    i = [round(S, 2) for S in grid.axes["sparsity"]].index(sparsity)
    j = list(grid.axes["decay"]).index(decay)
    W = grid.W[i, j]
    return ToyPicture(
        grid.axes["sparsity"][i], decay, W, grid.b[i, j], dimensionality(W),
        float(grid.loss[i, j]), grid.curve[i, j], CURVE_EVERY,
    )  # fmt: skip


def demos() -> list[Demo]:
    default = min(SHOWN_SPARSITIES, key=lambda S: abs(S - 0.9))
    return [
        Demo(
            "toy",
            (
                Control("sparsity", SHOWN_SPARSITIES, default, label=N_("sparsity S")),
                Control("decay", DECAYS, 0.9, kind="toggle", label=N_("importance decay")),
            ),
            data=toy_data,
            view=ToyView,
        )
    ]
