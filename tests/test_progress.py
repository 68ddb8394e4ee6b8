"""Every long cell shows its progress (``course_lib.core.progress``), and the bar's stored outputs
are the same on every run.

A cell is long when the notebook benchmark measured it above ``LONG_CELL_S`` seconds of kernel CPU
in either edition (``benchmarks/cell_times.json``, written by ``python -m benchmarks.cell_times``
or ``make bench``; it says how and when each time was taken). Kernel CPU, not wall time: on a busy
machine a cell waits for a core far longer than it computes. It is judged as measured, on the
machine that measured it (``cpu_s``), not scaled to the reference machine alone
(``cpu_s_at_reference``, kept beside it): a class shares a busy server. Such a cell's stored
outputs, in both editions, must hold a bar from ``course_lib.core.progress``: a widget output whose
stored state carries ``PROGRESS_CLASS``. A lesson's first code cell is not judged: it imports
torch and the course, the floor the benchmark sets every notebook beside, with nothing to count.
No kernel runs here: the times and the outputs are read from the committed files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from course_lib.core.progress import BAR_FORMAT, PROGRESS_CLASS, progress

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "notebooks"
CELL_TIMES = ROOT / "benchmarks" / "cell_times.json"
LONG_CELL_S = 2.0  # issue 62: a cell that computes for more than about 2 s shows its progress
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
REFRESH = "python -m benchmarks.cell_times --only {stem}"


def cell_seconds(cell: dict) -> float:
    """A measured cell's seconds: its kernel CPU, else its wall time (a file written before CPU
    was measured per cell)."""
    for key in ("cpu_s", "wall_s"):
        if cell.get(key) is not None:
            return cell[key]
    raise ValueError(f"cell {cell.get('index')} has no time: {cell}")


def first_line(source: str) -> str:
    """The notebook timer's name for a cell (benchmarks.notebook_timer.first_line)."""
    from benchmarks.notebook_timer import first_line as timer_first_line

    return timer_first_line(source)


def long_cells(times: dict, threshold: float = LONG_CELL_S) -> dict[tuple[str, int], dict]:
    """(notebook stem, cell index) -> the measured cell, for every cell over ``threshold`` in
    either edition's times ("05_ffn_memory.ipynb" and "zh/05_ffn_memory.ipynb" share a stem)."""
    found = {}
    for name, entry in times["notebooks"].items():
        stem = Path(name).stem
        for cell in entry["cells"][1:]:  # the first code cell: the imports, the floor
            if cell_seconds(cell) > threshold:
                key = (stem, cell["index"])
                if key not in found or cell_seconds(cell) > cell_seconds(found[key]):
                    found[key] = {**cell, "measured_in": name}
    return found


def shows_progress(notebook, index: int) -> bool:
    """Whether cell ``index``'s stored outputs hold a progress bar of the course's helper."""
    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for output in notebook.cells[index].get("outputs", []):
        model_id = output.get("data", {}).get(WIDGET_VIEW, {}).get("model_id")
        classes = state.get(model_id, {}).get("state", {}).get("_dom_classes", [])
        if PROGRESS_CLASS in classes:
            return True
    return False


def missing_progress(times: dict, folder: Path) -> list[str]:
    """One line per long cell, in either edition, whose stored outputs show no progress, or whose
    notebook no longer has the cell the times name (the times are then stale)."""
    problems = []
    for (stem, index), cell in sorted(long_cells(times).items()):
        for path in (folder / f"{stem}.ipynb", folder / "zh" / f"{stem}.ipynb"):
            notebook = nbformat.read(path, as_version=4)
            where = f"{path.relative_to(folder.parent)} cell {index} ({cell['line']!r})"
            seconds = f"{cell_seconds(cell):.1f} s in {cell['measured_in']}"
            if index >= len(notebook.cells) or (
                first_line(notebook.cells[index].source) != cell["line"]
            ):
                problems.append(
                    f"{where}: the times ({seconds}) name a cell the notebook no longer has "
                    f"there; measure it anew: {REFRESH.format(stem=stem)}"
                )
            elif not shows_progress(notebook, index):
                problems.append(
                    f"{where}: {seconds}, over {LONG_CELL_S:g} s, and its stored outputs show "
                    "no progress: iterate through course_lib.core.progress.progress"
                )
    return problems


@pytest.fixture(scope="module")
def times() -> dict:
    return json.loads(CELL_TIMES.read_text(encoding="utf-8"))


def test_every_notebook_of_both_editions_has_its_cells_measured(times):
    names = {p.relative_to(FOLDER).as_posix() for p in [*FOLDER.glob("*.ipynb"), *FOLDER.glob("zh/*.ipynb")]}  # fmt: skip
    assert names <= set(times["notebooks"]), (
        f"no cell times for {sorted(names - set(times['notebooks']))}: python -m benchmarks.cell_times"
    )


