"""One package per lesson (``lNN_topic``), each over the shared core (the model, the trainer, the
bases of plots, demos, checkers and the catalogue): its experiments, ``figures``, ``demos``,
``checks`` and Chinese catalogue ``zh``. Nothing lists them: ``lessons()`` finds the packages and
``lesson_modules`` a kind of module in each, in lesson order (``course_lib.core.discovery``)."""

from __future__ import annotations

from course_lib.core.discovery import lesson_modules, lessons  # found by the core, by name

__all__ = ["lesson_modules", "lessons"]
