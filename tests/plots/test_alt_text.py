"""Alt text (替代文本): every figure says what it shows, in the notebook's stored output too."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

from course_lib.core.i18n import set_language
from course_lib.core.plots import describe, new_figure


def _two_panels(*notes: str):
    """A titled figure: a left panel with a title, axis labels and a two-entry legend, a right
    panel with ``notes`` as annotations."""
    fig = new_figure()
    fig.suptitle("depth profile")
    left, right = fig.subplots(1, 2)
    left.plot([0, 1], [0, 1], label="post-norm")
    left.plot([0, 1], [1, 0], label="pre-norm")
    left.legend()
    left.set(title="gradient", xlabel="layer", ylabel="norm")
    for k, note in enumerate(notes):
        right.text(0.5, 0.2 * k, note)
    return fig


def test_describe_reads_titles_labels_and_legends():
    text = describe(_two_panels("RMS 1"))
    assert text.startswith("Figure: depth profile. panel 1: gradient; x: layer; y: norm")
    assert "legend: post-norm, pre-norm" in text and "panel 2: labels: RMS 1" in text


def test_describe_speaks_the_learners_language():
    fig = new_figure()
    fig.add_subplot().set_xlabel("d_ff")
    set_language("zh")
    try:
        assert describe(fig) == "图：横轴：d_ff"
    finally:
        set_language("en")


def test_chinese_alt_text_joins_its_parts_with_full_width_punctuation():
    fig = _two_panels("RMS 1", "RMS 2")
    set_language("zh")
    try:
        text = describe(fig)
    finally:
        set_language("en")
    assert "。子图 1：" in text and "；纵轴：" in text and "RMS 1、RMS 2" in text
    assert not any(mark in text for mark in (". ", "; ", ", ")), text


def test_a_figure_without_text_still_gets_alt_text():
    fig = new_figure()
    fig.add_subplot().plot([0, 1])
    assert describe(fig) == "a figure with 1 panel(s) and no text"


def test_a_notebook_figure_output_carries_its_alt_text(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(
            "%matplotlib inline\nfrom course_lib.core.plots import new_figure\n"
            "fig = new_figure()\nfig.add_subplot().set_title('hidden units')\nfig"
        )
    ]
    NotebookClient(notebook, kernel_name="python3", timeout=120).execute()
    outputs = [o for o in notebook.cells[0].outputs if "image/png" in o.get("data", {})]
    assert len(outputs) == 1
    assert outputs[0]["metadata"]["image/png"]["alt"] == "Figure: hidden units"
