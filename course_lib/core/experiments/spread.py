"""A fresh-run quantity: what a test computes again now (``fresh``) and what a stored file holds
(``stored``), as named arrays. Each lesson lists its own in ``lessons/lNN_topic/spread.py``
(``QUANTITIES``), found like its demos; ``python -m devtools.spread`` measures how far each moves
between machines, and the tests call these same functions, so the spread measured is the spread of
exactly what each test compares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

Arrays = dict[str, np.ndarray]


@dataclass(frozen=True)
class Quantity:
    """``fresh()`` and ``stored()`` return the same names; ``discrete`` names hold counts or
    shares of counts (accuracy, an edit's efficacy), whose spread is a whole number of items;
    ``printed`` maps the names a lesson prints from the stored file to the formats it prints them
    with (and the bounds its claims hold them to), so that what it shows can be held against the
    spread of a rebuild."""

    name: str
    fresh: Callable[[], Arrays]
    stored: Callable[[], Arrays]
    discrete: tuple[str, ...] = ()
    printed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    whole_rebuild: bool = False  # measured for its printed digits only: a test re-runs a slice


def lm_first_losses(
    settings_of: Callable, file_of: Callable, steps: int
) -> tuple[Callable[[], Arrays], Callable[[], Arrays]]:
    """A fact language model's first ``steps`` training losses, trained again from its settings,
    against the losses its stored file kept (lessons 5, 6 and 7)."""

    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import train_language_model

        return {"losses": train_language_model(replace(settings_of(), steps=steps))[1]}

    def stored() -> Arrays:
        from course_lib.core.experiments.memory import load_model

        return {"losses": load_model(file_of())[2][:steps]}

    return fresh, stored
