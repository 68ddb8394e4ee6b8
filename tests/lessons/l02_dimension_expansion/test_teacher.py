"""FFN students of growing d_ff/d_model fitting a fixed teacher network."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from course_lib.core.model.ffn import count_parameters, flops_per_token
from course_lib.lessons.l02_dimension_expansion.experiments.teacher import (
    ratio_sweep,
    stored_ratio_sweep,
    teacher,
)
from devtools.spread.record import check_fresh_run


def test_teacher_is_position_wise_and_fixed_by_its_seed():
    f, g = teacher(8, 32), teacher(8, 32)
    x = torch.randn(5, 8, dtype=torch.float64)  # experiments run in float64
    torch.testing.assert_close(f(x), g(x))
    torch.testing.assert_close(f(x)[2], f(x[2:3])[0])


def test_wider_students_miss_less_of_the_teacher():
    sweep = ratio_sweep(d_model=8, ratios=(0.25, 4), seeds=(0,), steps=150, batch=64, lr=1e-2)
    assert sweep.d_ff == (2, 32)
    assert sweep.unexplained[1, 0] < sweep.unexplained[0, 0]
    assert 0 < sweep.unexplained.min() and sweep.unexplained.max() < 1.5


def test_ratio_sweep_reports_parameters_and_flops_of_each_width():
    sweep = ratio_sweep(d_model=8, ratios=(0.5, 2), seeds=(0, 1), steps=2, batch=8)
    assert sweep.parameters == (count_parameters(8, 4), count_parameters(8, 16))
    assert sweep.flops == (flops_per_token(8, 4), flops_per_token(8, 16))
    assert sweep.unexplained.shape == (2, 2)


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        (dict(d_model=0), "d_model must be a positive int"),
        (dict(ratios=(0,)), "ratios must be positive numbers"),
        (dict(ratios=()), "ratios must be positive numbers"),
        (dict(seeds=()), "seeds must be non-empty"),
        (dict(steps=0), "steps must be a positive int"),
    ],
)
def test_bad_arguments_raise_errors_naming_them(kwargs, text):
    with pytest.raises(ValueError, match=text):
        ratio_sweep(**kwargs)


def test_the_stored_sweep_is_what_training_it_now_gives():
    """The two narrowest students of the stored sweep trained again now: what they miss within
    10 × the spread make spread measured (1.1e-16, docs/spread.md)."""
    fresh, _ = check_fresh_run("ratio sweep: the two narrowest students")
    assert fresh["unexplained"].shape == (2, 2)


def test_the_stored_sweep_is_the_lessons_and_counts_each_student_as_a_live_one_would():
    sweep = stored_ratio_sweep()
    assert (sweep.d_model, sweep.steps, sweep.d_ff) == (64, 200, (16, 32, 64, 128, 256, 512))
    assert sweep.parameters == tuple(count_parameters(64, d) for d in sweep.d_ff)
    assert sweep.flops == tuple(flops_per_token(64, d) for d in sweep.d_ff)
    with pytest.raises(
        FileNotFoundError,
        match="python -m course_lib.lessons.l02_dimension_expansion.experiments.teacher",
    ):
        stored_ratio_sweep(Path("none.npz"))
