"""The benchmark's pure parts: statistics, discovery, goals, summaries and the Markdown report.
(The measurements themselves run in ``make bench``, not here.)"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import types
from dataclasses import asdict

import numpy as np
import pytest

from benchmarks import control_timing, discover, goals, measure, memory, report, run, stats
from benchmarks.notebook_timing import FLOOR_SOURCE, NotebookRun, first_line, floor_notebook
from course_lib.plots import new_figure
from course_lib.widgets import Control, Demo

# --- statistics -----------------------------------------------------------------------------


@pytest.mark.parametrize("q", [0, 5, 50, 90, 95, 100])
def test_percentile_matches_numpys_linear_interpolation(q):
    values = np.random.default_rng(q).exponential(size=37).tolist()
    assert stats.percentile(values, q) == pytest.approx(np.percentile(values, q))


def test_percentile_interpolates_between_ranks():
    assert stats.percentile([10, 0, 20, 30], 95) == pytest.approx(28.5)
    assert stats.median([4, 1, 3, 2]) == pytest.approx(2.5)
    assert stats.median([7.0]) == 7.0


@pytest.mark.parametrize("q", [-1, 100.5])
def test_percentile_rejects_q_outside_0_to_100(q):
    with pytest.raises(ValueError, match=r"q must be between 0 and 100, got"):
        stats.percentile([1, 2], q)


def test_percentile_rejects_empty_and_non_sequences():
    with pytest.raises(ValueError, match="values must not be empty"):
        stats.median([])
    with pytest.raises(TypeError, match="values must be a sequence of numbers, got str"):
        stats.median("123")


def test_spread_is_range_over_median():
    assert stats.spread([9.0, 10.0, 12.0]) == pytest.approx(0.3)
    assert stats.spread([0.0, 0.0]) == 0.0


def test_summarize_takes_the_median_over_repetitions_of_each_repetitions_statistic():
    reps = [[1, 2, 3, 100], [2, 3, 4, 5], [10, 20, 30, 40]]
    summary = stats.summarize(reps)
    assert summary["median"] == pytest.approx(stats.median([2.5, 3.5, 25.0]))
    assert summary["p95"] == pytest.approx(stats.median([stats.percentile(r, 95) for r in reps]))
    assert summary["max"] == 100
    assert summary["noise"] == pytest.approx((25.0 - 2.5) / 3.5)
    assert summary["n"] == 4


def test_summarize_states_no_noise_for_a_single_repetition():
    assert stats.summarize([[1.0, 2.0]])["noise"] is None
    with pytest.raises(ValueError, match="repetitions must not be empty"):
        stats.summarize([])


def test_spread_indices_keeps_small_grids_whole_and_spreads_large_ones():
    assert stats.spread_indices(5, 50) == [0, 1, 2, 3, 4]
    spread = stats.spread_indices(120, 50)
    assert len(spread) == 50 and spread[0] == 0 and spread[-1] == 119
    assert spread == sorted(set(spread))
    assert max(np.diff(spread)) - min(np.diff(spread)) <= 1
    assert stats.spread_indices(9, 1) == [0]
    assert stats.spread_indices(0, 3) == []


def test_spread_indices_rejects_bad_arguments():
    with pytest.raises(ValueError, match="limit must be >= 1, got 0"):
        stats.spread_indices(3, 0)
    with pytest.raises(ValueError, match="count must be >= 0, got -1"):
        stats.spread_indices(-1, 3)


# --- discovery ------------------------------------------------------------------------------


def test_notebooks_finds_every_ipynb_sorted_and_nothing_else(tmp_path):
    for name in ("02_b.ipynb", "01_a.ipynb", "notes.md", ".hidden.ipynb"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "03_c.ipynb").write_text("{}")
    assert [p.name for p in discover.notebooks(tmp_path)] == ["01_a.ipynb", "02_b.ipynb"]
    assert discover.notebooks(tmp_path / "sub") != []


def test_notebooks_of_an_empty_folder_is_empty_and_a_missing_one_is_an_error(tmp_path):
    assert discover.notebooks(tmp_path) == []
    with pytest.raises(ValueError, match="is not a directory"):
        discover.notebooks(tmp_path / "missing")


def test_matches_filters_by_case_insensitive_substring():
    assert discover.matches("width.d_ff", [])
    assert discover.matches("width.d_ff", ["D_FF", "zzz"])
    assert not discover.matches("width.d_ff", ["activation"])


def test_caches_finds_memoised_functions_and_methods_once_and_clears_them():
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
    found = discover.caches([module])
    assert set(map(id, found)) == {id(square), id(Model.__dict__["method"])}
    assert discover.clear_caches([module]) == 2
    assert square.cache_info().currsize == 0


def _demo(render=None, trains=False) -> Demo:
    def default_render(a, b):
        fig = new_figure(2, 1.5, dpi=50)
        fig.add_subplot().plot([0, a], [0, b])
        return fig

    controls = (Control("a", [1, 2, 3], 1), Control("b", ["x", "y"], "x", kind="toggle"))
    return Demo("tiny", controls, render or default_render, trains=trains)


def test_demos_adds_those_of_extra_files_to_all_demos(tmp_path):
    extra = tmp_path / "extra_demos.py"
    extra.write_text(
        "from course_lib.widgets import Control, Demo\n"
        "def demos():\n"
        "    return [Demo('extra', (Control('n', [1, 2], 1),), lambda n: None)]\n"
    )
    from course_lib.widgets import all_demos

    names = [d.name for d in discover.demos([extra])]
    assert names == [d.name for d in all_demos()] + ["extra"]


def test_demos_rejects_a_file_without_demos_function(tmp_path):
    extra = tmp_path / "no_demos.py"
    extra.write_text("x = 1\n")
    with pytest.raises(ValueError, match="defines no demos"):
        discover.demos([extra])
    with pytest.raises(ValueError, match="is not a file"):
        discover.demos([tmp_path / "missing.py"])


# --- control timing -------------------------------------------------------------------------


def test_time_control_visits_the_spread_grid_and_renders_first_visits_anew():
    calls = []

    def render(a, b):
        calls.append((a, b))
        return new_figure(1, 1, dpi=20)

    demo = _demo(render)
    samples = control_timing.time_control(demo, demo.controls[0], limit=2)
    assert calls == [
        (1, "x"),
        (1, "x"),
        (3, "x"),
        (3, "x"),
    ]  # first visit and re-render; cached hits
    assert {k: len(v) for k, v in samples.items()} == {k: 2 for k in samples}
    assert set(samples) == {*control_timing.MODES, *control_timing.CPU_MODES, "value"}
    assert samples["value"] == [1, 3]
    assert all(t >= 0 for mode in control_timing.MODES for t in samples[mode])


def test_figure_size_reads_the_default_figure():
    assert control_timing.figure_size(_demo()) == (2.0, 1.5, 50.0)


def test_time_floor_gives_one_sample_per_repeat():
    assert len(control_timing.time_floor(1.0, 1.0, 20, samples=3)) == 3


# --- goals ----------------------------------------------------------------------------------


def test_notebook_goals_at_the_limits():
    met = goals.notebook_goals(60.0, 1024**3)
    assert met["wall"].met and met["peak"].met
    missed = goals.notebook_goals(60.1, 1024**3 + 1)
    assert missed["wall"].met is False and missed["peak"].met is False
    assert goals.notebook_goals(1.0, None)["peak"].met is None


def test_course_goal_compares_the_sum_with_three_floors_per_notebook():
    verdict = goals.course_goal([10.0, 20.0], 5.0)
    assert verdict.value == pytest.approx(3.0) and verdict.met
    assert goals.course_goal([10.0, 21.0], 5.0).met is False
    assert goals.course_goal([], 5.0).met is None


def test_control_goals_allow_a_second_only_for_first_visits_that_train():
    plain = goals.control_goals(False, "computing…", 150.0, 50.0, 1.0)
    assert plain["first"].met is False and plain["warm"].met and plain["cached"].met
    assert plain["busy"].met is None
    training = goals.control_goals(True, "training…", 900.0, 120.0, 1.0)
    assert training["first"].met and training["warm"].met is False and training["busy"].met
    assert goals.control_goals(True, "computing…", 900.0, 50.0, 1.0)["busy"].met is False


def test_verdict_labels():
    assert report.label(asdict(goals.at_most(1, 2, "g"))) == "met"
    assert report.label(asdict(goals.at_most(3, 2, "g"))) == "**missed**"
    assert report.label(asdict(goals.at_most(None, 2, "g"))) == "n/a"


# --- summaries ------------------------------------------------------------------------------


def _runs() -> list[NotebookRun]:
    cells_a = [(1, "import", 2.0), (2, "train", 9.0), (3, "plot", 1.0), (4, "print", 0.1)]
    cells_b = [(1, "import", 2.2), (2, "train", 11.0), (3, "plot", 3.0), (4, "print", 0.1)]
    return [
        NotebookRun(14.0, 500 * 2**20, 20.0, cells_a),
        NotebookRun(18.0, 700 * 2**20, 22.0, cells_b),
    ]


def test_slowest_value_takes_the_median_over_repetitions_per_value():
    reps = [{"first": [1.0, 9.0, 5.0], "value": ["a", "b", "c"]}]
    reps += [{"first": [1.0, 2.0, 6.0], "value": ["a", "b", "c"]}]
    reps += [{"first": [1.0, 3.0, 7.0], "value": ["a", "b", "c"]}]
    assert measure.slowest_value(reps) == {"value": "'c'", "ms": 6.0}


def test_slowest_cells_ranks_by_median_over_repetitions():
    slowest = measure.slowest_cells(_runs())
    assert [c["index"] for c in slowest] == [2, 1, 3]
    assert slowest[0]["seconds"] == pytest.approx(10.0) and slowest[0]["line"] == "train"


def test_notebook_summary_gives_ratio_to_floor_and_goals():
    summary = measure.notebook_summary("01_x.ipynb", _runs(), floor_s=4.0)
    assert summary["wall_s"]["median"] == pytest.approx(16.0)
    assert summary["ratio"] == pytest.approx(4.0)
    assert summary["peak_bytes"] == {"median": 600 * 2**20, "max": 700 * 2**20}
    assert summary["cpu_s"] == pytest.approx(21.0)
    assert summary["goals"]["wall"]["met"] is True
    course = measure.course_summary([summary, summary], 4.0)
    assert course["total_s"] == pytest.approx(32.0) and course["goal"]["met"] is False


def test_control_summary_divides_by_the_floor():
    demo = _demo(trains=True)
    rep = {"first": [300.0, 500.0], "warm": [40.0, 60.0], "cached": [0.1, 0.1], "value": [1, 3]}
    rep |= {"first_cpu": [200.0, 200.0], "warm_cpu": [30.0, 30.0]}
    row = measure.control_summary(demo, demo.controls[0], [rep], [[10.0, 10.0]])
    assert row["slowest_first"] == {"value": "3", "ms": 500.0}
    assert row["ratio_first"] == pytest.approx(40.0) and row["ratio_warm"] == pytest.approx(5.0)
    assert row["goals"]["first"]["met"] is True and row["goals"]["busy"]["met"] is False
    assert (row["demo"], row["control"], row["grid_size"]) == ("tiny", "a", 3)


# --- report ---------------------------------------------------------------------------------


def _results(notebooks=True, controls=True) -> dict:
    results = {
        "command": "python benchmarks/run.py", "date": "2026-01-01 00:00 UTC",
        "machine": {"cores_usable": 2, "torch_threads": 2, "load_average_at_start": "0.50 / 0.1 / 0.1"},
        "settings": {"repeat": 3, "values_per_control": 50, "only": "all"},
        "method": ["- how"], "errors": [], "notebooks": [], "floor": None, "course": None, "controls": [],
    }  # fmt: skip
    if notebooks:
        summary = measure.notebook_summary("01_x.ipynb", _runs(), floor_s=4.0)
        summary["slowest_cells"][0]["line"] = "a | b"
        results["floor"] = measure.run_summary(_runs()[:1])
        results["notebooks"] = [summary]
        results["course"] = measure.course_summary([summary], 4.0)
    if controls:
        rep = {"first": [300.0, 500.0], "warm": [40.0, 60.0], "cached": [0.1, 0.1]}
        rep |= {"first_cpu": [200.0], "warm_cpu": [30.0], "value": [1, "a|b"]}
        demo = _demo()
        results["controls"] = [measure.control_summary(demo, demo.controls[0], [rep], [[10.0]])]
    return results


def test_report_of_nothing_found_says_so():
    text = report.render(_results(notebooks=False, controls=False))
    assert "Not measured in this run." in text
    assert "No demos found" in text
    results = _results(notebooks=False, controls=False)
    results["floor"] = measure.run_summary(_runs()[:1])
    assert "No notebooks found." in report.render(results)


def test_report_tables_show_each_number_beside_its_goal():
    text = report.render(_results())
    notebook_row = next(line for line in text.splitlines() if line.startswith("| `01_x.ipynb`"))
    assert "| 16.0 |" in notebook_row and "| 4.00 |" in notebook_row and "a \\| b" in notebook_row
    control_row = next(line for line in text.splitlines() if line.startswith("| `tiny`"))
    assert "≤ 100 ms: **missed**" in control_row and "| 200.0 |" in control_row
    assert "| 'a\\|b': 500.0 |" in control_row
    assert "control `tiny.a` first: 490 ms vs p95 ≤ 100 ms" in text
    assert "whole course: 4.00 × floors vs ≤ 3 × floors" in text
    assert "**2 goal(s) missed** of 6 checked" in text
    assert "The machine was busy" not in text


def test_report_warns_when_the_machine_was_busy():
    results = _results()
    results["machine"]["load_average_at_end"] = "5.00 / 3.00 / 1.00"
    assert "load average of 5.0 on 2 usable cores" in report.render(results)


def test_report_compares_with_a_baseline():
    before, after = _results(), _results()
    after["notebooks"][0]["wall_s"]["median"] = 8.0
    text = report.render(after, baseline=before)
    assert "## Before / after" in text
    assert "| `01_x.ipynb` wall s | 16.00 | 8.00 | 0.50 × |" in text
    assert "## Before / after" not in report.render(after, baseline=None)


def test_table_rows_match_the_header_width():
    lines = report.table(["a", "b"], [["1", "x|y"]])
    assert lines == ["| a | b |", "|---|---|", "| 1 | x\\|y |"]


# --- command line and notebook helpers ------------------------------------------------------


def test_quick_means_one_repetition_and_five_values():
    args = run.parse_args(["--quick"])
    assert (args.repeat, args.values) == (1, 5)
    args = run.parse_args(["--quick", "--repeat", "4", "--only", "a", "--only", "b"])
    assert (args.repeat, args.only) == (4, ["a", "b"])
    assert (run.parse_args([]).repeat, run.parse_args([]).values) == (3, 50)


def test_negative_repeat_is_refused():
    with pytest.raises(SystemExit):
        run.parse_args(["--repeat", "-1"])


def test_floor_notebook_only_imports_course_lib_and_torch():
    cells = floor_notebook().cells
    assert [c.source for c in cells] == [FLOOR_SOURCE]
    assert FLOOR_SOURCE == "import course_lib\nimport torch"


def test_first_line_skips_blank_lines_and_shortens():
    assert first_line("\n\n  x = 1\ny = 2") == "x = 1"
    assert first_line("a" * 100, width=10) == "a" * 9 + "…"
    assert first_line("") == ""


def test_baseline_defaults_to_the_previous_results_and_none_disables_it(tmp_path):
    previous = tmp_path / "results.json"
    assert run.load_baseline(None, previous) is None
    previous.write_text('{"date": "yesterday"}')
    assert run.load_baseline(None, previous) == {"date": "yesterday"}
    assert run.load_baseline("none", previous) is None
    other = tmp_path / "other.json"
    other.write_text('{"date": "last week"}')
    assert run.load_baseline(str(other), previous) == {"date": "last week"}
    with pytest.raises(SystemExit, match="no such file"):
        run.load_baseline(str(tmp_path / "missing.json"), previous)


def test_table_refuses_a_row_that_does_not_fill_the_header():
    with pytest.raises(ValueError, match="row has 1 cells for 2 columns"):
        report.table(["a", "b"], [["1"]])


def test_every_report_table_row_has_as_many_cells_as_its_header():
    for line_group in report.render(_results()).split("\n\n"):
        lines = [line for line in line_group.splitlines() if line.startswith("|")]
        widths = {line.replace("\\|", "").count("|") for line in lines}
        assert len(widths) <= 1, line_group


# --- memory ---------------------------------------------------------------------------------


def test_high_water_mark_reads_this_process_peak():
    import psutil

    hwm = memory.high_water_mark(os.getpid())
    if hwm is None:
        pytest.skip("no /proc/<pid>/status VmHWM on this system")
    assert hwm >= psutil.Process().memory_info().rss * 0.5
    assert memory.high_water_mark(2**31 - 1) is None  # no such process


def test_peak_memory_counts_child_processes():
    import psutil

    own = psutil.Process().memory_info().rss
    code = "import sys, time; x = b'1' * (300 * 2**20); print('ready', flush=True); time.sleep(5)"
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        monitor = memory.PeakMemory(os.getpid(), interval=0.01).start()
        peak = monitor.stop()
    finally:
        child.kill()
        child.wait()
    assert peak >= own + 250 * 2**20
    assert monitor.cpu_s > 0
