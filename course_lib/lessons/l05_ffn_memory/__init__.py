"""Lesson 5's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=5,
    topic="ffn_memory",
    title=N_("What the FFN stores: keys and values in a small language model (键值记忆)"),
    minutes=90,
    goal=N_(
        "open a small trained language model and read how its FFN units hold its facts: keys, values, erasing and doubling a fact's units, sparse activations"
    ),
    mechanisms=("memory.attributions", "value_projection", "costliest_unit"),
)

__getattr__, __dir__ = submodules(__name__)
