"""`make test LESSON=NN`: one lesson's tests and notebooks, found from what imports its package."""

from __future__ import annotations

import pytest

from devtools.lesson_tests import lesson_package, lesson_tests, other_lessons_tests, selected


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
# what a dry run of a new lesson 11 failed in the full suite with no case naming lesson 11: tests
# that read every lesson at once, and the index's cases
EVERY_LESSON = [
    "tests/test_questions.py::test_every_question_is_asked_once_in_the_course_and_in_both_editions",
    "tests/test_lessons.py::test_the_tables_of_lessons_are_the_records",
    "tests/test_notebook_hygiene.py::test_the_index_gives_each_lesson_the_time[00_index.ipynb]",
    "tests/test_notebook_hygiene.py::test_the_index_gives_each_lesson_the_time[zh/00_index.ipynb]",
    "tests/test_project_files.py::test_readme_lists_every_lesson_of_both_editions",
    "tests/test_spread.py::test_every_lesson_was_measured",
    "tests/tools/test_site.py::test_glossary_gathers_every_lessons_table_under_a_link_to_the_lesson",
    "tests/test_claims.py::test_a_claim_that_fails_names_its_values",
]
OTHERS = [
    "tests/test_notebook_hygiene.py::test_every_lesson_ends_with_a_summary_and_the_glossary"
    "[07_mixture_of_experts.ipynb]",
    "tests/test_minutes.py::test_the_lesson_states_the_time_the_rule_gives[l01_feed_forward]",
    "tests/lessons/l05_ffn_memory/test_memory_analysis.py::test_anything",
]


def test_the_quick_loop_runs_what_the_full_suite_would_fail_for_its_lesson(monkeypatch):
    import devtools.lesson_tests as tool

    monkeypatch.setattr(tool, "lesson_package", lambda number: "l11_scratch")
    theirs = {"tests/lessons/l05_ffn_memory/test_memory_analysis.py"}
    assert [tool.selected(nodeid, "11", set(), theirs) for nodeid in PLANTED] == [True] * 3
    assert [tool.selected(nodeid, "11", set(), theirs) for nodeid in EVERY_LESSON] == [True] * 8
    assert [tool.selected(nodeid, "11", set(), theirs) for nodeid in OTHERS] == [False] * 3
    own = {"tests/test_minutes.py"}  # a module that imports the lesson runs whole
    assert tool.selected(OTHERS[1], "11", own, theirs)


def test_other_lessons_tests_are_theirs_and_not_this_ones():
    theirs = other_lessons_tests("07")
    assert "tests/lessons/l05_ffn_memory/test_memory_analysis.py" in theirs
    assert not theirs & set(lesson_tests("07"))
    assert "tests/test_claims.py" not in theirs  # a course-wide test belongs to every lesson


def test_the_quick_loop_of_a_real_lesson_keeps_its_cases_of_the_meta_tests():
    own = set(lesson_tests("07"))
    minutes = "tests/test_minutes.py::test_the_lesson_states_the_time_the_rule_gives[{}]"
    assert selected(minutes.format("l07_mixture_of_experts"), "07", own)
    assert not selected(minutes.format("l06_locating_and_editing"), "07", own)
    hygiene = "tests/test_notebook_hygiene.py::test_notebook_has_no_error_output[{}]"
    assert selected(hygiene.format("zh/07_mixture_of_experts.ipynb"), "07", own)
    assert not selected(hygiene.format("zh/17_mixture_of_experts.ipynb"), "07", own)


def test_a_course_wide_test_stays_in_a_new_lessons_loop_beside_one_that_takes_a_lesson_as_example(
    monkeypatch,
):
    """The second dry run of a lesson 11: the quick loop dropped every test of a course-wide module
    that imports one lesson somewhere (tests/test_lessons.py, tests/test_exercises.py), so two of
    the full suite's 19 failures never ran. A test is another lesson's by its own code."""
    import devtools.lesson_tests as tool

    monkeypatch.setattr(tool, "lesson_package", lambda number: "l11_scratch")
    theirs = tool.other_lessons_tests("11")
    missed = [
        "tests/test_lessons.py::test_the_tables_of_lessons_are_the_records",
        "tests/test_exercises.py::test_most_exercises_make_the_learner_predict_build_or_debug",
    ]
    assert [tool.selected(nodeid, "11", set(), theirs) for nodeid in missed] == [True, True]
    by_example = "tests/test_lessons.py::test_a_lesson_loads_its_parts_when_asked_and_names_them_when_it_has_none"  # fmt: skip
    fixture_tied = "tests/experiments/test_edit_methods.py::test_a_scaled_update_is_that_fraction_of_the_update"  # fmt: skip
    assert not tool.selected(by_example, "11", set(), theirs)
    assert not tool.selected(fixture_tied, "11", set(), theirs)  # through its fixture `two`


PLANTED_MODULE = """
import pytest
from course_lib.lessons.l06_locating_and_editing.experiments import editing
# course_lib.lessons.l07_mixture_of_experts: a comment ties nothing


@pytest.fixture
def model():
    return editing.paraphrased_model()


def test_through_a_fixture(model):
    assert model


def test_through_an_imported_name():
    assert editing


def test_in_its_own_code():
    from course_lib.lessons import l05_ffn_memory

    assert l05_ffn_memory


def test_of_every_lesson():
    assert True


class TestGroup:
    def test_in_a_class(self):
        assert editing
"""


def test_a_test_is_tied_to_the_lessons_its_code_its_imports_and_its_fixtures_name(tmp_path):
    from devtools.lesson_tests import _tests_tied

    path = tmp_path / "test_planted.py"
    path.write_text(PLANTED_MODULE, encoding="utf-8")
    lessons = ["l05_ffn_memory", "l06_locating_and_editing", "l07_mixture_of_experts"]
    assert _tests_tied(path, lessons) == {
        "test_through_a_fixture": {"l06_locating_and_editing"},
        "test_through_an_imported_name": {"l06_locating_and_editing"},
        "test_in_its_own_code": {"l05_ffn_memory"},
        "test_of_every_lesson": set(),
        "TestGroup::test_in_a_class": {"l06_locating_and_editing"},
    }
