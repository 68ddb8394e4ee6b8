"""Lesson 2 demos: every control value computes the data it should, and the live figure draws
that data (one figure, updated in place)."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.experiments.stored_runs import (
    ACTIVATIONS,
    N_POINTS,
    STEPS,
    WIDTHS,
    stored_or_trained,
)
from course_lib.core.experiments.tasks import TASKS, make_task
from course_lib.core.experiments.training import init_weights
from course_lib.core.i18n import set_language
from course_lib.core.model.ffn import (
    GATED_VARIANTS,
    NUMPY_ACTIVATIONS,
    count_gated_parameters,
    equal_budget_gated_d_ff,
)
from course_lib.core.model.linear_regions import count_regions, region_bound
from course_lib.core.plots import COLORS
from course_lib.core.widgets import all_demos
from course_lib.lessons.l02_dimension_expansion.demos import (
    DECISION_RESOLUTION,
    REGIONS_RESOLUTION,
    demos,
    gated_data,
    regions_data,
    width_data,
)
from course_lib.lessons.l02_dimension_expansion.experiments import true_boundary

DEMOS = {demo.name: demo for demo in demos()}


def unit_lines_drawn(ax) -> np.ndarray:
    [lines] = [c for c in ax.collections if c.get_gid() == "unit-lines"]
    return np.asarray(lines.get_segments())


def test_width_demo_has_the_controls_the_browser_suite_looks_for():
    demo = DEMOS["width"]
    assert [c.name for c in demo.controls] == ["d_ff", "activation", "task"]
    assert [c.values for c in demo.controls] == [WIDTHS, ACTIVATIONS, tuple(TASKS)]


def test_width_demo_names_its_tasks_in_the_learners_language():
    """The task dropdown shows Chinese labels in the Chinese edition, one per task in TASKS' order,
    while its values stay the code names the data function takes."""
    [task] = [c for c in DEMOS["width"].controls if c.name == "task"]
    assert task.values == ("triangles", "ring", "xor", "spiral")
    assert task.shown() == ["triangles", "ring", "xor", "spiral"]
    set_language("zh")
    try:
        assert task.shown() == ["三角形任务", "圆环任务", "异或任务", "螺旋任务"]
    finally:
        set_language("en")


def test_lesson_demos_are_discovered():
    assert {"width", "regions", "gated"} <= {demo.name for demo in all_demos()}


def test_width_data_describes_the_trained_network_at_every_value():
    demo = DEMOS["width"]
    for values in demo.one_at_a_time():
        data = width_data(**values)
        d_ff, k = values["d_ff"], make_task(values["task"]).Y.shape[1]
        assert (data.task, data.d_ff, data.activation) == (
            values["task"],
            d_ff,
            values["activation"],
        )
        assert data.probabilities.shape == (DECISION_RESOLUTION, DECISION_RESOLUTION, k)
        assert 0 <= data.probabilities.min() and data.probabilities.max() <= 1
        assert data.unit_segments.shape == (d_ff, 2, 2)  # no unit of a trained layer has w = 0
        assert data.parameters == 2 * d_ff + d_ff + d_ff * k + k
        assert data.losses.shape == (STEPS,) and np.isfinite(data.losses).all()
        assert 0.0 <= data.accuracy <= 1.0
        assert data.truth is true_boundary(values["task"])


def test_width_figure_draws_the_data_of_every_value_in_one_figure():
    demo = DEMOS["width"]
    demo.clear_cache()
    figures = set()
    for values in demo.one_at_a_time():
        data, fig = width_data(**values), demo.figure(**values)
        figures.add(id(fig))
        ax, ax_loss = fig.axes
        np.testing.assert_allclose(unit_lines_drawn(ax), data.unit_segments)
        np.testing.assert_allclose(ax_loss.lines[0].get_ydata(), data.losses)
        assert ax_loss.lines[0].get_color() == COLORS[values["activation"]]
        assert ax.images[0].get_array().shape == (DECISION_RESOLUTION, DECISION_RESOLUTION, 3)
    assert len(figures) == 1


def test_width_data_accuracy_is_that_of_the_network_it_draws():
    data = width_data(d_ff=8, activation="relu", task="triangles")
    task = make_task("triangles", N_POINTS)
    probabilities = stored_or_trained("triangles", 8, "relu").predict(task.X)[0]
    right = ((probabilities > 0.5) == (task.Y.numpy() > 0.5)).all(axis=1).mean()
    assert data.accuracy == pytest.approx(right)
    assert data.accuracy > 0.9  # eight units are enough for the six edges


def test_width_demo_figure_depends_only_on_its_controls():
    demo = DEMOS["width"]
    first = demo.figure(d_ff=3, activation="tanh", task="xor").axes[0].images[0].get_array().copy()
    demo.figure(d_ff=64, activation="relu", task="spiral")
    again = demo.figure(d_ff=3, activation="tanh", task="xor").axes[0].images[0].get_array()
    np.testing.assert_array_equal(again, first)
    assert not np.array_equal(
        demo.figure(d_ff=64, activation="relu", task="spiral").axes[0].images[0].get_array(), first
    )


@pytest.mark.parametrize(
    ("bad", "named"),
    [({"d_ff": 0}, "d_ff"), ({"activation": "rleu"}, "activation"), ({"task": "circle"}, "task")],
)
def test_width_demo_rejects_bad_values_naming_them(bad, named):
    with pytest.raises(ValueError, match=named):
        DEMOS["width"].figure(**bad)


def test_regions_data_counts_within_the_bound_at_every_value():
    for values in DEMOS["regions"].one_at_a_time():
        data = regions_data(**values)
        weights = init_weights(values["seed"], values["d_ff"], 1)
        W1, b1 = weights["W1"].numpy(), weights["b1"].numpy().ravel()
        assert data.count == count_regions(W1, b1)
        assert data.bound == region_bound(values["d_ff"])
        assert data.labels.shape == (REGIONS_RESOLUTION, REGIONS_RESOLUTION)
        assert data.labels.max() + 1 <= data.count <= data.bound  # a grid never sees more
        assert data.unit_segments.shape == (values["d_ff"], 2, 2)


def test_regions_data_changes_with_the_seed():
    first, second = regions_data(d_ff=8, seed=0), regions_data(d_ff=8, seed=1)
    assert not np.allclose(first.unit_segments, second.unit_segments)
    np.testing.assert_array_equal(regions_data(d_ff=8, seed=0).labels, first.labels)


def test_regions_figure_colours_each_region_and_draws_each_line():
    demo = DEMOS["regions"]
    for values in demo.one_at_a_time():
        data, ax = regions_data(**values), demo.figure(**values).axes[0]
        rgb = np.asarray(ax.images[0].get_array())
        assert rgb.shape == (REGIONS_RESOLUTION, REGIONS_RESOLUTION, 3)
        for label in np.unique(data.labels)[:5]:
            assert len(np.unique(rgb[data.labels == label], axis=0)) == 1
        np.testing.assert_allclose(unit_lines_drawn(ax), data.unit_segments)


@pytest.mark.parametrize(("bad", "named"), [({"d_ff": 0}, "d_ff"), ({"seed": -1}, "seed")])
def test_regions_demo_rejects_bad_values_naming_them(bad, named):
    with pytest.raises(ValueError, match=named):
        DEMOS["regions"].figure(**bad)


def test_gated_data_gives_the_budgets_and_the_variants_gate_at_every_value():
    for values in DEMOS["gated"].one_at_a_time():
        data = gated_data(**values)
        d_model, d_ff = values["d_model"], values["d_ff"]
        assert data.activation == GATED_VARIANTS[values["variant"]]
        assert (data.plain, data.gated_same) == (2 * d_model * d_ff, 3 * d_model * d_ff)
        assert data.d_ff_equal == equal_budget_gated_d_ff(d_ff)
        assert data.gated_equal == count_gated_parameters(d_model, data.d_ff_equal)
        np.testing.assert_allclose(data.gate, NUMPY_ACTIVATIONS[data.activation](data.z))


def test_gated_figure_draws_the_budgets_and_gate_of_every_value():
    demo = DEMOS["gated"]
    for values in demo.one_at_a_time():
        data = gated_data(**values)
        ax, ax_gate = demo.figure(**values).axes
        assert [bar.get_width() for bar in ax.patches] == [
            data.plain,
            data.gated_same,
            data.gated_equal,
        ]
        np.testing.assert_allclose(ax_gate.lines[-1].get_ydata(), data.gate)


def test_moving_the_variant_changes_the_drawn_gate_but_not_the_budgets():
    demo = DEMOS["gated"]
    gates, budgets = {}, set()
    for variant in GATED_VARIANTS:
        ax, ax_gate = demo.figure(variant=variant).axes
        gates[variant] = ax_gate.lines[-1].get_ydata().copy()
        budgets.add(tuple(bar.get_width() for bar in ax.patches))
        assert ax_gate.lines[-1].get_color() == COLORS[GATED_VARIANTS[variant]]
    assert len(budgets) == 1  # every variant has the same parameter counts
    names = list(gates)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            assert not np.allclose(gates[first], gates[second]), (first, second)


def test_equal_budget_gated_ffn_stays_within_a_row_of_the_plain_budget():
    for d_ff in DEMOS["gated"].controls[1].values:
        data = gated_data(d_model=512, d_ff=d_ff, variant="swiglu")
        assert abs(data.gated_equal - data.plain) <= 3 * 512


@pytest.mark.parametrize(
    ("bad", "named"), [({"d_model": 0}, "d_model"), ({"variant": "glu"}, "variant")]
)
def test_gated_demo_rejects_bad_values_naming_them(bad, named):
    with pytest.raises(ValueError, match=named):
        DEMOS["gated"].figure(**bad)


def test_demo_png_is_cached_after_the_first_visit():
    demo = DEMOS["regions"]
    first = demo.png(d_ff=4)
    assert demo.is_cached(d_ff=4) and demo.png(d_ff=4) is first
