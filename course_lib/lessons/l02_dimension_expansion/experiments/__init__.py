"""Lesson 2 (dimension expansion): the data its decision pictures draw besides a trained network.

``true_boundary`` traces where a task's labels change, the black outline the width demo draws
over each network's decision. Data only (polylines), never figures.
"""

from __future__ import annotations

from functools import lru_cache

import contourpy
import numpy as np

from course_lib.core.discovery import submodules
from course_lib.core.experiments.tasks import label_grid
from course_lib.core.model.geometry import grid


@lru_cache(maxsize=8)
def true_boundary(task: str, resolution: int = 200) -> tuple[np.ndarray, ...]:
    """The task's true boundary as polylines, each (N, 2) in [-1, 1]^2: the 0.5 contour of every
    label of ``label_grid`` on a resolution x resolution grid, traced once per task (cached; the
    arrays are read-only). ``task`` is a name of ``tasks.TASKS``."""
    points = grid(resolution).reshape(resolution, resolution, 2)
    truth = label_grid(task, resolution).astype(float)
    lines: list[np.ndarray] = []
    for label in range(truth.shape[2]):
        generator = contourpy.contour_generator(points[..., 0], points[..., 1], truth[..., label])
        lines += generator.lines(0.5)
    for line in lines:
        line.flags.writeable = False
    return tuple(lines)


__getattr__, __dir__ = submodules(__name__)  # its modules load when first used
