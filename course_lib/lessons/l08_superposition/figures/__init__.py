"""Lesson 8's figures. The toy model of superposition (``figures.toy``): each feature's
direction as an arrow and its dimensionality, the arrows across the sparsities, and the phase
diagram of two features in one dimension."""

from __future__ import annotations

from course_lib.core.discovery import submodules
from course_lib.lessons.l08_superposition.figures.toy import (
    ToyPicture,
    ToyView,
    arrows_grid,
    phase_diagram,
)

__all__ = ["ToyPicture", "ToyView", "arrows_grid", "phase_diagram"]

__getattr__, __dir__ = submodules(__name__)  # its other modules load when first used
