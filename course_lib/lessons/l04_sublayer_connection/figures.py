"""Figures for lesson 4: gradients and activation scales through depth, and the warm-up race.

The figures read plain attributes of the results they are given (``DepthProfileData``,
``RaceData``): ``course_lib.lessons.l04_sublayer_connection.experiments``'s ``DepthProfile`` and ``RaceResult`` have
them, and so does any small object built by hand. A norm placement ("post", "pre", "none") takes
its colour, and the panels their order, from ``course_lib.core.plots.COLORS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from course_lib.core.i18n import N_, tr
from course_lib.core.plots import COLORS, new_figure, plain_log_axis


class DepthProfileData(Protocol):
    """One stack at initialisation, as ``DepthProfileView`` and the depth figures read it."""

    @property
    def depth(self) -> int: ...  # number of layers
    @property
    def placement(self) -> str: ...  # "post", "pre" or "none": a key of COLORS
    @property
    def residual(self) -> bool: ...
    @property
    def activation_rms(self) -> np.ndarray: ...  # (depth + 1,): the stream's RMS, input first
    @property
    def w2_grad(self) -> np.ndarray: ...  # (depth,): ‖∂L/∂W2‖ per layer, input side first


class RaceData(Protocol):
    """One (norm placement, warm-up) setting of the warm-up race, trained from several seeds."""

    @property
    def placement(self) -> str: ...
    @property
    def warmup_steps(self) -> int: ...
    @property
    def lr(self) -> float: ...  # the peak learning rate
    @property
    def losses(self) -> np.ndarray: ...  # (seeds, steps): training loss per step
    @property
    def accuracy(self) -> np.ndarray: ...  # (seeds,): final accuracy
    @property
    def learned(self) -> int: ...  # how many seeds learned the task


def _color(placement: str) -> str:
    if not isinstance(placement, str) or placement not in COLORS:
        raise ValueError(
            f"placement must be a norm placement with a colour in course_lib.core.plots.COLORS "
            f"('post', 'pre' or 'none'), got {placement!r}"
        )
    return COLORS[placement]


NORM_NAMES = {"post": N_("post-norm"), "pre": N_("pre-norm"), "none": N_("no norm")}
LABELS = {  # (placement, residual) -> a stack's legend label
    ("post", True): N_("post-norm, residual"),
    ("post", False): N_("post-norm, no residual"),
    ("pre", True): N_("pre-norm, residual"),
    ("pre", False): N_("pre-norm, no residual"),
    ("none", True): N_("no norm, residual"),
    ("none", False): N_("no norm, no residual"),
}


def norm_name(placement: str) -> str:
    """A norm placement's name in the learner's language ("post" -> "post-norm")."""
    if placement in NORM_NAMES:
        return tr(NORM_NAMES[placement])
    return f"{placement}-norm"  # another key of COLORS: a code name


def stack_label(placement: str, residual: bool) -> str:
    """A stack's name in the learner's language: ("none", True) -> "no norm, residual"."""
    key = (placement, bool(residual))
    if key in LABELS:
        return tr(LABELS[key])
    return f"{norm_name(placement)}, {'residual' if residual else 'no residual'}"


def _label(profile: DepthProfileData) -> str:
    return stack_label(profile.placement, profile.residual)


def _style(profile: DepthProfileData) -> dict:
    return {
        "color": _color(profile.placement),
        "linestyle": "-" if profile.residual else "--",
        "marker": "o",
        "markersize": 3,
    }


def _checked_profile(profile: DepthProfileData) -> DepthProfileData:
    """``profile`` if its arrays have the lengths its depth implies, else a ValueError."""
    depth = profile.depth
    grad, rms = np.shape(profile.w2_grad), np.shape(profile.activation_rms)
    if grad != (depth,) or rms != (depth + 1,):
        raise ValueError(
            f"profile of depth {depth} needs w2_grad of shape ({depth},) and activation_rms of "
            f"shape ({depth + 1},), got {grad} and {rms}"
        )
    return profile


def _non_empty(name: str, items: Sequence) -> list:
    items = list(items)
    if not items:
        raise ValueError(f"{name} must hold at least one result, got an empty sequence")
    return items


def _fast_log_axes(fig: Figure) -> None:
    """A fixed layout, no minor ticks, few major ones: most of a figure's drawing time goes into
    laying out tick labels, and constrained layout measures each of them again."""
    fig.set_layout_engine("none")
    for ax, left in zip(fig.axes, (0.11, 0.61), strict=True):
        ax.set_position((left, 0.14, 0.37, 0.70))
        plain_log_axis(ax.yaxis)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))
        low, high = (np.log10(v) for v in ax.dataLim.intervaly)
        ax.set_ylim(10 ** np.floor(low), 10 ** np.ceil(max(high, np.floor(low) + 1)))


class DepthProfileView:
    """Lesson 4's demo figure, built once and updated in place for every control move.

    New axes create their tick objects again on every draw; updating the lines and limits of one
    figure skips that, which is most of a redraw.
    """

    def __init__(self) -> None:
        self.figure = new_figure(8.0, 3.4, dpi=80, layout=None)  # _fast_log_axes places the axes
        self.grad_ax, self.act_ax = self.figure.subplots(1, 2)
        (self.grad_line,) = self.grad_ax.plot([1, 2], [1, 10], marker="o", markersize=3)
        (self.act_line,) = self.act_ax.plot([0, 1], [1, 10], marker="o", markersize=3)
        self.grad_ax.set(
            xlabel=tr("layer (1 = nearest the input)"), ylabel="‖∂L/∂W2‖", yscale="log"
        )
        self.grad_ax.set_title(tr("gradient of each layer's FFN W2"), y=1.0)
        self.act_ax.set(
            xlabel=tr("after layer (0 = input)"), ylabel=tr("RMS of the stream"), yscale="log"
        )
        self.act_ax.set_title(tr("activation scale through depth"), y=1.0)
        for ax in (self.grad_ax, self.act_ax):
            ax.grid(alpha=0.3)
        self.legend = self.grad_ax.legend([self.grad_line], [""], loc="upper right", fontsize=8)
        self.title = self.figure.suptitle("")
        _fast_log_axes(self.figure)

    def update(self, data: DepthProfileData) -> Figure:
        """Show one stack: ‖∂L/∂W2‖ per layer and the stream's RMS after each layer."""
        profile = _checked_profile(data)
        style = _style(profile)
        series = (
            (self.grad_ax, self.grad_line, np.arange(1, profile.depth + 1), profile.w2_grad),
            (self.act_ax, self.act_line, np.arange(profile.depth + 1), profile.activation_rms),
        )
        for ax, line, x, y in series:
            line.set_data(x, y)
            line.set_color(style["color"])
            line.set_linestyle(style["linestyle"])
            ax.set_xlim(x[0] - 0.5, x[-1] + 0.5)
            low, high = np.log10(np.min(y)), np.log10(np.max(y))
            ax.set_ylim(10 ** np.floor(low), 10 ** np.ceil(max(high, np.floor(low) + 1)))
        legend_line = self.legend.get_lines()[0]
        legend_line.set_color(style["color"])
        legend_line.set_linestyle(style["linestyle"])
        self.legend.get_texts()[0].set_text(_label(profile))
        self.title.set_text(
            tr(
                "{layers} layers = {sublayers} sublayers, at initialisation",
                layers=profile.depth,
                sublayers=2 * profile.depth,
            )
        )
        return self.figure


