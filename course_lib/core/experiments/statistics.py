"""Statistics more than one lesson uses: Holm's correction for many tests of one question."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's adjusted p-values, in the order given: the k-th smallest (from k = 0) times
    (m - k), made non-decreasing and capped at 1; (m,) -> (m,). A test is rejected at family level
    alpha when its adjusted p is below alpha (Holm's step-down: the k-th smallest p against
    alpha / (m - k), the first that fails stopping the rest); the chance that any of the m tests
    is rejected wrongly is then at most alpha, whatever their dependence."""
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or np.isnan(p).any() or ((p < 0) | (p > 1)).any():
        raise ValueError(f"p_values must be a 1-D sequence of numbers in [0, 1], got {p_values!r}")
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, p[order] * (len(p) - np.arange(len(p))))
    adjusted = np.empty_like(p)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def holm_rejects(p_values: Sequence[float] | np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """Which of the tests Holm's step-down rejects at family level ``alpha``: those whose adjusted
    p (``holm``) is at most alpha; (m,) p-values -> (m,) booleans, in the order given."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be a level in (0, 1), got {alpha!r}")
    return holm(p_values) <= alpha
