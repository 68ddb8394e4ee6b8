"""The measured spread (``tests/spread.json``, written by ``python -m devtools.spread``) and what
the tests derive from it: a fresh-run test's tolerance is ``FACTOR`` times the spread of what it
compares; a count's tolerance is its spread itself, in whole items."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPREAD_FILE = ROOT / "tests" / "spread.json"
TABLE_FILE = ROOT / "docs" / "spread.md"
FACTOR = 10  # tolerance = FACTOR × the largest change any variant made
COUNT_SLACK = 1e-6  # a share of a count stored in float32 differs from float64 by its rounding


@lru_cache(maxsize=1)
def measured() -> dict:
    if not SPREAD_FILE.exists():
        raise FileNotFoundError(f"{SPREAD_FILE} is missing; measure it with make spread")
    return json.loads(SPREAD_FILE.read_text(encoding="utf-8"))


def spread(quantity: str, key: str) -> float:
    """The largest change of ``quantity``'s ``key`` under any variant, as measured."""
    entries = measured()["quantities"]
    if quantity not in entries or key not in entries[quantity]:
        raise KeyError(f"{quantity!r} / {key!r} was not measured; run make spread")
    return entries[quantity][key]["spread"]


def tolerance(quantity: str, key: str) -> float:
    """What a test may allow between a fresh run and the stored file: ``FACTOR`` × the spread,
    or, for a count (``discrete``), the spread itself (whole items: a count does not drift by
    degrees), plus ``COUNT_SLACK`` for a share stored in float32."""
    entry = measured()["quantities"][quantity][key]
    return entry["spread"] + COUNT_SLACK if entry["discrete"] else FACTOR * entry["spread"]


def gap_between(a, b) -> float:
    """The largest |a - b| over two arrays, NaN where both are NaN counting as no difference (a
    measure that does not apply) and NaN against a number as an infinite one."""
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = np.abs(a - b)
    d[np.isnan(a) & np.isnan(b)] = 0.0
    d[np.isnan(a) ^ np.isnan(b)] = np.inf
    return float(d.max()) if d.size else 0.0


def rounding_margin(value: float, spec: str) -> float | None:
    """How far ``value`` may move before ``format(value, spec)`` changes, in the value's units;
    None where the format has no fixed precision (an integer, or no spec)."""
    kind = spec[-1:] if spec[-1:] in "fFeE%gG" else ""
    if "." not in spec or not kind:
        return None
    digits = int(spec.split(".")[1].rstrip("fFeE%gG"))
    scale = 100.0 if kind == "%" else 1.0
    unit = 10.0 ** (-digits)
    if kind in "eEgG":
        if value == 0:
            return unit
        exponent = math.floor(math.log10(abs(value * scale)))
        unit = 10.0 ** (exponent - (digits - (kind in "gG")))
    r = abs(value * scale) / unit
    return abs(r % 1 - 0.5) * unit / scale


def largest_spread(quantity: str) -> float:
    """The largest spread of ``quantity``'s continuous names (a test's docstring quotes it)."""
    keys = measured()["quantities"][quantity].values()
    return max((entry["spread"] for entry in keys if not entry["discrete"]), default=0.0)


def assert_within_spread(quantity: str, fresh: dict, stored: dict) -> None:
    """Every name of ``stored`` equals ``fresh``'s within ``tolerance``, or fail naming the name,
    the difference and the measured spread; NaN in both (a measure that does not apply) is no
    difference, as the spread counts it (``gap_between``)."""
    import numpy as np

    difference = gap_between

    if set(fresh) != set(stored):
        raise AssertionError(f"{quantity}: fresh names {sorted(fresh)} against {sorted(stored)}")
    for key, value in stored.items():
        allowed, gap = (
            tolerance(quantity, key),
            difference(np.atleast_1d(fresh[key]), np.atleast_1d(value)),
        )
        if not gap <= allowed:
            raise AssertionError(
                f"{quantity} / {key}: fresh and stored differ by {gap:.3g}, more than the "
                f"tolerance {allowed:.3g} (spread {spread(quantity, key):.3g}, docs/spread.md)"
            )


def check_fresh_run(quantity: str) -> tuple[dict, dict]:
    """Compute ``quantity`` afresh, read it from its stored file, assert they agree within the
    measured tolerance, and return both (fresh, stored) for further checks."""
    from devtools.spread.quantities import BY_NAME

    fresh, stored = BY_NAME[quantity].fresh(), BY_NAME[quantity].stored()
    assert_within_spread(quantity, fresh, stored)
    return fresh, stored
