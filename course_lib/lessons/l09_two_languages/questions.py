"""Lesson 9's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "dictionary",
        "explain",
        N_(
            "With the dictionary, the model translates every name both ways, and still shows no "
            "detectable sign of one memory per fact. What does that show?"
        ),
        (
            Choice(
                N_(
                    "that knowing a word's translation left no detectable sign of one memory, in "
                    "this model"
                ),
                N_(
                    "Right: the link between the words was learned, and no sign of one memory was "
                    "found. Other links (facts stated across languages, a larger model) are not "
                    "tested."
                ),
                correct=True,
            ),
            Choice(
                N_("that multilingual models keep one memory per language"),
                N_(
                    "Chen et al. report knowledge neurons shared across languages in real "
                    "multilingual models; one two-layer model on 48 facts cannot speak for them."
                ),
            ),
            Choice(
                N_("that the dictionary was too small to be learned"),
                N_(
                    "The model answers every dictionary entry both ways: it was learned. What it "
                    "did not show is any sign of storing the facts once."
                ),
            ),
            Choice(
                N_("that the attribution cannot find shared units"),
                N_(
                    "It resolves a fraction of a unit, and on lesson 6's model it finds what two "
                    "phrasings of a fact share beyond their answer: it has the power to find "
                    "sharing of that size, for two phrasings of one name; for two different names "
                    "its power is untested."
                ),
            ),
        ),
    ),
)
