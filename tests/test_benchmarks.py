"""What the benchmark keeps beside pytest-benchmark: the report and its goals, cache clearing for
first visits, the notebook timer, discovery and ``--only``. Nothing here is timed: the timings run
in ``make bench`` (benchmarks/test_*.py), never in ``make test``."""

from __future__ import annotations

import copy
import functools
import json
import os
import subprocess
import sys
import types
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pytest
from pytest_benchmark.logger import PytestBenchmarkWarning
from pytest_benchmark.stats import Stats

from benchmarks import controls, goals, make_test, report, run
from benchmarks.conftest import matches, settings_of
from benchmarks.notebook_timer import (
    FLOOR_SOURCE,
    PeakMemory,
    execute,
    first_line,
    high_water_mark,
    remove_scratch,
    scratch_copy,
)

ROOT = Path(__file__).resolve().parent.parent
MIB = 2**20

# --- a small run in pytest-benchmark's JSON format -------------------------------------------


def _bench(kind: str, seconds: list[float], **info) -> dict:
    """One benchmark as pytest-benchmark writes it (its own Stats computes the statistics)."""
    stats = Stats()
    for value in seconds:
        stats.update(value)
    return {
        "group": None,
        "name": f"test_{kind}",
        "fullname": f"benchmarks/test_x.py::test_{kind}",
        "params": None,
        "param": None,
        "extra_info": {"kind": kind, **info},
        "options": {},
        "stats": {**stats.as_dict(), "data": list(seconds)},
    }


def _cells(train: float) -> list:
    return [[1, "import", 2.0], [2, "a | b", train], [3, "plot", 1.0], [4, "print", 0.1]]


def _results(
    notebooks: bool = True, controls_: bool = True, site: bool = True, make_test_: bool = True
) -> dict:
    """A run with every kind of goal, some met and some missed: 01_x's kernel CPU is 10.5 × the
    floor kernel's, 02_y's peak is over 1 GiB, tiny.a's first visits are 186 × its floor, the
    page 02_y swaps at 30 × the floor page."""
    benchmarks = []
    if notebooks:
        benchmarks += [
            _bench(
                "notebook floor",
                [4.0, 4.2, 3.9],
                peak_bytes=[200 * MIB] * 3,
                cpu_s=[2.0] * 3,
                cells=[],
            ),
            _bench(
                "notebook",
                [16.0, 14.0, 18.0],
                notebook="01_x.ipynb",
                peak_bytes=[600 * MIB, 500 * MIB, 700 * MIB],
                cpu_s=[20.0, 21.0, 22.0],
                cells=[_cells(9.0), _cells(10.0), _cells(11.0)],
            ),
            _bench(
                "notebook",
                [11.0, 11.0, 11.0],
                notebook="02_y.ipynb",
                peak_bytes=[1100 * MIB] * 3,
                cpu_s=[10.0] * 3,
                cells=[_cells(5.0)] * 3,
            ),
        ]
    if controls_:
        info = {"demo": "tiny", "control": "a"}
        info |= {
            "grid_size": 3,
            "values": ["1", "'a|b'"],
        }  # round i visits values[i % 2]: two passes of two values
        benchmarks += [
            _bench("control floor", [0.0025] * 3, demo="tiny", size=[2.0, 1.5, 50.0]),
            _bench("control", [0.6, 0.9, 0.6, 0.7], mode="shown", cpu_ms=[600.0] * 4, **info),
            _bench("control", [0.3, 0.5, 0.3, 0.45], mode="first", cpu_ms=[200.0] * 4, **info),
            _bench("control", [0.04, 0.06, 0.04, 0.06], mode="warm", cpu_ms=[30.0] * 4, **info),
            _bench("control", [1e-5] * 4, mode="cached", **info),
            _bench("control", [0.05, 0.07, 0.05, 0.07], mode="zh", cpu_ms=[30.0] * 4, **info),
        ]
    if site:
        benchmarks += [
            _bench(
                "site floor",
                [0.5] * 3,
                page="en/bench-floor.html",
                moves=80,
                median_ms=1.0,
                max_ms=3.0,
            ),  # fmt: skip
            _bench(
                "site swaps", [0.5] * 3, page="en/01_x.html", moves=6, median_ms=10.0, max_ms=20.0
            ),  # fmt: skip
            _bench(
                "site swaps", [0.5] * 3, page="en/02_y.html", moves=4, median_ms=30.0, max_ms=40.0
            ),  # fmt: skip
        ]
    if make_test_:
        benchmarks += [
            _bench("make test floor", [5.0, 5.2, 4.9], label="the floor", processes=2),
            _bench("make test", [500.0], label="a fresh clone", target="test", errors=[]),
        ]
    return {
        "machine_info": {
            "cpu": {"brand_raw": "Test CPU 3000"},
            "python_version": "3.11.7",
            "course": {"cores_usable": 2, "torch": "2.13.0+cpu"},
        },
        "commit_info": {"id": "0123456789abcdef", "dirty": True},
        "benchmarks": benchmarks,
        "datetime": "2026-01-01T00:00:00.000000+00:00",
        "version": "5.3.1",
        "course": {
            "command": "python benchmarks/run.py --quick",
            "settings": {
                "repeat": 3,
                "values_per_control": 50,
                "only": "all",
                "cell_timeout_s": 600,
            },
            "load_average_at_start": "0.50 / 0.10 / 0.10",
            "load_average_at_end": "0.70 / 0.20 / 0.10",
            "failures": [],
        },
    }


