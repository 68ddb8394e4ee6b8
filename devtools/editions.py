"""The two editions of every lesson (English in notebooks/, 中文 in notebooks/zh/), kept in step.

A Chinese notebook has the English one's cells, in the same order: each markdown cell is
translated one for one, and each code cell is the English one character for character. The one
exception is the language switch, two lines of the first code cell::

    from course_lib.core.i18n import set_language
    set_language("zh")

``python -m devtools.editions check`` lists every difference (tests/test_editions.py runs
it); ``sync`` copies the English code cells into the Chinese notebooks, after which ``make
notebooks`` re-executes them; ``init NOTEBOOK`` starts the Chinese copy of a new lesson, with the
English prose still to translate.
"""

from __future__ import annotations

import sys
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
SWITCH = ("from course_lib.core.i18n import set_language", 'set_language("zh")')


def zh_path(english: Path) -> Path:
    return english.parent / "zh" / english.name


def english_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    return sorted(folder.glob("*.ipynb"))


def with_switch(source: str) -> str:
    """The English first code cell with the language switch: the import joins the course_lib
    imports in sorted order (as ruff keeps them), the call goes after the last line."""
    lines = source.splitlines()
    imports = [i for i, line in enumerate(lines) if line.startswith(("from course_lib", "import "))]
    after = [i for i in imports if lines[i].startswith("from course_lib") and lines[i] > SWITCH[0]]
    at = after[0] if after else (imports[-1] + 1 if imports else 0)
    lines.insert(at, SWITCH[0])
    if lines[-1].startswith(("import ", "from ")):
        lines.append("")  # a cell of imports only: the call after a blank line, as ruff wants it
    lines.append(SWITCH[1])
    return "\n".join(lines)


def without_switch(source: str) -> str:
    return "\n".join(line for line in source.splitlines() if line not in SWITCH).rstrip("\n")


def differences(english: Path, chinese: Path) -> list[str]:
    """Every way ``chinese`` is not the English lesson's other edition (empty when in step)."""
    import nbformat

    if not chinese.exists():
        return [f"{chinese.name}: no Chinese edition at {chinese.relative_to(NOTEBOOKS.parent)}"]
    en = nbformat.read(english, as_version=4).cells
    zh = nbformat.read(chinese, as_version=4).cells
    kinds_en, kinds_zh = [c.cell_type for c in en], [c.cell_type for c in zh]
    if kinds_en != kinds_zh:
        return [f"{chinese.name}: cells {kinds_zh} differ from the English cells {kinds_en}"]
    problems = []
    first_code = next((i for i, c in enumerate(en) if c.cell_type == "code"), None)
    for index, (a, b) in enumerate(zip(en, zh, strict=True)):
        if a.cell_type != "code":
            continue
        theirs = b.source
        if index == first_code:
            if not all(line in theirs.splitlines() for line in SWITCH):
                problems.append(f"{chinese.name} cell {index}: no language switch {SWITCH}")
            theirs = without_switch(theirs)
        if theirs != a.source:
            problems.append(f"{chinese.name} cell {index}: code differs from the English edition")
    return problems


def sync(english: Path, chinese: Path) -> bool:
    """Copy the English code cells into ``chinese`` (cells must already correspond); True if any
    changed. Its outputs are then stale: re-execute it with ``make notebooks``."""
    import nbformat

    en = nbformat.read(english, as_version=4)
    zh = nbformat.read(chinese, as_version=4)
    if [c.cell_type for c in en.cells] != [c.cell_type for c in zh.cells]:
        raise ValueError(
            f"{chinese}: its cells do not correspond to {english.name}'s; add or remove the "
            "translated markdown cells first"
        )
    first_code = next(i for i, c in enumerate(en.cells) if c.cell_type == "code")
    changed = False
    for index, (a, b) in enumerate(zip(en.cells, zh.cells, strict=True)):
        if a.cell_type == "code":
            wanted = with_switch(a.source) if index == first_code else a.source
            if b.source != wanted:
                b.source, changed = wanted, True
    if changed:
        nbformat.write(zh, chinese)
    return changed


def init(english: Path) -> Path:
    """A Chinese copy of ``english`` to translate: same cells, switch added, outputs cleared."""
    import nbformat

    chinese = zh_path(english)
    if chinese.exists():
        raise FileExistsError(f"{chinese} exists already; use `sync` to update its code")
    notebook = nbformat.read(english, as_version=4)
    first = next(c for c in notebook.cells if c.cell_type == "code")
    first.source = with_switch(first.source)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    chinese.parent.mkdir(exist_ok=True)
    nbformat.write(notebook, chinese)
    return chinese


def main(argv: list[str]) -> int:
    usage = "usage: python -m devtools.editions check | sync | init NOTEBOOK"
    if not argv or argv[0] not in ("check", "sync", "init"):
        print(usage)
        return 2
    if argv[0] == "init":
        for name in argv[1:]:
            print(f"created {init(Path(name))}: translate its markdown cells, then make notebooks")
        return 0
    problems = []
    for english in english_notebooks():
        if argv[0] == "sync" and zh_path(english).exists() and sync(english, zh_path(english)):
            print(f"{zh_path(english)}: code copied from the English edition; re-execute it")
        problems += differences(english, zh_path(english))
    print("\n".join(problems) or "both editions are in step")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