def depth_profile_figure(profile: DepthProfileData) -> Figure:
    """Two panels for one stack: ‖∂L/∂W2‖ per layer, and the stream's RMS after each layer."""
    return DepthProfileView().update(profile)


def placement_gradients_figure(profiles: Sequence[DepthProfileData]) -> Figure:
    """Xiong et al. 2020's picture: per-layer W2 gradient, one panel per norm placement,
    one line per depth. ``profiles`` holds post- and pre-norm stacks of several depths."""
    profiles = [_checked_profile(p) for p in _non_empty("profiles", profiles)]
    for profile in profiles:
        _color(profile.placement)
    placements = [name for name in COLORS if any(p.placement == name for p in profiles)]
    fig = new_figure(8.0, 3.4, dpi=80)
    axes = np.atleast_1d(fig.subplots(1, len(placements), sharey=True))
    depths = sorted({p.depth for p in profiles})
    shades = np.linspace(0.35, 1.0, len(depths))
    for ax, placement in zip(axes, placements, strict=True):
        for profile in (p for p in profiles if p.placement == placement):
            ax.plot(
                np.arange(1, profile.depth + 1),
                profile.w2_grad,
                marker="o",
                markersize=3,
                alpha=shades[depths.index(profile.depth)],
                color=COLORS[placement],
                label=tr("{depth} layers", depth=profile.depth),
            )
        ax.set(xlabel=tr("layer (1 = nearest the input)"), title=norm_name(placement))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel(tr("‖∂L/∂W2‖ at initialisation"))
    return fig


