"""Lesson 7's demo: every setting shows the stored networks of that setting, read back from its
one live figure, and a value no control offers is refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.lessons.l07_mixture_of_experts.demos import demos, router_data
from course_lib.lessons.l07_mixture_of_experts.experiments import expert_map, router_runs
from tests.lessons.l07_mixture_of_experts.test_figures import shows_experts


def test_every_setting_shows_its_stored_networks_map_load_and_accuracy():
    (demo,) = demos()
    demo.clear_cache()
    first = demo.figure()
    for values in demo.one_at_a_time():
        fig = demo.figure(**values)
        runs = router_runs(values["experts"], values["k"], (values["alpha"],))
        picture = expert_map(runs.weights[0][0], values["k"])
        assert fig is first
        map_ax, load_ax = fig.axes
        experts, k, alpha = values["experts"], values["k"], values["alpha"]
        shown = map_ax.get_images()[0].get_array()
        assert shows_experts(shown, picture.chosen, picture.edges, experts)
        bars = [bar.get_height() for bar in load_ax.patches if bar.get_visible()]
        assert np.allclose(bars, np.sort(runs.load[0, 0])[::-1])
        title = f"{experts} experts, top {k}, α = {alpha}; left, seed 0: accuracy"
        assert fig._suptitle.get_text() == f"{title} {runs.accuracy[0, 0]:.2f}"


@pytest.mark.parametrize(
    ("values", "error", "message"),
    [
        ({"experts": 3}, ValueError, r"experts must be one of \[2, 4, 8\], got 3"),
        ({"k": "2"}, TypeError, r"k must be one of \[1, 2\], got '2' \(str\)"),
        ({"alpha": 0.05}, ValueError, r"alpha must be one of \[0.0, 0.01, 0.1\], got 0.05"),
    ],
)
def test_a_value_no_control_offers_is_refused_by_name(values, error, message):
    with pytest.raises(error, match=message):
        router_data(**{"experts": 8, "k": 2, "alpha": 0.0} | values)


def test_a_bool_k_is_refused_even_after_k_1_was_drawn():
    """True == 1 and hashes alike: a cache asked first would hand back k = 1's picture."""
    from course_lib.lessons.l07_mixture_of_experts.demos import GRID_ALPHAS, GRID_EXPERTS, GRID_K

    assert 1 in GRID_K
    router_data(GRID_EXPERTS[0], 1, GRID_ALPHAS[0])
    with pytest.raises(TypeError, match="k must be one of"):
        router_data(GRID_EXPERTS[0], True, GRID_ALPHAS[0])
