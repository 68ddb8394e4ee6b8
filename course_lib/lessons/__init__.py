"""One package per lesson (``lNN_topic``), each over the shared core (the model, the trainer, the
bases of plots, demos, checkers and the catalogue): its experiments, ``figures``, ``demos``,
``checks`` and Chinese catalogue ``zh``. Nothing lists them: ``lessons()`` finds the packages and
``lesson_modules`` a kind of module in each, in lesson order."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def lessons() -> list[str]:
    """The lesson packages' names, in lesson order: ["l01_feed_forward", …]."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def lesson_modules(kind: str) -> dict[str, ModuleType]:
    """{lesson: its module ``kind``} ("demos", "checks", "zh", …) for each lesson that has one."""
    found = {}
    for lesson in lessons():
        package = importlib.import_module(f"{__name__}.{lesson}")
        if any(info.name == kind for info in pkgutil.iter_modules(package.__path__)):
            found[lesson] = importlib.import_module(f"{__name__}.{lesson}.{kind}")
    return found
