"""Lesson 2 figures draw the data they are given: lines per unit, curves per activation, counts,
and the demos' views update one figure in place."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.plots import COLORS, PALETTE, tint
from course_lib.lessons.l02_dimension_expansion import figures as plots
from course_lib.lessons.l02_dimension_expansion.experiments.stacking import DepthResult
from course_lib.lessons.l02_dimension_expansion.experiments.sweeps import WidthSweep
from course_lib.lessons.l02_dimension_expansion.experiments.teacher import RatioSweep


def segments(*lines) -> np.ndarray:
    return np.array(lines, dtype=float).reshape(-1, 2, 2)


def decision_data(res: int = 4, k: int = 2, lines: int = 3, **changes) -> plots.DecisionData:
    values = {
        "task": "triangles",
        "d_ff": lines,
        "activation": "relu",
        "probabilities": np.zeros((res, res, k)),
        "truth": (np.array([[-1.0, 0.0], [1.0, 0.0]]),),
        "unit_segments": segments(*[[[-1, i / 10], [1, i / 10]] for i in range(lines)]),
        "losses": np.linspace(0.7, 0.1, 5),
        "accuracy": 0.9,
        "parameters": 3 * lines + lines * k + k,
    }
    return plots.DecisionData(**{**values, **changes})


def collection(ax, gid: str):
    [found] = [c for c in ax.collections if c.get_gid() == gid]
    return found


def test_decision_view_draws_the_units_truth_and_loss_it_is_given():
    data = decision_data()
    fig = plots.DecisionView().update(data)
    ax, ax_loss = fig.axes
    np.testing.assert_allclose(collection(ax, "unit-lines").get_segments(), data.unit_segments)
    np.testing.assert_allclose(collection(ax, "truth").get_segments()[0], data.truth[0])
    np.testing.assert_allclose(ax_loss.lines[0].get_ydata(), data.losses)
    assert ax_loss.lines[0].get_color() == COLORS["relu"]


def test_decision_view_tints_each_label_towards_its_palette_colour():
    probabilities = np.zeros((2, 2, 2))
    probabilities[0, 1, 0] = probabilities[1, 0, 1] = 1.0
    probabilities[1, 1] = 1.0  # both labels
    ax = plots.DecisionView().update(decision_data(probabilities=probabilities)).axes[0]
    rgb = np.asarray(ax.images[0].get_array())
    first, second = np.array(tint(PALETTE[0], 0.6)), np.array(tint(PALETTE[1], 0.6))
    np.testing.assert_allclose(rgb[0, 0], [1, 1, 1])  # no label: white
    np.testing.assert_allclose(rgb[0, 1], first)
    np.testing.assert_allclose(rgb[1, 0], second)
    np.testing.assert_allclose(rgb[1, 1], first * second)  # both: the inks multiply


def test_decision_view_redraws_one_figure_in_place():
    view = plots.DecisionView()
    first = view.update(decision_data(res=4, lines=3))
    axes = list(first.axes)
    ring = decision_data(
        res=6, k=1, lines=7, task="ring", activation="tanh", losses=np.linspace(2, 1, 9)
    )
    second = view.update(ring)
    assert first is second and second.axes == axes
    assert len(view.units.get_segments()) == 7
    np.testing.assert_allclose(view.loss_line.get_ydata(), ring.losses)
    assert view.loss_line.get_color() == COLORS["tanh"]
    assert view.image.get_array().shape == (6, 6, 3)
    assert view.ax_loss.get_ylim()[1] >= 2.0


def test_decision_view_rejects_data_it_cannot_draw():
    view = plots.DecisionView()
    with pytest.raises(TypeError, match="DecisionData"):
        view.update({"d_ff": 3})
    with pytest.raises(ValueError, match="unit_segments"):
        view.update(decision_data(unit_segments=np.zeros((3, 2))))
    with pytest.raises(ValueError, match="probabilities"):
        view.update(decision_data(probabilities=np.zeros((4, 4))))


def regions_data(labels, lines: int = 2) -> plots.RegionsData:
    return plots.RegionsData(
        d_ff=lines,
        labels=np.asarray(labels),
        count=int(np.max(labels)) + 1,
        bound=1 + lines + lines * (lines - 1) // 2,
        unit_segments=segments(*[[[-1, i / 10], [1, i / 10]] for i in range(lines)]),
    )


def test_regions_view_gives_each_region_one_colour_and_draws_each_line():
    labels = np.array([[0, 1], [2, 3]]).repeat(5, axis=0).repeat(5, axis=1)
    fig = plots.RegionsView().update(regions_data(labels))
    rgb = np.asarray(fig.axes[0].images[0].get_array())
    colours = {label: np.unique(rgb[labels == label], axis=0) for label in range(4)}
    assert all(len(c) == 1 for c in colours.values())  # one colour per region
    assert len({tuple(c[0]) for c in colours.values()}) == 4  # and different regions differ
    assert len(collection(fig.axes[0], "unit-lines").get_segments()) == 2


def test_regions_view_redraws_one_figure_in_place():
    view = plots.RegionsView()
    first = view.update(regions_data(np.zeros((3, 3), dtype=int), lines=1))
    second = view.update(regions_data(np.arange(16).reshape(4, 4), lines=5))
    assert first is second and len(second.axes) == 1
    assert view.image.get_array().shape == (4, 4, 3)
    assert len(view.units.get_segments()) == 5


def test_regions_view_rejects_labels_that_are_not_ints():
    with pytest.raises(ValueError, match="labels"):
        plots.RegionsView().update(regions_data(np.zeros((3, 3))))


def gated_data(variant: str = "swiglu", activation: str = "silu", **changes):
    z = np.linspace(-3, 3, 7)
    values = {
        "d_model": 8,
        "d_ff": 12,
        "d_ff_equal": 8,
        "variant": variant,
        "activation": activation,
        "plain": 192,
        "gated_same": 288,
        "gated_equal": 192,
        "z": z,
        "gate": np.maximum(z, 0) if activation == "relu" else np.tanh(z),
    }
    return plots.GatedBudgetData(**{**values, **changes})


def test_gated_budget_view_draws_each_count_and_the_variants_gate():
    data = gated_data()
    fig = plots.GatedBudgetView().update(data)
    ax, ax_gate = fig.axes
    assert [patch.get_width() for patch in ax.patches] == [192, 288, 192]
    np.testing.assert_allclose(ax_gate.lines[-1].get_xdata(), data.z)
    np.testing.assert_allclose(ax_gate.lines[-1].get_ydata(), data.gate)
    assert ax_gate.lines[-1].get_color() == COLORS["silu"]


def test_gated_budget_view_shows_a_new_variant_in_the_same_figure():
    view = plots.GatedBudgetView()
    first = view.update(gated_data("swiglu", "silu"))
    before = view.gate_line.get_ydata().copy()
    second = view.update(gated_data("reglu", "relu", plain=10, gated_same=15, gated_equal=12))
    assert first is second and len(second.axes) == 2
    assert not np.allclose(view.gate_line.get_ydata(), before)
    assert view.gate_line.get_color() == COLORS["relu"]
    assert [bar.get_width() for bar in view.bars] == [10, 15, 12]


def test_gated_budget_view_rejects_a_gate_of_another_length():
    with pytest.raises(ValueError, match="gate"):
        plots.GatedBudgetView().update(gated_data(gate=np.zeros(3)))


def _sweep():
    acc = np.array([[[0.5, 0.6], [0.9, 1.0]], [[0.5, 0.5], [0.5, 0.5]]])
    return WidthSweep("xor", (1, 4), ("relu", "identity"), (0, 1), acc, acc)


def test_capacity_figure_plots_the_median_and_band_of_every_activation():
    fig = plots.capacity_figure([_sweep(), _sweep()])
    ax = fig.axes[0]
    relu = next(line for line in ax.lines if line.get_label() == "relu")
    np.testing.assert_allclose(relu.get_ydata(), [0.55, 0.95])
    assert len(ax.collections) == 2  # one min-max band per activation


def test_regions_count_figure_shows_bound_exact_and_sampled():
    fig = plots.regions_count_figure([1, 2, 3], [2, 4, 6], [2, 4, 5], [2, 4, 7])
    lines = fig.axes[0].lines
    assert [list(line.get_ydata()) for line in lines] == [[2, 4, 7], [2, 4, 6], [2, 4, 5]]


def test_regions_count_figure_rejects_lists_of_other_lengths():
    with pytest.raises(ValueError, match="bounds"):
        plots.regions_count_figure([1, 2, 3], [2, 4, 6], [2, 4, 5], [2, 4])


def test_reconstruction_figure_plots_both_curves():
    curve = {
        "d_ff": np.array([1, 2]),
        "identity": np.array([0.7, 0.0]),
        "random": np.array([0.8, 0.3]),
    }
    fig = plots.reconstruction_figure(curve)
    assert [list(line.get_ydata()) for line in fig.axes[0].lines] == [[0.7, 0.0], [0.8, 0.3]]


def test_ratio_figure_plots_mean_error_and_costs():
    sweep = RatioSweep(
        8, 200, (1, 2), (8, 16), (100, 200), (256, 512), np.array([[0.4, 0.6], [0.2, 0.2]])
    )
    fig = plots.ratio_figure(sweep)
    np.testing.assert_allclose(fig.axes[0].lines[0].get_ydata(), [0.5, 0.2])
    np.testing.assert_allclose(fig.axes[1].lines[0].get_ydata(), [0.1, 0.2])


def test_depth_figure_has_one_bar_per_depth_at_the_mean():
    result = DepthResult("spiral", (1, 2), (0, 50), (3, 201), np.array([[0.5, 0.5], [0.8, 0.9]]))
    fig = plots.depth_figure(result)
    heights = [patch.get_height() for patch in fig.axes[0].patches]
    np.testing.assert_allclose(heights, [0.5, 0.85])


def test_activation_gallery_draws_each_curve_and_the_gelu_gap():
    z = np.linspace(-1, 1, 5)
    curves = {"relu": np.maximum(z, 0), "gelu": z / 2, "gelu_tanh": z / 2 + 0.01}
    fig = plots.activation_gallery_figure(z, curves)
    drawn = {line.get_label(): line.get_ydata() for line in fig.axes[0].lines}
    assert list(drawn) == ["relu", "gelu", "gelu_tanh"]
    np.testing.assert_allclose(drawn["relu"], curves["relu"])
    np.testing.assert_allclose(fig.axes[1].lines[0].get_ydata(), np.full(5, 0.01))


def test_activation_gallery_names_a_missing_or_misshapen_curve():
    z = np.linspace(-1, 1, 5)
    with pytest.raises(ValueError, match="gelu_tanh"):
        plots.activation_gallery_figure(z, {"gelu": z})
    with pytest.raises(ValueError, match="relu"):
        plots.activation_gallery_figure(z, {"gelu": z, "gelu_tanh": z, "relu": z[:3]})


def test_task_name_keeps_the_code_name_in_english_and_aligns_chinese_by_columns():
    import warnings

    from course_lib.core.i18n import MissingTranslation, set_language

    assert plots.task_name("triangles") == "triangles"
    assert plots.task_name("xor", 10) == "       xor"
    set_language("zh")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", MissingTranslation)
            names = {
                task: plots.task_name(task, 10) for task in ("triangles", "ring", "xor", "spiral")
            }
    finally:
        set_language("en")
    assert names == {
        "triangles": "三角形任务",
        "ring": "  圆环任务",
        "xor": "  异或任务",
        "spiral": "  螺旋任务",
    }
    with pytest.raises(ValueError, match="task must be one of .*'circle'"):
        plots.task_name("circle")
