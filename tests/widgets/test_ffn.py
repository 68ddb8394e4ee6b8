"""Lesson 1's demo: every slider and dropdown value renders the right data."""

from __future__ import annotations

import pytest

from course_lib.model.ffn import ACTIVATIONS, count_parameters, flops_per_token
from course_lib.widgets import all_demos
from course_lib.widgets.ffn import (
    D_FF_VALUES,
    _pre_activations,
    fixed_batch,
    hidden_activity,
    width_demo,
)


def test_width_demo_has_the_controls_the_browser_suite_looks_for():
    demo = width_demo()
    names = {c.name: c for c in demo.controls}
    assert set(names) == {"d_ff", "activation"}
    assert names["d_ff"].values == D_FF_VALUES and names["d_ff"].default == 2048
    assert set(names["activation"].values) == set(ACTIVATIONS)
    assert any(d.name == demo.name for d in all_demos())


def test_width_demo_renders_every_value_with_its_counts():
    demo = width_demo()
    for values in demo.one_at_a_time():
        fig = demo.render(**values)
        left, right = fig.axes
        d_ff, activation = values["d_ff"], values["activation"]
        assert f"{count_parameters(512, d_ff):,} params" in right.get_title()
        assert f"{flops_per_token(512, d_ff):,} FLOPs" in right.get_title()
        assert left.get_title().startswith(f"{activation}, d_ff = {d_ff}")
        assert len(right.patches) == 8  # one bar per token of the fixed 2 x 4 batch


def test_hidden_activity_is_fixed_and_has_the_hidden_shape():
    first = hidden_activity(256, "relu")
    assert first.shape == (8, 256)
    assert (first >= 0).all()
    _pre_activations.cache_clear()
    assert (hidden_activity(256, "relu") == first).all(), "same seed, same batch, same values"
    assert fixed_batch().shape == (2, 4, 512)


def test_a_narrow_layer_is_the_first_units_of_the_wide_one():
    narrow, wide = hidden_activity(64, "silu"), hidden_activity(4096, "silu")
    assert (narrow == wide[:, :64]).all()


def test_hidden_activity_units_have_nn_linear_init_bounds():
    # the first layer's pre-activations: |x w + b| <= (sum |x| + 1) / sqrt(512) for every unit
    pre = hidden_activity(4096, "identity")
    bound = (fixed_batch().reshape(8, 512).abs().sum(dim=1, keepdim=True).numpy() + 1) / 512**0.5
    assert (abs(pre) <= bound).all()


@pytest.mark.parametrize("d_ff", [0, 5000])
def test_hidden_activity_rejects_widths_outside_the_slider(d_ff):
    with pytest.raises(ValueError, match="d_ff must be"):
        hidden_activity(d_ff, "relu")


def test_relu_zeroes_about_half_and_gelu_none():
    relu, gelu = hidden_activity(2048, "relu"), hidden_activity(2048, "gelu")
    assert 0.4 < (relu == 0).mean() < 0.6
    assert (gelu == 0).mean() == 0
    assert ((relu > 0) == (gelu > 0)).all(), "GELU has ReLU's sign"


def test_width_demo_rejects_an_unknown_activation():
    with pytest.raises(ValueError, match="activation must be one of"):
        width_demo().render(d_ff=64, activation="rleu")
