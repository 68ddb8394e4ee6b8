"""Questions a lesson asks before it shows the answer (问答): predict a number, or explain a result.

One definition per question: its prompt, its choices and a reply for each choice, the wrong ones
naming the misconception they come from. The notebook asks it with a small widget
(``course_lib.core.widgets.quiz.ask``), the static site renders the same question as a form that
answers in the page with no kernel (``devtools.site``), and the tests check both against it.
Every text is English marked with ``N_`` and shown in the learner's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from course_lib.core.i18n import N_, tr
from course_lib.core.literature import DAI_2022

__all__ = ["KINDS", "QUESTIONS", "Choice", "Question", "question"]

KINDS = ("predict", "explain")


@dataclass(frozen=True)
class Choice:
    text: str  # what the learner picks
    reply: str  # why it is right, or which misconception it comes from
    correct: bool = False


@dataclass(frozen=True)
class Question:
    key: str  # stable: the site keeps a reader's answer under it
    kind: str  # "predict": commit to a result before the cell computes it; "explain": why
    prompt: str
    choices: tuple[Choice, ...]
    fields: tuple[tuple[str, float], ...] = ()  # numbers the prompt quotes, e.g. a paper's

    @property
    def text(self) -> str:
        """The prompt in the learner's language, with its numbers filled in."""
        return tr(self.prompt, **dict(self.fields))

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if len(self.choices) < 2:
            raise ValueError(
                f"question {self.key!r} needs at least 2 choices, got {len(self.choices)}"
            )
        right = [c for c in self.choices if c.correct]
        if len(right) != 1:
            raise ValueError(
                f"question {self.key!r} needs exactly one correct choice, got {len(right)}"
            )

    @property
    def answer(self) -> int:
        """The index of the correct choice."""
        return next(i for i, c in enumerate(self.choices) if c.correct)

    def reply(self, choice: int) -> tuple[bool, str]:
        """(whether ``choice`` is right, the reply to it in the learner's language)."""
        if not isinstance(choice, int) or isinstance(choice, bool):
            raise TypeError(f"choice must be an int index, got {type(choice).__name__}")
        if not 0 <= choice < len(self.choices):
            raise ValueError(
                f"choice must be between 0 and {len(self.choices) - 1} for {self.key!r}, got {choice}"
            )
        picked = self.choices[choice]
        return picked.correct, tr(picked.reply)


_QUESTIONS = (
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
        "regions-three-units",
        "predict",
        N_(
            "One ReLU layer with 3 units draws 3 lines in the plane, in general position. Into how "
            "many linear regions do they cut it?"
        ),
        (
            Choice(
                N_("3"),
                N_("3 lines make more pieces than lines: each one cuts the ones it crosses."),
            ),
            Choice(
                N_("6"),
                N_("6 is three lines through one point; in general position no three meet."),
            ),
            Choice(
                N_("7"),
                N_("Right: 1 + n + n(n−1)/2 = 1 + 3 + 3; the middle triangle is the 7th region."),
                correct=True,
            ),
            Choice(
                N_("8"),
                N_(
                    "8 = 2³ on/off patterns, but three lines in general position leave one pattern "
                    "without a region."
                ),
            ),
        ),
    ),
    Question(
        "ngon-doubling",
        "predict",
        N_(
            "An inscribed n-gon approximates a disc with n features. Doubling n divides the area "
            "it misses by about…"
        ),
        (
            Choice(N_("2"), N_("The gap shrinks faster than 1/n: every edge also gets shorter.")),
            Choice(
                N_("4"),
                N_("Right: the missed area shrinks like 1/n²."),
                correct=True,
            ),
            Choice(
                N_("8"),
                N_("That would be 1/n³: but there are n slivers of area ~1/n³, so ~1/n² in all."),
            ),
            Choice(
                N_("it does not shrink"),
                N_("More features describe the disc better: the gap goes to 0 as n grows."),
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
                    "brings back almost nothing: this model reads its facts at the last word."
                ),
            ),
            Choice(
                N_("layer 1's, at the last word, is"),
                N_(
                    "Right: layer 0's attention moves the subject to the last word, and layer 1's "
                    "FFN there writes the answer."
                ),
                correct=True,
            ),
            Choice(
                N_("layer 0's, at the last word, is"),
                N_(
                    "It brings some back, but less than layer 1's: in this model the fact is "
                    "mostly read one layer later."
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

QUESTIONS: dict[str, Question] = {q.key: q for q in _QUESTIONS}


def question(key: str) -> Question:
    """The question called ``key``."""
    if key not in QUESTIONS:
        raise ValueError(f"key must be one of {sorted(QUESTIONS)}, got {key!r}")
    return QUESTIONS[key]
