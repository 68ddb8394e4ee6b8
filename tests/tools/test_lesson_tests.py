"""`make test LESSON=NN`: one lesson's tests and notebooks, found from what imports its package."""

from __future__ import annotations

import pytest

from devtools.lesson_tests import lesson_package, lesson_tests, selected


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


PLANTED = [  # a lesson 11 whose notebooks end without a glossary, as the full suite names its cases
    "tests/test_notebook_hygiene.py::test_every_lesson_ends_with_a_summary_and_the_glossary"
    "[11_scratch.ipynb]",
    "tests/test_notebook_hygiene.py::test_every_lesson_ends_with_a_summary_and_the_glossary"
    "[zh/11_scratch.ipynb]",
    "tests/test_minutes.py::test_the_lesson_states_the_time_the_rule_gives[l11_scratch]",
]
OTHERS = [
    "tests/test_notebook_hygiene.py::test_every_lesson_ends_with_a_summary_and_the_glossary"
    "[07_mixture_of_experts.ipynb]",
    "tests/test_minutes.py::test_the_lesson_states_the_time_the_rule_gives[l01_feed_forward]",
    "tests/test_claims.py::test_a_claim_that_fails_names_its_values",
]


def test_the_quick_loop_runs_every_case_that_names_its_lesson_and_no_other_lessons(monkeypatch):
    import devtools.lesson_tests as tool

    monkeypatch.setattr(tool, "lesson_package", lambda number: "l11_scratch")
    assert [tool.selected(nodeid, "11", set()) for nodeid in PLANTED] == [True] * 3
    assert [tool.selected(nodeid, "11", set()) for nodeid in OTHERS] == [False] * 3
    own = {"tests/test_claims.py"}  # a module that imports the lesson runs whole
    assert tool.selected(OTHERS[2], "11", own)


def test_the_quick_loop_of_a_real_lesson_keeps_its_cases_of_the_meta_tests():
    own = set(lesson_tests("07"))
    minutes = "tests/test_minutes.py::test_the_lesson_states_the_time_the_rule_gives[{}]"
    assert selected(minutes.format("l07_mixture_of_experts"), "07", own)
    assert not selected(minutes.format("l06_locating_and_editing"), "07", own)
    hygiene = "tests/test_notebook_hygiene.py::test_notebook_has_no_error_output[{}]"
    assert selected(hygiene.format("zh/07_mixture_of_experts.ipynb"), "07", own)
    assert not selected(hygiene.format("zh/17_mixture_of_experts.ipynb"), "07", own)
