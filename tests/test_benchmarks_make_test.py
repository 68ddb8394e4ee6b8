"""The benchmark runs make test's parts through make itself and judges their total."""

from __future__ import annotations

import re

from benchmarks import goals
from benchmarks.make_test import PARTS, make_test_section, run_target, suite_goal

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def _makefile(folder, suite_ok=True):
    (folder / "Makefile").write_text(
        "suite:\n\t@touch suite-ran\n"
        + ("" if suite_ok else "\t@echo broken; exit 3\n")
        + "portability:\n\t@touch portability-ran\n"
    )


def _parts(lint: float, suite: float) -> list[dict]:
    seconds = {"lint": lint, "suite": suite}
    return [{"label": label, "target": t, "median_s": seconds[t]} for label, t in PARTS]


def test_run_target_runs_make_and_reports_a_failure(tmp_path):
    _makefile(tmp_path, suite_ok=False)
    error = run_target("suite", tmp_path)
    assert (tmp_path / "suite-ran").exists()
    assert error is not None and error.startswith("make suite exited 2: ")
    assert run_target("portability", tmp_path) is None
    assert (tmp_path / "portability-ran").exists()


def test_the_parts_are_exactly_what_make_test_runs():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test:.*\n\t\$\(MAKE\) --no-print-directory (.+)$", makefile, re.M)
    assert recipe is not None, "make test no longer runs its parts through $(MAKE)"
    assert [target for _, target in PARTS] == recipe.group(1).split()


def test_the_total_is_judged_against_three_minutes():
    assert suite_goal(_parts(5.0, 175.0)).met is True
    missed = suite_goal(_parts(5.0, 185.0))
    assert missed.met is False and missed.value == 190.0
    assert goals.MAKE_TEST_SECONDS == 180.0


def test_a_part_not_measured_leaves_the_total_unjudged():
    assert suite_goal(_parts(5.0, 150.0)[:1]) is None


def test_section_lists_each_part_and_the_total_with_its_verdict():
    text = "\n".join(make_test_section(_parts(5.0, 185.0)))
    assert text.startswith("## `make test`'s parts")
    assert "`make suite` | 185.0 s |" in text
    assert "| **all of `make test`'s tests** | `make test` | 190.0 s |" in text
    assert "Goal ≤ 3 min for the tests (install excluded): **missed**." in text


def test_section_is_empty_when_the_parts_were_not_measured():
    assert make_test_section([]) == []