TIME_FIELDS = ("cpu_s", "cpu_ms", "median_ms", "max_ms")  # extra_info's times; peak_bytes is none


def _slower(results: dict, factor: float, which=lambda bench: True) -> dict:
    """``results`` with every time of the benchmarks ``which`` picks × ``factor``: its rounds (and
    the statistics pytest-benchmark computes from them), its CPU times, cell times and swaps."""
    slower = copy.deepcopy(results)
    for bench in slower["benchmarks"]:
        if not which(bench):
            continue
        info = bench["extra_info"]
        bench["stats"] = _bench(info["kind"], [factor * t for t in bench["stats"]["data"]])["stats"]
        for key in TIME_FIELDS:
            if isinstance(info.get(key), list):
                info[key] = [factor * t for t in info[key]]
            elif info.get(key) is not None:
                info[key] = factor * info[key]
        info["cells"] = [[[i, line, factor * t] for i, line, t in run] for run in info.get("cells", [])]  # fmt: skip
    return slower


def _judged(results: dict) -> dict[str, bool | None]:
    """Every goal of a run and its verdict."""
    return {what: v.met for what, v in report.verdicts(report.summarize(results))}


def _row(text: str, start: str) -> list[str]:
    """The cells of the table row that starts with ``start``."""
    return (
        next(line for line in text.splitlines() if line.startswith(start)).strip("| ").split(" | ")
    )


# --- report ---------------------------------------------------------------------------------


def test_notebook_rows_give_wall_cpu_peak_their_ratios_to_the_floor_and_slowest_cells():
    text = report.render(_results())
    cells = _row(text, "| `01_x.ipynb`")
    assert cells[1:10] == [
        "16.0",
        "19 %",
        "4.00",
        "21.0",
        "10.50: **missed**",
        "19.9",  # 10.5 × the floor kernel's 1.9 s on the reference machine
        "600",
        "met",
        "[2] 10.00 s `a \\| b`; [1] 2.00 s `import`; [3] 1.00 s `plot`",
    ]
    assert _row(text, "| `02_y.ipynb`")[5:9] == ["5.00: met", "9.5", "1100", "**missed**"]
    assert "**4.00 s** (IQR" in text and "kernel CPU **2.00 s** (1.05 × its 1.9 s" in text
    assert "judged as its kernel CPU ÷ the floor kernel's ≤ 7.9 (15 s ÷ 1.9 s)" in text
    assert "Whole course, for reading: 27.0 s of wall time and 31.0 s of kernel CPU" in text


def test_control_rows_give_each_state_median_p95_and_p95_over_the_floor_with_its_verdict():
    row = _row(report.render(_results()), "| `tiny`")
    assert row[1:6] == ["`a`", "2", "2.50", "650.0 / 790.0", "316.0: met"]
    assert row[6:8] == ["375.0 / 466.3", "186.5: **missed**"]
    assert row[8:14] == ["50.0 / 59.0", "23.6: met", "0.010 / 0.010", "0.004: met", "60.0 / 69.0", "27.6: met"]  # fmt: skip
    assert row[14:17] == ["'a\\|b': 475.0", "200.0", "47 % / 40 %"]


def test_site_rows_give_each_pages_median_over_the_floor_pages():
    text = report.render(_results())
    assert "Floor (a page of blank frames" in text and "median **1.00 ms** over 80 moves" in text
    assert "| `en/01_x.html` | 6 | 10.0 | 20.0 | 10.0: met |" in text
    assert "| `en/02_y.html` | 4 | 30.0 | 40.0 | 30.0: **missed** |" in text
    without_floor = _results()
    without_floor["benchmarks"] = [b for b in without_floor["benchmarks"] if b["extra_info"]["kind"] != "site floor"]  # fmt: skip
    text = report.render(without_floor)
    assert "The floor was not measured: nothing is judged." in text
    assert "| `en/02_y.html` | 4 | 30.0 | 40.0 | —: n/a |" in text


