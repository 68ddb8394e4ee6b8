"""Lesson 7, section 5: do the fact models' routers sort the facts by relation or by entity?

For each stored (model, seed, layer) the lesson reads, the first choices at each fact prompt's
last word (``fact_experts.routes``), their purity by relation and by entity against the same routes
dealt to the facts at random, and a permutation test of each purity. A case where one expert takes
all 48 prompts is not tested: every deal scores the same, so its p-value is 1 by construction.
The tested ones are Holm-corrected together, and each entity test states its power: the purity
that would have reached a p-value below 0.05 / (the number of tests), a bound Holm's method
never asks more than."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from course_lib.core.i18n import N_, tr
from course_lib.lessons.l07_mixture_of_experts.experiments import fact_experts
from course_lib.lessons.l07_mixture_of_experts.experiments.stats import estimate_text, p_text

# the cases the lesson tests: both layers of the equal-total model by relation and by entity, and
# layer 1 of the shared-expert model by relation (the purity its comparison reads)
CASES = (
    *(("equal total", layer, key) for layer in (0, 1) for key in ("relation", "entity")),
    ("shared expert", 1, "relation"),
)
LEVEL = 0.05
MODELS = (N_("equal total"), N_("shared expert"))  # the models' names, translated in the table


@dataclass(frozen=True)
class PurityTest:
    """One (model, seed, layer) grouped by ``key``; ``p`` None where one expert takes every
    prompt (untestable), ``holm`` its Holm-corrected p-value among the tested ones."""

    name: str
    seed: int
    layer: int
    key: str
    busiest: int  # prompts the busiest expert takes, of 48
    purity: float
    chance: float  # the mean purity of the random deals
    p: float | None
    detectable: float  # the least purity whose p-value would be below LEVEL / tests
    nearest_own: int | None  # fact_experts.nearest_own of the routing table
    draws: int = 1
    holm: float | None = None
    holm_error: float = 0.0  # the Monte-Carlo standard error of ``holm``

    def p_shown(self) -> str:
        """``p`` to the digits its draws support (``stats.p_text``)."""
        return p_text(self.p, self.draws)

    def holm_shown(self) -> str:
        """``holm`` to the digits its draws support; "1" where Holm's method caps it."""
        return "1" if self.holm >= 1 else estimate_text(self.holm, self.holm_error)


@lru_cache(maxsize=8)
def _routes(name: str, seed: int) -> tuple[np.ndarray, int, tuple]:
    """The stored model's first choices (facts, layers), its number of routed experts, its facts."""
    model, facts = fact_experts.stored_moe(name, seed)
    return fact_experts.routes(model, facts), model.layers[0].ffn.num_experts, facts.facts


def _one(
    name: str, seed: int, layer: int, key: str, draws: int
) -> tuple[PurityTest, np.ndarray | None]:
    routed, E, facts = _routes(name, seed)
    chosen, labels = routed[:, layer], [getattr(fact, key) for fact in facts]
    table = fact_experts.routing_table(chosen, labels, E)
    busiest, purity = int(np.bincount(chosen, minlength=E).max()), fact_experts.purity(table)
    if busiest == len(chosen):  # every deal is as pure: nothing to test
        return PurityTest(
            name, seed, layer, key, busiest, purity, 1.0, None, 1.0, None, draws
        ), None
    scores = fact_experts.shuffled_purities(chosen, labels, E, draws)
    p = float((1 + (scores >= purity - 1e-12).sum()) / (1 + draws))
    found = PurityTest(name, seed, layer, key, busiest, purity, float(scores.mean()), p, 1.0,
                       fact_experts.nearest_own(table), draws)  # fmt: skip
    return found, scores


def purity_tests(draws: int = 20_000) -> list[PurityTest]:
    """Every case of ``CASES`` for every stored seed, each against ``draws`` random deals (seeded),
    the tested ones Holm-corrected together."""
    found = [
        _one(name, seed, layer, key, draws)
        for name, layer, key in CASES
        for seed in fact_experts.STORED_SEEDS[name]
    ]
    tested = [i for i, (test, _) in enumerate(found) if test.p is not None]
    holm = fact_experts.holm([found[i][0].p for i in tested])
    results = [test for test, _ in found]
    for i, adjusted in zip(tested, holm, strict=True):
        test, scores = found[i]
        error = np.sqrt(test.p * (1 - test.p) / draws) * adjusted / test.p
        results[i] = replace(test, holm=float(adjusted), holm_error=float(error),
                             detectable=_detectable(scores, draws, len(tested)))  # fmt: skip
    return results


def _detectable(scores: np.ndarray, draws: int, tests: int) -> float:
    """The least purity, a multiple of 1/48 as every purity is, whose permutation p-value against
    ``scores`` would be below LEVEL / ``tests``."""
    for purity in np.arange(49) / 48:
        if (1 + (scores >= purity - 1e-12).sum()) / (1 + draws) < LEVEL / tests:
            return float(purity)
    return float("inf")


def purity_table(tests: list[PurityTest]) -> tuple[list[str], list[list[str]]]:
    """The headers (templates) and rows of ``tests`` as the lesson shows them: one row per
    (model, seed, layer), its relation test and, where asked, its entity test; "–" where untested."""
    headers = [
        N_("case"), N_("busiest of 48"), N_("by relation (at random)"), "p", N_("Holm"),
        N_("by entity (at random)"), "p", N_("Holm"), N_("entity purity detectable"),
    ]  # fmt: skip
    rows = {}
    for t in tests:
        case = (t.name, t.seed, t.layer)
        if case not in rows:
            label = tr("{model}, seed {seed}, layer {layer}", model=tr(t.name), seed=t.seed,
                       layer=t.layer)  # fmt: skip
            rows[case] = [label, str(t.busiest)] + ["–"] * 7
        at = 2 if t.key == "relation" else 5
        rows[case][at] = tr("{purity:.2f} ({chance:.2f})", purity=t.purity, chance=t.chance)
        if t.p is not None:
            rows[case][at + 1], rows[case][at + 2] = t.p_shown(), t.holm_shown()
            if t.key == "entity":
                rows[case][8] = f"{t.detectable:.2f}"
    return headers, list(rows.values())
