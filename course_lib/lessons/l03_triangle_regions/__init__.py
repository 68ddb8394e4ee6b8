"""Lesson 3's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=3,
    topic="triangle_regions",
    title=N_("Triangle regions: what the features of a ReLU layer mean (三角形区域与特征)"),
    minutes=85,
    goal=N_(
        'build by hand a 2 → 6 → 2 ReLU network deciding "inside the triangle?", see what nonlinearity loses and gains'
    ),
    mechanisms=("edge_weights", "and_gate", "or_gate", "detector_weights"),
)

__getattr__, __dir__ = submodules(__name__)
