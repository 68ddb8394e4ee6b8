"""Lesson 5's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question
from course_lib.lessons.l05_ffn_memory.papers import DAI_2022

QUESTIONS = (
    Question(
        "doubling-neurons",
        "predict",
        N_(
            "Dai et al. report that doubling a fact's knowledge neurons raises p(answer) by about "
            "{paper:.0%}. Here the model already gives every answer p > 0.95. Doubling the same 5 "
            "units, p(answer) on average…"
        ),
        (
            Choice(
                N_("rises, as in the paper"),
                N_(
                    "There is no room: a p above 0.95 can rise by 5 % at most, and the units do not "
                    "only push the answer."
                ),
            ),
            Choice(
                N_("does not change"),
                N_(
                    "Doubling 5 units of 512 is a large edit: it changes the logits of every word "
                    "those units' value vectors touch."
                ),
            ),
            Choice(
                N_("falls a little"),
                N_(
                    "Right: saturated answers cannot rise, and the doubled units also raise other "
                    "words; in log-odds, which have no ceiling, the fall is clear."
                ),
                correct=True,
            ),
        ),
        fields=(("paper", DAI_2022["amplify"]),),
    ),
)
