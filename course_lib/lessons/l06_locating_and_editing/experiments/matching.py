"""Lesson 6's way of reading an edit at a target p(new) along its knob (``edit_curves`` runs
it): many edited copies read at once, each edit's first two strengths that bracket the target,
bisection between them on p(new) after the edited prompt, and every measure interpolated
between the two ends; for the edits whose change is linear in the knob (rank-one updates,
knowledge neurons), for fine-tuning (its last step taken in part) and for FT+L (a run per
bound)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from course_lib.core.experiments import edit_measures, edit_methods
from course_lib.core.experiments.edit_measures import METRICS
from course_lib.core.experiments.facts import Corpus

TARGET = 0.9  # the p(new) every method is read at
CLOSE = 0.01  # bisection stops once p(new) at the bracket's two ends is this close
CHUNK = 16  # copies read in one forward pass


# ---- reading many edited copies


def read_rows(model, corpus, edits, changes: Callable, filler: bool = True) -> np.ndarray:
    """Each edit measured with its own copy's change, ``changes(rows)`` for the edits' rows:
    (edits, len(METRICS)); the filler loss NaN without ``filler``."""
    out = []
    for start in range(0, len(edits), CHUNK):
        rows = list(range(start, min(start + CHUNK, len(edits))))
        before = edit_measures.unedited_reading(model, corpus)
        readings = edit_measures.read_changed(model, corpus, changes(rows), filler)
        for row, reading in zip(rows, readings, strict=True):
            fact, new = edits[row]
            out.append(edit_measures.measured(reading, before, corpus, fact, new)[0])
    return np.array(out)


def bracket(p_grid: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each edit's first two neighbouring grid strengths whose p(new) brackets ``TARGET``:
    (reached, low, high, p at low, p at high), (edits,) each."""
    above = p_grid >= TARGET
    reached = above.any(axis=1) & ~above[:, 0]
    high = above.argmax(axis=1)
    low = np.maximum(high - 1, 0)
    rows = np.arange(len(p_grid))
    return reached, grid[low], grid[high], p_grid[rows, low], p_grid[rows, high]


def bisect(p_at: Callable, lo, hi, p_lo, p_hi, iterations: int = 16):
    """Narrow each bracket [lo, hi] (p(new) below, at or above ``TARGET``) by halving until p(new)
    at its ends is within ``CLOSE``: ``p_at(x)`` gives p(new) at knob values x (edits,)."""
    lo, hi, p_lo, p_hi = (np.array(a, dtype=float) for a in (lo, hi, p_lo, p_hi))
    for _ in range(iterations):
        wide = p_hi - p_lo > CLOSE
        if not wide.any():
            break
        mid = np.where(wide, (lo + hi) / 2, lo)
        p_mid = p_at(mid)
        up = wide & (p_mid >= TARGET)
        down = wide & ~up
        hi, p_hi = np.where(up, mid, hi), np.where(up, p_mid, p_hi)
        lo, p_lo = np.where(down, mid, lo), np.where(down, p_mid, p_lo)
    return lo, hi


def match(edits, reached, lo, hi, read_at: Callable) -> tuple[np.ndarray, ...]:
    """The edits that reach the target, each read at both ends of its bracket and interpolated
    to p(new) = ``TARGET``: rows (edits, len(METRICS)), knob value, width (edits,)."""
    n = len(edits)
    rows, knob, width = np.full((n, len(METRICS)), np.nan), np.full(n, np.nan), np.full(n, np.nan)
    if reached.any():
        ends = np.stack([read_at(lo), read_at(hi)], axis=1)[reached]  # (reaching, 2, METRICS)
        rows[reached], _, width[reached] = edit_measures.interpolated(ends, TARGET)
        p = ends[..., METRICS.index("p(new)")]
        share = np.divide(TARGET - p[:, 0], p[:, 1] - p[:, 0], out=np.ones(len(p)),
                          where=p[:, 1] > p[:, 0])  # fmt: skip
        knob[reached] = lo[reached] + share * (hi[reached] - lo[reached])
    return rows, knob, width


# ---- the edits whose change is linear in the knob: rank-one updates and knowledge neurons


