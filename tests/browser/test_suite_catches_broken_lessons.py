"""The checks the lessons go through, run on scratch notebooks: they pass a working demo and
catch a callback that raises, a cell that fails and a demo that is never shown, naming the
notebook and the control. Scratch notebooks live in the suite's temp folder, never in notebooks/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import lessonpage
import pytest
from browser_suite import opened_lesson
from learner import control_problems, naming_problems, run_all_problems, stretched_images

pytestmark = pytest.mark.browser

RENDER = """\
%matplotlib inline
from course_lib.core.plots import new_figure
from course_lib.core.widgets import Control, Demo, build, redraw


def values(d_ff, activation, broken_at=None):
    if d_ff == broken_at:
        raise ValueError(f"no figure for d_ff={d_ff}")
    return d_ff, activation


def draw(data):
    fig = new_figure(3, 1, dpi=50)
    fig.suptitle(f"d_ff={data[0]} activation={data[1]}")
    return fig
"""
D_FF = 'Control("d_ff", (8, 16, 32, 64), 16)'
ACTIVATION = 'Control("activation", ("relu", "gelu", "silu"), "relu", kind="dropdown")'
MODE = 'Control("mode", ("post", "pre"), "post", kind="toggle")'

WORKING = [
    RENDER,
    f'trained = Demo("trained", ({D_FF}, {ACTIVATION}), values, redraw(draw))\nbuild(trained)',
    f'norm = Demo("norm", ({MODE},), lambda mode: values(16, mode), redraw(draw))\nbuild(norm)',
    "from ipywidgets import interact\n\n"
    'interact(lambda steps: print("steps:", steps), steps=(1, 5));',
]
BROKEN = [
    RENDER,
    "from functools import partial\n\n"
    f'broken = Demo("broken", ({D_FF},), partial(values, activation="relu", broken_at=32), redraw(draw))\n'
    "build(broken)",
    f'never_shown = Demo("never shown", ({ACTIVATION},), lambda activation: values(16, activation), redraw(draw))',
    f'deaf = Demo("deaf", ({MODE},), lambda mode: values(8, "relu"), redraw(draw))\nbuild(deaf)',
    "# what a learner sees after an ipywidgets / jupyterlab_widgets mismatch\n"
    'view = {"model_id": "no-such-model", "version_major": 2, "version_minor": 0}\n'
    'display({"application/vnd.jupyter.widget-view+json": view}, raw=True)',
    'raise RuntimeError("this cell fails on purpose")',
]


def scratch_notebook(folder: Path, name: str, sources: list[str]) -> str:
    """Write a notebook of code cells into the served scratch folder; its path for the server."""
    cells = [
        {"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
        for s in sources
    ]
    kernel = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook = {
        "cells": cells,
        "metadata": {"kernelspec": kernel},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / "scratch" / name).write_text(json.dumps(notebook), encoding="utf-8")
    return f"scratch/{name}"


@pytest.fixture(scope="module")
def working(lab_page, lab, served_root):
    path = scratch_notebook(served_root, "working_demo.ipynb", WORKING)
    with opened_lesson(lab_page, lab, path) as lesson:
        yield lesson


@pytest.fixture(scope="module")
def broken(lab_page, lab, served_root):
    path = scratch_notebook(served_root, "broken_demo.ipynb", BROKEN)
    with opened_lesson(lab_page, lab, path) as lesson:
        yield lesson


def test_working_demo_passes_every_check(working):
    problems, log = control_problems(working)
    assert not run_all_problems(working) + problems + naming_problems(working)
    assert not stretched_images(working)
    moved = "\n".join(log)
    for control in (
        "slider 'd_ff': 16 -> ['32', '64']",
        "dropdown 'activation': relu -> ['gelu', 'silu']",
        "toggle 'mode': post -> ['pre']",
        "slider 'steps': 3 -> ['4', '5']",
    ):
        assert control in moved, moved


def test_callback_that_raises_or_changes_nothing_fails_naming_notebook_and_control(
    broken, monkeypatch
):
    monkeypatch.setattr(lessonpage, "OUTPUT_TIMEOUT_MS", 3000)  # the deaf toggle waits this long
    problems, _ = control_problems(broken)
    assert len(problems) == 2, problems
    assert problems[0] == (
        "broken_demo.ipynb: slider 'd_ff' moved to 32: error: ValueError: no figure for d_ff=32"
    )
    # the deaf toggle's failure says where the move stopped: Python got it, no picture changed
    deaf = problems[1]
    assert deaf.startswith(
        "broken_demo.ipynb: toggle 'mode' moved to pre: its output did not change within 3 s ("
    ), deaf
    assert "status line 'updated in" in deaf, deaf
    assert "kernel idle/connected" in deaf, deaf
    assert "('mode', 'pre')" in deaf, deaf  # the kernel got the move: not a lost one
    # and the page shows the picture the kernel holds: no picture was lost on the way either
    shown = re.search(r"picture shown ([0-9a-f]{16}), the kernel's demo pictures \[(.*?)\]", deaf)
    assert shown and f"'{shown[1]}'" in shown[2], deaf


def test_failing_cell_and_unrendered_widget_fail_run_all_naming_notebook(broken):
    problems = run_all_problems(broken)
    assert len(problems) == 2, problems
    assert problems[0].startswith("broken_demo.ipynb code cell 5 ('raise RuntimeError")
    assert problems[0].endswith("error output RuntimeError: this cell fails on purpose")
    # JupyterLab says "Loading widget..." and, once it gives up, "model not found"
    assert problems[1] in (
        "broken_demo.ipynb: a widget failed to render: Error displaying widget: model not found",
        "broken_demo.ipynb: a widget failed to render: a widget still shows 'Loading widget...'"
        " after 15 s",
    )


def test_demo_with_activation_never_rendered_fails_naming_check(broken):
    assert naming_problems(broken) == [
        "broken_demo.ipynb: its demos have a 'activation' control but none is rendered as"
        " 'activation' (rendered: ['d_ff', 'mode'])"
    ]


def test_a_stretched_or_undecodable_demo_image_is_named(broken):
    """Runs last on this lesson: it spoils the two demo images in place."""
    broken.notebook.evaluate(
        """(notebook) => {
          const [stretched, spoilt] = notebook.querySelectorAll('.course-demo-image');
          stretched.style.width = (stretched.naturalWidth * 2) + 'px';
          stretched.style.maxWidth = 'none';
          spoilt.src = 'data:image/png;base64,AAAA';
        }"""
    )
    problems = stretched_images(broken)
    assert len(problems) == 2, problems
    assert problems[0].startswith("broken_demo.ipynb: demo image 0 is ")
    assert problems[0].endswith("px (stretched, so blurred)")
    assert problems[1] == "broken_demo.ipynb: demo image 1 shows no picture (not decodable)"
