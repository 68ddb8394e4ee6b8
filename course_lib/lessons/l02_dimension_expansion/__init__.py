"""Lesson 2's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=2,
    topic="dimension_expansion",
    title=N_("Dimension expansion (升维), measured"),
    minutes=85,
    goal=N_(
        "explain and measure why d_ff > d_model, why the activation is needed, how capacity grows with width"
    ),
    mechanisms=("collapsed_rank", "swiglu", "regions"),
)

__getattr__, __dir__ = submodules(__name__)
