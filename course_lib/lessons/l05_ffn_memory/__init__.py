"""Lesson 5's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson, submodules

LESSON = Lesson(
    number=5,
    topic="ffn_memory",
    title=N_("What the FFN stores: keys and values in a small language model (键值记忆)"),
    minutes=55,
    goal=N_(
        "open a small trained language model and find the FFN units that store its facts: keys, values, erasing a memory, sparse activations"
    ),
    mechanisms=("memory.attributions", "value_projection", "find_fact_unit"),
)

__getattr__, __dir__ = submodules(__name__)
