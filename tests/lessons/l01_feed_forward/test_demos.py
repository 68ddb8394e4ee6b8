"""Lesson 1's demo: every slider and dropdown value gives the right data and draws it."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from matplotlib.colors import to_rgba

from course_lib.core.model.ffn import ACTIVATIONS, count_parameters, flops_per_token
from course_lib.core.plots import COLORS
from course_lib.core.widgets import all_demos
from course_lib.lessons.l01_feed_forward.demos import D_FF_VALUES, demos, width_data, width_demo
from course_lib.lessons.l01_feed_forward.experiments import hidden_activity
from course_lib.lessons.l01_feed_forward.figures import HiddenActivityData


def test_width_demo_has_the_controls_the_browser_suite_looks_for():
    demo = width_demo()
    names = {c.name: c for c in demo.controls}
    assert set(names) == {"d_ff", "activation"}
    assert names["d_ff"].values == D_FF_VALUES and names["d_ff"].default == 2048
    assert set(names["activation"].values) == set(ACTIVATIONS)
    assert [d.name for d in demos()] == [demo.name]
    assert demo.name in [d.name for d in all_demos()]


@pytest.mark.parametrize("values", list(width_demo().one_at_a_time()), ids=str)
def test_width_data_holds_the_hidden_values_and_the_counts(values):
    shown = width_data(**values)
    d_ff, activation = values["d_ff"], values["activation"]
    assert isinstance(shown, HiddenActivityData)
    assert (shown.d_ff, shown.activation) == (d_ff, activation)
    assert shown.hidden.shape == (8, d_ff)
    np.testing.assert_array_equal(shown.hidden, hidden_activity(d_ff, activation))
    assert shown.parameters == count_parameters(512, d_ff)
    assert shown.flops == flops_per_token(512, d_ff)
    np.testing.assert_array_equal(shown.fraction_active, (shown.hidden > 0).mean(axis=1))


def test_width_data_is_pure():
    first = width_data(256, "gelu")
    width_data(4096, "relu")
    torch.manual_seed(99)
    np.testing.assert_array_equal(width_data(256, "gelu").hidden, first.hidden)


def test_width_data_relu_zeroes_about_half_and_gelu_none():
    relu, gelu = width_data(2048, "relu"), width_data(2048, "gelu")
    assert 0.4 < relu.exact_zeros < 0.6
    assert gelu.exact_zeros == 0
    np.testing.assert_array_equal(relu.fraction_active, gelu.fraction_active)


def test_width_demo_draws_every_value_in_one_figure():
    demo = width_demo()
    first = demo.figure()
    for values in demo.one_at_a_time():
        fig = demo.figure(**values)
        assert fig is first, "a move updates the live figure in place"
        assert len(fig.axes) == 2, "a move adds no axes"
        left, right = fig.axes
        shown = width_data(**values)
        heights = [bar.get_height() for bar in right.patches]
        np.testing.assert_allclose(heights, shown.fraction_active)
        (stairs,) = left.patches
        assert stairs.get_data().values.sum() == 8 * values["d_ff"]
        assert to_rgba(stairs.get_facecolor()) == to_rgba(COLORS[values["activation"]])


def test_each_width_demo_owns_its_figure():
    first, second = width_demo(), width_demo()
    assert first.figure() is not second.figure()
    shown = first.figure()
    first.clear_cache()
    assert first.figure() is not shown


def test_width_demo_rejects_an_unknown_activation():
    with pytest.raises(ValueError, match=r"activation must be one of .*got 'rleu'"):
        width_demo().figure(d_ff=64, activation="rleu")


def test_width_data_rejects_a_width_beyond_the_slider():
    with pytest.raises(ValueError, match=r"d_ff must be at most 4096, got 8192"):
        width_data(8192, "relu")