def test_p95_interpolates_like_numpy_and_is_absent_without_rounds():
    values = np.random.default_rng(1).exponential(size=37).tolist()
    assert report.p95(values) == pytest.approx(np.percentile(values, 95))
    assert report.p95([7.0]) == 7.0
    assert report.p95(None) is None and report.p95([]) is None


def test_p95_of_several_passes_is_the_median_of_each_passes_p95():
    passes = [[10.0, 11.0, 12.0, 13.0], [10.0, 11.0, 12.0, 900.0], [10.0, 11.0, 12.0, 14.0]]
    data = [t for one in passes for t in one]
    expected = np.median([np.percentile(one, 95) for one in passes])
    assert report.p95(data, per_repetition=4) == pytest.approx(expected)
    assert report.p95(data, per_repetition=4) < report.p95(data)  # one slow round decides less


def test_goals_missed_are_listed_and_counted():
    text = report.render(_results())
    assert "**4 goal(s) missed** of 12 checked" in text
    missed = text.split("## Goals missed\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert missed == [
        "- notebook `01_x.ipynb` Run All: kernel CPU 21 s = 10.5 × floor 2 s vs kernel CPU ≤ 7.9 × floor",
        "- notebook `02_y.ipynb` peak memory: 1100 MiB vs ≤ 1 GiB",
        "- site page `en/02_y.html` swaps: median 30 ms = 30.0 × floor 1 ms vs median ≤ 23 × floor",
        "- control `tiny.a` first visit: p95 466 ms = 186.5 × floor 2.5 ms vs p95 ≤ 40 × floor",
    ]  # fmt: skip


def _judged_values(results: dict) -> dict[str, float | None]:
    """Every goal of a run and the value it judges (a ratio, or bytes)."""
    return {what: v.value for what, v in report.verdicts(report.summarize(results))}


def test_a_run_3_5_times_slower_in_every_time_and_every_floor_meets_exactly_the_same_goals():
    original = _judged(_results())
    slower = _judged(_slower(_results(), 3.5))
    assert set(original.values()) == {True, False}  # some met and some missed, none unjudged
    assert slower == original
    # every ratio is the same, and the memory judged too: a slower machine holds the same bytes
    assert _judged_values(_slower(_results(), 3.5)) == pytest.approx(_judged_values(_results()))


def test_one_control_three_times_slower_beside_an_unchanged_floor_misses():
    def tiny_a(bench):
        return bench["extra_info"]["kind"] == "control" and bench["extra_info"]["control"] == "a"

    original = _judged(_results())
    slower = _judged(_slower(_results(), 3.0, tiny_a))
    changed = {what for what in original if slower[what] != original[what]}
    # re-render 23.6 × its floor becomes 70.8 (> 40), in Chinese 27.6 becomes 82.8, the demo
    # shown 316 becomes 948 (> 400); cached, 0.004, stays far within
    assert changed == {f"control `tiny.a` {mode}" for mode in ("demo shown", "re-render", "re-render in Chinese")}  # fmt: skip
    assert not any(slower[what] for what in changed)


def test_a_slower_floor_alone_makes_every_ratio_smaller_and_a_faster_one_larger():
    def floors(bench):
        return bench["extra_info"]["kind"] in ("notebook floor", "control floor", "site floor", "make test floor")  # fmt: skip

    def ratios(results):
        return {what: v for what, v in _judged_values(results).items() if "peak" not in what}

    original = ratios(_results())
    for factor in (2.0, 0.5):
        changed = ratios(_slower(_results(), factor, floors))
        assert changed == {what: pytest.approx(value / factor) for what, value in original.items()}


def test_machine_section_names_the_cpu_versions_commit_load_and_settings():
    text = report.render(_results())
    for row in (
        "| cpu | Test CPU 3000 |",
        "| torch | 2.13.0+cpu |",
        "| commit | 0123456789ab (dirty) |",
        "| load average at end | 0.70 / 0.20 / 0.10 |",
        "| repeat | 3 |",
        "| values per control | 50 |",
        "| only | all |",
    ):
        assert row in text
    assert "Written by `python benchmarks/run.py --quick` on 2026-01-01 00:00 UTC" in text
    assert "The machine was busy" not in text


def test_report_warns_when_the_machine_was_busy():
    results = _results()
    results["course"]["load_average_at_end"] = "5.00 / 3.00 / 1.00"
    assert "load average of 5.0 on 2 usable cores" in report.render(results)


