"""Lesson 3's demos render over their whole value grid, showing what their controls say."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.widgets import all_demos
from course_lib.widgets.regions import (
    G_PRESETS,
    NS,
    demos,
    moved_triangles,
    ngon_area_errors,
    render_ngon,
    render_trained,
    render_triangles,
)

DEMOS = {demo.name: demo for demo in demos()}


def test_demos_are_discovered_and_name_their_controls():
    names = {d.name for d in all_demos()}
    assert set(DEMOS) <= names
    trained = DEMOS["trained triangles network"]
    assert [c.name for c in trained.controls] == ["d_ff", "activation"]
    assert trained.trains and trained.busy_text == "training…"
    assert not DEMOS["triangle regions"].trains and not DEMOS["polygon from n features"].trains


def test_triangle_demo_renders_every_value():
    demo = DEMOS["triangle regions"]
    for values in demo.one_at_a_time():
        fig = demo.render(**values)
        assert f"sharpness {values['sharpness']}" in fig.texts[0].get_text()
        f_outline = fig.axes[0].lines[0]
        # the apex of triangle f is where the sliders put it
        assert (values["apex_x"], values["apex_y"]) in set(
            zip(f_outline.get_xdata(), f_outline.get_ydata(), strict=True)
        )


def test_triangle_demo_agreement_is_high_and_rises_with_sharpness():
    def agreement(sharpness):
        text = render_triangles("seed picture", -0.1, 0.9, sharpness).texts[0].get_text()
        return float(text.split("on ")[1].split("%")[0])

    assert agreement(2) < agreement(100)
    assert agreement(100) > 99


def test_moved_triangles_moves_only_the_apex_and_rejects_unknown_preset():
    f, g = moved_triangles("apart", 0.3, 0.2)
    np.testing.assert_array_equal(f[2], [0.3, 0.2])
    np.testing.assert_array_equal(g, G_PRESETS["apart"])
    with pytest.raises(ValueError, match="preset"):
        moved_triangles("nope", 0, 0)


def test_ngon_demo_renders_every_n():
    demo = DEMOS["polygon from n features"]
    for values in demo.one_at_a_time():
        fig = demo.render(**values)
        assert fig.axes[0].get_title() == f"{values['n']}-gon from {values['n']} edge features"
    errors = ngon_area_errors()
    assert len(errors) == len(NS) and np.all(np.diff(errors) < 0)


def test_ngon_image_area_matches_the_polygon():
    image = render_ngon(8).axes[0].images[0].get_array()
    area = (image > 0.5).mean() * 4  # the grid covers [-1, 1]^2
    assert area == pytest.approx(2 * np.sqrt(2) * 0.8**2, rel=0.05)


def test_trained_demo_renders_every_value():
    demo = DEMOS["trained triangles network"]
    for values in demo.one_at_a_time():
        fig = demo.render(**values)
        title = fig.axes[0].get_title()
        assert title.startswith(f"d_ff={values['d_ff']}, {values['activation']}:")
        assert len(fig.axes[0].lines) == values["d_ff"] + 2  # one per unit, plus f and g


def test_trained_demo_shows_accuracy_in_title():
    title = render_trained(12, "relu").axes[0].get_title()
    assert float(title.split("accuracy ")[1].split("%")[0]) > 90


def test_built_ui_redraws_when_a_control_moves():
    from course_lib.widgets import build

    demo = DEMOS["polygon from n features"]
    box = build(demo)
    slider = box.children[0].children[0]
    image, status = box.children[2], box.children[1]
    before = image.value
    slider.value = 9
    assert image.value != before
    assert image.value == demo.png(n=9)
    assert status.value.startswith("updated in")
