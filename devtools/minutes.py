"""The course's minutes rule: how long a lesson takes a learner, computed from its English notebook.

A lesson's stated time (``LESSON.minutes``, and its first cell's "**Time:** about N minutes") is
this rule's value rounded to 5 minutes (``tests/test_minutes.py`` holds every lesson to it, and no
lesson above ``MOST``). The parts, each a learner's pace:

- prose: the words of the Markdown cells at ``WORDS_PER_MINUTE`` (Brysbaert 2019 measured 238
  words a minute for non-fiction read for comprehension; prose studied to learn it, with symbols
  and units in every sentence, reads at about half that); each display formula ($$ … $$)
  ``FORMULA`` minutes instead of its words;
- code: ``CODE_CELL`` minutes per code cell to read and run it, its printed lines (text, and
  tables shown as Markdown) at ``OUTPUT_LINES_PER_MINUTE``, and ``FIGURE`` minutes per figure;
- interaction: ``DEMO`` minutes per live demo (its "Try this"), ``QUESTION`` minutes per question
  asked outside an exercise;
- exercises: each its own estimate, in its heading: ``### Exercise 2 · build: … (8 min)``
  (Chinese: ``（8 分钟）``); the exercise's cells (its stub, its solution, its question) count
  nothing more.

``python -m devtools.minutes`` prints each lesson's parts, the rule's total and the stated time;
``python -m devtools.minutes --write [NN ...]`` states the rule's time for those lessons (all by
default): in its ``LESSON`` record, both notebooks' first cells, and the index and README tables.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

WORDS_PER_MINUTE = 130
FORMULA = 1.0
CODE_CELL = 0.5
OUTPUT_LINES_PER_MINUTE = 20
FIGURE = 0.5
DEMO = 3.0
QUESTION = 2.0
STEP = 5  # the stated time is the rule's rounded to this many minutes
MOST = 90  # no lesson states more

EXERCISE = re.compile(r"^### Exercise (\d+) · ([a-z ]+): .*\((\d+) min\)\s*$", re.M)
ANY_EXERCISE = re.compile(r"^### Exercise \d+ ·.*$", re.M)
DISPLAY_FORMULA = re.compile(r"\$\$.*?\$\$", re.S)
WORD = re.compile(r"[A-Za-z0-9]+(?:['’.\-][A-Za-z0-9]+)*")
TIME = re.compile(r"\*\*Time:\*\* about (\d+) minutes")


@dataclass(frozen=True)
class Minutes:
    """A lesson's minutes by the rule, part by part."""

    prose: float
    formulas: float
    code: float
    output: float
    figures: float
    demos: float
    questions: float
    exercises: float

    @property
    def total(self) -> float:
        return sum(vars(self).values())

    @property
    def stated(self) -> int:
        """The total rounded to ``STEP`` minutes (halves up), as a lesson states it."""
        return int(STEP * ((self.total + STEP / 2) // STEP))


def _text(output: dict) -> str:
    """What a learner reads of one output: printed text or a Markdown table; nothing of a widget."""
    data = output.get("data", {})
    text = output.get("text") or data.get("text/markdown") or ""
    return "".join(text) if isinstance(text, list) else text


def exercise_minutes(source: str) -> int | None:
    """The estimate an exercise heading states, None if the cell has no exercise heading;
    ValueError for an exercise heading without its estimate."""
    if not ANY_EXERCISE.search(source):
        return None
    found = EXERCISE.search(source)
    if found is None:
        heading = ANY_EXERCISE.search(source).group(0)
        raise ValueError(f"exercise heading {heading!r} must end with its estimate, '(N min)'")
    return int(found.group(3))


def minutes(path: Path) -> Minutes:
    """The rule applied to one English lesson notebook."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    parts = dict.fromkeys(Minutes.__dataclass_fields__, 0.0)
    in_exercise = False  # within an exercise's own cells: its stub, solution or question
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            estimate = exercise_minutes(source)
            if estimate is not None:
                parts["exercises"] += estimate
                in_exercise = True
            elif source.lstrip().startswith("#"):
                in_exercise = False  # a new heading ends the exercise
            formulas = DISPLAY_FORMULA.findall(source)
            parts["formulas"] += FORMULA * len(formulas)
            prose = DISPLAY_FORMULA.sub(" ", source)
            parts["prose"] += len(WORD.findall(prose)) / WORDS_PER_MINUTE
            continue
        if cell["cell_type"] != "code":
            continue
        if in_exercise:  # its estimate holds its stub and its solution, or its question
            hidden = cell.get("metadata", {}).get("jupyter", {}).get("source_hidden", False)
            in_exercise = not (hidden or "ask(" in source)  # the solution or the question ends it
            continue
        if "build(" in source:
            parts["demos"] += DEMO
            continue
        if "ask(" in source:
            parts["questions"] += QUESTION
            continue
        parts["code"] += CODE_CELL
        for output in cell.get("outputs", []):
            if "image/png" in output.get("data", {}):
                parts["figures"] += FIGURE
            lines = len(_text(output).splitlines())
            parts["output"] += lines / OUTPUT_LINES_PER_MINUTE
    return Minutes(**parts)


def stated(path: Path) -> int:
    """The time the notebook's first cell states."""
    first = "".join(json.loads(Path(path).read_text(encoding="utf-8"))["cells"][0]["source"])
    found = TIME.search(first)
    if found is None:
        raise ValueError(f"{path}: its first cell does not say '**Time:** about N minutes'")
    return int(found.group(1))


def lesson_notebooks() -> list[Path]:
    """Every English lesson notebook (the index, 00, is no lesson)."""
    return sorted(p for p in NOTEBOOKS.glob("[0-9]*.ipynb") if not p.name.startswith("00"))


ZH_TIME = re.compile(r"(\*\*时长：\*\* 约 )(\d+)( 分钟)")
RECORD = re.compile(r"(\n    minutes=)(\d+)(,\n)")


def _restate(path: Path, pattern: re.Pattern, value: int) -> None:
    """Replace the one number ``pattern`` finds in the text file ``path`` (group 2) by ``value``."""
    text = path.read_text(encoding="utf-8")
    new, count = pattern.subn(lambda m: f"{m.group(1)}{value}{m.group(3)}", text, count=1)
    if count != 1:
        raise ValueError(f"{path}: no stated time to restate ({pattern.pattern})")
    path.write_text(new, encoding="utf-8")


def write(numbers: list[str]) -> None:
    """State the rule's time for the lessons ``numbers`` ("05", …; every lesson if empty)."""
    from devtools import lesson_tables

    paths = [p for p in lesson_notebooks() if not numbers or p.name[:2] in
             {f"{int(n):02d}" for n in numbers}]  # fmt: skip
    for path in paths:
        value = minutes(path).stated
        (package,) = (ROOT / "course_lib" / "lessons").glob(f"l{path.name[:2]}_*")
        _restate(package / "__init__.py", RECORD, value)
        _restate(path, re.compile(r"(\*\*Time:\*\* about )(\d+)( minutes)"), value)
        _restate(NOTEBOOKS / "zh" / path.name, ZH_TIME, value)
        print(f"{path.name}: {value} minutes")
    lesson_tables.out_of_date(write=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--write"]:
        write(argv[1:])
        return
    paths = [Path(a) for a in argv] or lesson_notebooks()
    names = list(Minutes.__dataclass_fields__)
    print("notebook".ljust(34) + "".join(n[:9].rjust(10) for n in names) + "     rule  stated")
    for path in paths:
        m = minutes(path)
        row = "".join(f"{getattr(m, n):10.1f}" for n in names)
        print(f"{path.name:34s}{row}{m.total:9.1f}{stated(path):8d}  (rule: {m.stated})")


if __name__ == "__main__":
    main(sys.argv[1:])
