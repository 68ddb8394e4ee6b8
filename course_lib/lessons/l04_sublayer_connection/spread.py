"""Lesson 4's fresh-run quantities: the warm-up race's first steps, each what a test computes again against what
its stored file holds (``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable

from course_lib.core.experiments.spread import Arrays, Quantity

# The race's losses compared up to step 20: a 1e-7 change of the inputs moves them by 2e-14 at
# step 0, 3e-13 at 5, 8e-11 at 10, 1e-7 at 20, then 0.02 at 40 and 0.3 at the last step, where a
# tolerance of 10 x the spread would hold nothing.
RACE_STEPS_COMPARED = (0, 5, 10, 20)


def _warmup_race(placement: str, warmup: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l04_sublayer_connection.experiments import warmup_race

        return _race_arrays(warmup_race.__wrapped__(placement, warmup))

    def stored() -> Arrays:
        from course_lib.lessons.l04_sublayer_connection.experiments import (
            RACES,
            stored_warmup_races,
        )

        return _race_arrays(stored_warmup_races()[RACES.index((placement, warmup))])

    return fresh, stored


def _race_arrays(race) -> Arrays:
    """The race's first steps, before the stalling seeds part from the learning ones
    (``RACE_STEPS_COMPARED``), and what each seed ends with."""
    first = {f"loss at step {step}": race.losses[:, step] for step in RACE_STEPS_COMPARED}
    return first | {"accuracy": race.accuracy, "learned": race.learned}


QUANTITIES = (
    Quantity(
        "warmup race: post-norm, no warm-up", *_warmup_race("post", 0), ("accuracy", "learned")
    ),
)
