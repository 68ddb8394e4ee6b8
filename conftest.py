"""Test-session setup shared by the unit tests and nbval: keep Jupyter, IPython and matplotlib
from writing into the user's home directory."""

import os
import tempfile
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling  # pytest-xdist, a dev dependency

from course_lib.core.tools.lab import isolated_dirs

os.environ.update(isolated_dirs(Path(tempfile.mkdtemp(prefix="ffn-course-test-"))))
# Every process of the session (xdist's workers, nbval's kernels, the hub's) inherits this: while
# they wait, PyTorch's OpenMP threads sleep instead of spinning. Each core is already busy with a
# worker, a kernel or Chromium, so a spinning thread took the CPU that the thread it waited for
# needed: the mixture-of-experts lesson ran in 25 s natively beside one busy process, 11 s with
# this (9 s on an idle machine). The threads stay two, as in a learner's kernel, so nbval's native
# run keeps checking that two threads print what one does.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# A venv's kernelspec is found through sys.prefix, so moving JUPYTER_DATA_DIR loses nothing.


# --- spreading `make test` over both cores (pytest-xdist) ---------------------------------------
# A work unit runs on one worker, in order: a notebook's nbval cells share one kernel, a lesson's
# browser tests share one Run All, and the site's tests share one build. The rest goes by module,
# as module-scoped fixtures expect. Longest units first, so neither core is left with a long one at
# the end. (xdist's own --dist loadgroup leaves nbval's cells ungrouped, so the scheduler is ours.)
SITE_MODULES = ("tests/browser/test_site_in_browser.py", "tests/tools/test_site.py")
LESSON_MODULE = "tests/browser/test_lessons_in_browser.py"
ORDER = ("site", "browser lesson", "notebook", "module")


def work_unit(nodeid: str) -> tuple[str, str]:
    """(kind, name) of the work unit a test belongs to, from its node id."""
    module = nodeid.split("::", 1)[0]
    if module in SITE_MODULES:
        return "site", "site"
    if module.endswith(".ipynb"):
        return "notebook", module
    if module == LESSON_MODULE and nodeid.endswith("]"):
        return "browser lesson", f"lesson {nodeid[nodeid.index('[') + 1 : -1]}"
    return "module", module


COMPARED_IN_BROWSER = f"{LESSON_MODULE}::test_run_all_gives_the_committed_outputs["
CHROMIUM = Path("/usr/bin/chromium")


def compared_in_browser(items) -> set[str]:
    """The English notebooks (as nbval names them) that nbval need not execute: the browser suite
    compares their outputs with the committed ones after its own Run All, which computes as another
    CPU would (tests/browser/labserver.py), and nbval runs their Chinese editions natively, whose
    code cells are theirs character for character (tests/test_editions.py). So each code cell runs
    once natively and once as another CPU. Where Chromium is missing, or a notebook's Chinese
    edition is not collected, nbval keeps it."""
    if not CHROMIUM.exists():
        return set()
    collected = {item.nodeid.split("::", 1)[0] for item in items}
    ids = [item.nodeid for item in items if item.nodeid.startswith(COMPARED_IN_BROWSER)]
    names = {nodeid[len(COMPARED_IN_BROWSER) : -1] for nodeid in ids}
    return {
        f"notebooks/{name}"
        for name in names
        if "/" not in name and f"notebooks/zh/{name}" in collected
    }


def pytest_addoption(parser):
    parser.addoption(
        "--lesson",
        default=None,
        help="run one lesson's checks only (make test LESSON=NN): devtools/lesson_tests.py",
    )


def lesson_only(config, items) -> None:
    """Under ``--lesson NN``, deselect every test that is not that lesson's
    (``devtools.lesson_tests.selected``)."""
    number = config.getoption("lesson")
    if number is None:
        return
    from devtools.lesson_tests import lesson_tests, other_lessons_tests, selected  # a tool

    own, theirs = set(lesson_tests(number)), other_lessons_tests(number)
    kept = [item for item in items if selected(item.nodeid, number, own, theirs)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected what they deselect
def pytest_collection_modifyitems(config, items):
    """Under ``--lesson NN``, that lesson's checks only; nbval's items of the English notebooks the browser suite checks are deselected (each code
    cell runs natively once and as another CPU once, not more); then the longest kinds of unit
    first (a stable sort: each unit keeps its own order)."""
    lesson_only(config, items)
    in_browser = compared_in_browser(items)
    dropped = [item for item in items if item.nodeid.split("::", 1)[0] in in_browser]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item.nodeid.split("::", 1)[0] not in in_browser]
    items.sort(key=lambda item: ORDER.index(work_unit(item.nodeid)[0]))


class WorkUnitScheduling(LoadScopeScheduling):
    """pytest-xdist's scope scheduling, with ``work_unit`` as the scope."""

    def _split_scope(self, nodeid: str) -> str:
        return work_unit(nodeid)[1]


class WorkUnits:
    """The scheduler, registered only where pytest-xdist runs (the benchmark turns it off)."""

    @staticmethod
    def pytest_xdist_make_scheduler(config, log):
        config.option.loadscopereorder = False  # keep the order chosen above
        return WorkUnitScheduling(config, log)


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(WorkUnits(), "ffn-course-work-units")
