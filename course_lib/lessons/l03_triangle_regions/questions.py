"""Lesson 3's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "ngon-doubling",
        "predict",
        N_(
            "An inscribed n-gon approximates a disc with n features. Doubling n divides the area "
            "it misses by about…"
        ),
        (
            Choice(N_("2"), N_("The gap shrinks faster than 1/n: every edge also gets shorter.")),
            Choice(
                N_("4"),
                N_("Right: the missed area shrinks like 1/n²."),
                correct=True,
            ),
            Choice(
                N_("8"),
                N_("That would be 1/n³: but there are n slivers of area ~1/n³, so ~1/n² in all."),
            ),
            Choice(
                N_("it does not shrink"),
                N_("More features describe the disc better: the gap goes to 0 as n grows."),
            ),
        ),
    ),
)
