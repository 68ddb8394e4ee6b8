"""Notebooks are committed executed top to bottom, with no errors and no paths of this machine:
nbval compares the stored outputs, so a stale or half-run notebook would test nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
MACHINE_PATH = re.compile(r"(/root/|/tmp/|/work/|/home/[^/\s]+/|[A-Z]:\\\\Users)")


def code_cells(path: Path) -> list[dict]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 2, "expected the index and at least one lesson in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executed_in_order(path: Path):
    counts = [cell.get("execution_count") for cell in code_cells(path)]
    assert None not in counts, f"{path.name}: a code cell was never run (re-run `make notebooks`)"
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: execution counts {counts}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_no_error_output(path: Path):
    for index, cell in enumerate(code_cells(path)):
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", (
                f"{path.name} code cell {index}: {output.get('ename')}"
            )
            assert output.get("name") != "stderr" or "Warning" not in "".join(
                output.get("text", "")
            ), f"{path.name} code cell {index} printed a warning: {''.join(output['text'])[:200]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_outputs_show_no_machine_path(path: Path):
    for index, cell in enumerate(code_cells(path)):
        for output in cell.get("outputs", []):
            text = json.dumps(output.get("text", "")) + json.dumps(
                output.get("data", {}).get("text/plain", "")
            )
            match = MACHINE_PATH.search(text)
            assert match is None, (
                f"{path.name} code cell {index} shows a machine path: {match.group(0)}"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_names_the_python3_kernel(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["metadata"].get("kernelspec", {}).get("name") == "python3"


def test_hygiene_check_catches_a_bad_notebook(tmp_path: Path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "execution_count": 2,
                        "source": "",
                        "metadata": {},
                        "outputs": [],
                    },
                    {
                        "cell_type": "code",
                        "execution_count": None,
                        "source": "",
                        "metadata": {},
                        "outputs": [],
                    },
                ],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )
    with pytest.raises(AssertionError):
        test_notebook_executed_in_order(bad)
