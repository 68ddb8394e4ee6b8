"""What a lesson package says about itself (``LESSON``): its number, its topic (the package's and
the notebooks' name), its title, its time and what a learner will be able to do, in English marked
for the catalogue. The index notebook's and README's tables are made from these records.

The lessons are found by name in ``core.discovery``; a lesson package takes its parts from there
(``submodules``).
"""

from __future__ import annotations

from dataclasses import dataclass

from course_lib.core._validate import positive_int
from course_lib.core.i18n import tr


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
        return tr(getattr(self, field))
