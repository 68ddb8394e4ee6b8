"""The questions lessons ask (course_lib.core.questions): well formed, each asked once, answered in the
learner's language by the notebook's widget."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from course_lib.core.i18n import set_language
from course_lib.core.questions import QUESTIONS, Choice, Question, question
from course_lib.core.widgets.quiz import ask, reply_line
from devtools.lesson_tables import records
from devtools.site.quiz import ASK

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def asked_in(path: Path) -> list[str]:
    cells = nbformat.read(path, as_version=4).cells
    return [k for c in cells if c.cell_type == "code" for k in ASK.findall(c.source)]


def test_every_question_is_asked_once_in_the_course_and_in_both_editions():
    english = {p.name: asked_in(p) for p in sorted(NOTEBOOKS.glob("*.ipynb"))}
    chinese = {p.name: asked_in(p) for p in sorted((NOTEBOOKS / "zh").glob("*.ipynb"))}
    assert english == chinese
    keys = [k for ks in english.values() for k in ks]
    assert sorted(keys) == sorted(QUESTIONS), "every question asked, and only once"
    kinds = {question(k).kind for k in keys}
    assert kinds == {"predict", "explain"}, kinds
    lessons = [name for name, ks in english.items() if ks]
    every = sorted(lesson.notebook for lesson in records())
    assert lessons == every, f"one question per lesson at least: {lessons}"


@pytest.mark.parametrize("key", sorted(QUESTIONS))
def test_every_wrong_choice_has_its_own_reply_and_one_choice_is_right(key):
    q = question(key)
    replies = [c.reply for c in q.choices]
    assert len(set(replies)) == len(replies), "a reply per misconception"
    assert q.choices[q.answer].correct and sum(c.correct for c in q.choices) == 1
    assert q.reply(q.answer)[0] is True
    assert all(q.reply(i)[0] is False for i in range(len(q.choices)) if i != q.answer)


def test_a_question_names_what_is_wrong_with_it():
    right, wrong = Choice("a", "yes", correct=True), Choice("b", "no")
    with pytest.raises(ValueError, match="exactly one correct choice, got 2"):
        Question("k", "predict", "?", (right, right))
    with pytest.raises(ValueError, match="exactly one correct choice, got 0"):
        Question("k", "predict", "?", (wrong, wrong))
    with pytest.raises(ValueError, match="kind must be one of"):
        Question("k", "guess", "?", (right, wrong))
    with pytest.raises(ValueError, match="at least 2 choices"):
        Question("k", "explain", "?", (right,))
    with pytest.raises(
        ValueError, match=r"choice must be between 0 and 3 for 'ngon-doubling', got 4"
    ):
        question("ngon-doubling").reply(4)
    with pytest.raises(TypeError, match="choice must be an int index, got str"):
        question("ngon-doubling").reply("4")
    with pytest.raises(ValueError, match="key must be one of"):
        question("no-such-question")


def _click(box, choice):
    _, choices, button, reply = box.children
    choices.value = choice
    button.click()
    return reply.value


def test_the_widget_replies_to_the_chosen_answer_in_the_learners_language():
    q = question("regions-three-units")
    box = ask(q.key)
    assert [label for label, _ in box.children[1].options] == ["3", "6", "7", "8"]
    assert _click(box, None) == "pick an answer first"
    assert _click(box, 3) == reply_line(q.key, 3) and reply_line(q.key, 3).startswith("✘ 8 = 2³")
    assert _click(box, q.answer).startswith("✔ Right")
    set_language("zh")
    try:
        box = ask(q.key)
        assert "线性区域" in box.children[0].value
        assert _click(box, q.answer).startswith("✔ 对")
    finally:
        set_language("en")


def folded_after_questions(path: Path) -> tuple[list[int], list[int]]:
    """(the code cells between a predict question and the next prose, the folded code cells)."""
    cells, waiting, after, folded = nbformat.read(path, as_version=4).cells, False, [], []
    for index, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            waiting = False
            continue
        keys = ASK.findall(cell.source)
        if keys:
            waiting = question(keys[0]).kind == "predict"
            continue
        after += [index] if waiting else []
        hidden = cell.metadata.get("jupyter", {})
        folded += [index] if hidden.get("outputs_hidden") and hidden.get("source_hidden") else []
    return after, folded


@pytest.mark.parametrize(
    "path",
    sorted(NOTEBOOKS.glob("**/[0-9]*.ipynb")),
    ids=lambda p: p.relative_to(NOTEBOOKS).as_posix(),
)
def test_a_predict_questions_result_is_folded_until_its_cell_runs(path: Path):
    """The committed result of a predict question (the code cells up to the next prose) is stored
    folded, code and outputs (its claims state the answer), so the learner answers before seeing
    it; running the cell unfolds its outputs. Only exercise solutions, which follow their stub,
    are folded besides (tests/test_exercises.py)."""
    after, folded = folded_after_questions(path)
    cells = nbformat.read(path, as_version=4).cells
    solutions = [i for i in folded if "raise NotImplementedError" in cells[i - 1].source]
    assert sorted(after + solutions) == folded, "folded: a question's result or a solution"
    if any(question(k).kind == "predict" for k in asked_in(path)):
        assert after, "a predict question is followed by the cell that computes its answer"
