"""Lesson 8's pictures of lesson 5's fact model under the microscope: how many facts each of its
knowledge-neuron units serves, against the same facts shared out at random (``sharing_figure``),
and its sparse dictionaries, SAEs and transcoders at 1×, 4× and 16× its units, with the L1 and the
TopK rule: their live and dead features and what they leave unexplained (``dictionary_figure``).
Both take plain arrays and numbers; the notebook measures them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator, PercentFormatter

from course_lib.core.i18n import N_, tr
from course_lib.core.plots import GREY, PALETTE, new_figure, tint

EDGES = (1, 2, 3, 4, 5, 10, 20)  # each bin runs from its edge to the next one's, the last one open
LINES = {  # (kind, rule) -> its name, colour and line style, in the legend's order
    ("sae", "l1"): (N_("SAE, L1"), PALETTE[0], "-", "o"),
    ("sae", "topk"): (N_("SAE, TopK"), PALETTE[0], "--", "s"),
    ("transcoder", "l1"): (N_("transcoder, L1"), PALETTE[1], "-", "o"),
    ("transcoder", "topk"): (N_("transcoder, TopK"), PALETTE[1], "--", "s"),
}
NEEDED = ("alive", "dead", "fvu")


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
    nulls = [(shuffled_facts_per_unit, PALETTE[1], -0.12,
              N_("shuffled, each fact's number kept: {units:.0f} units (mean of {shuffles}, "
                 "2.5–97.5 %)"))]  # fmt: skip
    if matched_facts_per_unit is not None:
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
        (markers,) = ax.plot(x + shift, counts.mean(0), "o", color=colour, markersize=6)
        handles.append((spread, markers))
        labels.append(tr(label, units=np.mean([len(s) for s in shuffles]),
                         shuffles=len(shuffles)))  # fmt: skip
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


def _checked(sizes: Sequence[int], measures: Mapping) -> list[tuple[str, str]]:
    """The (kind, rule) keys of ``measures`` in the legend's order, each checked."""
    unknown = [key for key in measures if key not in LINES]
    if unknown or not measures:
        raise ValueError(f"measures must be keyed by some of {list(LINES)}, got {list(measures)}")
    for key, values in measures.items():
        for name in NEEDED:
            if name not in values or len(values[name]) != len(sizes):
                raise ValueError(
                    f"measures[{key}] must hold {list(NEEDED)}, each one value per size "
                    f"({len(sizes)}), got {name!r}: {values.get(name)!r}"
                )
    return [key for key in LINES if key in measures]


def _size_axis(ax, sizes: np.ndarray, units: int) -> None:
    ax.set_xscale("log")
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticks(sizes, [f"{size / units:g}×" for size in sizes])
    ax.set_xlim(sizes[0] / 1.5, sizes[-1] * 1.5)
    ax.set_xlabel(tr("dictionary size (× the FFN's {units} units)", units=units), fontsize=9)
    ax.grid(axis="y", color=tint(GREY, 0.3), linewidth=0.6)


def _mark(ax, value: float, label: str, linestyle: str, left: bool) -> None:
    """A grey horizontal line at ``value`` with its label just above it, at one end."""
    ax.axhline(value, color=GREY, linestyle=linestyle, linewidth=1)
    ax.text(0.02 if left else 0.98, value, label, transform=ax.get_yaxis_transform(), fontsize=8,
            color=GREY, ha="left" if left else "right", va="bottom")  # fmt: skip


def dictionary_figure(
    sizes: Sequence[int],
    measures: Mapping[tuple[str, str], Mapping[str, Sequence[float]]],
    *,
    units: int = 256,
    reference: tuple[float, str] | None = None,
    paper_marks: Sequence[tuple[float, str]] = (),
    fvu: bool = True,
) -> Figure:
    """Sparse dictionaries against their size (sizes: features, ``units`` the FFN's): (a) live
    features, with a dashed line at ``reference`` (value, label), (b) the share dead, with a dotted
    line per ``paper_marks`` (share, label), (c) if ``fvu``, the fraction of variance unexplained.
    measures: {(kind, rule): {"alive", "dead", "fvu": one value per size}}; labels as shown."""
    keys = _checked(sizes, measures)
    sizes = np.asarray(sizes, dtype=float)
    fig = new_figure(12.0 if fvu else 8.4, 4.3, dpi=80)
    axes = fig.subplots(1, 3 if fvu else 2)
    panels = [("alive", N_("(a) live features"), N_("features that fire on some input")),
              ("dead", N_("(b) dead features"), N_("share of the dictionary never firing")),
              ("fvu", N_("(c) what the dictionary misses"),
               N_("fraction of variance unexplained"))][: len(axes)]  # fmt: skip
    for ax, (measure, title, ylabel) in zip(axes, panels, strict=True):
        for key in keys:
            name, colour, style, marker = LINES[key]
            y = np.asarray(measures[key][measure], dtype=float)
            y = y / sizes if measure == "dead" else y
            ax.plot(sizes, y, color=colour, linestyle=style, marker=marker, markersize=6,
                    markerfacecolor="white" if marker == "s" else colour, label=tr(name))  # fmt: skip
        _size_axis(ax, sizes, units)
        ax.set_title(tr(title), fontsize=10)
        ax.set_ylabel(tr(ylabel), fontsize=9)
    alive_ax, dead_ax = axes[:2]
    if reference is not None:
        value, label = reference
        _mark(alive_ax, value, f"{label}: {value:g}", "--", left=True)
        top = max(max(measures[key]["alive"]) for key in keys)
        alive_ax.set_ylim(0, max(top, value) * 1.12)
    else:
        alive_ax.set_ylim(bottom=0)
    for value, label in paper_marks:
        _mark(dead_ax, value, label, ":", left=True)
    dead_ax.set_ylim(0, 1.0)
    dead_ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    if fvu:
        axes[2].set_yscale("log")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(keys), fontsize=9)
    return fig
