"""Lesson 2's fresh-run quantities: the stored runs on the 2-D tasks, the width sweep, the ratio sweep and the depths, each what a test computes again against what
its stored file holds (``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from course_lib.core.experiments.spread import Arrays, Quantity


def _train_result(result, index: int = 0) -> Arrays:
    from course_lib.core.experiments.stored_runs import FIELDS

    arrays = {name: getattr(result, name).numpy() for name in FIELDS}
    return arrays | {"losses": np.asarray(result.losses), "accuracy": np.asarray(result.accuracy)}


def _stored_run(task: str, d_ff: int, activation: str) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.stored_runs import LR, N_POINTS, STEPS
        from course_lib.core.experiments.training import train_mlp
        from course_lib.core.threads import torch_threads

        with torch_threads(1):
            return _train_result(train_mlp(task, d_ff, activation, (0,), STEPS, LR, N_POINTS))

    def stored() -> Arrays:
        from course_lib.core.experiments.stored_runs import LR, N_POINTS, STEPS, stored_or_trained

        return _train_result(stored_or_trained(task, d_ff, activation, 0, STEPS, LR, N_POINTS))

    return fresh, stored


def _xor_sweep() -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.sweeps import (
            load_sweep,
            sweep_widths,
        )

        stored = load_sweep("xor")
        return {
            "accuracy": sweep_widths("xor", stored.widths[:4], ("relu",), stored.seeds).accuracy[0]
        }

    def stored() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.sweeps import load_sweep

        sweep = load_sweep("xor")
        return {"accuracy": sweep.accuracy[sweep.activations.index("relu"), :4]}

    return fresh, stored


def _ratio_sweep(students: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.teacher import (
            ratio_sweep,
            stored_ratio_sweep,
        )

        ratios = stored_ratio_sweep().ratios[:students]
        return {"unexplained": ratio_sweep.__wrapped__(ratios=ratios).unexplained}

    def stored() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.teacher import (
            stored_ratio_sweep,
        )

        return {"unexplained": stored_ratio_sweep().unexplained[:students]}

    return fresh, stored


def _depths(depths: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.stacking import (
            DEPTHS_BUDGET,
            DEPTHS_TASK,
            compare_depths,
            stored_depths,
        )

        chosen = stored_depths().depths[:depths]
        result = compare_depths.__wrapped__(DEPTHS_TASK, chosen, DEPTHS_BUDGET)
        return {"accuracy": result.accuracy}

    def stored() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.stacking import stored_depths

        return {"accuracy": stored_depths().accuracy[:depths]}

    return fresh, stored


STORED_RUN_CASES = (("triangles", 6, "relu"), ("xor", 3, "tanh"), ("ring", 8, "gelu"),
                    ("spiral", 12, "gelu"))  # fmt: skip
QUANTITIES = (
    *(
        Quantity(f"stored run: {t} {d} {a}", *_stored_run(t, d, a), ("accuracy",))
        for t, d, a in STORED_RUN_CASES
    ),  # fmt: skip
    Quantity("width sweep: xor, relu, 4 widths", *_xor_sweep(), ("accuracy",)),
    Quantity("ratio sweep: the two narrowest students", *_ratio_sweep(2)),
    Quantity("depth comparison: 1 and 2 layers", *_depths(2), ("accuracy",)),
)
