"""Lesson 2's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "regions-three-units",
        "predict",
        N_(
            "One ReLU layer with 3 units draws 3 lines in the plane, in general position. Into how "
            "many linear regions do they cut it?"
        ),
        (
            Choice(
                N_("3"),
                N_("3 lines make more pieces than lines: each one cuts the ones it crosses."),
            ),
            Choice(
                N_("6"),
                N_("6 is three lines through one point; in general position no three meet."),
            ),
            Choice(
                N_("7"),
                N_("Right: 1 + n + n(n−1)/2 = 1 + 3 + 3; the middle triangle is the 7th region."),
                correct=True,
            ),
            Choice(
                N_("8"),
                N_(
                    "8 = 2³ on/off patterns, but three lines in general position leave one pattern "
                    "without a region."
                ),
            ),
        ),
    ),
)
