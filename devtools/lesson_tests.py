"""One lesson's checks, for a contributor's quick loop (``make test LESSON=05``): the full suite
without what belongs to other lessons, so the loop fails exactly where the full suite would for
this lesson. It runs the lesson's own tests (``tests/lessons/lNN_topic/`` and every module that
imports the lesson's package), its two notebooks (nbval runs them natively), every case of the
tests that read every lesson (minutes, exercises, editions, glossary, spread…) that names this
lesson or the index, and every test that names no lesson at all (the tables, README, site,
questions, demos and core tests: a new lesson can break them). It leaves out other lessons' own
tests and every case that names another lesson. Found, not listed: a test module belongs to a
lesson when it sits in the lesson's folder of ``tests/lessons`` or imports
``course_lib.lessons.lNN_…``; a case names a lesson when its parameters name its package or
notebook (``[l05_ffn_memory]``, ``[zh/05_ffn_memory.ipynb]``). ``conftest.py`` applies the selection
(pytest's ``--lesson NN``); the Makefile runs ``make lint`` first, as the full suite does.

``python -m devtools.lesson_tests 05`` prints the paths, one per line."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lesson_package(number: str) -> str:
    """The lesson package whose number is ``number`` ("05" or "5"): "l05_ffn_memory"."""
    if not number.isdigit():
        raise ValueError(f"LESSON must be a lesson's number such as 05, got {number!r}")
    found = sorted(p.name for p in (ROOT / "course_lib" / "lessons").glob(f"l{int(number):02d}_*"))
    if len(found) != 1:
        raise ValueError(f"LESSON must name one lesson of course_lib/lessons, got {number!r}")
    return found[0]


def lesson_tests(number: str) -> list[str]:
    """The test modules that import the lesson's package, then its notebooks, as paths."""
    package = lesson_package(number)
    tests = sorted(_modules_of(package))
    stem = f"{int(number):02d}_"
    notebooks = sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").rglob(f"{stem}*.ipynb")
    )
    return tests + notebooks


def other_lessons_tests(number: str) -> set[str]:
    """The test modules of every other lesson and of none of this one's (``lesson_tests``)."""
    package = lesson_package(number)
    others = [p.name for p in (ROOT / "course_lib" / "lessons").glob("l[0-9][0-9]_*")]
    theirs = set().union(*(_modules_of(other) for other in others if other != package))
    return theirs - _modules_of(package)


def _modules_of(package: str) -> set[str]:
    uses = re.compile(rf"\bcourse_lib\.lessons(\.{package}\b| import {package}\b)")
    return {
        str(path.relative_to(ROOT))
        for folder in ("tests", "deploy")
        for path in (ROOT / folder).rglob("test_*.py")
        if "browser" not in path.parts
        and (package in path.parts or uses.search(path.read_text(encoding="utf-8")))
    }


LESSON_NAMED = re.compile(r"\b(l\d{2}_[a-z0-9_]+|\d{2}_[a-z0-9_]+\.ipynb)")


INDEX = "00_index.ipynb"  # the index lists every lesson: its cases are every lesson's


def selected(nodeid: str, number: str, own: set[str], theirs: set[str] = frozenset()) -> bool:
    """Whether the quick loop of lesson ``number`` runs the test ``nodeid``: a test of the lesson
    (its module is one of ``own``, as ``lesson_tests`` gives them), a case whose parameters name
    the lesson's package, one of its notebooks or the index, or a test that names no lesson and
    is not another lesson's (``theirs``, as ``other_lessons_tests`` gives them)."""
    module, _, rest = nodeid.partition("::")
    if module in own:
        return True
    package = lesson_package(number)
    stem = package[1:]  # "05_ffn_memory", a notebook's name without ".ipynb"
    params = rest[rest.index("[") :] if "[" in rest else ""
    named = [name.removeprefix("zh/") for name in LESSON_NAMED.findall(params)]
    if named:
        return any(name in (package, f"{stem}.ipynb", INDEX) for name in named)
    return module not in theirs


if __name__ == "__main__":
    print("\n".join(lesson_tests(sys.argv[1])))
