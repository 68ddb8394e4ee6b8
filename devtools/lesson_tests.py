"""One lesson's checks, for a contributor's quick loop (``make test LESSON=05``): its own tests
(``tests/lessons/lNN_topic/``), the other test modules that import the lesson's package, its two
notebooks (nbval runs them natively), and every case of the tests that read every lesson (minutes,
exercises, editions, glossary, spread…) that names this lesson, so the loop fails exactly where
the full suite would for it. Found, not listed: a test belongs to a lesson when it sits in the
lesson's folder of ``tests/lessons`` or imports ``course_lib.lessons.lNN_…``; a case of a test that
reads every lesson belongs to it when its parameters name the lesson's package or notebook
(``[l05_ffn_memory]``, ``[zh/05_ffn_memory.ipynb]``). ``conftest.py`` applies the selection
(pytest's ``--lesson NN``).

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
    uses = re.compile(rf"\bcourse_lib\.lessons(\.{package}\b| import {package}\b)")
    tests = sorted(
        str(path.relative_to(ROOT))
        for folder in ("tests", "deploy")
        for path in (ROOT / folder).rglob("test_*.py")
        if "browser" not in path.parts
        and (package in path.parts or uses.search(path.read_text(encoding="utf-8")))
    )
    stem = f"{int(number):02d}_"
    notebooks = sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").rglob(f"{stem}*.ipynb")
    )
    return tests + notebooks


LESSON_NAMED = re.compile(r"\b(l\d{2}_[a-z0-9_]+|\d{2}_[a-z0-9_]+\.ipynb)")


def selected(nodeid: str, number: str, own: set[str]) -> bool:
    """Whether the quick loop of lesson ``number`` runs the test ``nodeid``: a test of the lesson
    (its module is one of ``own``, as ``lesson_tests`` gives them), or a case whose parameters name
    the lesson's package or one of its notebooks. Other lessons' cases, and the course's other unit
    tests, are left to the full suite."""
    module, _, rest = nodeid.partition("::")
    if module in own:
        return True
    package = lesson_package(number)
    stem = package[1:]  # "05_ffn_memory", a notebook's name without ".ipynb"
    params = rest[rest.index("[") :] if "[" in rest else ""
    return any(name in (package, f"{stem}.ipynb") for name in LESSON_NAMED.findall(params))


if __name__ == "__main__":
    print("\n".join(lesson_tests(sys.argv[1])))
