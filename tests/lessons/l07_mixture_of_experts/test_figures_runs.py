"""plots.moe_runs: the load-history panels draw each seed's busiest and least used share of the
steps they are given, titled by their alpha and layer. Read back from the figure."""

from __future__ import annotations

import numpy as np

from course_lib.lessons.l07_mixture_of_experts.figures.runs import load_history_figure


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