def test_every_long_cell_shows_its_progress_in_both_editions(times):
    problems = missing_progress(times, FOLDER)
    assert not problems, "\n".join(problems)


# The test tested: a small notebook of its own and its times.


def synthetic(folder: Path, outputs: list, state: dict | None = None, line: str = "train()"):
    """notebooks/09_x.ipynb and notebooks/zh/09_x.ipynb with one code cell (index 1) of
    ``outputs``, and times saying it ran 3 s of CPU."""
    for path in (folder / "09_x.ipynb", folder / "zh" / "09_x.ipynb"):
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_markdown_cell("# x"), nbformat.v4.new_code_cell(line)]
        notebook.cells[1].outputs = [nbformat.from_dict(o) for o in outputs]
        if state is not None:
            notebook.metadata["widgets"] = {WIDGET_STATE: {"state": state, "version_major": 2}}
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, path)
    imports = {"index": 0, "line": "import torch", "wall_s": 9.0, "cpu_s": 5.0}
    cell = {"index": 1, "line": "train()", "wall_s": 9.0, "cpu_s": 3.0, "cpu_s_at_reference": 1.0}
    return {"notebooks": {"09_x.ipynb": {"cells": [imports, cell]}}}


BAR_OUTPUT = {
    "output_type": "display_data",
    "metadata": {},
    "data": {"text/plain": "training |          | 0/3", WIDGET_VIEW: {"model_id": "m1"}},
}


def test_a_long_cell_without_progress_is_caught(tmp_path):
    printed = {"output_type": "stream", "name": "stdout", "text": "epoch 1 of 3\n"}
    times = synthetic(tmp_path, [printed])
    problems = missing_progress(times, tmp_path)
    assert len(problems) == 2 and all("show no progress" in p or "no progress" in p for p in problems)  # fmt: skip
    assert {p.split(" cell")[0] for p in problems} == {
        f"{tmp_path.name}/09_x.ipynb",
        f"{tmp_path.name}/zh/09_x.ipynb",
    }


def test_a_widget_that_is_not_the_course_bar_is_not_progress(tmp_path):
    times = synthetic(tmp_path, [BAR_OUTPUT], {"m1": {"state": {"_dom_classes": ["a-demo"]}}})
    assert len(missing_progress(times, tmp_path)) == 2


def test_a_long_cell_with_the_course_bar_passes(tmp_path):
    times = synthetic(tmp_path, [BAR_OUTPUT], {"m1": {"state": {"_dom_classes": [PROGRESS_CLASS]}}})
    assert missing_progress(times, tmp_path) == []


def test_a_short_cell_needs_no_progress(tmp_path):
    times = synthetic(tmp_path, [])
    times["notebooks"]["09_x.ipynb"]["cells"][1]["cpu_s"] = 1.5
    assert missing_progress(times, tmp_path) == []


def test_stale_times_are_caught(tmp_path):
    times = synthetic(tmp_path, [], line="evaluate()")
    problems = missing_progress(times, tmp_path)
    assert len(problems) == 2 and all("no longer has" in p for p in problems)


def test_a_cell_is_judged_by_its_kernel_cpu_not_its_wall_time():
    assert cell_seconds({"wall_s": 9.0, "cpu_s": 1.5, "cpu_s_at_reference": 0.5}) == 1.5
    assert cell_seconds({"wall_s": 2.5}) == 2.5


def test_the_first_code_cell_the_imports_is_not_judged(tmp_path):
    times = synthetic(tmp_path, [BAR_OUTPUT], {"m1": {"state": {"_dom_classes": [PROGRESS_CLASS]}}})
    assert [key[1] for key in long_cells(times)] == [1]


# The helper: the same text on every run, in the learner's language.


def test_the_bar_shows_no_time_or_rate():
    assert not re.search(r"elapsed|remaining|rate|postfix", BAR_FORMAT)


def test_progress_off_returns_the_iterable_itself():
    steps = range(5)
    assert progress(steps, "training", show=False) is steps


def test_progress_outside_a_notebook_iterates_and_writes_text(capsys):
    assert list(progress(range(3), "training")) == [0, 1, 2]
    err = capsys.readouterr().err
    assert "training |" in err and "3/3" in err and "it/s" not in err and "<" not in err


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "words"),
    [
        ((range(3), 5), {}, TypeError, "description must be a str"),
        ((iter([1, 2]), "x"), {}, ValueError, "total is needed"),
        ((range(3), "x"), {"total": 0}, ValueError, "total must be a whole number"),
        ((range(3), "x"), {"total": 2.5}, ValueError, "got 2.5"),
        ((range(3), "x"), {"show": "yes"}, TypeError, "show must be True or False"),
    ],
)
def test_progress_names_the_argument_it_rejects(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        progress(*args, **kwargs)