def test_sections_not_measured_say_so_and_failures_are_listed():
    results = _results(notebooks=False, controls_=False, site=False, make_test_=False)
    results["course"]["failures"] = [
        "`benchmarks/test_notebooks.py::test_notebook[x]` (call): boom"
    ]
    text = report.render(results)
    assert text.count("Not measured in this run.") == 2
    assert "## Errors\n\n- `benchmarks/test_notebooks.py::test_notebook[x]` (call): boom" in text
    assert "**0 goal(s) missed** of 0 checked" in text
    assert "## Errors" not in report.render(_results())


def test_every_report_table_row_has_as_many_cells_as_its_header():
    tables = [g for g in report.render(_results()).split("\n\n") if g.startswith("|")]
    assert len(tables) == 5  # machine, notebooks, controls, the site, make test
    for group in tables:
        widths = {line.replace("\\|", "").count("|") for line in group.splitlines()}
        assert len(widths) == 1, group
    with pytest.raises(ValueError, match="row has 1 cells for 2 columns"):
        report.table("a | b", [["1"]])


def test_from_json_rewrites_the_report_of_a_saved_run_and_measures_nothing(tmp_path):
    saved = _results()
    saved["benchmarks"][1]["stats"]["median"] = 8.0
    (tmp_path / "saved.json").write_text(json.dumps(saved))
    assert run.main(["--out", str(tmp_path), "--from-json", str(tmp_path / "saved.json")]) == 0
    assert (tmp_path / "RESULTS.md").read_text() == report.render(saved)
    assert not (tmp_path / "results.json").exists()  # nothing measured, nothing replaced


def _grouped(results: dict) -> dict:
    """``results`` with each benchmark in a group by its kind's family, as pytest-benchmark's
    ``benchmark.group`` sets it (a floor in its measurement's group)."""
    for bench in results["benchmarks"]:
        bench["group"] = bench["extra_info"]["kind"].removesuffix(" floor")
    return results


def _make_test_remeasured(total_s: float, floor_s: float) -> dict:
    """A later run of only the make-test group, on the same machine at another commit."""
    part = _grouped(_results(notebooks=False, controls_=False, site=False))
    part["benchmarks"][0] = {**_bench("make test floor", [floor_s], label="the floor", processes=2), "group": "make test"}  # fmt: skip
    part["benchmarks"][1] = {**_bench("make test", [total_s], label="a fresh clone", target="test", errors=[]), "group": "make test"}  # fmt: skip
    part["commit_info"] = {"id": "fedcba9876543210", "dirty": False}
    part["datetime"] = "2026-01-02T08:30:00.000000+00:00"
    part["course"]["load_average_at_start"] = "0.20 / 0.30 / 0.40"
    return part


def test_merge_replaces_a_measured_group_whole_and_the_report_names_its_run():
    base = _grouped(_results())
    assert _judged(base)["make test from a fresh clone"] is True  # 500 s at 5.0 s: 100 × its floor
    merged = report.merge(base, _make_test_remeasured(total_s=300.0, floor_s=2.0))
    kept = [b for b in merged["benchmarks"] if b["group"] != "make test"]
    assert kept == [b for b in base["benchmarks"] if b["group"] != "make test"]
    made = [b for b in merged["benchmarks"] if b["group"] == "make test"]
    assert [b["stats"]["median"] for b in made] == [2.0, 300.0]  # the floor came with its run
    goal = "make test from a fresh clone"
    assert _judged(merged)[goal] is False  # 150 × its own floor, not 60 × the old one
    assert _judged(report.merge(base, _make_test_remeasured(total_s=200.0, floor_s=2.0)))[goal]
    text = report.render(merged)
    assert "| re-measured: make test | commit fedcba987654, 2026-01-02 08:30 UTC, load average 0.20 / 0.30 / 0.40 at start, 0.70 / 0.20 / 0.10 at end |" in text  # fmt: skip
    assert "| commit | 0123456789ab (dirty) |" in text  # the rest still names its own run
    assert base["course"].get("re-measured") is None  # base untouched
    again = report.merge(merged, _make_test_remeasured(total_s=200.0, floor_s=2.0))
    assert len(again["course"]["re-measured"]) == 1  # a group re-measured twice is named once


def test_merge_refuses_another_machine_and_an_empty_run():
    base = _grouped(_results())
    other = _make_test_remeasured(total_s=300.0, floor_s=2.0)
    other["machine_info"]["cpu"]["brand_raw"] = "Other CPU 9000"
    with pytest.raises(ValueError, match="'Other CPU 9000'.*'Test CPU 3000'"):
        report.merge(base, other)
    with pytest.raises(ValueError, match="no benchmark"):
        report.merge(base, {**base, "benchmarks": []})


