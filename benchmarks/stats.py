"""Small statistics for timings: median, percentiles, spread between repetitions."""

from __future__ import annotations

import math
from collections.abc import Sequence


def _checked(values: Sequence[float], name: str) -> list[float]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a sequence of numbers, got {type(values).__name__}")
    if len(values) == 0:
        raise ValueError(f"{name} must not be empty, got {list(values)}")
    return sorted(float(v) for v in values)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between closest ranks (numpy's default)."""
    if not 0 <= q <= 100:
        raise ValueError(f"q must be between 0 and 100, got {q!r}")
    ordered = _checked(values, "values")
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float:
    """The 50th percentile."""
    return percentile(values, 50)


def spread(values: Sequence[float]) -> float:
    """(max − min) / median of repeated measurements: 0.1 means the repetitions differ by 10 %."""
    ordered = _checked(values, "values")
    middle = median(ordered)
    if middle == 0:
        return 0.0
    return (ordered[-1] - ordered[0]) / middle


def summarize(repetitions: Sequence[Sequence[float]]) -> dict[str, float]:
    """Median and p95 of each repetition's samples, then the median over repetitions, and the
    spread of the per-repetition medians (the noise; None from a single repetition)."""
    if len(repetitions) == 0:
        raise ValueError("repetitions must not be empty, got []")
    medians = [median(samples) for samples in repetitions]
    p95s = [percentile(samples, 95) for samples in repetitions]
    return {
        "median": median(medians),
        "p95": median(p95s),
        "max": max(max(samples) for samples in repetitions),
        "noise": spread(medians) if len(medians) > 1 else None,
        "n": len(repetitions[0]),
    }


def spread_indices(count: int, limit: int) -> list[int]:
    """At most ``limit`` indices of ``range(count)`` spread evenly, both ends included."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count!r}")
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit!r}")
    if count <= limit:
        return list(range(count))
    if limit == 1:
        return [0]
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})
