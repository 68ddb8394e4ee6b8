"""Every lesson states the time the course's minutes rule gives it (``devtools/minutes.py``,
CONTRIBUTING.md), none more than 90 minutes, and every exercise states its own estimate, the same
in both editions."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from course_lib.lessons import lessons
from devtools import minutes

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
ZH_ESTIMATE = re.compile(r"^### 练习 (\d+) · .*（(\d+) 分钟）\s*$", re.M)
ZH_ANY = re.compile(r"^### 练习 \d+ ·.*$", re.M)


def _record(package: str):
    return importlib.import_module(f"course_lib.lessons.{package}").LESSON


def _headings(path: Path, pattern: re.Pattern) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [m for c in cells if c["cell_type"] == "markdown" for m in pattern.findall(
        "".join(c["source"]))]  # fmt: skip


@pytest.mark.parametrize("package", lessons())
def test_the_lesson_states_the_time_the_rule_gives(package):
    lesson = _record(package)
    rule = minutes.minutes(NOTEBOOKS / lesson.notebook)
    assert lesson.minutes % minutes.STEP == 0, f"{package}: {lesson.minutes} is no multiple of 5"
    assert abs(lesson.minutes - rule.total) < minutes.STEP, (
        f"{package} states {lesson.minutes} minutes; the rule gives {rule.total:.1f} "
        f"({rule}): state {rule.stated} in its LESSON and its notebooks' first cells"
    )
    assert minutes.stated(NOTEBOOKS / lesson.notebook) == lesson.minutes


@pytest.mark.parametrize("package", lessons())
def test_no_lesson_is_longer_than_ninety_minutes(package):
    lesson = _record(package)
    assert lesson.minutes <= minutes.MOST, (
        f"{package} takes {lesson.minutes} minutes by the rule: cut what is off its story "
        f"(or split it only where cutting would lose what it teaches)"
    )


@pytest.mark.parametrize("package", lessons())
def test_each_exercise_states_its_estimate_the_same_in_both_editions(package):
    lesson = _record(package)
    english = _headings(NOTEBOOKS / lesson.notebook, minutes.EXERCISE)
    chinese = _headings(NOTEBOOKS / "zh" / lesson.notebook, ZH_ESTIMATE)
    every_en = _headings(NOTEBOOKS / lesson.notebook, minutes.ANY_EXERCISE)
    every_zh = _headings(NOTEBOOKS / "zh" / lesson.notebook, ZH_ANY)
    assert len(english) == len(every_en), f"{package}: an exercise heading without '(N min)'"
    assert len(chinese) == len(every_zh), f"{package}: a 练习 heading without '（N 分钟）'"
    assert [(n, m) for n, _, m in english] == chinese


def test_the_rule_counts_what_a_learner_reads_runs_and_does(tmp_path):
    words = " ".join(["word"] * minutes.WORDS_PER_MINUTE)  # one minute of prose
    cells = [
        {"cell_type": "markdown", "source": f"# T\n**Time:** about 10 minutes.\n{words}"},
        {"cell_type": "markdown", "source": "$$x^2$$"},  # a formula: its minute, no words
        {"cell_type": "code", "source": "print(1)", "outputs": [
            {"output_type": "stream", "text": "a\n" * minutes.OUTPUT_LINES_PER_MINUTE}]},
        {"cell_type": "code", "source": "build(demo)", "outputs": []},
        {"cell_type": "code", "source": 'ask("q")', "outputs": []},
        {"cell_type": "markdown", "source": "### Exercise 1 · build: a thing (7 min)"},
        {"cell_type": "code", "source": "raise NotImplementedError", "outputs": [
            {"output_type": "stream", "text": "not attempted\n" * 100}]},
        {"cell_type": "code", "source": "solution()", "metadata": {"jupyter": {
            "source_hidden": True}}, "outputs": []},
        {"cell_type": "code", "source": "after()", "outputs": []},
    ]  # fmt: skip
    path = tmp_path / "01_x.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    m = minutes.minutes(path)
    assert m.prose == pytest.approx(1 + 10 / minutes.WORDS_PER_MINUTE, rel=0.02)
    assert m.formulas == minutes.FORMULA
    assert m.code == 2 * minutes.CODE_CELL  # print(1) and after(); the exercise's cells count 0
    assert m.output == 1.0  # the stub's 100 lines are the exercise's
    assert (m.demos, m.questions, m.exercises) == (minutes.DEMO, minutes.QUESTION, 7)
    assert minutes.stated(path) == 10


def test_an_exercise_heading_without_its_estimate_is_refused():
    with pytest.raises(ValueError, match=r"\(N min\)"):
        minutes.exercise_minutes("### Exercise 2 · build: the thing")
    assert minutes.exercise_minutes("### Exercise 2 · build: the thing (4 min)") == 4
    assert minutes.exercise_minutes("## 3. A section") is None
