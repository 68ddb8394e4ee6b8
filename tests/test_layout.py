"""What a reader of either edition sees laid out: bold that renders, one style of section numbers,
and text tables whose columns line up when a CJK character takes two columns."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from markdown_it import MarkdownIt

from course_lib.core.i18n import display_width

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "notebooks" / "zh").glob("*.ipynb")
)
CHINESE = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))
COMMONMARK = MarkdownIt("commonmark")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT / "notebooks"))


def unrendered_emphasis(markdown: str) -> list[str]:
    """The ``**`` a CommonMark renderer leaves as literal asterisks (outside code): a closing
    ``**`` after full-width punctuation and before a letter does not close."""
    html = re.sub(r"<code>.*?</code>", "", COMMONMARK.render(markdown), flags=re.S)
    return [m.group(0) for m in re.finditer(r".{0,30}\*\*.{0,30}", html)]


def in_markdown(path: Path, finder) -> list[tuple[int, str]]:
    """What ``finder`` finds in each markdown cell of the notebook at ``path``, by cell."""
    notebook = nbformat.read(path, as_version=4)
    return [
        (index, found)
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "markdown"
        for found in finder(cell.source)
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_name)
def test_every_bold_renders_as_bold_under_commonmark(path):
    literal = in_markdown(path, unrendered_emphasis)
    assert not literal, f"{_name(path)}: ** shown as asterisks (cell, text): {literal}"


def test_the_bold_check_finds_a_closing_star_after_full_width_punctuation():
    assert unrendered_emphasis("**与两份记忆相符；**这些检验分不开两者。")
    assert not unrendered_emphasis("**与两份记忆相符；** 这些检验分不开两者。")
    assert not unrendered_emphasis("**two memories** cannot be told apart, `a**b`")


# A Latin or Greek letter, a digit or a super-/subscript: what stands right beside a star that is
# part of a formula (k*ᵀ, v*), never beside an emphasis in prose (a closing bracket too, before it).
FORMULA_SIDE = r"[A-Za-z0-9\u0370-\u03ffᵀ⁻¹²³⁰-⁹₀-₉]"


def emphasis_in_formula(markdown: str) -> list[str]:
    """The emphases a CommonMark renderer makes (outside code) of two ``*`` inside a formula, as in
    ``λ k*ᵀ … λ k*ᵀ``: an ``<em>`` that opens right after, or closes right before, a formula's
    character. The stars vanish and the formula reads wrong; escape them (``k\\*ᵀ``)."""
    html = re.sub(r"<code>.*?</code>", "", COMMONMARK.render(markdown), flags=re.S)
    before = FORMULA_SIDE[:-1] + ")]"
    pattern = rf"{before}<em>.{{0,30}}|.{{0,30}}</em>{FORMULA_SIDE}"
    return [m.group(0) for m in re.finditer(pattern, html, flags=re.S)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_name)
def test_no_formula_loses_its_stars_to_emphasis(path):
    swallowed = in_markdown(path, emphasis_in_formula)
    assert not swallowed, (
        f"{_name(path)}: a formula's * rendered as emphasis (cell, text): {swallowed}"
    )


def test_the_formula_check_finds_stars_commonmark_turns_into_emphasis():
    assert emphasis_in_formula("2 Δ C − 2 λ k*ᵀ: zero where Δ C = λ k*ᵀ")
    assert emphasis_in_formula("W2 + (v* − W2 k*)(C⁻¹k*)ᵀ / (k*ᵀC⁻¹k*)")
    assert not emphasis_in_formula("2 Δ C − 2 λ k\\*ᵀ: zero where Δ C = λ k\\*ᵀ")
    assert not emphasis_in_formula("(k\\*ᵀC⁻¹k*), with r = v* − W2 k* what W2 k* lacks")
    assert not emphasis_in_formula("a key *in C⁻¹'s geometry* is not moved; 一种是*本课程的*：")
    assert not emphasis_in_formula("λ `k*ᵀ … k*ᵀ` in code")


SECTION = re.compile(r"^## (\d+)(\S*)\s", re.M)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_name)
def test_sections_are_numbered_one_way(path):
    """``## 1. Title`` in every lesson and both editions (not ``## 1 · Title``)."""
    notebook = nbformat.read(path, as_version=4)
    styles = {
        (number, mark)
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for number, mark in SECTION.findall(cell.source)
    }
    assert all(mark == "." for _, mark in styles), f"{_name(path)}: {sorted(styles)}"
    assert not re.search(
        r"^## \d+ ·",
        "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown"),
        re.M,
    ), f"{_name(path)} numbers a section as '## N ·'"