def test_merge_rewrites_results_json_and_the_report_from_a_partial_run(tmp_path):
    base = _grouped(_results())
    (tmp_path / "results.json").write_text(json.dumps(base))
    (tmp_path / "part.json").write_text(json.dumps(_make_test_remeasured(200.0, 2.0)))
    assert run.main(["--out", str(tmp_path), "--merge", str(tmp_path / "part.json")]) == 0
    merged = json.loads((tmp_path / "results.json").read_text())
    assert merged == report.merge(base, _make_test_remeasured(200.0, 2.0))
    assert (tmp_path / "RESULTS.md").read_text() == report.render(merged)


def test_a_failed_make_test_names_its_failed_tests_not_only_makes_last_line():
    output = "....F..\n=== short test summary info ===\nFAILED tests/a.py::test_x - boom\nERROR tests/b.py::test_y\n1 failed\nmake: *** [Makefile:88: test] Error 2\n"  # fmt: skip
    assert make_test.failure_lines(output) == "FAILED tests/a.py::test_x - boom; ERROR tests/b.py::test_y"  # fmt: skip
    assert make_test.failure_lines("ruff: 3 errors\nmake: *** Error 1\n") == "make: *** Error 1"
    assert make_test.failure_lines("") == "no output"
    many = "\n".join(f"FAILED t.py::test_{i}" for i in range(9))
    assert make_test.failure_lines(many).count("FAILED") == 5


def test_the_report_leaves_comparing_runs_to_pytest_benchmark():
    text = report.render(_results())
    assert "## Before / after" not in text and "pytest-benchmark compare" in text


# --- goals ----------------------------------------------------------------------------------


def test_notebook_goals_judge_kernel_cpu_against_the_floor_kernels_and_peak_memory():
    limit = goals.NOTEBOOK_CPU_RATIO
    met = goals.notebook_goals(limit * 2.0, 2.0, 1024**3)
    assert met["cpu"].met and met["peak"].met and met["cpu"].value == pytest.approx(limit)
    missed = goals.notebook_goals(limit * 2.0 + 0.01, 2.0, 1024**3 + 1)
    assert missed["cpu"].met is False and missed["peak"].met is False
    assert goals.notebook_goals(1.0, 2.0, None)["peak"].met is None
    assert goals.notebook_goals(None, 2.0, 1.0)["cpu"].met is None
    assert goals.notebook_goals(1.0, None, 1.0)["cpu"].met is None  # no floor, nothing judged
    assert goals.notebook_goals(1.0, 0.0, 1.0)["cpu"].met is None


def test_the_notebook_limit_is_the_class_budget_at_the_reference_floor():
    assert goals.NOTEBOOK_CPU_S == 15.0  # 8 learners × 15 s / 2 cores = 60 s
    assert goals.NOTEBOOK_CPU_S * goals.CLASS_LEARNERS / goals.CLASS_CORES == goals.CLASSROOM_RUN_ALL_S  # fmt: skip
    assert goals.NOTEBOOK_CPU_RATIO == pytest.approx(15.0 / 1.9, abs=0.05)
    assert goals.at_reference(goals.NOTEBOOK_CPU_RATIO) == pytest.approx(15.0, abs=0.1)


def test_each_ratio_limit_is_its_absolute_goal_at_the_reference_floor():
    assert goals.CONTROL_RATIO * goals.CONTROL_FLOOR_MS_AT_REFERENCE == pytest.approx(100.0)
    assert goals.DEMO_SHOWN_RATIO * goals.CONTROL_FLOOR_MS_AT_REFERENCE == pytest.approx(1000.0)
    assert goals.SITE_SWAP_RATIO * goals.SITE_FLOOR_MS_AT_REFERENCE == pytest.approx(16.0, rel=0.03)  # fmt: skip
    assert goals.MAKE_TEST_RATIO * goals.MAKE_TEST_FLOOR_S_AT_REFERENCE == pytest.approx(480.0, rel=0.01)  # fmt: skip


def test_control_goals_hold_replies_to_40_and_a_demo_shown_to_400_times_the_floor():
    plain = goals.control_goals(2.5, 900.0, 150.0, 50.0, 1.0)
    assert plain["shown"].met and plain["first"].met is False and plain["warm"].met
    assert plain["cached"].met
    assert goals.control_goals(2.5, 1001.0, 90.0, 50.0, 1.0)["shown"].met is False
    assert goals.control_goals(2.5, None, 90.0, 120.0, 1.0)["warm"].met is False
    assert [report.label(v) for v in plain.values()] == ["met", "**missed**", "met", "met", "n/a"]
    chinese = goals.control_goals(2.5, 500.0, 50.0, 50.0, 1.0, 140.0)
    assert chinese["zh"].met is False and chinese["warm"].met
    # the same times on a machine whose floor is twice as long: all within
    assert all(v.met is not False for v in goals.control_goals(5.0, 1001.0, 150.0, 120.0, 1.0, 140.0).values())  # fmt: skip
    assert all(v.met is None for v in goals.control_goals(None, 900.0, 150.0, 50.0, 1.0).values())  # fmt: skip


