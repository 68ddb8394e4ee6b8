"""Lesson 10's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "language-layers",
        "predict",
        N_(
            "Tang et al. find LLaMA-2's language-specific units mostly in its first and its last "
            "layers. In this 12-layer encoder, where will the English and the Chinese units sit?"
        ),
        (
            Choice(
                N_("mostly in the top layers"),
                N_(
                    "Right for this model, above all for its Chinese units: count them below, "
                    "layer by layer, beside the units that can be chosen at all."
                ),
                correct=True,
            ),
            Choice(
                N_("mostly in the bottom layers"),
                N_(
                    "The bottom layers read single tokens, which differ between the languages; "
                    "yet here the units that fire on one language far more than the other sit "
                    "higher. Count them below."
                ),
            ),
            Choice(
                N_("mostly in the middle layers"),
                N_(
                    "The middle layers are where multilingual models are found to share the "
                    "most across languages, the opposite of language-specific units."
                ),
            ),
            Choice(
                N_("nowhere: a multilingual encoder has no language-specific units"),
                N_(
                    "Tang et al.'s rule always selects 1 % of the units; the question is only "
                    "where they sit and whether they matter."
                ),
            ),
        ),
    ),
)
