"""Stacks of 1 to 4 linear layers at an equal parameter budget."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from course_lib.lessons.l02_dimension_expansion.experiments.stacking import (
    compare_depths,
    stack_parameters,
    stored_depths,
    width_for_budget,
)
from devtools.spread.record import check_fresh_run


def test_stack_parameters_count_weights_and_biases_of_every_layer():
    assert stack_parameters(1, 5) == 2 * 1 + 1  # 2 -> 1, the width is unused
    assert stack_parameters(2, 10) == (2 * 10 + 10) + (10 * 1 + 1)
    assert stack_parameters(3, 4, d_out=2) == (2 * 4 + 4) + (4 * 4 + 4) + (4 * 2 + 2)


def test_width_for_budget_comes_closest_to_the_budget():
    for n_layers in (2, 3, 4):
        h = width_for_budget(n_layers, 200)
        gap = abs(stack_parameters(n_layers, h) - 200)
        assert gap <= abs(stack_parameters(n_layers, h + 1) - 200)
        assert gap <= abs(stack_parameters(n_layers, max(1, h - 1)) - 200)
    assert width_for_budget(1, 200) == 0


def test_compare_depths_reports_each_depth_at_about_the_budget():
    result = compare_depths(
        "xor", depths=(1, 2, 3), budget=60, seeds=(0, 1), steps=40, n_points=200
    )
    assert result.widths[0] == 0 and result.parameters[0] == 3
    assert all(abs(p - 60) < 15 for p in result.parameters[1:])
    assert result.accuracy.shape == (3, 2)


def test_one_linear_layer_is_no_better_than_a_straight_line_on_xor():
    result = compare_depths("xor", depths=(1, 2), budget=60, seeds=(0,), steps=150, n_points=300)
    assert result.accuracy[0, 0] < 0.7 < result.accuracy[1, 0]


@pytest.mark.parametrize(
    ("call", "text"),
    [
        (lambda: compare_depths("xor", budget=0), "budget must be a positive int"),
        (lambda: compare_depths("xor", depths=(2, 0)), "depth must be a positive int"),
        (lambda: compare_depths("xor", depths=()), "depths and seeds must be non-empty"),
        (lambda: compare_depths("xor", activation="rleu"), "activation must be one of"),
        (lambda: compare_depths("moons"), "task must be one of"),
    ],
)
def test_bad_arguments_raise_errors_naming_them(call, text):
    with pytest.raises(ValueError, match=text):
        call()


def test_depth_result_accuracies_are_fractions():
    result = compare_depths("ring", depths=(2,), budget=40, seeds=(0,), steps=10, n_points=100)
    assert np.all((result.accuracy >= 0) & (result.accuracy <= 1))


def test_the_stored_comparison_is_what_training_it_now_gives():
    """The stored comparison's stacks of 1 and 2 layers trained again now: every seed's accuracy
    exactly: make spread measured it and it moved under no variant (docs/spread.md)."""
    fresh, _ = check_fresh_run("depth comparison: 1 and 2 layers")
    assert fresh["accuracy"].shape == (2, 3)


def test_the_stored_comparison_is_the_lessons_at_its_budget():
    result = stored_depths()
    assert (result.task, result.depths, result.widths) == ("spiral", (1, 2, 3, 4), (0, 50, 12, 9))
    assert result.parameters == (
        3,
        *(stack_parameters(n, w) for n, w in [(2, 50), (3, 12), (4, 9)]),
    )
    with pytest.raises(
        FileNotFoundError,
        match="python -m course_lib.lessons.l02_dimension_expansion.experiments.stacking",
    ):
        stored_depths(Path("none.npz"))