def test_site_and_make_test_goals_are_ratios_to_their_floors():
    assert goals.site_swap_goal(goals.SITE_SWAP_RATIO, 1.0).met
    assert goals.site_swap_goal(goals.SITE_SWAP_RATIO + 0.1, 1.0).met is False
    assert goals.site_swap_goal(5.0, None).met is None
    assert goals.make_test_goal(goals.MAKE_TEST_RATIO * 4.0, 4.0).met
    assert goals.make_test_goal(goals.MAKE_TEST_RATIO * 4.0 + 1, 4.0).met is False
    assert goals.make_test_goal(300.0, None).met is None


# --- controls: cache clearing and the states pytest-benchmark times --------------------------


class FakeDemo:
    """The public Demo API the benchmark uses, counting renders."""

    def __init__(self):
        self.name, self.busy_text = "tiny", "computing…"
        self.controls = (
            types.SimpleNamespace(name="a", values=[1, 2, 3], default=1, kind="slider"),
        )
        self.controls += (
            types.SimpleNamespace(name="b", values=["x", "y"], default="x", kind="toggle"),
        )
        self.renders, self.pngs = [], {}

    def defaults(self):
        return {c.name: c.default for c in self.controls}

    def png(self, **values):
        key = tuple(sorted(values.items()))
        if key not in self.pngs:
            self.renders.append(values)
            self.pngs[key] = b"png"
        return self.pngs[key]

    def clear_cache(self):
        self.pngs.clear()

    def figure(self, **values):
        from course_lib.core.plots import new_figure

        self.renders.append(values)
        return new_figure(1, 1, dpi=20)


@pytest.fixture
def project_cache(monkeypatch):
    """A memoised function in a loaded ``course_lib`` module, already holding a value."""
    module = types.ModuleType("course_lib._bench_fake")

    @functools.lru_cache
    def square(x):
        return x * x

    module.square = square
    monkeypatch.setitem(sys.modules, module.__name__, module)
    square(3)
    return square


def test_memoised_finds_functions_and_methods_once_and_clear_caches_empties_them():
    module = types.ModuleType("course_lib_fake")

    @functools.lru_cache
    def square(x):
        return x * x

    class Model:
        @functools.cache  # noqa: B019 (a memoised method is what discovery must find)
        def method(self):
            return 1

    Model.__module__ = module.__name__
    module.square, module.alias, module.Model, module.plain = square, square, Model, len
    square(3)
    assert set(map(id, controls.memoised([module]))) == {id(square), id(Model.__dict__["method"])}
    assert controls.clear_caches([module]) == 2
    assert square.cache_info().currsize == 0


def test_shown_setup_clears_the_demos_pngs_and_the_projects_caches(project_cache):
    demo = FakeDemo()
    demo.png(a=1, b="x")
    values, setup = controls.plan(demo, demo.controls[0], "shown", limit=2)
    assert values == [1, 3]
    assert setup() == ((), {"a": 1, "b": "x"})
    assert demo.pngs == {} and project_cache.cache_info().currsize == 0
    assert [setup()[1]["a"] for _ in range(3)] == [3, 1, 3]  # cycles through the values


def test_first_visit_setup_shows_the_demo_at_the_neighbouring_value_only(project_cache):
    demo = FakeDemo()
    demo.png(a=2, b="x")
    values, setup = controls.plan(demo, demo.controls[0], "first", limit=3)
    assert setup() == ((), {"a": 1, "b": "x"})  # the first value's neighbour is the next one
    assert list(demo.pngs) == [(("a", 2), ("b", "x"))] and project_cache.cache_info().currsize == 0
    assert demo.renders[-1] == {"a": 2, "b": "x"}
    _, kwargs = setup()
    assert kwargs == {"a": 2, "b": "x"} and list(demo.pngs) == [(("a", 1), ("b", "x"))]
    assert controls.neighbour(["x", "y", "z"], "z") == "y" and controls.neighbour([4, 5], 4) == 5


