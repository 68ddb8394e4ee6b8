"""Finding the lessons by name, so that neither the core nor the tools import the lessons'
package: ``lessons()`` lists the lesson packages under ``course_lib.lessons``, ``lesson_modules``
finds a kind of module in each ("demos", "checks", "zh", …), and ``submodules`` gives a lesson
package its parts as attributes, loaded when first used, so that a notebook imports its lesson as
one name (``from course_lib.lessons import l06_locating_and_editing as lesson``; then
``lesson.figures``, ``lesson.checks``, and each experiment module by its own name,
``lesson.editing`` for ``experiments/editing.py``) and a tool that needs only the experiments does
not load the demos.

This module imports nothing of the course: the Chinese catalogue finds the lessons' catalogues
through it, and the lesson record (``core.lesson``) looks texts up in that catalogue.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from types import ModuleType

LESSONS = "course_lib.lessons"  # the package whose subpackages are the lessons, found by name


def lessons() -> list[str]:
    """The lesson packages' names, in lesson order: ["l01_feed_forward", …]."""
    package = importlib.import_module(LESSONS)
    return sorted(info.name for info in pkgutil.iter_modules(package.__path__) if info.ispkg)


def lesson_modules(kind: str) -> dict[str, ModuleType]:
    """{lesson: its module ``kind``} ("demos", "checks", "zh", …) for each lesson that has one."""
    found = {}
    for lesson in lessons():
        package = importlib.import_module(f"{LESSONS}.{lesson}")
        if any(info.name == kind for info in pkgutil.iter_modules(package.__path__)):
            found[lesson] = importlib.import_module(f"{LESSONS}.{lesson}.{kind}")
    return found


def submodules(package: str) -> tuple[Callable[[str], ModuleType], Callable[[], list[str]]]:
    """(``__getattr__``, ``__dir__``) for a lesson package: ``lesson.figures`` imports
    ``<package>.figures`` the first time it is asked for."""
    module = importlib.import_module(package)
    found = {info.name: f"{package}.{info.name}" for info in pkgutil.iter_modules(module.__path__)}
    inner = importlib.util.find_spec(f"{package}.experiments")
    if inner is not None and inner.submodule_search_locations:  # experiments, one module each
        for info in pkgutil.iter_modules(inner.submodule_search_locations):
            found.setdefault(info.name, f"{package}.experiments.{info.name}")
    names = sorted(found)

    def __getattr__(name: str) -> ModuleType:
        if name not in found:
            raise AttributeError(f"module {package!r} has no attribute {name!r}; it has {names}")
        return importlib.import_module(found[name])

    def __dir__() -> list[str]:
        return sorted({*vars(module), *names})

    return __getattr__, __dir__
