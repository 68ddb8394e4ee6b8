"""devtools.notebooks: re-executing a notebook in place numbers its cells 1..n and stores outputs."""

from __future__ import annotations

import nbformat

from devtools.notebooks import execute_notebook, main


def test_execute_notebook_runs_every_cell_in_order_and_saves_outputs(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# A tiny notebook"),
        nbformat.v4.new_code_cell("value = 6 * 7"),
        nbformat.v4.new_code_cell("print(value)"),
        nbformat.v4.new_code_cell("value + 1"),
    ]
    path = tmp_path / "tiny.ipynb"
    nbformat.write(notebook, path)

    took = execute_notebook(path)

    assert isinstance(took, float) and took > 0  # a duration is reported, never bounded here
    done = nbformat.read(path, as_version=4)
    code = [cell for cell in done.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == [1, 2, 3]
    assert code[0].outputs == []
    assert code[1].outputs[0]["text"] == "42\n"
    assert code[2].outputs[0]["data"]["text/plain"] == "43"
    assert done.metadata["kernelspec"]["name"] == "python3"


def test_main_executes_each_path_given_and_reports_the_time(monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(
        "devtools.notebooks.execute_notebook", lambda path: seen.append(path) or 1.25
    )
    main(["a.ipynb", "b.ipynb"])
    assert [str(p) for p in seen] == ["a.ipynb", "b.ipynb"]
    assert capsys.readouterr().out.splitlines() == [
        "a.ipynb: executed in 1.2 s",
        "b.ipynb: executed in 1.2 s",
    ]
