"""The benchmark runs `make test` as CI does, in a fresh clone, and judges it against its budget."""

from __future__ import annotations

import re
import subprocess

from benchmarks import goals
from benchmarks.make_test import PARTS, make_test_section, run_target, suite_goal

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


def test_the_budget_is_eight_minutes_from_a_fresh_clone():
    assert suite_goal(_parts(470.0)).met is True
    missed = suite_goal(_parts(490.0))
    assert missed.met is False and missed.value == 490.0
    assert goals.MAKE_TEST_SECONDS == 480.0


def test_the_budget_is_unjudged_when_not_measured():
    assert suite_goal([]) is None


def test_section_gives_the_time_and_the_verdict():
    text = "\n".join(make_test_section(_parts(490.0)))
    assert text.startswith("## `make test` from a fresh clone")
    assert "`make test` | 490.0 s |" in text
    assert "Budget ≤ 8 min from a fresh clone, install included: **missed**." in text
    assert make_test_section([]) == []
