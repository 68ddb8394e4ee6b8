"""Lesson 8's pictures of lesson 5's fact model under the microscope: how many facts each of its
knowledge-neuron units serves, against the same facts shared out at random (``sharing_figure``),
and which regime its SAEs are in, what they miss of their training contexts against contexts they
never saw (``regime_figure``). Both take plain arrays and numbers; the notebook measures them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

from course_lib.core.i18n import N_, tr
from course_lib.core.plots import GREY, PALETTE, new_figure, tint

EDGES = (1, 2, 3, 4, 5, 10, 20)  # each bin runs from its edge to the next one's, the last one open


def bin_labels(edges: Sequence[int] = EDGES) -> list[str]:
    """Each bin's name: "3" for a bin of one value, "5–9" for a range, "≥20" for the last."""
    ends = [*edges[1:], None]
    return [f"≥{lo}" if hi is None else str(lo) if hi == lo + 1 else f"{lo}–{hi - 1}"
            for lo, hi in zip(edges, ends, strict=True)]  # fmt: skip


def per_bin(facts_per_unit: np.ndarray, edges: Sequence[int] = EDGES) -> np.ndarray:
    """How many units fall in each bin of ``edges``: facts_per_unit (units,) -> (bins,)."""
    where = np.searchsorted(np.asarray(edges), facts_per_unit, side="right") - 1
    return np.bincount(where, minlength=len(edges))


def _facts_per_unit(name: str, values) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 1 or array.size == 0 or array.dtype.kind not in "iu" or array.min() < 1:
        raise ValueError(
            f"{name} must be a non-empty 1-D array of integers >= 1 (facts per used unit), "
            f"got shape {array.shape}, dtype {array.dtype}"
        )
    return array


def sharing_figure(
    model_facts_per_unit: np.ndarray,
    shuffled_facts_per_unit: Sequence[np.ndarray],
    matched_facts_per_unit: Sequence[np.ndarray] | None = None,
    *,
    edges: Sequence[int] = EDGES,
) -> Figure:
    """The units that are knowledge neurons of some fact, counted by how many facts each serves:
    the trained model's as bars (model_facts_per_unit: (units,)), each shuffle's (a list of
    (units_s,), every one holding the same (fact, unit) pairs) as its mean and 2.5–97.5 % range;
    ``matched_facts_per_unit``, the shuffles matched by layer and write size, beside them."""
    model = _facts_per_unit("model_facts_per_unit", model_facts_per_unit)
    both = matched_facts_per_unit is not None  # then each set's markers beside the other's
    nulls = [(shuffled_facts_per_unit, PALETTE[1], -0.12 if both else 0.0,
              N_("shuffled, each fact's number kept: {units:.0f} units (mean of {shuffles}, "
                 "2.5–97.5 %)"))]  # fmt: skip
    if both:
        nulls.append((matched_facts_per_unit, PALETTE[2], 0.12,
                      N_("shuffled by layer and write size: {units:.0f} units")))  # fmt: skip
    pairs = int(model.sum())
    if list(edges) != sorted(set(edges)) or edges[0] != 1:
        raise ValueError(f"edges must rise from 1 without repeats, got {list(edges)}")
    x = np.arange(len(edges))
    fig = new_figure(7.4, 4.4, dpi=80)
    ax = fig.subplots()
    model_label = tr("trained model: {units} units", units=len(model))
    bars = ax.bar(x, per_bin(model, edges), width=0.6, color=tint(PALETTE[0], 0.8),
                  edgecolor=PALETTE[0], label=model_label)  # fmt: skip
    handles, labels, top = [bars], [model_label], per_bin(model, edges).max()
    for shuffled, colour, shift, label in nulls:
        if len(shuffled) == 0:
            raise ValueError("each set of shuffles must hold at least one shuffle, got none")
        shuffles = [_facts_per_unit("each shuffle", s) for s in shuffled]
        sums = sorted({int(s.sum()) for s in shuffles})
        if sums != [pairs]:
            raise ValueError(
                f"each shuffle must share out the model's {pairs} (fact, unit) pairs, got sums "
                f"{sums}"
            )
        counts = np.stack([per_bin(s, edges) for s in shuffles])  # (shuffles, bins)
        low, high = np.percentile(counts, [2.5, 97.5], axis=0)
        # the range as its own bar: a skewed count's mean can lie outside its 2.5–97.5 % range
        spread = ax.errorbar(x + shift, (low + high) / 2, yerr=(high - low) / 2, fmt="none",
                             ecolor=colour, capsize=4, linewidth=1.2)  # fmt: skip
        labels.append(tr(label, units=np.mean([len(s) for s in shuffles]),
                         shuffles=len(shuffles)))  # fmt: skip
        (markers,) = ax.plot(x + shift, counts.mean(0), "o", color=colour, markersize=6,
                             label=labels[-1])  # fmt: skip
        handles.append((spread, markers))
        top = max(top, high.max())
    ax.set_xticks(x, bin_labels(edges))
    ax.set_xlim(-0.6, len(edges) - 0.4)
    ax.set_ylim(0, top * 1.08)
    ax.set_xlabel(tr("facts a unit is a knowledge neuron of"))
    ax.set_ylabel(tr("number of units"))
    ax.legend(handles, labels, loc="upper right", fontsize=9)
    ax.set_title(
        tr("{pairs} (fact, knowledge neuron) pairs: how many facts each unit serves", pairs=pairs),
        fontsize=11,
    )
    return fig


