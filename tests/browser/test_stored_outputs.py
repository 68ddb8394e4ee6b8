"""The comparison that stands in for nbval on the lessons the browser suite runs: it passes what
nbval passes and rejects what nbval rejects, naming the notebook and the cell."""

from __future__ import annotations

import pytest
from stored_outputs import SANITIZE, compared, differences, flatten, sanitizer

SANITIZE_TEXT = sanitizer()


def cell(source: str, *outputs: dict) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": list(outputs)}


def stream(text: str, name: str = "stdout") -> dict:
    return {"output_type": "stream", "name": name, "text": text}


def result(text: str, **data) -> dict:
    return {
        "output_type": "execute_result",
        "execution_count": 3,
        "metadata": {},
        "data": {"text/plain": text, **data},
    }


STORED = [
    cell("print(1)", stream("✔ the claim: 4 of 48\n")),
    cell("fig", result("<Figure size 640x480 with 1 Axes>", **{"image/png": "AAAA"})),
    cell("# NBVAL_IGNORE_OUTPUT\n# a live widget\nbuild(demo)", result("VBox()")),
]


def ran(*cells: dict) -> list[dict]:
    return [{"source": c["source"], "outputs": c["outputs"]} for c in cells]


def test_the_same_outputs_pass_whatever_nbval_leaves_out():
    now = ran(
        cell("print(1)", stream("✔ the claim: "), stream("4 of 48\n")),  # split stream, joined
        cell("fig", result("<Figure size 700x300 with 2 Axes>")),  # a figure's repr, sanitized
        cell("# NBVAL_IGNORE_OUTPUT\n# a live widget\nbuild(demo)", result("HBox()")),
    )
    now[1]["outputs"][0]["execution_count"] = 9
    assert differences(now, STORED, "lesson.ipynb") == []


@pytest.mark.parametrize(
    ("outputs", "why"),
    [
        ([stream("✔ the claim: 5 of 48\n")], "a number that changed"),
        ([stream("✘ the claim: 4 of 48\n")], "a claim that failed"),
        ([stream("✔ the claim: 4 of 48\n", "stderr")], "stdout became stderr"),
        ([stream("✔ the claim: 4 of 48\n"), stream("warning\n", "stderr")], "a new warning"),
        ([], "no output at all"),
        (
            [
                stream("✔ the claim: 4 of 48\n"),
                {"output_type": "error", "ename": "ValueError", "evalue": "x", "traceback": []},
            ],
            "an error",
        ),
    ],
)
def test_what_nbval_rejects_is_rejected_naming_notebook_and_cell(outputs, why):
    now = ran(cell("print(1)", *outputs), STORED[1], STORED[2])
    (problem,) = differences(now, STORED, "lesson.ipynb")
    assert problem.startswith("lesson.ipynb code cell 0 ('print(1)'): outputs differ"), why


def test_code_that_is_not_the_committed_code_is_reported():
    now = ran(cell("print(2)", *STORED[0]["outputs"]), STORED[1], STORED[2])
    assert differences(now, STORED, "x.ipynb") == [
        "x.ipynb: the code cells that ran are not the committed ones"
    ]


def test_markers_count_only_alone_on_their_line_and_tags_count_too():
    assert not compared(cell("# NBVAL_IGNORE_OUTPUT\nx"))
    assert not compared(cell("#NBVAL_SKIP\nx"))
    assert compared(cell("# NBVAL_IGNORE_OUTPUT: a reason on the same line\nx"))
    tagged = cell("x")
    tagged["metadata"]["tags"] = ["nbval-ignore-output"]
    assert not compared(tagged)


def test_the_sanitizer_is_the_one_nbval_is_given():
    assert "--nbval-sanitize-with notebooks/sanitize.cfg" in (
        SANITIZE.parents[1] / "Makefile"
    ).read_text(encoding="utf-8")
    assert SANITIZE_TEXT("took 12.5 ms at 0x7f3a2b1c4d5e") == "took TIME at 0xADDRESS"


def test_flatten_keeps_each_mime_type_in_order_and_leaves_images_out():
    flat = flatten(
        [result("a", **{"text/html": "<b>a</b>", "image/png": "x"}), result("b")], SANITIZE_TEXT
    )
    assert flat == {"text/plain": ["a", "b"], "text/html": ["<b>a</b>"]}
