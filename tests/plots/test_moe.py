"""plots.moe: the router figure's titles, lines and even-load level come from the data it is
given, and are read back from the figure."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.plots.moe import router_figure


def test_the_router_figure_shows_each_alpha_each_seeds_load_and_the_even_share():
    logit = np.linspace(-1, 1, 10)[None, :].repeat(10, axis=0)  # boundary at x = 0
    maps = [(np.zeros((10, 10), int), logit), (np.arange(100).reshape(10, 10) % 4, logit)]
    load = np.array([[[0.7, 0.3, 0, 0], [0.6, 0.4, 0, 0]], [[0.25] * 4, [0.4, 0.3, 0.2, 0.1]]])
    fig = router_figure(maps, (0.0, 0.1), load, "spiral", seed=3)
    left, middle, right = fig.axes
    assert [left.get_title(), middle.get_title()] == ["α = 0.0, seed 3", "α = 0.1, seed 3"]
    assert right.get_title() == "load, every seed (spiral)"
    lines = [line for line in right.get_lines() if len(line.get_xdata()) == 4]
    assert len(lines) == 4  # two alphas, two seeds
    assert np.allclose(lines[0].get_ydata(), [0.7, 0.3, 0, 0])  # busiest first
    assert np.allclose(lines[3].get_ydata(), [0.4, 0.3, 0.2, 0.1])
    even = [line for line in right.get_lines() if len(line.get_xdata()) == 2]
    assert np.allclose(even[0].get_ydata(), 0.25)
    shown = middle.get_images()[0].get_array()
    assert np.array_equal(shown, maps[1][0])
    boundary = middle.collections[0].get_paths()[0].vertices  # the logit's zero line
    assert np.allclose(boundary[:, 0], 0, atol=1e-9)


def test_more_experts_than_colours_is_refused():
    with pytest.raises(ValueError, match="at most 8 experts can be told apart, got 9"):
        router_figure([(np.zeros((2, 2), int),) * 2], (0.0,), np.zeros((1, 1, 9)), "spiral")
