"""The lesson 4 demo: its data is the measured profile of every control value, and its one live
figure shows that data."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_hex

from course_lib.core.plots import COLORS
from course_lib.lessons.l04_sublayer_connection.demos import (
    DEPTHS,
    NORMS,
    RESIDUALS,
    demos,
    depth_data,
    precompute,
)
from course_lib.lessons.l04_sublayer_connection.experiments import depth_profile


def test_depth_data_is_the_measured_profile_of_the_controls():
    (demo,) = demos()
    for values in demo.one_at_a_time():
        data = depth_data(**values)
        expected = depth_profile(values["depth"], values["norm"], values["residual"] == "on")
        assert (data.depth, data.placement) == (values["depth"], values["norm"])
        assert data.residual is (values["residual"] == "on")
        np.testing.assert_array_equal(data.w2_grad, expected.w2_grad)
        np.testing.assert_array_equal(data.activation_rms, expected.activation_rms)
        assert data.w2_grad.shape == (values["depth"],)
        assert data.activation_rms.shape == (values["depth"] + 1,)


def test_demo_figure_shows_the_data_of_every_control_value_in_one_figure():
    (demo,) = demos()
    demo.clear_cache()
    first = demo.figure()
    for values in demo.one_at_a_time():
        fig = demo.figure(**values)
        data = depth_data(**values)
        assert fig is first and len(fig.axes) == 2  # updated in place: no new figure or axes
        grad_line, act_line = (ax.lines[0] for ax in fig.axes)
        np.testing.assert_array_equal(grad_line.get_xdata(), np.arange(1, values["depth"] + 1))
        np.testing.assert_allclose(grad_line.get_ydata(), data.w2_grad)
        np.testing.assert_allclose(act_line.get_ydata(), data.activation_rms)
        assert to_hex(grad_line.get_color()) == to_hex(COLORS[values["norm"]])
        assert grad_line.get_linestyle() == ("-" if values["residual"] == "on" else "--")


def test_precompute_measures_every_setting_of_the_grid():
    assert precompute() == len(DEPTHS) * len(NORMS) * len(RESIDUALS)


def test_after_precompute_a_move_only_draws():
    """A move measures nothing: every profile is already cached."""
    precompute()
    (demo,) = demos()
    moves = list(demo.one_at_a_time())
    assert len(moves) == len(DEPTHS) + len(NORMS) + len(RESIDUALS)
    misses = depth_profile.cache_info().misses
    for values in moves:
        demo.png(**values)
    assert depth_profile.cache_info().misses == misses  # speed itself is the benchmark's job


@pytest.mark.parametrize(
    ("values", "name"),
    [
        ({"residual": "maybe"}, "residual"),
        ({"norm": "middle"}, "norm"),
        ({"residual": 1}, "residual"),
    ],
)
def test_depth_data_rejects_a_value_no_control_offers(values, name):
    arguments = {"depth": 2, "norm": "post", "residual": "on", **values}
    with pytest.raises(
        (ValueError, TypeError), match=rf"{name} must be one of .*got {values[name]!r}"
    ):
        depth_data(**arguments)
