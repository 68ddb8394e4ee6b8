"""Lesson 9's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "dictionary",
        "explain",
        N_(
            "With the dictionary the model translates every word's first token both ways, yet a "
            "fact taught only in the other language could not be told from one never taught, "
            "while a fact taught in one English phrasing is answered in the other. What does "
            "that show?"
        ),
        (
            Choice(
                N_(
                    "that knowing each word's translation did not detectably let this model "
                    "recall a fact in the other language, though it carries a fact between two "
                    "phrasings that share every token"
                ),
                N_(
                    "Right: the link between the words was learned, and the fact did not "
                    "detectably cross; where every token is shared (two phrasings), it did. Why (the answer "
                    "word, the input tokens or both) is not tested here, nor other links (parallel "
                    "sentences, shared names) or scale."
                ),
                correct=True,
            ),
            Choice(
                N_("that a model this small cannot carry a fact from one context to another"),
                N_(
                    "The positive control says it can: taught in one phrasing, a fact is "
                    "answered in the other far above the guess. Why the two languages do not "
                    "detectably transfer is not tested here."
                ),
            ),
            Choice(
                N_("that the dictionary was too small to be learned"),
                N_(
                    "The model translates every dictionary word's first token both ways, in every "
                    "seed: it was learned. It was not detectably used to recall facts."
                ),
            ),
            Choice(
                N_("that multilingual language models keep one memory per language"),
                N_(
                    "One two-layer model trained on 48 facts cannot speak for them: real models "
                    "read text where languages meet, and Xu, Li and Xiong find their facts cross "
                    "in part."
                ),
            ),
        ),
    ),
)
