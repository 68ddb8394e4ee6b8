"""Lesson 3's fresh-run quantities: the trained triangle networks of three widths, each what a test computes again against what
its stored file holds (``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from course_lib.core.experiments.spread import Arrays, Quantity


def _trained_width(d_ff: int, activation: str) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l03_triangle_regions.experiments import train_widths

        return _width(train_widths.__wrapped__(activation, (d_ff,))[d_ff])

    def stored() -> Arrays:
        from course_lib.lessons.l03_triangle_regions.experiments import stored_trained

        return _width(stored_trained(d_ff, activation))

    return fresh, stored


def _width(result) -> Arrays:
    arrays = {name: getattr(result, name).numpy() for name in ("W1", "b1", "W2", "b2")}
    return arrays | {"losses": np.asarray(result.losses), "accuracy": np.asarray(result.accuracy)}


TRAINED_WIDTH_CASES = ((6, "relu"), (12, "tanh"), (2, "gelu"))
QUANTITIES = tuple(
    Quantity(f"trained width: {d} {a}", *_trained_width(d, a), ("accuracy",))
    for d, a in TRAINED_WIDTH_CASES
)
