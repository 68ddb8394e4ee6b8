"""`make test` in a fresh clone of HEAD, install included, and its floor timed just before it
(both dropped by ``--only``)."""

from __future__ import annotations

import pytest

from benchmarks.make_test import FLOOR_LABEL, FLOOR_PROCESSES, PARTS, run_floor, run_target


@pytest.mark.measures()
def test_make_test_floor(benchmark, settings):
    outcomes: list[str | None] = []
    benchmark.group = "make test from a fresh clone"
    benchmark.extra_info.update(kind="make test floor", label=FLOOR_LABEL, processes=FLOOR_PROCESSES)  # fmt: skip
    # an unmeasured first round reads torch and matplotlib into the file cache: the floor is
    # the machine's speed, not its disk's
    benchmark.pedantic(lambda: outcomes.append(run_floor()), rounds=settings.repeat, warmup_rounds=1)  # fmt: skip
    errors = [error for error in outcomes if error]
    benchmark.extra_info["errors"] = errors
    assert not errors, "; ".join(errors)


@pytest.mark.measures()
@pytest.mark.parametrize(("label", "target"), [pytest.param(*p, id=p[1]) for p in PARTS])
def test_make_test_part(benchmark, settings, label, target):
    outcomes: list[str | None] = []
    benchmark.group = "make test from a fresh clone"
    benchmark.extra_info.update(kind="make test", label=label, target=target)
    benchmark.pedantic(lambda: outcomes.append(run_target(target)), rounds=settings.repeat)
    errors = [error for error in outcomes if error]
    benchmark.extra_info["errors"] = errors  # a failed part keeps its time, and fails here
    assert not errors, "; ".join(errors)
