"""Lesson 9's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=9,
    topic="two_languages",
    title=N_("One memory, two languages (跨语言)"),
    minutes=70,
    goal=N_(
        "train lesson 5's fact model on its facts in English and in Chinese, some in one language only, and find whether a fact taught in one language is recalled in the other, with and without a dictionary, beside what the units, an edit and the experts show"
    ),
    mechanisms=("bilingual.taught", "transfer.ask", "activation_probability", "lape"),
)

__getattr__, __dir__ = submodules(__name__)
