"""Lesson 10's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``).

The feedback quotes the shares cell 36 prints; ``tests/lessons/l10_real_multilingual_ffn``
checks them against the stored pass."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "language-layers",
        "predict",
        N_(
            "Tang et al. find LLaMA-2's language-specific units mostly in its first and its last "
            "layers. In this 12-layer encoder, where will the Chinese units sit?"
        ),
        (
            Choice(
                N_("mostly in the last three layers"),
                N_(
                    "Right: 81 % of the Chinese units sit there. But 72 % of the candidates, the "
                    "units that clear the frequency bar, sit there too: the bar decides most of "
                    "it. Count them below, layer by layer."
                ),
                correct=True,
            ),
            Choice(
                N_("mostly in the first two layers"),
                N_(
                    "Only 2 % of the Chinese units sit there, against 10 % of the candidates. "
                    "The English units sit there more often (29 %): the answer differs between "
                    "the languages. Count them below."
                ),
            ),
            Choice(
                N_("mostly in the layers between"),
                N_(
                    "Layers 2 to 8 hold 17 % of the Chinese units, about as many as of the "
                    "candidates (18 %). Count them below."
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
