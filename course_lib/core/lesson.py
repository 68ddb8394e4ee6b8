"""What a lesson package says about itself (``LESSON``): its number, its topic (the package's and
the notebooks' name), its title, its time and what a learner will be able to do, in English marked
for the catalogue. The index notebook's and README's tables are made from these records.

``submodules`` gives a lesson package its parts as attributes, loaded when first used, so that a
notebook imports its lesson as one name (``from course_lib.lessons import l06_locating_and_editing
as lesson``; then ``lesson.figures``, ``lesson.checks``, and each experiment module by its own name,
``lesson.editing`` for ``experiments/editing.py``) and a tool that needs only the experiments does
not load the demos.

Discovery lives here too: ``lessons()`` finds the lesson packages under ``course_lib.lessons`` by
name, and ``lesson_modules`` a kind of module in each, so that neither the core nor the tools
import the lessons' package to find them.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from course_lib.core._validate import positive_int

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


@dataclass(frozen=True)
class Lesson:
    number: int
    topic: str  # the package is l{number:02d}_{topic}, the notebooks {number:02d}_{topic}.ipynb
    title: str
    minutes: int
    goal: str  # "you will be able to …", the index's sentence
    # The mechanisms the lesson teaches, each visible in its notebook where it is taught: a name
    # the notebook defines (``"layer_norm"``: ``def layer_norm`` in a cell, the learner's own or the
    # lesson's), or a library function it shows (``"memory.attributions"``: ``show_source(...)``)
    mechanisms: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        positive_int("number", self.number)
        positive_int("minutes", self.minutes)
        if not self.topic.isidentifier() or self.topic != self.topic.lower():
            raise ValueError(f"topic must be a lower-case identifier, got {self.topic!r}")

    @property
    def package(self) -> str:
        return f"l{self.number:02d}_{self.topic}"

    @property
    def notebook(self) -> str:
        return f"{self.number:02d}_{self.topic}.ipynb"

    def text(self, field: str) -> str:
        """``title`` or ``goal`` in the learner's language."""
        from course_lib.core.i18n import tr  # here: the catalogue finds lessons through this module

        return tr(getattr(self, field))


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
