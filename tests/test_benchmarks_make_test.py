"""The benchmark runs `make test` as CI does, in a fresh clone, and judges it against its budget as
a ratio to a fixed workload timed in the same run."""

from __future__ import annotations

import re
import subprocess

import pytest

from benchmarks import goals
from benchmarks.make_test import (
    FLOOR_SOURCE,
    PARTS,
    make_test_section,
    run_floor,
    run_target,
    suite_goal,
)

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def _repository(folder, test_ok=True):
    """A git repository whose Makefile's test target leaves a mark in the folder it runs in."""
    (folder / "Makefile").write_text(
        "test:\n\t@touch ran-here\n\t@test -e committed\n"
        + ("" if test_ok else "\t@echo broken; exit 3\n")
    )
    (folder / "committed").write_text("x")
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t",
                                                  "commit", "-qm", "x"]):  # fmt: skip
        subprocess.run(["git", *command], cwd=folder, check=True)
    (folder / "uncommitted").write_text("x")


def _parts(seconds: float) -> list[dict]:
    return [{"label": label, "target": t, "median_s": seconds} for label, t in PARTS]


def test_make_test_runs_in_a_fresh_clone_of_the_committed_files(tmp_path):
    _repository(tmp_path)
    assert run_target("test", tmp_path) is None
    assert not (tmp_path / "ran-here").exists()  # it ran in the clone, not in the working copy


def test_a_failing_make_test_is_reported(tmp_path):
    _repository(tmp_path, test_ok=False)
    error = run_target("test", tmp_path)
    assert error is not None and error.startswith("make test exited 2: ")


def test_the_benchmark_times_the_command_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test$", ci, re.M)
    assert [target for _, target in PARTS] == ["test"]


def test_the_budget_is_eight_minutes_at_the_reference_floor_as_a_ratio_to_this_runs():
    assert goals.MAKE_TEST_RATIO * goals.MAKE_TEST_FLOOR_S_AT_REFERENCE == pytest.approx(480.0, rel=0.01)  # fmt: skip
    at_reference = goals.MAKE_TEST_FLOOR_S_AT_REFERENCE
    assert suite_goal(_parts(470.0), at_reference).met is True
    missed = suite_goal(_parts(490.0), at_reference)
    assert missed.met is False and missed.value == pytest.approx(490.0 / at_reference)
    # 490 s on a machine whose floor takes twice as long is a faster course, within the budget
    assert suite_goal(_parts(490.0), 2 * at_reference).met is True


def test_the_budget_is_unjudged_when_not_measured():
    assert suite_goal([]) is None
    assert suite_goal(_parts(490.0), None).met is None  # no floor: shown, not judged


def test_section_gives_the_floor_the_time_and_the_verdict():
    text = "\n".join(make_test_section(_parts(490.0), 4.0))
    assert text.startswith("## `make test` from a fresh clone")
    assert "`make test` | 490.0 s |" in text and "`make_test.FLOOR_SOURCE` × 2 | 4.0 s |" in text
    assert "122 × its floor; goal make test ≤ 114 × floor: **missed**." in text
    assert "not judged (no floor measured)" in "\n".join(make_test_section(_parts(490.0)))
    assert make_test_section([]) == []


def test_the_floor_runs_its_workload_in_fresh_pythons_at_once_and_reports_a_failure(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    source = f"import os, pathlib; pathlib.Path({str(marks)!r}, str(os.getpid())).touch()"
    assert run_floor(source, processes=3) is None
    assert len(list(marks.iterdir())) == 3  # three processes, each its own pid
    error = run_floor("raise SystemExit('no torch here')", processes=2)
    assert error == "the floor's Python failed: no torch here"


def test_the_floor_touches_no_project_code_so_no_change_to_the_course_moves_it():
    compile(FLOOR_SOURCE, "FLOOR_SOURCE", "exec")  # a broken floor fails here, not in make bench
    imported = set(re.findall(r"^import (\w+)", FLOOR_SOURCE, re.M))
    assert imported == {"io", "matplotlib", "torch"}
    assert "course_lib" not in FLOOR_SOURCE and "devtools" not in FLOOR_SOURCE
