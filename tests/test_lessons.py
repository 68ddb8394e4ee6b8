"""The lesson packages describe themselves (``LESSON``), and the tables of lessons are made from
those records: a lesson folder is all a new lesson adds."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import nbformat
import pytest

from course_lib.core.i18n import catalogue
from course_lib.core.lesson import Lesson
from course_lib.lessons import lessons
from devtools import lesson_tables

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", lessons())
def test_a_lessons_record_names_its_folder_its_notebooks_and_their_titles(name):
    lesson = importlib.import_module(f"course_lib.lessons.{name}").LESSON
    assert lesson.package == name
    english = nbformat.read(ROOT / "notebooks" / lesson.notebook, as_version=4).cells[0].source
    chinese = nbformat.read(ROOT / "notebooks/zh" / lesson.notebook, as_version=4).cells[0].source
    assert english.startswith(f"# Lesson {lesson.number} · {lesson.title}\n")
    title = catalogue("zh")[lesson.title]
    assert chinese.startswith(f"# 第 {lesson.number} 课 · {title}\n")
    assert lesson.goal in catalogue("zh"), "the index's Chinese row needs the goal's translation"


def test_the_tables_of_lessons_are_the_records():
    assert lesson_tables.out_of_date() == [], (
        "the index's and README's tables differ from the lessons' records: python -m "
        "devtools.minutes --write NN writes a new lesson's time and rows; python -m "
        "devtools.lesson_tables rewrites the tables"
    )


def test_a_new_lessons_record_adds_its_row_to_every_table(monkeypatch):
    eighth = Lesson(8, "one_memory", "One memory, two languages", 70, "ask a model in two tongues")
    monkeypatch.setattr(lesson_tables, "records", lambda: [eighth])
    index = lesson_tables.table("index en")
    assert index[2:] == [
        "| 8 | [08_one_memory.ipynb](08_one_memory.ipynb) | ask a model in two tongues | 70 min |"
    ]
    assert lesson_tables.table("index zh")[2].endswith("| 70 分钟 |")
    assert (
        lesson_tables.table("readme zh")[-1]
        == "| `zh/08_one_memory.ipynb` | ask a model in two tongues |"
    )
    assert lesson_tables.total("index en") == "**Time:** about 1 hours for all 1 lessons."
    index_text = "**Time:** about 7 hours for all seven lessons.\n" + "\n".join(index[:2])
    assert lesson_tables.replaced(index_text, "index en").startswith(
        "**Time:** about 1 hours for all 1"
    )
    assert lesson_tables.total("index zh") == "**时长：** 全部 1 课合计约 1 小时。"
    text = "intro\n" + "\n".join(lesson_tables.table("readme en")[:3]) + "\n| old row |\n\nafter"
    made = lesson_tables.replaced(text, "readme en")
    assert "old row" not in made and made.endswith("| ask a model in two tongues |\n\nafter")


def test_a_lesson_loads_its_parts_when_asked_and_names_them_when_it_has_none():
    from course_lib.lessons import l06_locating_and_editing as lesson

    assert lesson.editing is importlib.import_module(
        "course_lib.lessons.l06_locating_and_editing.experiments.editing"
    )
    assert lesson.checks.__name__.endswith("l06_locating_and_editing.checks")
    assert {"checks", "demos", "editing", "experiments", "figures", "zh"} <= set(dir(lesson))
    with pytest.raises(AttributeError, match="no attribute 'edits'.*'editing'"):
        lesson.edits  # noqa: B018


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"number": 0}, ValueError),
        ({"minutes": 1.5}, TypeError),
        ({"topic": "Mixture-of-experts"}, ValueError),
    ],
)
def test_a_record_refuses_what_would_name_no_folder(fields, error):
    values = {"number": 8, "topic": "one_memory", "title": "t", "minutes": 60, "goal": "g"}
    with pytest.raises(error, match=next(iter(fields))):
        Lesson(**(values | fields))


def visible(mechanism: str, code: str) -> bool:
    """Whether a notebook's code shows ``mechanism``: defines it (``def``/``class``) or shows a
    library function's source (``show_source(mechanism)``)."""
    if "." in mechanism:
        return f"show_source({mechanism})" in code
    return re.search(rf"^(def|class) {re.escape(mechanism)}\b", code, re.M) is not None


@pytest.mark.parametrize("name", lessons())
def test_each_mechanism_a_lesson_teaches_is_visible_where_it_is_taught(name):
    lesson = importlib.import_module(f"course_lib.lessons.{name}").LESSON
    assert len(lesson.mechanisms) >= 3, "a lesson names the mechanisms it teaches"
    for edition in ("notebooks", "notebooks/zh"):
        notebook = nbformat.read(ROOT / edition / lesson.notebook, as_version=4)
        code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
        hidden = [m for m in lesson.mechanisms if not visible(m, code)]
        assert hidden == [], f"{edition}/{lesson.notebook} neither defines nor shows {hidden}"


def test_a_mechanism_called_but_not_shown_is_not_visible():
    code = "scores = memory.attributions(model, corpus)\nlayer_norm(x)\n"
    assert not visible("memory.attributions", code) and not visible("layer_norm", code)
    assert visible("memory.attributions", "show_source(memory.attributions)")
    assert visible("layer_norm", "def layer_norm(x, gain, bias):\n    ...")


def test_no_tool_and_no_core_module_names_a_lesson():
    """Lessons are found, not listed: neither the developer tools nor the core import a lesson's
    package or its parts by name (each lesson's fresh-run quantities are in its own spread.py,
    found as its demos are); import-linter holds the core, this test the tools."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    named = re.compile(r"^\s*(from|import)\s+course_lib\.lessons\.l\d\d_", re.M)
    found = [
        str(path.relative_to(root))
        for folder in ("devtools", "course_lib/core")
        for path in (root / folder).rglob("*.py")
        if named.search(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"these import a lesson by name: {found}"
