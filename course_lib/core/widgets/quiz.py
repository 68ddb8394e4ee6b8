"""The notebook's side of ``course_lib.core.questions``: a question with its choices and a button; the
reply to the chosen answer appears below it, in the learner's language."""

from __future__ import annotations

from course_lib.core.i18n import tr
from course_lib.core.questions import question

__all__ = ["QUESTION_CLASS", "ask", "reply_line"]

QUESTION_CLASS = "course-question"  # the box's class: the site finds a question's output by it


def reply_line(key: str, choice: int) -> str:
    """The line the learner reads after answering ``choice``: ✔ or ✘, then the reply."""
    correct, reply = question(key).reply(choice)
    return f"{'✔' if correct else '✘'} {reply}"


def ask(key: str):
    """The question ``key`` as a widget: its prompt, its choices, a check button and the reply."""
    import ipywidgets as w

    q = question(key)
    prompt = w.HTML(value=f"<b>{q.text}</b>")
    choices = w.RadioButtons(
        options=[(tr(c.text), i) for i, c in enumerate(q.choices)],
        value=None,
        layout=w.Layout(width="max-content"),
    )
    button = w.Button(description=tr("check my answer"))
    reply = w.HTML(value="")

    def check(_button) -> None:
        if choices.value is None:
            reply.value = tr("pick an answer first")
            return
        reply.value = reply_line(key, choices.value)

    button.on_click(check)
    box = w.VBox([prompt, choices, button, reply])
    box.add_class(QUESTION_CLASS)
    return box
