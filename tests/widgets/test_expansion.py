"""Lesson 2 demos: every control value renders the figure it should."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.model.ffn import count_gated_parameters, equal_budget_gated_d_ff
from course_lib.widgets import all_demos
from course_lib.widgets.expansion import demos

DEMOS = {demo.name: demo for demo in demos()}


def unit_segments(ax) -> int:
    [lines] = [c for c in ax.collections if c.get_gid() == "unit-lines"]
    return len(lines.get_segments())


def test_width_demo_has_the_controls_the_browser_suite_looks_for():
    names = [c.name for c in DEMOS["width"].controls]
    assert names == ["d_ff", "activation", "task"]
    assert DEMOS["width"].trains and DEMOS["width"].busy_text == "training…"


def test_lesson_demos_are_discovered():
    assert {"width", "regions", "gated"} <= {demo.name for demo in all_demos()}


def test_width_demo_renders_every_value_with_matching_title():
    demo = DEMOS["width"]
    for values in demo.one_at_a_time():
        fig = demo.render(**values)
        assert fig._suptitle.get_text().startswith(
            f"d_ff={values['d_ff']}, {values['activation']}:"
        )
        assert fig.axes[0].get_title().startswith(values["task"])
        assert unit_segments(fig.axes[0]) == values["d_ff"]  # no unit of a trained layer has w = 0
        assert fig.axes[0].get_title() == f"{values['task']}: {values['d_ff']} unit lines"


def test_regions_demo_renders_every_value_with_a_count_within_the_bound():
    demo = DEMOS["regions"]
    for values in demo.one_at_a_time():
        title = demo.render(**values).axes[0].get_title()
        count, bound = int(title.split(": ")[1].split()[0]), int(title.split("bound ")[1][:-1])
        assert title.startswith(f"d_ff={values['d_ff']}:") and 1 <= count <= bound


def test_gated_demo_renders_the_equal_budget_counts():
    demo = DEMOS["gated"]
    for values in demo.one_at_a_time():
        fig = demo.render(**values)
        d_model, d_ff = values["d_model"], values["d_ff"]
        widths = [patch.get_width() for patch in fig.axes[0].patches]
        assert widths == [
            2 * d_model * d_ff,
            3 * d_model * d_ff,
            count_gated_parameters(d_model, equal_budget_gated_d_ff(d_ff)),
        ]
        assert fig.axes[0].get_title() == f"{values['variant']}, d_model = {d_model}"


def test_equal_budget_gated_ffn_stays_within_a_row_of_the_plain_budget():
    for d_ff in DEMOS["gated"].controls[1].values:
        gated = count_gated_parameters(512, equal_budget_gated_d_ff(d_ff))
        assert abs(gated - 2 * 512 * d_ff) <= 3 * 512


def test_demo_png_is_cached_after_the_first_visit():
    demo = DEMOS["regions"]
    first = demo.png(d_ff=4)
    assert demo.is_cached(d_ff=4) and demo.png(d_ff=4) is first


@pytest.mark.parametrize("bad", [{"d_ff": 0}, {"activation": "rleu"}])
def test_width_demo_rejects_bad_values(bad):
    with pytest.raises(ValueError):
        DEMOS["width"].render(**{**DEMOS["width"].defaults(), **bad})


def test_width_demo_trained_weights_draw_their_lines():
    fig = DEMOS["width"].render(d_ff=3, activation="relu", task="xor")
    assert unit_segments(fig.axes[0]) == 3
    assert np.isfinite(fig.axes[1].lines[0].get_ydata()).all()
