"""No lesson repeats what another corrects. Lesson 1 teaches one dropout story (the hidden-layer
dropout is an implementation choice, not in the paper's formula; dropout is a regulariser that
makes over-fitting less likely, it prevents nothing) and what d_ff is (the hidden width). A
sentence of either edition that states the corrected claim as fact fails here; quoting the source
in order to correct it is allowed (the paragraph then names the source, "source" / "课程笔记", or says
"not in the paper's formula" / "不在论文的公式里")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = sorted([*NOTEBOOKS.glob("*.ipynb"), *NOTEBOOKS.glob("zh/*.ipynb")])
CORRECTED = {
    "dropout (or the FFN) prevents over-fitting": re.compile(
        r"防止过拟合|(against|prevents?|preventing) over-?fitting", re.I
    ),
    "the paper's FFN has a dropout inside": re.compile(r"ReLU → Dropout → Linear2"),
    "an encoder layer has three dropouts": re.compile(r"three dropouts|三个 ?dropout", re.I),
    "d_ff is an output dimension": re.compile(r"d_ff[^.。]{0,40}(output dimension|输出维度)"),
}
QUOTING_THE_SOURCE = re.compile(
    r"\bsource\b|course notes|课程笔记|not in the paper|不在论文"
)  # terms.py


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """(cell index, paragraph) of every markdown paragraph of a notebook; a table row counts as a
    paragraph of its own."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        for block in re.split(r"\n\s*\n", "".join(cell["source"])):
            rows = [line for line in block.splitlines() if line.lstrip().startswith("|")]
            text = " ".join(line for line in block.splitlines() if line not in rows)
            found += [(index, row) for row in rows] + ([(index, text)] if text.strip() else [])
    return found


def contradictions(lines: list[tuple[int, str]]) -> list[str]:
    return [
        f"cell {index}: {claim}: {line.strip()[:120]}"
        for index, line in lines
        for claim, pattern in CORRECTED.items()
        if pattern.search(line) and not QUOTING_THE_SOURCE.search(line)
    ]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).as_posix())
def test_no_lesson_states_a_claim_that_lesson_1_corrects(path: Path):
    found = contradictions(prose_lines(path))
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "| after Dropout | 2048 | against over-fitting (防止过拟合) |",
        "| Dropout 之后 | 2048 | 防止过拟合 |",
        "input (512) → Linear1 (512→2048) → ReLU → Dropout → Linear2 (2048→512) → output (512).",
        "Each encoder layer has three dropouts.",
        "d_ff, the FFN's output dimension, is 2048.",
    ],
)
def test_the_check_rejects_each_corrected_claim(line: str):
    assert contradictions([(2, line)])


def test_the_check_allows_quoting_the_source_to_correct_it():
    line = 'The source calls it "against overfitting (防止过拟合)"; it is a regulariser.'
    assert contradictions([(5, line)]) == []
    line = "课程笔记说 FFN 的 dropout 能“防止过拟合”。这需要纠正：dropout 是一种正则化手段。"
    assert contradictions([(5, line)]) == []
