"""Lesson 6's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=6,
    topic="locating_and_editing",
    title=N_("Locate a fact, then rewrite it (定位并编辑事实)"),
    minutes=90,
    goal=N_(
        "locate where the model reads a fact by causal tracing, rewrite it with a rank-one edit, and compare edits fairly at matched strength with CounterFact's scores"
    ),
    mechanisms=("tracing.causal_trace", "rank_one", "edit_methods.rank_one_change"),
)

__getattr__, __dir__ = submodules(__name__)
