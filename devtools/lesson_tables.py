"""The tables of lessons, made from each lesson package's ``LESSON`` record: the index notebook's
(both editions, with the line giving the course's total time) and README's (both languages). Nothing lists the lessons: a new lesson folder adds
its row. ``python -m devtools.lesson_tables`` rewrites the tables in place; ``--check`` only says
which are out of date (the tests run it)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import nbformat

from course_lib.core.discovery import lessons
from course_lib.core.i18n import catalogue
from course_lib.core.lesson import Lesson

ROOT = Path(__file__).resolve().parents[1]
HEADERS = {  # a table's header line, by place; the table is the header and the rows below it
    "index en": "| lesson | notebook | what you will be able to do | time |",
    "index zh": "| 课 | 笔记本 | 学完你将能够 | 时长 |",
    "readme en": "| notebook | what you will be able to do |",
    "readme zh": "| 笔记本 | 学完你能做什么 |",
}
INDEX_ROWS = {  # the rows README lists before the lessons
    "readme en": "| `00_index.ipynb` | find your way: the lessons, how to run them, what each one needs |",
    "readme zh": "| `zh/00_index.ipynb` | 课程目录：各课内容、运行方式与所需时间 |",
}

TOTALS = {  # the index's line of the course's total time: its start, and the line made anew
    "index en": ("**Time:** ", "**Time:** about {hours} hours for all {count} lessons."),
    "index zh": ("**时长：** ", "**时长：** 全部 {count} 课合计约 {hours} 小时。"),
}


def records() -> list[Lesson]:
    """Every lesson's ``LESSON``, in lesson order."""
    return [importlib.import_module(f"course_lib.lessons.{name}").LESSON for name in lessons()]


def _in(language: str, text: str) -> str:
    return catalogue("zh").get(text, text) if language == "zh" else text


def table(place: str) -> list[str]:
    """The lines of the table at ``place`` ("index en", "readme zh", …)."""
    kind, language = place.split()
    rows = [HEADERS[place], "|" + "---|" * HEADERS[place].count(" | ") + "---|"]
    if kind == "readme":
        rows.append(INDEX_ROWS[place])
    for lesson in records():
        goal = _in(language, lesson.goal)
        if kind == "index":
            minutes = f"{lesson.minutes} 分钟" if language == "zh" else f"{lesson.minutes} min"
            link = f"[{lesson.notebook}]({lesson.notebook})"
            rows.append(f"| {lesson.number} | {link} | {goal} | {minutes} |")
        else:
            path = f"zh/{lesson.notebook}" if language == "zh" else lesson.notebook
            rows.append(f"| `{path}` | {goal} |")
    return rows


def total(place: str) -> str:
    """The index's line of the course's total time, in whole hours, from the records."""
    lessons_ = records()
    hours = round(sum(lesson.minutes for lesson in lessons_) / 60)
    return TOTALS[place][1].format(hours=hours, count=len(lessons_))


def replaced(text: str, place: str) -> str:
    """``text`` with the table under ``place``'s header made anew (and the index's total time)."""
    lines = text.split("\n")
    if place in TOTALS:
        lines = [total(place) if line.startswith(TOTALS[place][0]) else line for line in lines]
    start = lines.index(HEADERS[place])
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join([*lines[:start], *table(place), *lines[end:]])


def _sources() -> dict[str, tuple[Path, str | None]]:
    """place -> (file, None for a text file or the language of an index notebook)."""
    return {
        "index en": (ROOT / "notebooks" / "00_index.ipynb", "en"),
        "index zh": (ROOT / "notebooks" / "zh" / "00_index.ipynb", "zh"),
        "readme en": (ROOT / "README.md", None),
        "readme zh": (ROOT / "README.md", None),
    }


def out_of_date(write: bool = False) -> list[str]:
    """The places whose table differs from the records; with ``write``, made anew."""
    stale = []
    for place, (path, edition) in _sources().items():
        if edition is None:
            old = path.read_text(encoding="utf-8")
            new = replaced(old, place)
            if new != old:
                stale.append(place)
                if write:
                    path.write_text(new, encoding="utf-8")
            continue
        notebook = nbformat.read(path, as_version=4)
        cell = next(c for c in notebook.cells if HEADERS[place] in c.source)
        new = replaced(cell.source, place)
        if new != cell.source:
            stale.append(place)
            if write:
                cell.source = new
                nbformat.write(notebook, path)
    return stale


if __name__ == "__main__":
    stale = out_of_date(write="--check" not in sys.argv)
    print("tables made anew: " + (", ".join(stale) or "none needed"))
    sys.exit(1 if stale and "--check" in sys.argv else 0)