def test_re_render_setup_warms_everything_and_the_timed_call_draws_anew(project_cache):
    demo = FakeDemo()
    _, setup = controls.plan(demo, demo.controls[1], "warm", limit=5)
    _, kwargs = setup()
    assert demo.renders == [{"a": 1, "b": "x"}] and len(demo.pngs) == 1  # nothing emptied
    assert project_cache.cache_info().currsize == 1
    png = controls.rerender(demo)(**kwargs)
    assert png.startswith(b"\x89PNG") and demo.renders[-1] == kwargs  # drawn again, not cached


def test_cached_setup_leaves_the_png_stored():
    demo = FakeDemo()
    _, setup = controls.plan(demo, demo.controls[0], "cached", limit=5)
    _, kwargs = setup()
    demo.png(**kwargs)
    assert demo.renders == [kwargs]
    with pytest.raises(ValueError, match="mode must be one of"):
        controls.plan(demo, demo.controls[0], "cold", limit=5)


def test_spread_keeps_small_grids_whole_and_spreads_large_ones():
    assert controls.spread([1, 2, 3], 50) == [1, 2, 3]
    picked = controls.spread(list(range(120)), 50)
    assert len(picked) == 50 and picked[0] == 0 and picked[-1] == 119
    assert max(np.diff(picked)) - min(np.diff(picked)) <= 1
    assert controls.spread([5, 6, 7], 1) == [5]
    with pytest.raises(ValueError, match="limit must be >= 1, got 0"):
        controls.spread([1], 0)


def test_cpu_recorded_keeps_one_time_per_call_even_when_it_raises():
    sink = []
    assert controls.cpu_recorded(lambda x: 2 * x, sink)(4) == 8
    with pytest.raises(ZeroDivisionError):
        controls.cpu_recorded(lambda: 1 / 0, sink)()
    assert len(sink) == 2 and all(t >= 0 for t in sink)


def test_the_control_floor_is_an_empty_figure_of_the_demos_size():
    from matplotlib.figure import Figure

    demo = types.SimpleNamespace(figure=lambda: Figure(figsize=(2, 1.5), dpi=50))
    size = controls.figure_size(demo)
    assert size == (2.0, 1.5, 50.0)
    assert controls.empty_png(*size).startswith(b"\x89PNG")


# --- the notebook timer ---------------------------------------------------------------------


def test_notebook_timer_runs_a_copy_in_its_folder_and_keeps_cells_memory_and_cpu(tmp_path):
    folder = tmp_path / "lesson"
    folder.mkdir()
    (folder / "data.txt").write_text("41")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# tiny"),
        nbformat.v4.new_code_cell(
            "\n\nblock = bytearray(300 * 2**20)\nvalue = int(open('data.txt').read()) + 1"
        ),
        nbformat.v4.new_code_cell(
            "import time\ntime.sleep(0.3)\nopen('written.txt', 'w').write(str(value))"
        ),
    ]
    nbformat.write(notebook, folder / "tiny.ipynb")
    copy, workdir = scratch_copy(folder / "tiny.ipynb")
    try:
        done = execute(copy, workdir, timeout=60)
        assert (workdir / "written.txt").read_text() == "42"
    finally:
        remove_scratch(workdir)
    assert not workdir.parent.exists()
    assert not (folder / "written.txt").exists()  # the notebook's own folder is untouched
    assert [(i, line) for i, line, _ in done.cells] == [
        (1, "block = bytearray(300 * 2**20)"),
        (2, "import time"),
    ]
    assert done.cells[1][2] >= 0.3
    assert done.peak_bytes >= 300 * MIB
    assert done.cpu_s > 0


def test_the_floor_notebook_only_imports_course_lib_and_torch():
    notebook, workdir = scratch_copy(None)
    try:
        assert (
            [c.source for c in notebook.cells]
            == [FLOOR_SOURCE]
            == ["import course_lib\nimport torch"]
        )
        assert list(workdir.iterdir()) == []
    finally:
        remove_scratch(workdir)


def test_first_line_skips_blank_lines_and_shortens():
    assert first_line("\n\n  x = 1\ny = 2") == "x = 1"
    assert first_line("a" * 100, width=10) == "a" * 9 + "…"
    assert first_line("") == ""


def test_peak_memory_counts_child_processes():
    import psutil

    own = psutil.Process().memory_info().rss
    code = "import time; x = b'1' * (300 * 2**20); print('ready', flush=True); time.sleep(5)"
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        monitor = PeakMemory(os.getpid(), interval=0.01).start()
        peak = monitor.stop()
    finally:
        child.kill()
        child.wait()
    assert peak >= own + 250 * MIB
    assert monitor.cpu_s > 0
    hwm = high_water_mark(os.getpid())
    assert hwm is None or hwm >= own * 0.5
    assert high_water_mark(2**31 - 1) is None  # no such process


