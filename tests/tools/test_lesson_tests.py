"""`make test LESSON=NN`: one lesson's tests and notebooks, found from what imports its package."""

from __future__ import annotations

import pytest

from devtools.lesson_tests import lesson_package, lesson_tests


def test_a_lessons_loop_holds_the_tests_that_import_it_and_its_two_notebooks():
    found = lesson_tests("07")
    assert (
        "tests/lessons/l07_mixture_of_experts/test_experiments.py" in found
        and "tests/lessons/l07_mixture_of_experts/test_demos.py" in found
    )
    assert found[-2:] == [
        "notebooks/07_mixture_of_experts.ipynb",
        "notebooks/zh/07_mixture_of_experts.ipynb",
    ]
    assert "tests/lessons/l05_ffn_memory/test_memory_analysis.py" not in found  # lesson 5's
    assert "tests/lessons/l05_ffn_memory/test_memory_analysis.py" in lesson_tests("5")
    assert not [path for path in found if "browser" in path]


@pytest.mark.parametrize(("value", "match"), [("ab", "lesson's number"), ("99", "one lesson")])
def test_a_lesson_number_that_names_no_lesson_is_refused(value, match):
    with pytest.raises(ValueError, match=match):
        lesson_package(value)