def display_columns(line: str) -> tuple[list[int], int]:
    """Where each character of ``line`` starts on screen, and the line's width: a wide (CJK)
    character takes two columns."""
    starts, width = [], 0
    for char in line:
        starts.append(width)
        width += display_width(char)
    return starts, width


def column_edges(line: str) -> set[tuple[str, int]]:
    """The screen columns where a text column of ``line`` begins after a gap of two spaces or
    more ("L") or ends before one, or at the line's end ("R")."""
    starts, width = display_columns(line)
    edges = set()
    for k in range(2, len(line)):
        if line[k - 2 : k] == "  " and line[k] != " ":
            edges.add(("L", starts[k]))
    for k in range(1, len(line) - 1):
        if line[k - 1] != " " and line[k : k + 2] == "  ":
            edges.add(("R", starts[k]))
    if line and not line.endswith(" "):
        edges.add(("R", width))
    return edges


def text_tables(text: str) -> list[list[str]]:
    """Runs of three or more printed lines with a gap of two spaces between words: a text table."""
    tables, run = [], []
    for line in [*text.splitlines(), ""]:
        if re.search(r"\S {2,}\S", line):
            run.append(line)
            continue
        if len(run) >= 3:
            tables.append(run)
        run = []
    return tables


def aligned_edges(table: list[str]) -> set[tuple[str, int]]:
    """The column edges every line of ``table`` shares, on screen."""
    return set.intersection(*(column_edges(line) for line in table))


def _printed(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.output_type == "stream")


@pytest.mark.parametrize("path", CHINESE, ids=_name)
def test_a_chinese_text_table_lines_up_on_screen_as_the_english_one_does(path):
    """Each text table the Chinese edition prints shares as many column edges on screen as its
    English twin's: a translated label padded by characters rather than by columns shifts its
    column (a CJK character is two columns wide)."""
    chinese = nbformat.read(path, as_version=4)
    english = nbformat.read(path.parents[1] / path.name, as_version=4)
    shifted = []
    for index, (zh_cell, en_cell) in enumerate(zip(chinese.cells, english.cells, strict=True)):
        if zh_cell.cell_type != "code":
            continue
        zh_tables, en_tables = text_tables(_printed(zh_cell)), text_tables(_printed(en_cell))
        if len(zh_tables) != len(en_tables):
            continue
        for zh_table, en_table in zip(zh_tables, en_tables, strict=True):
            if len(zh_table) == len(en_table) and len(aligned_edges(zh_table)) < len(
                aligned_edges(en_table)
            ):
                shifted.append((index, zh_table[0]))
    assert not shifted, f"{_name(path)}: columns off on screen (cell, first line): {shifted}"


def test_the_alignment_check_counts_a_cjk_character_as_two_columns():
    english = ["name     value", "first        1", "second      22"]
    padded_by_characters = ["名称      数值", "第一           1", "第二          22"]
    padded_by_columns = ["名称      数值", "第一         1", "第二        22"]
    assert aligned_edges(english) == {("R", 14)}
    assert ("R", 14) in aligned_edges(padded_by_columns)
    assert ("R", 14) not in aligned_edges(padded_by_characters)
