"""One lesson's checks, for a contributor's quick loop (``make test LESSON=05``): the full suite
without what belongs to other lessons, so the loop fails exactly where the full suite would for
this lesson. It runs the lesson's own tests (``tests/lessons/lNN_topic/`` and every module that
imports the lesson's package), its two notebooks (nbval runs them natively), every case of the
tests that read every lesson (minutes, exercises, editions, glossary, spread…) that names this
lesson or the index, and every test that names no lesson at all (the tables, README, site,
questions, demos and core tests: a new lesson can break them). It leaves out other lessons' own
tests and every case that names another lesson. Found, not listed: a test module is a lesson's
when it sits in the lesson's folder of ``tests/lessons``; elsewhere a test function is a lesson's
when its own code names ``course_lib.lessons.lNN_…``, uses a name the module imports from it, or
takes a fixture of the module that does (a course-wide module that takes one lesson as an example
keeps its other tests in every lesson's loop); this lesson's loop runs whole every module that
names its package; a case names a lesson when its parameters name its package or notebook
(``[l05_ffn_memory]``, ``[zh/05_ffn_memory.ipynb]``). ``conftest.py`` applies the selection
(pytest's ``--lesson NN``); the Makefile runs ``make lint`` first, as the full suite does.

``python -m devtools.lesson_tests 05`` prints the paths, one per line."""

from __future__ import annotations

import ast
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
    """What belongs to other lessons and not to this one: the modules in their folders of
    ``tests/lessons``, and elsewhere the test functions (``module::name`` or
    ``module::Class::name``) tied to another lesson's package and not to this one's."""
    package = lesson_package(number)
    others = [p.name for p in (ROOT / "course_lib" / "lessons").glob("l[0-9][0-9]_*")]
    own = _modules_of(package)
    theirs: set[str] = set()
    for path in _test_files():
        module = str(path.relative_to(ROOT))
        if module in own:
            continue
        if any(other in path.parts for other in others):
            theirs.add(module)
            continue
        for test, packages in _tests_tied(path, others).items():
            if packages and package not in packages:
                theirs.add(f"{module}::{test}")
    return theirs


def _test_files() -> list[Path]:
    return [
        path
        for folder in ("tests", "deploy")
        for path in sorted((ROOT / folder).rglob("test_*.py"))
        if "browser" not in path.parts
    ]


def _modules_of(package: str) -> set[str]:
    uses = re.compile(rf"\bcourse_lib\.lessons(\.{package}\b| import {package}\b)")
    return {
        str(path.relative_to(ROOT))
        for path in _test_files()
        if package in path.parts or uses.search(path.read_text(encoding="utf-8"))
    }


def _tests_tied(path: Path, packages: list[str]) -> dict[str, set[str]]:
    """Each test function of the module at ``path`` (``name`` or ``Class::name``) with the lesson
    packages it is tied to: named in its own code, through a name the module imports from one, or
    through a fixture of the module (a function it takes as an argument) that is tied to one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = re.compile(r"\b(" + "|".join(map(re.escape, packages)) + r")\b")

    def in_code(node: ast.AST) -> set[str]:
        return set(named.findall(ast.unparse(node)))

    imported: dict[str, set[str]] = {}  # a name the module binds from a lesson's package
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom) and in_code(node):
            for alias in node.names:
                imported[(alias.asname or alias.name).split(".")[0]] = in_code(node)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def ties(function: ast.FunctionDef, seen: frozenset[str] = frozenset()) -> set[str]:
        found = in_code(function)
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and node.id in imported:
                found |= imported[node.id]
        for arg in function.args.args:
            fixture = functions.get(arg.arg)
            if fixture is not None and arg.arg not in seen:
                found |= ties(fixture, seen | {function.name})
        return found

    tied: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            tied[node.name] = ties(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name.startswith("test"):
                    tied[f"{node.name}::{item.name}"] = ties(item)
    return tied


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
    test = rest[: rest.index("[")] if "[" in rest else rest
    return module not in theirs and f"{module}::{test}" not in theirs


if __name__ == "__main__":
    print("\n".join(lesson_tests(sys.argv[1])))
