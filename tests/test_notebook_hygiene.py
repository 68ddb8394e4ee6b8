"""Notebooks are committed executed top to bottom, with no errors and no paths of this machine:
nbval compares the stored outputs, so a stale or half-run notebook would test nothing."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

FOLDER = Path(__file__).parent.parent / "notebooks"
ENGLISH = sorted(FOLDER.glob("*.ipynb"))
CHINESE = sorted((FOLDER / "zh").glob("*.ipynb"))
NOTEBOOKS = ENGLISH + CHINESE  # both editions obey every rule here
# The fixed phrases of each edition, which the rules below look for.
PHRASES = {
    "en": {
        "summary": "## Summary",
        "glossary": "### Glossary (术语表)",
        "see": "What you should see",
        "try": "Try this",
        "time": r"\*\*Time:\*\* about (\d+) minutes",
        "row": "{} min",
        "total": "about {} hours",
    },
    "zh": {
        "summary": "## 小结",
        "glossary": "### 术语表",
        "see": "**你应该看到：**",
        "try": "**试一试：**",
        "time": r"\*\*时长：\*\* 约 (\d+) 分钟",
        "row": "{} 分钟",
        "total": "约 {} 小时",
    },
}
# The Chinese headings once carried their English names; a lesson not yet renamed still passes.
FORMER = {"## 小结（Summary）": "## 小结", "### 术语表（Glossary）": "### 术语表"}


def edition(path: Path) -> dict[str, str]:
    return PHRASES["zh" if path.parent.name == "zh" else "en"]


MACHINE_PATH = re.compile(r"(/root/|/tmp/|/work/|/home/[^/\s]+/|[A-Z]:\\\\Users)")


def code_cells(path: Path) -> list[dict]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def test_there_are_notebooks():
    assert len(ENGLISH) >= 2, "expected the index and at least one lesson in notebooks/"
    assert [p.name for p in CHINESE] == [p.name for p in ENGLISH], "notebooks/zh/ lacks a lesson"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_notebook_executed_in_order(path: Path):
    counts = [cell.get("execution_count") for cell in code_cells(path)]
    assert None not in counts, f"{path.name}: a code cell was never run (re-run `make notebooks`)"
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: execution counts {counts}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_notebook_has_no_error_output(path: Path):
    for index, cell in enumerate(code_cells(path)):
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", (
                f"{path.name} code cell {index}: {output.get('ename')}"
            )
            assert output.get("name") != "stderr" or "Warning" not in "".join(
                output.get("text", "")
            ), f"{path.name} code cell {index} printed a warning: {''.join(output['text'])[:200]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_notebook_outputs_show_no_machine_path(path: Path):
    for index, cell in enumerate(code_cells(path)):
        for output in cell.get("outputs", []):
            text = json.dumps(output.get("text", "")) + json.dumps(
                output.get("data", {}).get("text/plain", "")
            )
            match = MACHINE_PATH.search(text)
            assert match is None, (
                f"{path.name} code cell {index} shows a machine path: {match.group(0)}"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_notebook_names_the_python3_kernel(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["metadata"].get("kernelspec", {}).get("name") == "python3"


def test_hygiene_check_catches_a_bad_notebook(tmp_path: Path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "execution_count": 2,
                        "source": "",
                        "metadata": {},
                        "outputs": [],
                    },
                    {
                        "cell_type": "code",
                        "execution_count": None,
                        "source": "",
                        "metadata": {},
                        "outputs": [],
                    },
                ],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )
    with pytest.raises(AssertionError):
        test_notebook_executed_in_order(bad)


def _marker_lines(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines() if "NBVAL_" in line]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_every_nbval_marker_is_one_nbval_recognises(path: Path):
    """nbval compares the whole comment with its marker: '# NBVAL_IGNORE_OUTPUT: why' is no marker
    and silently compares the output. The reason goes on the next line."""
    from nbval.plugin import find_comment_markers

    for index, cell in enumerate(code_cells(path)):
        source = "".join(cell["source"])
        for line in _marker_lines(source):
            assert list(find_comment_markers(line)), (
                f"{path.name} code cell {index}: {line!r} is not an nbval marker "
                "(put the marker alone on its line and the reason on the next)"
            )


LIVE_WIDGETS = ("build(", "ask(")  # a demo's controls and image; a question and its reply


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_only_live_widgets_hide_their_output_from_nbval(path: Path):
    """A number that differs between CPUs is printed with fewer digits or checked with a claim,
    never hidden: the only outputs nbval may skip are live widgets, which exist only in a kernel."""
    for index, cell in enumerate(code_cells(path)):
        source = "".join(cell["source"])
        if "NBVAL_IGNORE_OUTPUT" in source or "NBVAL_SKIP" in source:
            live = any(call in source for call in LIVE_WIDGETS)
            assert live, f"{path.name} code cell {index} hides a non-widget output"


def test_the_marker_check_rejects_a_marker_with_a_reason_on_its_line():
    from nbval.plugin import find_comment_markers

    assert list(find_comment_markers("# NBVAL_IGNORE_OUTPUT\n# a live widget"))
    assert not list(find_comment_markers("# NBVAL_IGNORE_OUTPUT: a live widget"))


LESSONS = [path for path in NOTEBOOKS if path.name[:2] != "00"]
INDEXES = [path for path in NOTEBOOKS if path.name[:2] == "00"]


def markdown_cells(path: Path) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_code_cells_are_short_enough_to_read(path: Path):
    """At most 25 lines a cell and 100 characters a line: longer code belongs in course_lib."""
    for index, cell in enumerate(code_cells(path)):
        lines = "".join(cell["source"]).splitlines()
        assert len(lines) <= 25, f"{path.name} code cell {index}: {len(lines)} lines"
        too_long = [line for line in lines if len(line) > 100]
        assert not too_long, f"{path.name} code cell {index}: a line of {len(too_long[0])} chars"


WORDED_TEXTS, WORDED_CHARS = 6, 120  # per code cell: a table of sentences is a lesson function's


def worded_texts(source: str) -> list[str]:
    """The literal texts a code cell words through ``tr(...)`` (claims and shows excepted: a claim
    is printed in the cell that computed it)."""
    code = "\n".join(line for line in source.splitlines() if not line.startswith(("%", "!")))
    return [
        node.args[0].value
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "tr"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


def prose_in_code(source: str) -> str | None:
    """Why a code cell holds prose that belongs in the lesson's package, or None."""
    texts = worded_texts(source)
    if len(texts) > WORDED_TEXTS:
        return f"{len(texts)} texts worded through tr(), over {WORDED_TEXTS}"
    long = [t for t in texts if len(t) > WORDED_CHARS]
    return f"a worded text of {len(long[0])} characters: {long[0][:40]!r}…" if long else None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_code_cells_word_no_table_of_sentences(path: Path):
    """Sentences a table prints (lesson 6's scoreboard) are a lesson function's, found in the
    lesson's package and its catalogue, not a code cell's."""
    found = [(i, prose_in_code("".join(c["source"]))) for i, c in enumerate(code_cells(path))]
    assert [(i, why) for i, why in found if why] == []


