"""Lesson 6's intervals and reading points, all from the stored sweep (``edit_curves.stored()``):
a bootstrap over facts for a difference of CounterFact's scores, each method read at several
levels of p(new), and Spearman's ρ with its interval, its Holm-corrected test and its power."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import NormalDist

import numpy as np

from course_lib.core.experiments import edit_measures
from course_lib.core.experiments.statistics import holm

Z = NormalDist().inv_cdf(0.975)  # 1.96: a two-sided 95 % interval


def fact_bootstrap(
    facts: np.ndarray,
    statistic: Callable[[np.ndarray], float],
    draws: int = 1000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """``statistic`` of the edits (indices into ``facts``, the fact of each edit, (edits,)) and its
    95 % bootstrap interval over facts: each draw resamples the facts with replacement and keeps
    every edit of a drawn fact together, since the edits of one fact are not independent.
    Returns (value, low, high)."""
    facts = np.asarray(facts)
    if facts.ndim != 1 or len(facts) == 0:
        raise ValueError(f"facts must be a non-empty (edits,) array, got shape {facts.shape}")
    if draws < 100:
        raise ValueError(f"draws must be at least 100 for a 95 % interval, got {draws}")
    unique = np.unique(facts)
    edits_of = {f: np.flatnonzero(facts == f) for f in unique}
    rng = np.random.default_rng(seed)
    values = np.empty(draws)
    for d in range(draws):
        drawn = rng.choice(unique, size=len(unique), replace=True)
        values[d] = statistic(np.concatenate([edits_of[f] for f in drawn]))
    low, high = np.percentile(values, [2.5, 97.5])
    return float(statistic(np.arange(len(facts)))), float(low), float(high)


SCORES = ("S", "ES", "PS", "NS")


def score(rows: np.ndarray, name: str) -> float:
    """CounterFact's ``name`` (S, ES, PS or NS) of the edits' measurements (edits, len(METRICS)),
    or the mean of another of ``edit_measures.METRICS`` (over the edits where it is defined)."""
    if name in SCORES:
        return edit_measures.counterfact(rows)[name]
    if name not in edit_measures.METRICS:
        raise ValueError(f"name must be one of {SCORES + edit_measures.METRICS}, got {name!r}")
    return float(np.nanmean(rows[:, edit_measures.METRICS.index(name)]))


def score_difference(
    rows: dict[str, np.ndarray],
    facts: np.ndarray,
    first: str,
    second: str | Sequence[str],
    name: str,
    above: bool = True,
    draws: int = 1000,
) -> tuple[float, float, float]:
    """``first``'s score ``name`` less ``second``'s, on the same edits (``rows[method]`` (edits,
    len(METRICS)), ``facts`` (edits,)), with its 95 % interval over facts. For several methods in
    ``second``, the one nearest ``first`` on each draw: the highest when ``first`` is claimed
    ``above`` them, else the lowest."""
    if name not in SCORES + edit_measures.METRICS:
        raise ValueError(f"name must be one of {SCORES + edit_measures.METRICS}, got {name!r}")
    others = [second] if isinstance(second, str) else list(second)
    nearest = max if above else min

    def difference(edits: np.ndarray) -> float:
        return score(rows[first][edits], name) - nearest(
            score(rows[n][edits], name) for n in others
        )

    return fact_bootstrap(facts, difference, draws=draws)


def readings(
    curves: dict[str, np.ndarray], targets: Sequence[float]
) -> tuple[dict[float, dict[str, np.ndarray]], dict[float, float]]:
    """Every method read where its own p(new) reaches each target, between the two neighbouring
    strengths of its grid that bracket it (no bisection: coarser than the stored reading at
    0.9): ``rows[target][method]`` (edits, len(METRICS)), NaN where never reached; and the widest
    bracket in p(new) at each target, over the edits every method reaches."""
    rows, widest = {}, {}
    for target in targets:
        read = {n: edit_measures.interpolated(c, target) for n, c in curves.items()}
        rows[target] = {n: r for n, (r, _, _) in read.items()}
        reached = np.all([ok for _, ok, _ in read.values()], axis=0)
        widest[target] = float(max(np.nanmax(w[reached]) for _, _, w in read.values()))
    return rows, widest


def rank_test(rho: float, n: int, others: Sequence[float] = ()) -> dict[str, float]:
    """Spearman's ``rho`` over ``n`` pairs: its 95 % interval (Fisher's z, standard error
    1/√(n − 3)), its two-sided p-value, and that p-value Holm-corrected among ``others``' (the
    other ρ of the same family, over as many pairs)."""
    if not -1 < rho < 1:
        raise ValueError(f"rho must be strictly between -1 and 1, got {rho}")
    if n < 4:
        raise ValueError(f"n must be at least 4, got {n}")
    se = 1 / np.sqrt(n - 3)

    def p_value(r: float) -> float:
        return 2 * (1 - NormalDist().cdf(abs(np.arctanh(r)) / se))

    own = p_value(rho)
    adjusted = holm([own, *(p_value(r) for r in others)])[0]
    z = np.arctanh(rho)
    return {"low": float(np.tanh(z - Z * se)), "high": float(np.tanh(z + Z * se)),
            "p": own, "holm": float(adjusted)}  # fmt: skip


def power(rho: float, n: int) -> float:
    """The chance that a true correlation ``rho`` over ``n`` pairs passes the two-sided 5 %
    bound (Fisher's z)."""
    if n < 4:
        raise ValueError(f"n must be at least 4, got {n}")
    z = np.arctanh(abs(rho)) * np.sqrt(n - 3)
    return float(sum(NormalDist().cdf(side - Z) for side in (z, -z)))


def scores_at(
    curves: dict[str, np.ndarray],
    points: Sequence[float],
    full: dict[str, int] | None = None,
) -> tuple[dict[str, list[dict[str, float]]], int, float]:
    """CounterFact's scores of each method read at each of ``points`` (``readings``), on the edits
    every method reaches at every point, then, for each method of ``full``, at its grid index
    there (its full update): ``scores[method]`` a list in that order; the number of those edits;
    and the widest bracket in p(new) over the points."""
    rows, widest = readings(curves, points)
    p_new = edit_measures.METRICS.index("p(new)")
    every = np.all([~np.isnan(rows[t][n][:, p_new]) for t in points for n in curves], axis=0)
    scores = {n: [edit_measures.counterfact(rows[t][n][every]) for t in points] for n in curves}
    for n, j in (full or {}).items():
        scores[n].append(edit_measures.counterfact(curves[n][every, j]))
    return scores, int(every.sum()), max(widest.values())
