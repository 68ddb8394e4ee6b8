"""The English and Chinese editions run the same code and keep the same shape."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from devtools import editions

FOLDER = Path(__file__).parent.parent / "notebooks"
PAIRS = [(path, editions.zh_path(path)) for path in editions.english_notebooks(FOLDER)]
IDS = [path.name for path, _ in PAIRS]
CJK = re.compile(r"[\u4e00-\u9fff]")
VERDICT = ("✔", "✘", "…")


def cells(path: Path) -> list:
    return nbformat.read(path, as_version=4).cells


def headings(path: Path) -> list[str]:
    return [
        line
        for cell in cells(path)
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if re.match(r"#{1,6} ", line)
    ]


def printed_lines(cell) -> list[str]:
    return [
        line
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream"
        for line in output.get("text", "").splitlines()
    ]


@pytest.mark.parametrize(("english", "chinese"), PAIRS, ids=IDS)
def test_every_code_cell_is_the_english_one(english, chinese):
    problems = editions.differences(english, chinese)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("english", "chinese"), PAIRS, ids=IDS)
def test_the_editions_have_the_same_section_headings_and_exercises(english, chinese):
    en, zh = headings(english), headings(chinese)
    assert [h.split()[0] for h in zh] == [h.split()[0] for h in en], "heading levels differ"
    exercises_en = [i for i, h in enumerate(en) if "Exercise" in h]
    exercises_zh = [i for i, h in enumerate(zh) if "练习" in h]
    assert exercises_zh == exercises_en, "the exercises are not the same sections"


@pytest.mark.parametrize(("english", "chinese"), PAIRS, ids=IDS)
def test_the_chinese_edition_prints_every_claim_and_verdict_in_chinese(english, chinese):
    for index, (a, b) in enumerate(zip(cells(english), cells(chinese), strict=True)):
        if a.cell_type != "code":
            continue
        ours = [line for line in printed_lines(b) if line.startswith(VERDICT)]
        theirs = [line for line in printed_lines(a) if line.startswith(VERDICT)]
        assert len(ours) == len(theirs), f"{chinese.name} cell {index}: other claims than English"
        for line in ours:
            assert CJK.search(line), f"{chinese.name} cell {index}: {line!r} is not translated"


@pytest.mark.parametrize("path", [p for pair in PAIRS for p in pair], ids=lambda p: str(p))
def test_no_output_shows_a_missing_glyph_or_translation(path):
    """matplotlib warns "Glyph … missing from font(s)" for text it draws as boxes, and mathtext
    logs "does not have a glyph"; the catalogue warns MissingTranslation."""
    text = json.dumps([cell.get("outputs", []) for cell in cells(path)], ensure_ascii=False)
    for sign in ("missing from font", "does not have a glyph", "MissingTranslation"):
        assert sign not in text, f"{path}: an output says {sign!r}"


def test_the_check_finds_changed_code_a_missing_switch_and_other_cells(tmp_path):
    english, chinese = PAIRS[1]
    copy = tmp_path / "zh" / chinese.name
    copy.parent.mkdir()
    shutil.copy(chinese, copy)
    assert editions.differences(english, copy) == []
    notebook = nbformat.read(copy, as_version=4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    code[3].source += "\nprint('only in Chinese')"
    code[0].source = editions.without_switch(code[0].source)
    nbformat.write(notebook, copy)
    problems = editions.differences(english, copy)
    assert any("no language switch" in p for p in problems), problems
    assert any("code differs" in p for p in problems), problems
    notebook.cells.pop(1)
    nbformat.write(notebook, copy)
    assert "differ from the English cells" in editions.differences(english, copy)[0]


def test_sync_brings_the_english_code_across_and_init_starts_a_new_lesson(tmp_path):
    english, chinese = PAIRS[1]
    shutil.copy(english, tmp_path / english.name)
    (tmp_path / "zh").mkdir()
    shutil.copy(chinese, tmp_path / "zh" / chinese.name)
    notebook = nbformat.read(tmp_path / english.name, as_version=4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    code[2].source += "\n# a change made in English"
    nbformat.write(notebook, tmp_path / english.name)
    assert editions.differences(tmp_path / english.name, tmp_path / "zh" / chinese.name)
    assert editions.sync(tmp_path / english.name, tmp_path / "zh" / chinese.name)
    assert not editions.differences(tmp_path / english.name, tmp_path / "zh" / chinese.name)
    assert not editions.sync(tmp_path / english.name, tmp_path / "zh" / chinese.name)
    (tmp_path / "zh" / chinese.name).unlink()
    created = editions.init(tmp_path / english.name)
    assert editions.differences(tmp_path / english.name, created) == []
    with pytest.raises(FileExistsError):
        editions.init(tmp_path / english.name)


def test_the_switch_is_the_only_difference_and_keeps_imports_sorted():
    source = "import torch\n\nfrom course_lib import x\nfrom course_lib.core.model import y\n\nx()"
    switched = editions.with_switch(source)
    assert switched.splitlines()[3] == "from course_lib.core.i18n import set_language"
    assert switched.splitlines()[-1] == 'set_language("zh")'
    assert editions.without_switch(switched) == source


def test_a_first_cell_of_imports_only_gets_the_switch_after_a_blank_line():
    source = "import torch\n\nimport course_lib\nfrom course_lib.core.claims import show"
    switched = editions.with_switch(source)
    assert switched.endswith('from course_lib.core.i18n import set_language\n\nset_language("zh")')
    assert editions.without_switch(switched) == source
