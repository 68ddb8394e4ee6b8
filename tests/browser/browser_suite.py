"""Shared by the browser suite's test modules: where things are, how lessons are served and opened."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from labserver import LabServer
from lessonpage import LessonPage

PROJECT = Path(__file__).resolve().parents[2]
NOTEBOOKS = PROJECT / "notebooks"
ARTIFACTS = PROJECT / "artifacts" / "browser"
CHROMIUM = Path("/usr/bin/chromium")
VIEWPORT = {"width": 1280, "height": 900}  # a laptop's window, in CSS pixels
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NO_CHROMIUM = (
    f"browser suite skipped: no Chromium at {CHROMIUM}; install it with `make chromium` "
    "(as root: apt-get install -y chromium)"
)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def cleared_copy(source: Path, target: Path) -> None:
    """``source`` notebook without outputs, counts or widget state, with the python3 kernel."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    notebook["metadata"].pop("widgets", None)
    notebook["metadata"]["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    target.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def open_lab(browser, lab: LabServer):
    """A tab with JupyterLab loaded (a fresh workspace, file browser closed), for every notebook."""
    page = browser.new_page()
    page.goto(f"{lab.url}/lab/workspaces/browser-suite?reset&token={lab.token}")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.started", timeout=90_000)
    page.evaluate("() => window.jupyterapp.restored")
    page.evaluate(
        "() => { const s = window.jupyterapp.shell; if (!s.leftCollapsed) s.collapseLeft(); }"
    )
    return page


@contextmanager
def opened_lesson(page, lab: LabServer, path: str, run_all: bool = True) -> Iterator[LessonPage]:
    """``path`` (relative to the served folder) opened, and Run All done unless ``run_all`` is
    False (its stored outputs shown as committed); afterwards its tab is closed and its kernel
    stopped, so lessons do not pile up kernels (in the background: the next lesson need not wait
    for it to exit)."""
    lesson = LessonPage(page, path)
    try:
        lesson.open()
        if run_all:
            lesson.run_all()
        yield lesson
    finally:
        try:
            lesson.close()
        finally:
            lab.shutdown_kernels(wait=False)