def test_the_prose_check_rejects_a_table_of_sentences_and_a_paragraph():
    table = "rows = [" + ", ".join(f'tr("row {i}")' for i in range(7)) + "]"
    paragraph = 'label = tr("' + "word " * 30 + '")'
    assert "7 texts" in prose_in_code(table)
    assert "150 characters" in prose_in_code(paragraph)
    assert prose_in_code('claim("' + "word " * 30 + '", True)\nrows = [tr("a"), tr("b")]') is None


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_every_lesson_ends_with_a_summary_and_the_glossary(path: Path):
    headings = [
        FORMER.get(line, line) for cell in markdown_cells(path) for line in cell.splitlines()
    ]
    summary, glossary = edition(path)["summary"], edition(path)["glossary"]
    assert summary in headings, f"{path}: no {summary!r}"
    assert glossary in headings, f"{path}: no {glossary!r}"
    assert headings.index(glossary) > headings.index(summary)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(FOLDER)))
def test_every_live_demo_says_what_to_look_for(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cells = notebook["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code" and "build(" in "".join(cell["source"]):
            following = "".join(cells[index + 1]["source"]) if index + 1 < len(cells) else ""
            see, try_ = edition(path)["see"], edition(path)["try"]
            assert see in following and try_ in following, (
                f"{path} cell {index}: a live demo without {see!r} / {try_!r}"
            )


def _minutes_in_header(path: Path) -> int:
    found = re.search(edition(path)["time"], markdown_cells(path)[0])
    assert found, f"{path}: the first cell does not say how long it takes ({edition(path)['time']})"
    return int(found.group(1))


@pytest.mark.parametrize("index_path", INDEXES, ids=lambda p: str(p.relative_to(FOLDER)))
def test_the_index_gives_each_lesson_the_time_its_own_page_gives(index_path: Path):
    index = "\n".join(markdown_cells(index_path))
    lessons = [p for p in LESSONS if p.parent == index_path.parent]
    phrases = edition(index_path)
    for path in lessons:
        rows = [line for line in index.splitlines() if f"[{path.name}]" in line]
        assert rows, (
            f"{index_path.name} has no row for {path.name}: python -m devtools.minutes --write"
        )
        row = rows[0]
        assert row.rstrip(" |").endswith(phrases["row"].format(_minutes_in_header(path))), row
    total = sum(_minutes_in_header(p) for p in lessons)
    assert phrases["total"].format(round(total / 60)) in index, f"lessons add up to {total} min"


def test_both_editions_give_each_lesson_the_same_time():
    english = {p.name: _minutes_in_header(p) for p in LESSONS if p.parent == FOLDER}
    chinese = {p.name: _minutes_in_header(p) for p in LESSONS if p.parent.name == "zh"}
    assert chinese == english
