"""Lesson 4's questions, asked with ``ask(key)`` (see ``course_lib.core.questions``)."""

from __future__ import annotations

from course_lib.core.i18n import N_
from course_lib.core.questions import Choice, Question

QUESTIONS = (
    Question(
        "layernorm-not-batchnorm",
        "explain",
        N_(
            "BatchNorm's output for sequence 1 changed when sequence 2 left the batch; LayerNorm's "
            "did not. Why do Transformers use LayerNorm?"
        ),
        (
            Choice(
                N_("A position's output depends on that position alone"),
                N_(
                    "Right: not on the batch, its padding or its size, and the same function runs at "
                    "training and at inference, where BatchNorm switches to running averages."
                ),
                correct=True,
            ),
            Choice(
                N_("BatchNorm cannot take 3-D tensors"),
                N_(
                    "It can: nn.BatchNorm1d took (batch, features, positions) above; what differs "
                    "is what it averages over, not the shape."
                ),
            ),
            Choice(
                N_("LayerNorm has no learnable parameters"),
                N_(
                    "It has two per feature, a gain γ and a bias β; RMSNorm is the one that drops "
                    "the bias."
                ),
            ),
            Choice(
                N_("Only LayerNorm removes the input's scale"),
                N_(
                    "Both remove it, over different axes: BatchNorm over the batch and the "
                    "positions, LayerNorm over each position's features."
                ),
            ),
        ),
    ),
    Question(
        "prenorm-last-layer",
        "predict",
        N_(
            "A pre-norm stack at initialisation grows from 2 to 16 layers. What happens to the "
            "gradient of its last layer's W2?"
        ),
        (
            Choice(
                N_("it falls, by a factor near √(2/16)"),
                N_(
                    "Right: the bound is O(d·√(ln d / L)); more layers dilute the last one's share."
                ),
                correct=True,
            ),
            Choice(
                N_("it stays the same"),
                N_("That is post-norm: its last-layer bound O(d·√ln d) does not depend on L."),
            ),
            Choice(
                N_("it grows with depth"),
                N_(
                    "Growth toward the output is what post-norm shows in the paper; pre-norm's "
                    "stream grows, and its normalised last layer sees a smaller share of it."
                ),
            ),
            Choice(
                N_("it vanishes"),
                N_(
                    "The residual path keeps every layer's gradient of order 1; it falls, but only "
                    "like 1/√L."
                ),
            ),
        ),
    ),
)
