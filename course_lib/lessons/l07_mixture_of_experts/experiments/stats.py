"""Lesson 7's small statistics, each what a sentence of the lesson needs and no more: a mean's
Student-t interval over a few seeds, Fisher's exact test of two proportions, and Monte-Carlo
p-values printed only to the digits their draws support. NumPy only."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from course_lib.core._validate import positive_int
from course_lib.core.i18n import tr


def _t_cdf(t: float, df: int) -> float:
    """Student's t distribution's CDF with ``df`` degrees of freedom at ``t``: its density
    integrated from 0 to |t| (Simpson's rule on 20,001 points, exact to about 1e-12 for the
    lesson's |t| < 100)."""
    x = np.linspace(0.0, abs(t), 20_001)
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    density = c * (1 + x**2 / df) ** (-(df + 1) / 2)
    h = x[1] - x[0]
    half = (
        h / 3 * (density[0] + density[-1] + 4 * density[1:-1:2].sum() + 2 * density[2:-1:2].sum())
    )
    return 0.5 + math.copysign(half, t)


def t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t with ``df`` degrees of freedom, by
    bisection of ``_t_cdf``: 3.182 for q 0.975 and df 3."""
    if not 0.5 < q < 1:
        raise ValueError(f"q must be between 0.5 and 1, got {q!r}")
    low, high = 0.0, 1e3
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if _t_cdf(mid, positive_int("df", df)) < q else (low, mid)
    return (low + high) / 2


def mean_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``values`` (at least 2, e.g. one paired difference per
    seed) and its two-sided Student-t interval at ``level``."""
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or len(x) < 2:
        raise ValueError(f"values must be a list of at least 2 numbers, got {values!r}")
    half = t_quantile((1 + level) / 2, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x))
    return float(x.mean()), float(x.mean() - half), float(x.mean() + half)


def interval_text(values: Sequence[float], level: float = 0.95) -> str:
    """``mean_interval`` at ``level`` as the lesson prints it, in the learner's language:
    "+0.09 (95 % interval +0.02 to +0.16)" (a 0 unsigned); another level is printed to one
    decimal, e.g. 98.3 % for 1 - 0.05/3, an interval matched to three tests."""
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    mean, low, high = (f"{x:+.2f}".replace("+0.00", "0.00").replace("-0.00", "0.00")
                       for x in mean_interval(values, level))  # fmt: skip
    if level == 0.95:
        return tr("{mean} (95 % interval {low} to {high})", mean=mean, low=low, high=high)
    return tr("{mean} ({level:.1f} % interval {low} to {high})", mean=mean, level=100 * level,
              low=low, high=high)  # fmt: skip


def t_test_p(values: Sequence[float]) -> float:
    """The two-sided one-sample t-test's p-value of mean(``values``) = 0."""
    x = np.asarray(values, dtype=float)
    t = x.mean() / (x.std(ddof=1) / math.sqrt(len(x)))
    return float(2 * (1 - _t_cdf(abs(t), len(x) - 1)))


def fisher_p(a: int, n: int, b: int, m: int) -> float:
    """Fisher's exact two-sided p-value of ``a`` of ``n`` against ``b`` of ``m``: the
    probability, with the margins fixed, of every table no more likely than the one seen. 3 of 3
    against 0 of 3 gives 0.1, the smallest any result of 3 against 3 can give."""
    total, hits = n + m, a + b
    probability = [
        math.comb(n, i) * math.comb(m, hits - i) / math.comb(total, hits)
        for i in range(max(0, hits - m), min(n, hits) + 1)
    ]
    seen = math.comb(n, a) * math.comb(m, b) / math.comb(total, hits)
    return min(1.0, float(sum(p for p in probability if p <= seen * (1 + 1e-9))))


def estimate_text(value: float, error: float, spread: float = 3.0) -> str:
    """A Monte-Carlo estimate as its draws support it: ``value`` to the most decimals (one or two
    significant digits) whose rounding boundaries are more than ``spread`` standard errors
    (``error``) away, so that a re-run with other draws prints the same; where no rounding is that
    far from a boundary, a bound on the 1-2-5 ladder: "< 0.001" below 0.2, "> 0.2" above."""
    if error == 0:
        return f"{value:.2g}"
    reach = spread * error
    if value - reach > 0 and value >= 0.001:
        first = -math.floor(math.log10(value))  # the decimal of the first significant digit
        for decimals in range(min(4, first + 1), max(first - 2, -1), -1):  # 0.0927 may be 0.1
            step = 10.0**-decimals
            rounded = round(value / step) * step
            if rounded > 0 and abs(value - rounded) + reach < step / 2:
                return f"{rounded:.{decimals}f}"
    if value < 0.2:
        return "< " + _ladder(value + reach, up=True)
    return "> " + _ladder(value - reach, up=False)


def _ladder(x: float, up: bool) -> str:
    """The nearest of 1, 2 and 5 times a power of ten at or above ``x`` (``up``) or at or below
    it: 0.00072 -> "0.001" up, 0.437 -> "0.2" down."""
    exponent = math.floor(math.log10(x))
    steps = [m * 10.0**e for e in (exponent - 1, exponent, exponent + 1) for m in (1, 2, 5)]
    chosen = min(v for v in steps if v >= x) if up else max(v for v in steps if v <= x)
    return f"{chosen:.{max(0, -math.floor(math.log10(chosen)))}f}"


def p_text(p: float, draws: int) -> str:
    """A permutation test's p-value from ``draws`` random deals, as ``estimate_text`` prints it
    (its standard error the binomial one); exactly 1 (no deal can differ) as "1"."""
    error = math.sqrt(p * (1 - p) / positive_int("draws", draws))
    return "1" if p >= 1 else estimate_text(p, error)
