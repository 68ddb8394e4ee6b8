"""experiments.routing_tests: the fact models' purity tests leave out the cases no deal can
change, correct the rest together, and state each entity test's power."""

from __future__ import annotations

import numpy as np

from course_lib.lessons.l07_mixture_of_experts.experiments import fact_experts, routing_tests


def test_a_case_where_one_expert_takes_every_prompt_is_not_tested():
    tests = routing_tests.purity_tests(draws=2000)
    untested = [t for t in tests if t.p is None]
    assert untested and all(t.busiest == 48 and t.purity == 1.0 for t in untested)
    assert all(t.busiest < 48 for t in tests if t.p is not None)
    assert len([t for t in tests if t.p is not None]) == 11  # the cases the lesson counts


def test_the_tested_p_values_are_holm_corrected_together():
    tests = [t for t in routing_tests.purity_tests(draws=2000) if t.p is not None]
    holm = fact_experts.holm([t.p for t in tests])
    assert np.allclose([t.holm for t in tests], holm)
    assert all(t.holm >= t.p for t in tests)


def _p(scores: np.ndarray, purity: float) -> float:
    return (1 + (scores >= purity - 1e-12).sum()) / (1 + len(scores))


def test_the_detectable_purity_is_the_least_one_below_the_corrected_level():
    tests = [t for t in routing_tests.purity_tests(draws=2000) if t.key == "entity" and t.p]
    for t in tests:
        routed, experts, facts = routing_tests._routes(t.name, t.seed)
        labels = [fact.entity for fact in facts]
        scores = fact_experts.shuffled_purities(routed[:, t.layer], labels, experts, 2000)
        at, below = (_p(scores, purity) for purity in (t.detectable, t.detectable - 1 / 48))
        assert at < 0.05 / 11 <= below
        assert t.purity < t.detectable  # none of the lesson's entity purities reaches it


def test_the_table_has_one_row_per_model_seed_and_layer_and_dashes_where_untested():
    tests = routing_tests.purity_tests(draws=2000)
    headers, rows = routing_tests.purity_table(tests)
    assert len(headers) == 9 and all(len(row) == 9 for row in rows)
    assert len(rows) == 9  # equal total: 3 seeds x 2 layers; shared expert: 3 seeds, layer 1
    untested = [row for row in rows if row[1] == "48"]
    assert untested and all(row[3] == row[4] == "–" for row in untested)
    assert all(row[5] == "–" for row in rows if row[0].startswith("shared"))  # relation only


def test_nearest_own_counts_the_other_facts_of_an_expert_that_takes_a_whole_group():
    assert fact_experts.nearest_own(np.diag([12, 12])) == 0
    assert fact_experts.nearest_own(np.array([[12, 0], [1, 11]])) == 1
    assert fact_experts.nearest_own(np.array([[6, 6], [6, 6]])) is None
