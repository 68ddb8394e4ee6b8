"""`make test` in a fresh clone of HEAD, install included (dropped by ``--only``)."""

from __future__ import annotations

import pytest

from benchmarks.make_test import PARTS, run_target


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
