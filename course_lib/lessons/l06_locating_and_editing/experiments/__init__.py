"""Lesson 6 (locating and rewriting a fact): its experiments, one module each."""

from course_lib.core.discovery import submodules

__getattr__, __dir__ = submodules(__name__)  # its modules load when first used
