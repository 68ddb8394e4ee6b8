"""Lesson 5's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``). Every reply
says only what the lesson measures, in the cell the question folds."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question
from course_lib.lessons.l05_ffn_memory.papers import DAI_2022

QUESTIONS = (
    Question(
        "erasing-neurons",
        "predict",
        N_(
            "Each fact's 5 most attributed units (of 512) are zeroed together at its prompt's "
            "last word. On average over the 48 facts, what happens to p(answer) of that fact, "
            "and of the unrelated facts (another entity, another relation) under the same edit?"
        ),
        (
            Choice(
                N_("the fact's p falls to almost 0; unrelated facts keep theirs"),
                N_(
                    "Five units do not hold a whole fact here: the fact loses over half of its "
                    "p on average, from under a fifth to nearly all, and unrelated facts lose "
                    "some too, less than half as much."
                ),
            ),
            Choice(
                N_("the fact's p falls by over half; unrelated facts lose less, but not nothing"),
                N_(
                    "Right: the fact loses over half on average, unrelated facts less than half "
                    "as much, and five random firing units almost nothing (within 3 %)."
                ),
                correct=True,
            ),
            Choice(
                N_("the fact and the unrelated facts lose about the same"),
                N_(
                    "The units chosen by a fact's attribution serve it more than other facts: "
                    "the fact is hit harder than the unrelated facts, for nearly every fact."
                ),
            ),
            Choice(
                N_("hardly anything changes: 5 units of 512 are too few"),
                N_(
                    "Five random units among those that fire barely matter (within 3 %), but these "
                    "five are the units whose erasure alone costs their fact most: together they "
                    "take over half of p(answer) on average."
                ),
            ),
        ),
    ),
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
                    "There is little room: no answer here could rise even 2 %. And it does not "
                    "rise here: p falls for every fact, and so do the log-odds, which have no "
                    "ceiling."
                ),
            ),
            Choice(
                N_("does not change"),
                N_(
                    "It changes: the answer's log-odds fall for all 48 facts when their 5 units "
                    "are doubled."
                ),
            ),
            Choice(
                N_("falls, for every fact"),
                N_(
                    "Right: p falls for every fact, by a fraction of a percent for some and "
                    "nearly all of it for others, and so do the log-odds, which have no ceiling; "
                    "the ceiling of p is not the whole story. Where the fall comes from is tested "
                    "next."
                ),
                correct=True,
            ),
        ),
        fields=(("paper", DAI_2022["amplify"]),),
    ),
)
