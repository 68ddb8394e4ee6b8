"""`make test`'s two nbval passes, run through make itself (dropped by ``--only``)."""

from __future__ import annotations

import pytest

from benchmarks.nbval_passes import PASSES, run_target


@pytest.mark.measures()
@pytest.mark.parametrize(("label", "target"), [pytest.param(*p, id=p[1]) for p in PASSES])
def test_nbval_pass(benchmark, settings, label, target):
    outcomes: list[str | None] = []
    benchmark.group = "make test's nbval passes"
    benchmark.extra_info.update(kind="nbval pass", label=label, target=target)
    benchmark.pedantic(lambda: outcomes.append(run_target(target)), rounds=settings.repeat)
    errors = [error for error in outcomes if error]
    benchmark.extra_info["errors"] = errors  # a failed pass keeps its time, and fails here
    assert not errors, "; ".join(errors)
