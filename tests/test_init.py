"""course_lib: the version, and seed_everything making every source of randomness repeat."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
import torch

import course_lib
from course_lib import seed_everything


def draws() -> tuple:
    return random.random(), float(np.random.rand()), torch.rand(3).tolist(), torch.randn(2).tolist()


def test_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", course_lib.__version__)


def test_seed_everything_makes_python_numpy_and_torch_repeat():
    seed_everything(123)
    first = draws()
    seed_everything(123)
    assert draws() == first


def test_different_seeds_give_different_draws():
    seed_everything(1)
    first = draws()
    seed_everything(2)
    second = draws()
    assert all(a != b for a, b in zip(first, second, strict=True))


def test_seed_everything_defaults_to_zero():
    seed_everything()
    default = draws()
    seed_everything(0)
    assert draws() == default


def test_seed_everything_accepts_the_largest_numpy_seed():
    seed_everything(2**32 - 1)
    first = draws()
    seed_everything(2**32 - 1)
    assert draws() == first


@pytest.mark.parametrize("seed", [-1, 2**32])
def test_seed_everything_rejects_seeds_out_of_range(seed):
    with pytest.raises(ValueError, match=rf"seed must be an int in \[0, 2\*\*32\), got {seed}"):
        seed_everything(seed)


@pytest.mark.parametrize(
    "seed, shown", [(1.5, "1.5"), ("0", "'0'"), (True, "True"), (None, "None")]
)
def test_seed_everything_rejects_seeds_that_are_not_ints(seed, shown):
    with pytest.raises(TypeError, match=rf"seed must be an int in \[0, 2\*\*32\), got {shown}"):
        seed_everything(seed)
