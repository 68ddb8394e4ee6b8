"""What lesson 5's notebooks say around their exercises, in both editions: nothing above
Exercise 1 names the vectors its fix reads (``linear2``) or a call that would skip the fix
(``value_logits``); Exercise 2 asks for the costliest unit, not "the unit that stores a fact",
which the lesson refutes; the gated-FFN race the lesson no longer runs is mentioned nowhere."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
EDITIONS = {"en": NOTEBOOKS / "05_ffn_memory.ipynb", "zh": NOTEBOOKS / "zh" / "05_ffn_memory.ipynb"}
HEADING = {"en": r"^### Exercise {n} · ", "zh": r"^### 练习 {n} · "}


def _shown(cell) -> str:
    """A cell's source and its outputs' text, as a learner reads them."""
    texts = [cell.source]
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        texts += [output.get("text", ""), data.get("text/plain", ""), data.get("text/markdown", "")]
    return "\n".join(t if isinstance(t, str) else "".join(t) for t in texts)


def _heading(cells, edition: str, n: int) -> int:
    pattern = re.compile(HEADING[edition].format(n=n), re.M)
    return next(
        i for i, c in enumerate(cells) if c.cell_type == "markdown" and pattern.search(c.source)
    )


GIVEAWAYS = ("linear2", "value_logits", "weight[:, i]")


def giveaways(cells, edition: str) -> list[str]:
    """The words of ``GIVEAWAYS`` that a learner reads above Exercise 1's task."""
    task = _heading(cells, edition, 1)
    above = [_shown(c) for c in cells[:task]]
    above.append(cells[task].source.split("###")[0])  # the heading cell's prose before the task
    return [word for word in GIVEAWAYS if any(word in text for text in above)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_nothing_above_exercise_1_gives_its_fix_away(edition):
    assert giveaways(nbformat.read(EDITIONS[edition], as_version=4).cells, edition) == []


def test_the_check_finds_the_sentence_that_gave_the_fix_away():
    old = ("In PyTorch's `nn.Linear`, `linear2` computes h Wᵀ, so v_i is the column "
           "`linear2.weight[:, i]`. `model.value_logits(layer)` gives E v_i for every unit.")  # fmt: skip
    task = "One unit's value is a mixture.\n\n### Exercise 1 · find the bug: the value projection"
    cells = [nbformat.v4.new_markdown_cell(old), nbformat.v4.new_markdown_cell(task)]
    assert giveaways(cells, "en") == list(GIVEAWAYS)
    cells[1].source = "`linear2` here is too early.\n\n" + task
    assert giveaways(cells[1:], "en") == ["linear2"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_exercise_2_asks_for_the_costliest_unit_not_a_units_fact(edition):
    cells = nbformat.read(EDITIONS[edition], as_version=4).cells
    title = cells[_heading(cells, edition, 2)].source.split("###")[-1].splitlines()[0]
    assert ("costs the most" in title) if edition == "en" else ("擦除代价最大" in title)
    assert "stores" not in title and "存储" not in title


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_race_the_lesson_cut_is_mentioned_nowhere(edition):
    text = "\n".join(_shown(c) for c in nbformat.read(EDITIONS[edition], as_version=4).cells)
    for word in ("variant_race", "SwiGLU", "Shazeer", "GLU"):
        assert word not in text, (edition, word)