def activation_scales_figure(profiles: Sequence[DepthProfileData]) -> Figure:
    """The stream's RMS after each layer, one line per stack (log scale)."""
    profiles = [_checked_profile(p) for p in _non_empty("profiles", profiles)]
    fig = new_figure(6.4, 3.6, dpi=80)
    ax = fig.subplots()
    for profile in profiles:
        ax.plot(
            np.arange(profile.depth + 1),
            profile.activation_rms,
            label=_label(profile),
            **_style(profile),
        )
    ax.set(
        xlabel=tr("after layer (0 = input)"),
        ylabel=tr("RMS of the stream"),
        yscale="log",
        title=tr("activation scale through depth"),
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def warmup_race_figure(results: Sequence[RaceData]) -> Figure:
    """Training loss per step for each (norm placement, warm-up) setting: the mean over seeds
    as a thick line, each seed as a thin one. Every result shares one peak learning rate."""
    results = _non_empty("results", results)
    rates = sorted({result.lr for result in results})
    if len(rates) != 1:
        raise ValueError(f"results must share one peak learning rate (lr), got {rates}")
    fig = new_figure(6.4, 3.8, dpi=80)
    ax = fig.subplots()
    for result in results:
        style = {
            "color": _color(result.placement),
            "linestyle": "-" if result.warmup_steps else "--",
        }
        losses = np.atleast_2d(result.losses)
        steps = np.arange(1, losses.shape[1] + 1)
        ax.plot(
            steps,
            losses.mean(axis=0),
            linewidth=2,
            **style,
            label=_race_label(result.placement, result.warmup_steps, result.learned, len(losses)),
        )
        for seed_losses in losses:
            ax.plot(steps, seed_losses, linewidth=0.6, alpha=0.35, **style)
    seeds = sorted({len(np.atleast_2d(result.losses)) for result in results})
    ax.set(
        xlabel=tr("step"),
        ylabel=tr("training loss"),
        yscale="log",
        title=_race_title(rates[0], seeds),
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return fig


def _race_label(placement: str, warmup_steps: int, learned: int, seeds: int) -> str:
    """One setting's legend label: its norm, its warm-up and how many of its seeds learned."""
    norm = norm_name(placement)
    if warmup_steps:
        return tr(
            "{norm}, warm-up {steps} steps: {learned} of {seeds} seeds learn",
            norm=norm,
            steps=warmup_steps,
            learned=learned,
            seeds=seeds,
        )
    return tr(
        "{norm}, no warm-up: {learned} of {seeds} seeds learn",
        norm=norm,
        learned=learned,
        seeds=seeds,
    )


def _race_title(lr: float, seeds: list[int]) -> str:
    if len(seeds) == 1:
        return tr(
            "warm-up race, peak learning rate {lr:g}, {seeds} seeds each", lr=lr, seeds=seeds[0]
        )
    return tr(
        "warm-up race, peak learning rate {lr:g}, {first} to {last} seeds",
        lr=lr,
        first=seeds[0],
        last=seeds[-1],
    )
