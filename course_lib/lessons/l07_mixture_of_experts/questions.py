"""Lesson 7's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "mixtral-active",
        "predict",
        N_(
            "Mixtral 8x7B has 8 experts in every layer and sends each token to 2 of them. What "
            "share of its parameters does one token use?"
        ),
        (
            Choice(
                N_("2 of 8: a quarter"),
                N_(
                    "Only the experts are split: attention, the norms and the embeddings are used "
                    "by every token, so the share is more than 2/8."
                ),
            ),
            Choice(
                N_("about 28 %"),
                N_(
                    "Right: the experts are 97 % of the weights and a token uses 2 of 8 of them; "
                    "the shared attention and embeddings add the rest."
                ),
                correct=True,
            ),
            Choice(
                N_("all of them"),
                N_("The router runs 2 experts per token; the other 6 of each layer stay idle."),
            ),
            Choice(
                N_("1 of 8"),
                N_(
                    "Mixtral's router picks the top 2, not the top 1 (that is the Switch Transformer)."
                ),
            ),
        ),
    ),
)
