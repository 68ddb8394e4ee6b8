"""Lesson 6's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "trace-peak",
        "predict",
        N_(
            "The subject's input embedding is drowned in noise, then one FFN's output is "
            'restored from the clean run at one position of "the capital of velor is". In this '
            "two-layer model, which FFN output brings p(answer) back most?"
        ),
        (
            Choice(
                N_("layer 0's, at the subject, velor"),
                N_(
                    "That is where Meng et al. find it in GPT-2 XL, in the middle layers. Here it "
                    "brings back almost nothing: restoring states at the last word brings back "
                    "the most."
                ),
            ),
            Choice(
                N_("layer 1's, at the last word, is"),
                N_(
                    "Right: layer 0's attention moves the subject to the last word, and restoring "
                    "layer 1's FFN output there brings back the most."
                ),
                correct=True,
            ),
            Choice(
                N_("layer 0's, at the last word, is"),
                N_(
                    "It brings some back, but less than layer 1's: restoring layer 1's FFN output "
                    "brings back more."
                ),
            ),
            Choice(
                N_("layer 0's, at the relation word, capital"),
                N_(
                    "Positions before the subject never see the noise (attention is causal): "
                    "restoring them changes nothing."
                ),
            ),
        ),
    ),
)
