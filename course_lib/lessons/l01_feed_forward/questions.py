"""Lesson 1's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "ffn-flops-width",
        "predict",
        N_(
            "At d_model = 512, d_ff goes from 256 to 2048: eight times as wide. By how much do the "
            "FFN's FLOPs per token grow?"
        ),
        (
            Choice(
                N_("×8"),
                N_(
                    "Right: both matrices have d_model·d_ff weights, so the work is linear in d_ff."
                ),
                correct=True,
            ),
            Choice(
                N_("×64"),
                N_(
                    "That would be quadratic in d_ff; each weight is used once per token, and there "
                    "are 2·d_model·d_ff of them."
                ),
            ),
            Choice(
                N_("×4"),
                N_("Both W1 and W2 grow with d_ff, not only one of them: count 2·d_model·d_ff."),
            ),
            Choice(
                N_("not at all"),
                N_(
                    "FLOPs per token do not depend on the sequence length, but they do on the width."
                ),
            ),
        ),
    ),
    Question(
        "position-wise",
        "explain",
        N_(
            "Running the FFN on one position at a time gives the same output as running it on the "
            "whole sequence. What follows?"
        ),
        (
            Choice(
                N_("The FFN cannot move information from one token to another"),
                N_(
                    "Right: each output row depends on its own input row only; moving information "
                    "between tokens is attention's job."
                ),
                correct=True,
            ),
            Choice(
                N_("A Transformer ignores the order of the words"),
                N_(
                    "The FFN does, but the model does not: the order enters through the positional "
                    "encoding, and attention mixes the positions."
                ),
            ),
            Choice(
                N_("Each position has its own FFN weights"),
                N_(
                    "The opposite: one W1 and one W2 serve every position; that is why a "
                    "kernel-size-1 convolution computes the same thing."
                ),
            ),
            Choice(
                N_("The FFN works only for sequences of a fixed length"),
                N_(
                    "It works for any length: it sees one position at a time, so the length never "
                    "enters its weights."
                ),
            ),
        ),
    ),
)
