"""Figures for lesson 4: gradients and activation scales through depth, and the warm-up race."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullLocator

from course_lib.depth import PLACEMENTS, DepthProfile, RaceResult
from course_lib.plots import COLORS, new_figure


def _label(profile: DepthProfile) -> str:
    residual = "residual" if profile.residual else "no residual"
    return (
        f"{profile.placement}-norm, {residual}"
        if profile.placement != "none"
        else (f"no norm, {residual}")
    )


def _style(profile: DepthProfile) -> dict:
    return {
        "color": COLORS[profile.placement],
        "linestyle": "-" if profile.residual else "--",
        "marker": "o",
        "markersize": 3,
    }


_PLAIN_POWERS = FuncFormatter(lambda value, _: f"{value:.0e}")


def _fast_log_axes(fig: Figure) -> None:
    """A fixed layout, no minor ticks, few major ones: most of a figure's drawing time goes into
    laying out tick labels, and constrained layout measures each of them again."""
    fig.set_layout_engine("none")
    for ax, left in zip(fig.axes, (0.11, 0.61), strict=True):
        ax.set_position((left, 0.14, 0.37, 0.70))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_major_formatter(_PLAIN_POWERS)  # mathtext labels (10^k) cost ~100 ms a draw
        ax.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))
        low, high = (np.log10(v) for v in ax.dataLim.intervaly)
        ax.set_ylim(10 ** np.floor(low), 10 ** np.ceil(max(high, np.floor(low) + 1)))


def plot_depth_profile(profile: DepthProfile) -> Figure:
    """Two panels for one stack: ||dLoss/dW2|| per layer, and the stream's RMS after each layer."""
    fig = new_figure(8.0, 3.4, dpi=80, layout=None)  # _fast_log_axes places the axes
    grad_ax, act_ax = fig.subplots(1, 2)
    layers = np.arange(1, profile.depth + 1)
    grad_ax.plot(layers, profile.w2_grad, label=_label(profile), **_style(profile))
    grad_ax.set(xlabel="layer (1 = nearest the input)", ylabel="||dLoss/dW2||", yscale="log")
    grad_ax.set_title("gradient of each layer's FFN W2")
    act_ax.plot(np.arange(profile.depth + 1), profile.activation_rms, **_style(profile))
    act_ax.set(xlabel="after layer (0 = input)", ylabel="RMS of the stream", yscale="log")
    act_ax.set_title("activation scale through depth")
    for ax in (grad_ax, act_ax):
        ax.grid(alpha=0.3)
    grad_ax.legend(loc="best", fontsize=8)
    fig.suptitle(f"{profile.depth} layers = {2 * profile.depth} sublayers, at initialisation")
    _fast_log_axes(fig)
    return fig


def plot_placement_gradients(profiles: Sequence[DepthProfile]) -> Figure:
    """Xiong et al. 2020's picture: per-layer W2 gradient, one panel per norm placement,
    one line per depth. ``profiles`` holds post- and pre-norm stacks of several depths."""
    placements = [name for name in PLACEMENTS if any(p.placement == name for p in profiles)]
    fig = new_figure(8.0, 3.4, dpi=80)
    axes = np.atleast_1d(fig.subplots(1, len(placements), sharey=True))
    depths = sorted({p.depth for p in profiles})
    shades = np.linspace(0.35, 1.0, len(depths))
    for ax, placement in zip(axes, placements, strict=True):
        for profile in (p for p in profiles if p.placement == placement):
            alpha = shades[depths.index(profile.depth)]
            layers = np.arange(1, profile.depth + 1)
            ax.plot(
                layers,
                profile.w2_grad,
                marker="o",
                markersize=3,
                alpha=alpha,
                color=COLORS[placement],
                label=f"{profile.depth} layers",
            )
        ax.set(xlabel="layer (1 = nearest the input)", title=f"{placement}-norm")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("||dLoss/dW2|| at initialisation")
    return fig


def plot_activation_scales(profiles: Sequence[DepthProfile]) -> Figure:
    """The stream's RMS after each layer, one line per stack (log scale)."""
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
        xlabel="after layer (0 = input)",
        ylabel="RMS of the stream",
        yscale="log",
        title="activation scale through depth",
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def plot_warmup_race(results: Sequence[RaceResult]) -> Figure:
    """Training loss per step for each (norm placement, warm-up) setting: the mean over seeds
    as a thick line, each seed as a thin one."""
    fig = new_figure(6.4, 3.8, dpi=80)
    ax = fig.subplots()
    for result in results:
        warm = f"warm-up {result.warmup_steps} steps" if result.warmup_steps else "no warm-up"
        style = {
            "color": COLORS[result.placement],
            "linestyle": "-" if result.warmup_steps else "--",
        }
        steps = np.arange(1, result.losses.shape[1] + 1)
        accuracy = ", ".join(f"{a:.2f}" for a in result.accuracy)
        ax.plot(
            steps,
            result.losses.mean(axis=0),
            linewidth=2,
            **style,
            label=f"{result.placement}-norm, {warm} (accuracy {accuracy})",
        )
        for losses in result.losses:
            ax.plot(steps, losses, linewidth=0.6, alpha=0.35, **style)
    ax.set(
        xlabel="step",
        ylabel="training loss",
        yscale="log",
        title=f"warm-up race, peak learning rate {results[0].lr:g}, {len(results[0].seeds)} seeds each",
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return fig
