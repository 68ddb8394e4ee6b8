"""plots.moe_runs: the load-history panels draw each seed's busiest and least used share of the
steps they are given, titled by their alpha and layer; the fact-capacity figure labels each model
by its shape and budget and draws its mean and every seed. Read back from the figures."""

from __future__ import annotations

import numpy as np

from course_lib.lessons.l07_mixture_of_experts.figures.runs import (
    FactCurve,
    fact_capacity_figure,
    load_history_figure,
)


def test_each_load_panel_is_one_alpha_and_layer_with_every_seeds_busiest_and_quietest_share():
    g = np.random.default_rng(0)
    busiest = g.uniform(0.3, 0.9, (2, 3, 5, 2))  # (alphas, seeds, steps, layers)
    quietest = g.uniform(0.0, 0.2, (2, 3, 5, 2))
    fig = load_history_figure(busiest, quietest, (0.0, 0.01), (0, 1, 2))
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [
        "α = 0.0, layer 0",
        "α = 0.0, layer 1",
        "α = 0.01, layer 0",
        "α = 0.01, layer 1",
    ]
    for ax, (a, layer) in zip(fig.axes, [(0, 0), (0, 1), (1, 0), (1, 1)], strict=True):
        lines = ax.get_lines()
        assert len(lines) == 6  # three seeds, solid and dashed
        for s in range(3):
            solid, dashed = lines[2 * s], lines[2 * s + 1]
            assert np.allclose(solid.get_ydata(), busiest[a, s, :, layer])
            assert np.allclose(dashed.get_ydata(), quietest[a, s, :, layer])
            assert solid.get_linestyle() == "-" and dashed.get_linestyle() == "--"
    assert fig.axes[2].get_xlabel() == "training step"
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["seed 0", "seed 1", "seed 2", "busiest expert", "least used expert"]


def test_the_fact_figure_labels_each_model_by_its_shape_and_draws_its_mean_and_seeds():
    right = [np.array([[1.0, 1.0], [0.9, 0.7]]), np.array([[1.0, 1.0], [1.0, 0.95]])]
    curves = [
        FactCurve(1, 64, 1, 2128, 2128, right[0]),
        FactCurve(4, 32, 2, 4352, 2208, right[1]),
    ]
    fig = fact_capacity_figure((48, 100), curves, steps=600)
    (ax,) = fig.axes
    assert ax.get_title() == "facts learned in 600 steps of training"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [
        "dense FFN, width 64: 2,128 held, 2,128 per word",
        "4 experts × width 32, top 2: 4,352 held, 2,208 per word",
    ]
    means = [line for line in ax.get_lines() if line.get_linestyle() == "-"]
    dots = [line for line in ax.get_lines() if line.get_marker() == "o"]
    for curve, mean, seeds in zip(curves, means, dots, strict=True):
        assert np.allclose(mean.get_xdata(), [48, 100])
        assert np.allclose(mean.get_ydata(), curve.right.mean(axis=1))
        assert sorted(seeds.get_ydata()) == sorted(curve.right.ravel())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["48", "100"]
