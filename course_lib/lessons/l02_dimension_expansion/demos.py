"""Lesson 2 demos: width and activation against decision regions, linear regions, gated budgets.

Each ``<demo>_data`` computes what its picture shows from the controls alone (training or
fetching a stored run, the linear regions of an initial layer, parameter counts) and hands it to
a view from ``course_lib.lessons.l02_dimension_expansion.figures``, which only draws.
"""

from __future__ import annotations

import numpy as np

from course_lib.core._validate import choice, int_at_least, positive_int
from course_lib.core.experiments.stored_runs import ACTIVATIONS, WIDTHS, stored_or_trained
from course_lib.core.experiments.tasks import TASKS
from course_lib.core.experiments.training import init_weights
from course_lib.core.i18n import N_
from course_lib.core.model.ffn import (
    GATED_VARIANTS,
    NUMPY_ACTIVATIONS,
    count_gated_parameters,
    count_parameters,
    equal_budget_gated_d_ff,
)
from course_lib.core.model.geometry import grid, line_segments, unit_lines
from course_lib.core.model.linear_regions import count_regions, region_bound, region_map
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l02_dimension_expansion.experiments import true_boundary
from course_lib.lessons.l02_dimension_expansion.figures import (
    TASK_NAMES,
    DecisionData,
    DecisionView,
    GatedBudgetData,
    GatedBudgetView,
    RegionsData,
    RegionsView,
)

DECISION_RESOLUTION = 100  # grid points per side of the width demo's decision picture
REGIONS_RESOLUTION = 160  # grid points per side of the regions demo's picture
REGIONS_WIDTHS = (1, 2, 3, 4, 6, 8, 16, 32, 64)
REGIONS_SEEDS = (0, 1, 2, 3)
GATED_D_MODELS = (64, 256, 512, 768, 1024)
GATED_D_FFS = (512, 1024, 1536, 2048, 3072, 4096)
GATE_Z = np.linspace(-3.0, 3.0, 121)  # where the gated demo draws its gate activation


def width_data(d_ff: int, activation: str, task: str) -> DecisionData:
    """A 2 -> d_ff -> k network trained on ``task`` (stored, or trained now and cached, with the
    stored runs' settings; seed 0): its label probabilities on the grid, its units' lines, the
    task's true boundary, its loss curve, accuracy and parameter count."""
    result = stored_or_trained(
        task, d_ff, activation
    )  # a value it does not store: train_mlp checks
    points = grid(DECISION_RESOLUTION)
    probabilities = result.predict(points)[0].reshape(DECISION_RESOLUTION, DECISION_RESOLUTION, -1)
    weights = [t[0].numpy() for t in (result.W1, result.b1, result.W2, result.b2)]
    return DecisionData(
        task=task,
        d_ff=d_ff,
        activation=activation,
        probabilities=probabilities,
        truth=true_boundary(task),
        unit_segments=line_segments(*unit_lines(weights[0], weights[1])),
        losses=result.losses[0],
        accuracy=float(result.accuracy[0]),
        parameters=sum(w.size for w in weights),
    )


def regions_data(d_ff: int, seed: int) -> RegionsData:
    """The linear regions inside [-1, 1]^2 of an untrained ReLU layer 2 -> d_ff (the starting
    weights of every training run with this seed): each grid point's region, the exact count,
    the bound 1 + n + n(n-1)/2 and the units' lines."""
    positive_int("d_ff", d_ff)
    int_at_least("seed", seed, 0)
    weights = init_weights(seed, d_ff, 1)
    W1, b1 = weights["W1"].numpy(), weights["b1"].numpy().ravel()
    return RegionsData(
        d_ff=d_ff,
        labels=region_map(W1, b1, REGIONS_RESOLUTION),
        count=count_regions(W1, b1),
        bound=region_bound(d_ff),
        unit_segments=line_segments(*unit_lines(W1, b1)),
    )


def gated_data(d_model: int, d_ff: int, variant: str) -> GatedBudgetData:
    """Weights of a plain FFN (2 d_model d_ff), of a gated one at the same d_ff and at the
    equal-budget d_ff' = round(2/3 d_ff): the same for every variant. What the variant changes is
    its gate's activation (ReGLU: ReLU, GEGLU: GELU, SwiGLU: SiLU), returned on ``GATE_Z``."""
    positive_int("d_model", d_model)
    positive_int("d_ff", d_ff)
    activation = GATED_VARIANTS[choice("variant", variant, GATED_VARIANTS)]
    d_ff_equal = equal_budget_gated_d_ff(d_ff)
    return GatedBudgetData(
        d_model=d_model,
        d_ff=d_ff,
        d_ff_equal=d_ff_equal,
        variant=variant,
        activation=activation,
        plain=count_parameters(d_model, d_ff, bias=False),  # gated FFNs have no biases either
        gated_same=count_gated_parameters(d_model, d_ff),
        gated_equal=count_gated_parameters(d_model, d_ff_equal),
        z=GATE_Z.copy(),
        gate=NUMPY_ACTIVATIONS[activation](GATE_Z),
    )


# the width demo's tasks in the learner's language, in the order of TASKS; the values stay code names
TASK_LABELS = tuple(TASK_NAMES[task] for task in TASKS)


def demos() -> list[Demo]:
    return [
        Demo(
            "width",
            (
                Control("d_ff", WIDTHS, 6),
                Control("activation", ACTIVATIONS, "relu", kind="dropdown", label=N_("activation")),
                Control(
                    "task",
                    tuple(TASKS),
                    "triangles",
                    kind="dropdown",
                    labels=TASK_LABELS,
                    label=N_("task"),
                ),
            ),
            data=width_data,
            view=DecisionView,
        ),
        Demo(
            "regions",
            (
                Control("d_ff", REGIONS_WIDTHS, 8),
                Control("seed", REGIONS_SEEDS, 0, label=N_("random seed")),
            ),
            data=regions_data,
            view=RegionsView,
        ),
        Demo(
            "gated",
            (
                Control("d_model", GATED_D_MODELS, 512),
                Control("d_ff", GATED_D_FFS, 2048),
                Control(
                    "variant",
                    tuple(GATED_VARIANTS),
                    "swiglu",
                    kind="dropdown",
                    label=N_("FFN variant"),
                ),
            ),
            data=gated_data,
            view=GatedBudgetView,
        ),
    ]
