"""The benchmark times make test's two nbval passes through make itself and reports the cost."""

from __future__ import annotations

from benchmarks.nbval_passes import measure_nbval_passes, nbval_pass_section, run_target


def _makefile(folder, nbval_ok=True):
    (folder / "Makefile").write_text(
        "nbval:\n\t@sleep 0.2\n"
        + ("" if nbval_ok else "\t@echo broken; exit 3\n")
        + "portability:\n\t@sleep 0.1\n"
    )


def test_run_target_times_make_and_reports_a_failure(tmp_path):
    _makefile(tmp_path, nbval_ok=False)
    seconds, error = run_target("nbval", tmp_path)
    assert seconds >= 0.2
    assert error is not None and error.startswith("make nbval exited 2: ")
    seconds, error = run_target("portability", tmp_path)
    assert error is None and 0.1 <= seconds < 5


def test_measure_records_every_repetition_and_every_failure(tmp_path):
    _makefile(tmp_path, nbval_ok=False)
    results = {"errors": []}
    measure_nbval_passes(2, results, tmp_path)
    assert [row["target"] for row in results["nbval_passes"]] == ["nbval", "portability"]
    assert all(len(row["times_s"]) == 2 for row in results["nbval_passes"])
    assert len(results["errors"]) == 2 and all("make nbval" in e for e in results["errors"])


def test_section_states_what_the_portability_pass_adds():
    results = {
        "nbval_passes": [
            {"pass": "native", "target": "nbval", "times_s": [30.0, 32.0, 31.0]},
            {"pass": "other CPU", "target": "portability", "times_s": [20.0, 22.0, 15.5]},
        ]
    }
    text = "\n".join(nbval_pass_section(results))
    assert "| native | `make nbval` | 31.0 s |" in text
    assert "| other CPU | `make portability` | 20.0 s |" in text
    assert "adds 20.0 s to `make test`, 65% of the usual nbval run" in text


def test_section_is_empty_when_the_passes_were_not_measured():
    assert nbval_pass_section({}) == []
