"""Lesson 8's statistics: intervals by resampling the facts, and Holm's correction when several
tests ask one question (Holm 1979: the i-th smallest of m p-values is multiplied by m − i + 1,
and the products are kept from falling)."""

from __future__ import annotations

import numpy as np

from course_lib.core.experiments.statistics import holm  # noqa: F401 (the lesson reads it here)

DRAWS = 2000  # resamples of the facts


def resampled_means(per_fact: np.ndarray, draws: int = DRAWS, seed: int = 0) -> np.ndarray:
    """The mean over the facts of ``per_fact`` (..., facts), recomputed on ``draws`` resamples of
    the facts (drawn with replacement, the same resamples for every row): (..., draws)."""
    values = np.asarray(per_fact, dtype=float)
    picks = np.random.default_rng(seed).integers(values.shape[-1], size=(draws, values.shape[-1]))
    return values[..., picks].mean(-1)


def interval(per_fact: np.ndarray, draws: int = DRAWS, seed: int = 0) -> np.ndarray:
    """The 95 % bootstrap interval of the mean over the facts: (..., facts) -> (..., 2)."""
    return np.percentile(resampled_means(per_fact, draws, seed), [2.5, 97.5], axis=-1).T


def p_below(differences: np.ndarray, draws: int = DRAWS, seed: int = 0) -> np.ndarray:
    """One-sided bootstrap p-value that the mean of ``differences`` (..., facts) is below 0: the
    share of resamples whose mean is not, counting the data as one of them: (...,)."""
    means = resampled_means(differences, draws, seed)
    return ((means >= 0).sum(-1) + 1) / (draws + 1)


def permutation_se(p: float, draws: int) -> float:
    """The Monte Carlo standard error of a permutation p-value estimated from ``draws`` draws:
    another set of draws of the same size moves it by about this much."""
    return float(np.sqrt(p * (1 - p) / draws))


def plus_minus(value: float, se: float) -> str:
    """``value ± se``, the error to one significant digit and the value to the same place:
    0.0461, 0.0107 -> "0.05 ± 0.01"; with no error (a p of exactly 1), the value to 2 decimals."""
    if se <= 0:
        return f"{value:.2f}"
    places = max(0, -int(np.floor(np.log10(se))))
    if round(se, places) >= 10 ** (1 - places):  # 0.0096 rounds to 0.01: one place fewer
        places -= 1
    return f"{value:.{places}f} ± {se:.{places}f}"


def p_text(p: float, draws: int) -> str:
    """A permutation p-value from ``draws`` draws, printed with its Monte Carlo error."""
    return plus_minus(p, permutation_se(p, draws))


def exact_p_text(p: float) -> str:
    """An exact p-value (no draws: no error to print) to two significant digits; below 0.001 as
    "< 0.001"."""
    if p < 0.001:
        return "< 0.001"
    text = f"{p:.2g}"
    return text if "." in text else f"{text}.0"
