"""One JupyterLab server and one Chromium for the whole browser suite; lessons are served as
copies with outputs cleared, so "it ran" means it ran now. In CI (CI=true) a skip is a failure."""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_suite import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    NO_CHROMIUM,
    NOTEBOOKS,
    VIEWPORT,
    cleared_copy,
    in_ci,
    open_lab,
)
from labserver import LabServer, other_cpu

_skipped_for_chromium = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """CI must run the browser suite: there, any skip in tests/browser counts as a failure."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and in_ci() and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"CI=true, so the browser suite may not skip: {reason}"


def pytest_terminal_summary(terminalreporter):
    if _skipped_for_chromium:
        terminalreporter.write_line(NO_CHROMIUM, yellow=True)


@pytest.fixture(scope="session")
def served_root() -> Iterator[Path]:
    """Folder the suite's server serves: lessons/ (cleared copies of notebooks/), stored/ (the
    notebooks as committed, outputs included) and scratch/."""
    root = Path(tempfile.mkdtemp(prefix="ffn-course-browser-"))
    for folder in ("lessons", "stored"):
        shutil.copytree(
            NOTEBOOKS, root / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints")
        )
    for notebook in (root / "lessons").rglob("*.ipynb"):  # both editions (zh/ too)
        cleared_copy(NOTEBOOKS / notebook.relative_to(root / "lessons"), notebook)
    (root / "scratch").mkdir()
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def lab(served_root: Path) -> Iterator[LabServer]:
    """JupyterLab started with `make lab`'s options, serving ``served_root``; its kernels compute
    as another CPU would (labserver.other_cpu)."""
    server = LabServer(
        served_root.parent / f"{served_root.name}-home",
        secrets.token_hex(16),
        root=served_root,
        expose_app=True,
        environment=other_cpu(),
    )
    try:
        server.wait_ready()
        yield server
    finally:
        survivors = server.stop()
        shutil.rmtree(server.home, ignore_errors=True)
    assert not survivors, f"processes {survivors} outlived the JupyterLab server (killed them)"
    assert not server.stop_errors, "\n".join(server.stop_errors)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium, shared by every test; skips (fails in CI) when it is missing."""
    if not CHROMIUM.exists():
        _skipped_for_chromium.append(True)
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        context = chromium.new_context(viewport=VIEWPORT)
        yield context
        context.close()
        chromium.close()


@pytest.fixture(scope="session")
def lab_page(browser, lab):
    """One JupyterLab tab that every notebook of the session is opened in, one after another."""
    page = open_lab(browser, lab)
    yield page
    page.close()