# --- options, discovery and make bench's wrapper ---------------------------------------------


def _config(**options):
    defaults = {"quick": False, "repeat": None, "values": None, "only": [], "cell_timeout": 600}
    return types.SimpleNamespace(getoption={**defaults, **options}.__getitem__)


def test_quick_means_one_round_and_five_values_unless_told_otherwise():
    quick, full = settings_of(_config(quick=True)), settings_of(_config())
    assert (quick.repeat, quick.values, full.repeat, full.values) == (1, 5, 3, 50)
    assert settings_of(_config(quick=True, repeat=4, only=["a", "b"])).only == ("a", "b")
    with pytest.raises(pytest.UsageError, match="must be >= 1"):
        settings_of(_config(repeat=-1))


def test_only_matches_case_insensitive_substrings_of_any_name():
    assert matches(["width.d_ff"], [])
    assert matches(["x.ipynb", "width.d_ff"], ["D_FF", "zzz"])
    assert not matches(["width.d_ff"], ["activation"])
    assert not matches([], ["width"])


class _Collected:
    """A pytest plugin that keeps the node ids a collection found."""

    def __init__(self):
        self.ids: list[str] = []

    def pytest_collection_finish(self, session):
        self.ids = [item.nodeid for item in session.items]


def _collect(*options: str) -> list[str]:
    """The benchmarks' node ids as ``make bench`` would collect them with ``options``: pytest run
    in this process (torch and the course are imported already; a new Python took 7 s)."""
    collected = _Collected()
    arguments = [
        str(ROOT / "benchmarks"),
        "--collect-only",
        "-q",
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
    ]
    with warnings.catch_warnings():  # "benchmarks disabled under xdist": nothing is measured here
        warnings.simplefilter("ignore", PytestBenchmarkWarning)
        code = pytest.main([*arguments, *options], plugins=[collected])
    assert code == pytest.ExitCode.OK, f"collecting the benchmarks ended with {code!r}"
    return collected.ids


def test_benchmarks_cover_every_demo_control_and_notebook_and_only_selects():
    from course_lib.core.widgets import all_demos

    demos = all_demos()
    folder = ROOT / "notebooks"
    notebooks = sorted(p.relative_to(folder).as_posix() for p in folder.glob("**/*.ipynb"))
    ids = _collect()
    wanted = {
        f"{d.name}.{c.name}-{mode}" for d in demos for c in d.controls for mode in controls.MODES
    }
    assert {i.split("[", 1)[1][:-1] for i in ids if "::test_control[" in i} == wanted
    assert {i.split("[", 1)[1][:-1] for i in ids if "::test_notebook[" in i} == set(notebooks)
    assert sum("::test_make_test_part[" in i for i in ids) == len(make_test.PARTS)
    demo, control = demos[0], demos[0].controls[0]
    picked = _collect("--only", f"{demo.name}.{control.name}", "--only", notebooks[0])
    assert sorted(i.split("::")[1] for i in picked) == sorted(
        [
            f"test_control_floor[{demo.name}]",
            "test_notebook_floor",
        ]
        + [f"test_notebook[{n}]" for n in notebooks if notebooks[0] in n]  # both editions
        + [f"test_control[{demo.name}.{control.name}-{mode}]" for mode in controls.MODES]
    )


def test_make_bench_runs_pytest_benchmark_into_a_json(tmp_path):
    command = run.pytest_command(tmp_path / "new.json", ["--quick", "--only", "width"])
    assert command[1:5] == ["-m", "pytest", str(ROOT / "benchmarks"), "--benchmark-only"]
    assert f"--benchmark-json={tmp_path / 'new.json'}" in command
    assert command[-3:] == ["--quick", "--only", "width"]
    assert any(arg.endswith("artifacts/benchmarks") for arg in command)
    own = run.pytest_command(tmp_path, ["--benchmark-storage=file:///elsewhere"])
    assert sum(arg.startswith("--benchmark-storage") for arg in own) == 1


def test_make_bench_saves_each_run_and_compares_it_with_the_previous_one_unless_told(tmp_path):
    command = run.pytest_command(tmp_path / "new.json", ["--quick"])
    assert "--benchmark-autosave" in command and "--benchmark-compare" in command
    told = [
        "--benchmark-save=before",
        "--benchmark-compare=0001",
        "--benchmark-compare-fail=min:5%",
    ]
    own = run.pytest_command(tmp_path / "new.json", told)
    assert "--benchmark-autosave" not in own and "--benchmark-compare" not in own
    assert own[-3:] == told
