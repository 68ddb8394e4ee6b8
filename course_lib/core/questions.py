"""Questions a lesson asks before it shows the answer (问答): predict a number, or explain a result.

One definition per question: its prompt, its choices and a reply for each choice, the wrong ones
naming the misconception they come from. The notebook asks it with a small widget
(``course_lib.core.widgets.quiz.ask``), the static site renders the same question as a form that
answers in the page with no kernel (``devtools.site``), and the tests check both against it.
Every text is English marked with ``N_`` and shown in the learner's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from course_lib.core.i18n import tr

__all__ = ["KINDS", "Choice", "Question", "all_questions", "question"]  # and QUESTIONS, found

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
        return self.text_in(None)

    def text_in(self, language: str | None) -> str:
        """The prompt in ``language`` (None: the learner's), with its numbers filled in."""
        return tr(self.prompt, language, **dict(self.fields))

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

    def reply(self, choice: int, language: str | None = None) -> tuple[bool, str]:
        """(whether ``choice`` is right, the reply to it in ``language``, by default the
        learner's)."""
        if not isinstance(choice, int) or isinstance(choice, bool):
            raise TypeError(f"choice must be an int index, got {type(choice).__name__}")
        if not 0 <= choice < len(self.choices):
            raise ValueError(
                f"choice must be between 0 and {len(self.choices) - 1} for {self.key!r}, got {choice}"
            )
        picked = self.choices[choice]
        return picked.correct, tr(picked.reply, language)


def all_questions() -> dict[str, Question]:
    """Every lesson's questions by key: each lesson package's ``questions.QUESTIONS``, found."""
    if not _FOUND:
        from course_lib.core.discovery import lesson_modules

        for module in lesson_modules("questions").values():
            for q in module.QUESTIONS:
                if q.key in _FOUND:
                    raise ValueError(f"question key {q.key!r} is asked by two lessons")
                _FOUND[q.key] = q
    return _FOUND


_FOUND: dict[str, Question] = {}


def __getattr__(name: str) -> dict[str, Question]:
    if name == "QUESTIONS":  # every question, once the lessons are found
        return all_questions()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def question(key: str) -> Question:
    """The question called ``key``."""
    found = all_questions()
    if key not in found:
        raise ValueError(f"key must be one of {sorted(found)}, got {key!r}")
    return found[key]