def _size_axis(ax, sizes: np.ndarray, units: int) -> None:
    ax.set_xscale("log")
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticks(sizes, [f"{size / units:g}×" for size in sizes])
    ax.set_xlim(sizes[0] / 1.5, sizes[-1] * 1.5)
    ax.set_xlabel(tr("dictionary size (× the FFN's {units} units)", units=units), fontsize=9)
    ax.grid(axis="y", color=tint(GREY, 0.3), linewidth=0.6)


REGIME_PANELS = {"corpus": N_("(a) trained on the corpus' contexts ({n:,})"),
                 "grammar": N_("(b) trained on the grammar's contexts ({n:,})")}  # fmt: skip
RULE_LINES = {"l1": (N_("L1"), PALETTE[0], "o"), "topk": (N_("TopK"), PALETTE[3], "s")}


def regime_figure(
    sizes: Sequence[int],
    fvu: Mapping[tuple[str, str], Mapping[str, Sequence[float]]],
    contexts: Mapping[str, int],
    lookup: Mapping[str, float],
    *,
    units: int = 256,
) -> Figure:
    """Which regime each SAE is in: one panel per training set (``contexts``: {"corpus",
    "grammar": how many contexts it trains on}), the fraction of variance unexplained against the
    dictionary's size, on the contexts it was trained on (dashed, open) and on the held-out ones
    (solid, filled), for each rule; a grey line at ``lookup`` (its training set's nearest-input
    copy of the held-out contexts). fvu: {(trained on, rule): {"train", "held out": one value per
    size}}."""
    missing = [(on, rule) for on in contexts for rule in RULE_LINES if (on, rule) not in fvu]
    if missing or set(contexts) - set(REGIME_PANELS) or set(lookup) != set(contexts):
        raise ValueError(
            f"fvu must hold every (trained on, rule) of {list(contexts)} x {list(RULE_LINES)} and "
            f"lookup one value per training set, got {list(fvu)} and {list(lookup)}"
        )
    sizes = np.asarray(sizes, dtype=float)
    fig = new_figure(9.6, 4.2, dpi=80)
    axes = fig.subplots(1, len(contexts), sharey=True)
    for ax, on in zip(np.atleast_1d(axes), contexts, strict=True):
        for rule, (name, colour, marker) in RULE_LINES.items():
            values = fvu[on, rule]
            ax.plot(sizes, values["held out"], color=colour, marker=marker, markersize=6,
                    label=tr("{rule}: held-out contexts", rule=tr(name)))  # fmt: skip
            ax.plot(sizes, values["train"], color=colour, marker=marker, markersize=6,
                    linestyle="--", markerfacecolor="white",
                    label=tr("{rule}: its training contexts", rule=tr(name)))  # fmt: skip
        ax.axhline(lookup[on], color=GREY, linestyle=":", linewidth=1.2,
                   label=tr("copy of the nearest training context"))  # fmt: skip
        _size_axis(ax, sizes, units)
        ax.set_yscale("log")
        ax.set_title(tr(REGIME_PANELS[on], n=contexts[on]), fontsize=10)
    np.atleast_1d(axes)[0].set_ylabel(tr("fraction of variance unexplained"), fontsize=9)
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize=9)
    return fig
