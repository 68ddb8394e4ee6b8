"""The benchmark runs make test's two nbval passes through make itself and reports the cost."""

from __future__ import annotations

from benchmarks.nbval_passes import PASSES, nbval_pass_section, run_target


def _makefile(folder, nbval_ok=True):
    (folder / "Makefile").write_text(
        "nbval:\n\t@touch nbval-ran\n"
        + ("" if nbval_ok else "\t@echo broken; exit 3\n")
        + "portability:\n\t@touch portability-ran\n"
    )


def test_run_target_runs_make_and_reports_a_failure(tmp_path):
    _makefile(tmp_path, nbval_ok=False)
    error = run_target("nbval", tmp_path)
    assert (tmp_path / "nbval-ran").exists()
    assert error is not None and error.startswith("make nbval exited 2: ")
    assert run_target("portability", tmp_path) is None
    assert (tmp_path / "portability-ran").exists()


def test_the_passes_are_make_tests_targets():
    assert [target for _, target in PASSES] == ["nbval", "portability"]


def test_section_states_what_the_portability_pass_adds():
    passes = [
        {"label": "native", "target": "nbval", "median_s": 31.0},
        {"label": "other CPU", "target": "portability", "median_s": 20.0},
    ]
    text = "\n".join(nbval_pass_section(passes))
    assert text.startswith("## `make test`'s nbval passes")
    assert "| native | `make nbval` | 31.0 s |" in text
    assert "| other CPU | `make portability` | 20.0 s |" in text
    assert "adds 20.0 s to `make test`, 65% of the usual nbval run" in text


def test_section_is_empty_when_the_passes_were_not_measured():
    assert nbval_pass_section([]) == []