def linear(model, corpus, edits, base: list[dict], grid) -> tuple[np.ndarray, ...]:
    """Edits whose change at knob value x is x times ``base[edit]`` ({layer: (d_model, d_ff)}):
    curves (edits, grid, METRICS), then the matched rows, knob values and widths."""
    layers = sorted({layer for b in base for layer in b})
    stacked = {layer: torch.stack([b.get(layer, torch.zeros_like(next(iter(b.values()))))
                                   for b in base]) for layer in layers}  # fmt: skip

    def at(x):  # x (edits,) -> changes for those rows
        x = torch.as_tensor(np.asarray(x, dtype=float))
        return lambda rows: {layer: x[rows, None, None] * stacked[layer][rows] for layer in layers}

    curve = np.stack(
        [read_rows(model, corpus, edits, at(np.full(len(edits), g)), g == 1) for g in grid], axis=1
    )  # the filler's loss at the full update only
    prompts, answers = prompts_of(corpus, edits)

    def p_at(x):
        changes = at(x)(list(range(len(edits))))
        return edit_measures.p_after_changed(model, prompts, answers, changes)

    reached, lo, hi, p_lo, p_hi = bracket(curve[..., METRICS.index("p(new)")], np.array(grid))
    lo, hi = bisect(p_at, lo, hi, p_lo, p_hi)
    return (curve, *match(edits, reached, lo, hi, lambda x: read_rows(model, corpus, edits, at(x))))


def prompts_of(corpus: Corpus, edits) -> tuple[torch.Tensor, torch.Tensor]:
    prompts = corpus.prompts()[0][[fact for fact, _ in edits]]
    return prompts, torch.tensor(corpus.encode([new for _, new in edits]))


# ---- fine-tuning and FT+L


def fine_tuning(model, corpus, edits, grid, layer: int, lr: float) -> tuple[np.ndarray, ...]:
    """Fine-tuning ``layer``'s W2 at learning rate ``lr`` along its steps: curves at the grid's steps, and each edit read
    where p(new) reaches the target, its last step taken in part (the change between two whole
    steps' changes, a share of the way)."""
    prompts, answers = prompts_of(corpus, edits)
    n, wanted = len(edits), {int(g): i for i, g in enumerate(grid)}
    curve = np.zeros((n, len(grid), len(METRICS)))
    before = np.full(n, np.nan)  # whole steps taken before the target is passed
    start, end, previous = [None] * n, [None] * n, None
    steps = edit_methods.fine_tune_changes(model, prompts, answers, layer, max(wanted), lr)
    for step, change, p in steps:
        if step in wanted:
            curve[:, wanted[step]] = read_rows(model, corpus, edits,
                                           lambda rows, c=change: {layer: c[rows]}, False)  # fmt: skip
        for i in np.flatnonzero(np.isnan(before) & (p >= TARGET)) if step else ():
            start[i], end[i], before[i] = previous[i].clone(), change[i].clone(), step - 1
        previous = change.clone()
    zero = torch.zeros_like(previous[0])
    base = torch.stack([s if s is not None else zero for s in start])
    stride = torch.stack(
        [e - s if s is not None else zero for s, e in zip(start, end, strict=True)]
    )

    def at(x):
        x = torch.as_tensor(np.asarray(x, dtype=float))
        return lambda rows: {layer: base[rows] + x[rows, None, None] * stride[rows]}

    def p_at(x):
        return edit_measures.p_after_changed(model, prompts, answers, at(x)(list(range(n))))

    reached, ones, zeros = ~np.isnan(before), np.ones(n), np.zeros(n)
    lo, hi = bisect(p_at, zeros, ones, p_at(zeros), p_at(ones))
    rows, part, width = match(
        edits, reached, lo, hi, lambda x: read_rows(model, corpus, edits, at(x))
    )
    return curve, rows, before + part, width


def bounded(model, corpus, edits, grid, layer: int) -> tuple[np.ndarray, ...]:
    """FT+L of ``layer``'s W2 at each bound of the grid (30 steps, learning rate 0.01, as
    ``edit_sweep``), and each
    edit read where p(new) reaches the target, its bound found by bisection (a run each)."""
    prompts, answers = prompts_of(corpus, edits)

    def run(bounds) -> tuple[torch.Tensor, np.ndarray]:
        *_, (_, change, p) = edit_methods.fine_tune_changes(model, prompts, answers, layer, 30,
                                                             bounds=bounds)  # fmt: skip
        return change.clone(), p

    def read_at(x, filler=True):
        change, _ = run(x)
        return read_rows(model, corpus, edits, lambda rows: {layer: change[rows]}, filler)

    curve = np.stack([read_at(np.full(len(edits), g), False) for g in grid], axis=1)
    reached, lo, hi, p_lo, p_hi = bracket(curve[..., METRICS.index("p(new)")], np.array(grid))
    lo, hi = bisect(lambda x: run(x)[1], lo, hi, p_lo, p_hi)
    return (curve, *match(edits, reached, lo, hi, read_at))
