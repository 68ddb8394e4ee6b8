"""The lesson 4 demo renders every control value, and each figure shows that value's data."""

from __future__ import annotations

import time

import numpy as np
import pytest

from course_lib.experiments.sublayer import depth_profile
from course_lib.widgets.sublayer import demos, precompute, render_depth_demo


def test_demo_renders_its_whole_grid_with_the_matching_data():
    (demo,) = demos()
    for values in demo.one_at_a_time():
        fig = demo.render(**values)
        expected = depth_profile(values["depth"], values["norm"], values["residual"] == "on")
        np.testing.assert_allclose(fig.axes[0].lines[0].get_ydata(), expected.w2_grad)
        assert f"{values['depth']} layers" in fig._suptitle.get_text()


def test_after_precompute_a_move_only_draws():
    """The 100 ms budget holds because a move measures nothing: every profile is cached."""
    precompute()
    (demo,) = demos()
    misses = depth_profile.cache_info().misses
    start = time.process_time()
    for values in demo.one_at_a_time():
        demo.png(**values)
    assert depth_profile.cache_info().misses == misses
    assert (time.process_time() - start) / 11 < 1.0  # CPU per move, generous for a shared machine


def test_render_rejects_unknown_residual_value():
    with pytest.raises(ValueError, match="residual"):
        render_depth_demo(2, "post", "maybe")
