"""The issue's speed goals, and whether a measurement meets each one."""

from __future__ import annotations

from dataclasses import dataclass

NOTEBOOK_SECONDS = 60.0
NOTEBOOK_PEAK_BYTES = 1024**3
COURSE_FLOOR_RATIO = 3.0
NOTEBOOK_CPU_FLOOR_RATIO = 2.0  # a lesson's kernel CPU against the floor's: Run All near its floor
CONTROL_MS = 100.0  # p95 of a control's reply: no demo trains on a move
DEMO_SHOWN_MS = (
    1000.0  # p95 of a demo's first picture, its cell run: stored files read, figure built
)
CLASSROOM_REPLY_MS = 1000.0  # p95 of a control's reply in a class, every learner's kernel busy
MAKE_TEST_SECONDS = 480.0  # make test from a fresh clone, install included (CONTRIBUTING.md)
SITE_SWAP_MS = 16.0  # a kernel-free demo's frame swap: median within one frame at 60 Hz


@dataclass(frozen=True)
class Verdict:
    """One goal beside one number: ``met`` is None when the goal does not apply."""

    goal: str
    value: float | None
    met: bool | None


def at_most(value: float | None, limit: float, goal: str) -> Verdict:
    """``value <= limit``; a missing value (not measured) is not judged."""
    return Verdict(goal, value, None if value is None else value <= limit)


def notebook_goals(
    wall_s: float, peak_bytes: float | None, cpu_ratio: float | None = None
) -> dict[str, Verdict]:
    """Every notebook ≤ 60 s, its kernel's peak memory ≤ 1 GiB, and its kernel CPU ≤ 2 × the
    floor's (``cpu_ratio``: the notebook's kernel CPU ÷ the floor's)."""
    return {
        "wall": at_most(wall_s, NOTEBOOK_SECONDS, f"≤ {NOTEBOOK_SECONDS:.0f} s"),
        "peak": at_most(peak_bytes, NOTEBOOK_PEAK_BYTES, "≤ 1 GiB"),
        "cpu": at_most(
            cpu_ratio, NOTEBOOK_CPU_FLOOR_RATIO, f"≤ {NOTEBOOK_CPU_FLOOR_RATIO:g} × floor CPU"
        ),
    }


def course_goal(notebook_walls_s: list[float], floor_s: float) -> Verdict:
    """The whole course ≤ 3 × the sum of the floors (one floor per notebook)."""
    if not notebook_walls_s or floor_s <= 0:
        return Verdict(f"≤ {COURSE_FLOOR_RATIO:g} × floors", None, None)
    ratio = sum(notebook_walls_s) / (floor_s * len(notebook_walls_s))
    return at_most(ratio, COURSE_FLOOR_RATIO, f"≤ {COURSE_FLOOR_RATIO:g} × floors")


def control_goals(
    shown_p95_ms: float | None,
    first_p95_ms: float,
    warm_p95_ms: float,
    cached_p95_ms: float,
    zh_p95_ms: float | None = None,
) -> dict[str, Verdict]:
    """A demo shown (its cell run) within a second; then every reply to a move, first visit,
    re-render (in either edition) and cached, each p95 ≤ 100 ms (no demo trains on a move:
    tests/widgets/test_no_training_on_a_move.py)."""
    return {
        "shown": at_most(shown_p95_ms, DEMO_SHOWN_MS, f"p95 ≤ {DEMO_SHOWN_MS:.0f} ms"),
        "first": at_most(first_p95_ms, CONTROL_MS, f"p95 ≤ {CONTROL_MS:.0f} ms"),
        "warm": at_most(warm_p95_ms, CONTROL_MS, f"p95 ≤ {CONTROL_MS:.0f} ms"),
        "cached": at_most(cached_p95_ms, CONTROL_MS, f"p95 ≤ {CONTROL_MS:.0f} ms"),
        "zh": at_most(zh_p95_ms, CONTROL_MS, f"p95 ≤ {CONTROL_MS:.0f} ms"),
    }


def make_test_goal(total_s: float) -> Verdict:
    """`make test` from a fresh clone ≤ 8 min on the machine that runs the benchmark."""
    return at_most(total_s, MAKE_TEST_SECONDS, f"≤ {MAKE_TEST_SECONDS / 60:.0f} min")


def site_swap_goal(median_ms: float | None) -> Verdict:
    """A site demo's frame swaps: median ≤ 16 ms (one frame at 60 Hz)."""
    return at_most(median_ms, SITE_SWAP_MS, f"median ≤ {SITE_SWAP_MS:.0f} ms")
