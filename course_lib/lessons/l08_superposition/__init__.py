"""Lesson 8's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=8,
    topic="superposition",
    title=N_("Superposition: more features than neurons (叠加)"),
    minutes=90,
    goal=N_(
        "train the toy model of superposition and read its features' directions and dimensionality, test whether lesson 5's units serve more facts than a matched chance would, test whether a sparse dictionary reconstructs new inputs better than a lookup of its training inputs, and measure SAEs and transcoders as the papers do"
    ),
    mechanisms=(
        "dimensionality",
        "topk_encode",
        "dictionary.SparseDictionary",
        "dictionary.dictionary_loss",
        "fact_dictionaries.transcoder_hooks",
    ),
)

__getattr__, __dir__ = submodules(__name__)
