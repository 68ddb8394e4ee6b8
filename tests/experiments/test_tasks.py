"""The 2-D tasks: the same seed gives the same points, labelled by each task's rule."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.experiments import DTYPE
from course_lib.core.experiments.tasks import TASKS, label_grid, make_task
from course_lib.core.experiments.training import train_mlp
from course_lib.core.model.geometry import TRIANGLE_F, grid, inside


def test_make_task_is_fixed_by_its_seed_and_float64():
    a, b = make_task("xor", 50, seed=3), make_task("xor", 50, seed=4)
    assert a.X.dtype == DTYPE and a.Y.dtype == DTYPE
    assert a.X.shape == (50, 2) and not np.allclose(a.X.numpy(), b.X.numpy())
    np.testing.assert_array_equal(make_task.__wrapped__("xor", 50, 3).X.numpy(), a.X.numpy())


@pytest.mark.parametrize(("task", "k"), [("triangles", 2), ("ring", 1), ("xor", 1), ("spiral", 1)])
def test_every_task_labels_each_point_with_k_zeros_or_ones(task, k):
    data = make_task(task, 300)
    assert data.Y.shape == (300, k)
    assert set(np.unique(data.Y.numpy())) <= {0.0, 1.0}


def test_xor_labels_the_first_and_third_quadrants():
    points = np.array([[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]])
    assert TASKS["xor"](points)[:, 0].tolist() == [True, False, True, False]


def test_label_grid_is_the_task_on_the_course_grid():
    labels = label_grid("triangles", 30)
    assert labels.shape == (30, 30, 2)
    np.testing.assert_array_equal(labels[..., 0].ravel(), inside(TRIANGLE_F, grid(30)))


def test_an_unknown_task_is_named_where_a_learner_gives_it():
    with pytest.raises(ValueError, match="task must be one of"):
        train_mlp("circle", 4)
