"""Lesson 8's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "polysemantic-unit",
        "explain",
        N_(
            "One unit of lesson 5's model is a knowledge neuron of 45 of the 48 facts, of all four "
            "relations. What does that show?"
        ),
        (
            Choice(
                N_("that the model stores its facts in superposition"),
                N_(
                    "Superposition is one explanation, not the only one: a unit can serve many "
                    "facts because it computes something they all need, such as that an answer "
                    "comes next. The count alone cannot tell the two apart."
                ),
            ),
            Choice(
                N_("that facts of every relation share the unit, and no more"),
                N_(
                    "Right: the unit helps many facts of all four relations. Whether it answers "
                    "to unrelated features (polysemantic), and whether they sit in superposition, "
                    "or it does one job every fact needs, takes an intervention to decide."
                ),
                correct=True,
            ),
            Choice(
                N_("that the unit stores 45 facts"),
                N_(
                    "Erasing it would then remove 45 answers; an attribution says the unit helps "
                    "each answer, not that the answer is kept in it."
                ),
            ),
            Choice(
                N_("that the model ran out of units"),
                N_(
                    "Nothing here shows that: the count says how many facts a unit helps, not how "
                    "many features the layer holds against its dimensions. Whether the model stores "
                    "features in superposition, this count cannot tell."
                ),
            ),
        ),
    ),
)
