"""The pure parts of the observed classroom (deploy/classroom/classroom_ramp.py, learner_sim.py): which
lesson (the heaviest of a fresh measurement, here a stub's), which class sizes, which limit a step crossed, the report, and where a simulated learner
moves a demo's controls. Fake data only; the live hub is test_classroom_hub.py, beside this file."""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import math
import signal
import statistics
from pathlib import Path

import pytest

from deploy.classroom import classroom_ramp as ramp
from deploy.classroom import learner_sim as sim
from deploy.classroom.classroom_ramp import GIB, MIB, Limits

ROOT = Path(__file__).resolve().parents[3]


def stub_measure(cpu: dict[str, float], asked: list | None = None):
    """A measurement of every lesson's Run All that runs nothing: ``cpu`` for the notebooks asked."""

    def measure(names: list[str]) -> dict[str, float]:
        if asked is not None:
            asked.append(list(names))
        return {name: cpu[name] for name in names}

    return measure


def refuse_to_measure(names: list[str]) -> dict[str, float]:
    raise AssertionError(f"nothing should have been measured, asked for {names}")


LESSONS = ramp.lesson_notebooks()
# the last lesson the heaviest, the second (which the committed results.json names) far lighter
FRESH = {name: 5.0 + k for k, name in enumerate(LESSONS)}


# --- the lesson: measured now, never read from a saved run -------------------------------------


def test_the_lessons_measured_are_every_lessons_english_notebook_found_by_its_record():
    assert LESSONS[:2] == ["01_feed_forward.ipynb", "02_dimension_expansion.ipynb"]
    assert len(LESSONS) >= 9 and "00_index.ipynb" not in LESSONS
    assert all("/" not in name and (ramp.NOTEBOOKS / name).exists() for name in LESSONS)


def test_the_heaviest_lesson_is_the_one_with_most_kernel_cpu():
    assert ramp.heaviest_lesson({"01.ipynb": 3.3, "07.ipynb": 16.9, "09.ipynb": 12.0}) == ("07.ipynb", 16.9)  # fmt: skip


@pytest.mark.parametrize(
    ("cpu", "error", "message"),
    [
        ({}, ValueError, r"cpu must be a non-empty dict of notebook -> kernel CPU seconds, got \{\}"),
        ([], ValueError, r"cpu must be a non-empty dict of notebook -> kernel CPU seconds, got \[\]"),
        ({"01.ipynb": None}, TypeError, r"cpu must map each notebook to its kernel CPU seconds, got \{'01.ipynb': None\}"),
        ({"01.ipynb": True}, TypeError, "cpu must map each notebook to its kernel CPU seconds"),
    ],
)  # fmt: skip
def test_the_heaviest_lesson_refuses_what_is_not_a_measurement(cpu, error, message):
    with pytest.raises(error, match=message):
        ramp.heaviest_lesson(cpu)


def test_each_lesson_is_measured_in_turn_by_the_timer_given(tmp_path):
    timed = []

    def timer(path):
        timed.append(path)
        return 99.0 if path is None else {"a.ipynb": 2.0, "b.ipynb": 7.5}[path.name]

    assert ramp.measure_lessons(["a.ipynb", "b.ipynb"], timer, tmp_path) == {"a.ipynb": 2.0, "b.ipynb": 7.5}  # fmt: skip
    assert timed == [None, tmp_path / "a.ipynb", tmp_path / "b.ipynb"]  # the floor first, unkept


def test_a_lesson_whose_run_all_fails_stops_the_measurement_naming_it(tmp_path):
    def timer(path):
        if path is not None and path.name == "b.ipynb":
            raise KeyError("the kernel died")
        return 1.0

    with pytest.raises(RuntimeError, match=r"the Run All of b.ipynb failed before the ramp: KeyError: 'the kernel died'"):  # fmt: skip
        ramp.measure_lessons(["a.ipynb", "b.ipynb"], timer, tmp_path)


def test_choose_lesson_picks_the_heaviest_of_a_fresh_measurement_and_records_every_lesson():
    asked = []
    path, choice = ramp.choose_lesson(None, stub_measure(FRESH, asked))
    assert asked == [LESSONS]  # every lesson measured, once
    assert path == f"notebooks/{LESSONS[-1]}" and choice["heaviest"] == LESSONS[-1]
    assert choice["kernel_cpu_s"] == FRESH
    assert choice["how"] == (
        "the heaviest by kernel CPU, every lesson's Run All measured before the ramp: "
        f"{FRESH[LESSONS[-1]]:.1f} s"
    )
    lighter = {**FRESH, LESSONS[0]: 99.0}  # another measurement, another choice
    assert ramp.choose_lesson(None, stub_measure(lighter))[0] == f"notebooks/{LESSONS[0]}"


def test_a_lesson_given_is_taken_as_given_and_nothing_is_measured():
    assert ramp.choose_lesson("00_index.ipynb", refuse_to_measure) == (
        "notebooks/00_index.ipynb",
        {"how": "chosen with --lesson", "kernel_cpu_s": {}},
    )


@contextlib.contextmanager
def no_hub():
    from deploy.classroom.hub import HubError

    raise HubError("no hub in this test")
    yield  # pragma: no cover


def quiet_machine() -> dict:
    return {"cpu": "Test CPU", "cores": 2, "ram_bytes": 24 * GIB,
            "load_average_at_start": [0.1, 0.1, 0.1], "cpu_busy_percent_at_start": 1.0}  # fmt: skip


def test_the_ramp_takes_the_heaviest_lesson_from_its_own_measurement_and_reads_no_saved_run(
    monkeypatch,
):
    from deploy.classroom import hub

    stale = json.loads((ROOT / "benchmarks" / "results.json").read_text(encoding="utf-8"))
    stale_cpu = {b["extra_info"]["notebook"]: statistics.median(b["extra_info"]["cpu_s"])
                 for b in stale["benchmarks"] if b["extra_info"].get("kind") == "notebook"}  # fmt: skip
    stale_heaviest = max((n for n in stale_cpu if "/" not in n), key=stale_cpu.get)
    assert stale_heaviest != LESSONS[-1]  # the saved run would choose another lesson
    opened = []

    def recording_open(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    real_open = io.open
    monkeypatch.setattr(hub, "running_hub", no_hub)
    monkeypatch.setattr(ramp, "machine_info", quiet_machine)
    monkeypatch.setattr(io, "open", recording_open)
    monkeypatch.setattr(builtins, "open", recording_open)
    run = ramp.ramp(measure=stub_measure(FRESH))
    monkeypatch.undo()
    assert run["settings"]["lesson"] == f"notebooks/{LESSONS[-1]}"
    assert run["lesson_choice"]["kernel_cpu_s"] == FRESH
    assert "measured before the ramp" in run["settings"]["lesson_reason"]
    assert not [path for path in opened if path.endswith("results.json")]
    assert "computed" not in run  # nothing computed from a saved run either
    assert run["cleanup"].startswith("the hub failed or did not stop cleanly: no hub in this test")
    text = ramp.render_markdown(run)
    assert f"(kernel CPU): `{LESSONS[-1]}` {FRESH[LESSONS[-1]]:.1f} s; `{LESSONS[-2]}`" in text


@pytest.mark.parametrize(
    ("lesson", "expected"),
    [
        ("01_feed_forward.ipynb", "notebooks/01_feed_forward.ipynb"),
        ("notebooks/01_feed_forward.ipynb", "notebooks/01_feed_forward.ipynb"),
        ("zh/02_dimension_expansion.ipynb", "notebooks/zh/02_dimension_expansion.ipynb"),
    ],
)
def test_a_lesson_is_named_as_the_benchmark_names_it(lesson, expected):
    assert ramp.resolve_lesson(lesson) == expected


@pytest.mark.parametrize(
    ("lesson", "error"),
    [("01_feed_forward", ValueError), ("99_none.ipynb", ValueError), ("", ValueError),
     ("../README.md", ValueError), (1, TypeError), (None, TypeError)],
)  # fmt: skip
def test_an_unknown_lesson_is_refused_with_the_known_ones(lesson, error):
    with pytest.raises(error, match=r"lesson must be .*got"):
        ramp.resolve_lesson(lesson)


# --- the ramp's shape ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "top", "sizes"),
    [(1, 16, [1, 2, 4, 8, 16]), (1, 12, [1, 2, 4, 8, 12]), (1, 1, [1]), (3, 20, [3, 6, 12, 20])],
)
def test_class_sizes_double_up_to_the_largest(start, top, sizes):
    assert ramp.ramp_sizes(start, top) == sizes


@pytest.mark.parametrize(
    ("start", "top", "error", "message"),
    [
        (0, 16, ValueError, "start must be an int >= 1, got 0"),
        (1, 0, ValueError, "max_learners must be an int >= 1, got 0"),
        (1, 2.5, TypeError, "max_learners must be an int >= 1, got 2.5"),
        (True, 4, TypeError, "start must be an int >= 1, got True"),
        (1, "16", TypeError, "max_learners must be an int >= 1, got '16'"),
        (8, 4, ValueError, r"start must be <= max_learners \(4\), got 8"),
    ],
)
def test_class_sizes_refuse_bad_bounds(start, top, error, message):
    with pytest.raises(error, match=message):
        ramp.ramp_sizes(start, top)


def test_lockstep_arrives_together_and_staggered_spreads_over_the_interval():
    assert ramp.stagger_delays(3, "lockstep", 30) == [0.0, 0.0, 0.0]
    assert ramp.stagger_delays(4, "staggered", 40) == [0.0, 10.0, 20.0, 30.0]


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((2, "random", 30), ValueError, r"pattern must be one of \['lockstep', 'staggered'\], got 'random'"),
        ((2, None, 30), TypeError, "pattern must be one of"),
        ((2, "staggered", -1), ValueError, "stagger_s must be a number of seconds >= 0, got -1"),
        ((2, "staggered", float("nan")), ValueError, "stagger_s must be"),
        ((2, "staggered", "30"), TypeError, "stagger_s must be a number of seconds >= 0, got '30'"),
        ((0, "lockstep", 30), ValueError, "n must be an int >= 1, got 0"),
    ],
)  # fmt: skip
def test_stagger_refuses_bad_arguments(args, error, message):
    with pytest.raises(error, match=message):
        ramp.stagger_delays(*args)


def test_learners_are_named_in_order():
    assert ramp.learner_names(3) == ["learner-01", "learner-02", "learner-03"]
    with pytest.raises(ValueError, match="n must be an int >= 1, got -2"):
        ramp.learner_names(-2)


# --- a step's figures and limits ------------------------------------------------------------------


def learner(name: str, run_s: float | None, replies=(0.2, 0.3), **change) -> dict:
    moves = [{"demo": "course-demo--x", "control": "d_ff", "value": "64", "reply_s": s, "problem": ""}
             for s in replies]  # fmt: skip
    values = dict(name=name, run_all_s=run_s, moves=moves, kernel_peak_bytes=500 * MIB,
                  server_peak_bytes=90 * MIB, kernel_died="", saved_intact=True, errors=[],
                  cells_run=5, code_cells=5)  # fmt: skip
    return {**values, **change}


def step(*learners, peak=6 * GIB, total=24 * GIB) -> dict:
    machine = {"memory_peak_bytes": peak, "total_bytes": total, "load1_peak": 2.5}
    return {"n": len(learners), "learners": list(learners), "machine": machine}


def test_a_step_summary_has_medians_p95s_peaks_and_errors():
    summary = ramp.summarize_step(step(learner("a", 10.0), learner("b", 20.0), learner("c", 30.0)))
    assert summary["run_all_median_s"] == 20.0
    assert summary["run_all_p95_s"] == pytest.approx(29.0)
    assert summary["control_median_s"] == pytest.approx(0.25) and summary["moves"] == 6
    assert summary["kernel_peak_bytes"] == 500 * MIB and summary["load1_peak"] == 2.5
    assert summary["errors"] == [] and summary["saved_intact"] == 3
    assert ramp.crossed_limits(summary) == {}


def test_a_dead_kernel_a_failed_move_and_a_cleanup_problem_are_errors():
    died = learner("a", 12.0, kernel_died="the kernel was reported restarting",
                   errors=["kernel died: the kernel was reported restarting"])  # fmt: skip
    failed = learner("b", 10.0)
    failed["moves"][0]["problem"] = "no new picture was sent"
    result = step(died, failed)
    result["cleanup_problems"] = ["server processes alive after their servers stopped: [12]"]
    summary = ramp.summarize_step(result)
    assert summary["kernels_died"] == ["a"]
    assert summary["run_all_median_s"] == math.inf  # a dead kernel's Run All never finished
    assert summary["finished"] == 1 and len(summary["errors"]) == 3
    assert ramp.crossed_limits(summary) == {
        "run_all": "the median learner's Run All did not finish",
        "errors": "3 errors",
    }


@pytest.mark.parametrize(
    "change",
    [
        {"run_all_s": None},  # a cell timed out
        {"cells_run": 3, "errors": ["cell 7 ('x = 1'): NameError: y"]},  # stopped at an error
        {"errors": ["cell 2 wrote to stderr: UserWarning"]},  # ran on, but not clean
    ],
    ids=["timed out", "stopped at an error", "wrote to stderr"],
)
def test_a_run_all_that_did_not_end_clean_cannot_make_the_median_faster(change):
    runs = [learner("a", 30.0), learner("b", 40.0), learner("c", 5.0, **change)]
    summary = ramp.summarize_step(step(*runs))
    assert summary["finished"] == 2
    assert summary["run_all_median_s"] == 40.0  # not 30.0: the unfinished one is the slowest


@pytest.mark.parametrize(
    ("result", "crossed"),
    [
        (step(learner("a", 61.0), learner("b", 70.0)), {"run_all"}),
        (step(learner("a", 59.0), learner("b", 59.0, replies=(0.2, 1.5))), {"control"}),
        (step(learner("a", 10.0), peak=22.5 * GIB), {"memory"}),
        (step(learner("a", None, replies=())), {"run_all", "errors"}),
        (step(learner("a", 90.0, replies=(3.0,)), peak=23 * GIB), {"run_all", "control", "memory"}),
    ],
    ids=["run all", "control p95", "memory", "nobody finished", "three at once"],
)
def test_each_limit_is_crossed_on_its_own_figure(result, crossed):
    assert set(ramp.crossed_limits(ramp.summarize_step(result))) == crossed


def test_limits_sit_at_the_goals_and_may_be_changed():
    at_the_limit = ramp.summarize_step(step(learner("a", 60.0, replies=(1.0,)), peak=22 * GIB))
    assert ramp.crossed_limits(at_the_limit) == {}  # "over 60 s", "over 1 s", "within 2 GiB"
    tighter = Limits(run_all_median_s=30.0, control_p95_s=0.5, memory_reserve_bytes=4 * GIB)
    assert set(ramp.crossed_limits(at_the_limit, tighter)) == {"run_all", "control", "memory"}


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [(([], Limits()), TypeError, "summary must be a step summary dict, got"),
     (({}, {"run_all_median_s": 60}), TypeError, "limits must be a Limits, got")],
)  # fmt: skip
def test_crossed_limits_refuses_what_is_not_a_summary(args, error, message):
    with pytest.raises(error, match=message):
        ramp.crossed_limits(*args)


def test_summarize_step_refuses_what_is_not_a_step():
    with pytest.raises(TypeError, match="step_result must be a step's dict with 'learners'"):
        ramp.summarize_step({"n": 2})


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [([1.0], 95, 1.0), ([], 50, None), ([3.0, 1.0, 2.0], 50, 2.0), (list(range(21)), 95, 19.0)],
)
def test_percentile_interpolates_as_numpy(values, q, expected):
    assert ramp.percentile(values, q) == expected


@pytest.mark.parametrize(("values", "q"), [("123", 50), ([1.0], 101), ([1.0], -1), ([1.0], "50")])
def test_percentile_refuses_bad_input(values, q):
    with pytest.raises((TypeError, ValueError), match="(values|q) must be"):
        ramp.percentile(values, q)


def test_capacity_is_the_last_size_before_the_first_crossing():
    steps = [{"n": 1, "crossed": {}}, {"n": 2, "crossed": {}}, {"n": 4, "crossed": {"run_all": "…"}},
             {"n": 8, "crossed": {}}]  # fmt: skip
    assert ramp.observed_capacity(steps) == 2
    assert ramp.observed_capacity([{"n": 1, "crossed": {"errors": "1 errors"}}]) == 0
    assert ramp.observed_capacity([{"n": 1, "crossed": {}}, {"n": 2, "crossed": {}}]) == 2


def test_a_step_that_cannot_fit_in_memory_is_not_run():
    assert ramp.predicted_memory(8, 4 * GIB, 700 * MIB, 24 * GIB) == ""
    why = ramp.predicted_memory(32, 4 * GIB, 700 * MIB, 24 * GIB)
    assert why.startswith("predicted: 32 learners × 700 MiB beside 4.0 GiB in use need 25.9 GiB")


# --- the report ------------------------------------------------------------------------------------


def run_report(load: float = 0.2, crossed_last: bool = True) -> dict:
    summaries = []
    for n, run_s in ((1, 9.0), (2, 15.0), (4, 70.0)):
        summary = ramp.summarize_step(step(*[learner(f"l{i}", run_s) for i in range(n)]))
        summary["crossed"] = ramp.crossed_limits(summary)
        summaries.append(summary)
    if not crossed_last:
        summaries = summaries[:2]
    return {
        "date": "2026-12-02T01:00:00",
        "machine": {
            "cpu": "Test CPU",
            "cores": 2,
            "ram_bytes": 24 * GIB,
            "load_average_at_start": [load, 0.4, 0.3],
        },  # fmt: skip
        "settings": {
            "command": "python -m deploy.classroom.classroom_ramp",
            "pattern": "lockstep",
            "lesson": "notebooks/02_dimension_expansion.ipynb",
            "stagger_s": 30.0,
            "lesson_reason": "the heaviest",
            "moves_per_control": 2,
            "limits": {
                "run_all_median_s": 60.0,
                "control_p95_s": 1.0,
                "memory_reserve_bytes": 2 * GIB,
            },
        },  # fmt: skip
        "computed": {
            "learners": 13,
            "memory": 34,
            "cpu_all_run_at_once": 13,
            "heaviest": "02_dimension_expansion.ipynb",
        },  # fmt: skip
        "steps": summaries,
        "observed_capacity": ramp.observed_capacity(summaries),
        "cleanup": "every server stopped",
    }


def test_the_report_has_a_row_per_size_and_both_capacities():
    text = ramp.render_markdown(run_report())
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 3
    assert rows[0].startswith("| 1 | 9.0 / 9.0 | 0.25 / 0.29 | 500 | 6.0 of 24 | 2.5 | 0 | none |")
    assert "median Run All 70.0 s > 60 s" in rows[2]
    assert "**Observed capacity: 2 learners**" in text
    assert "**Computed by `benchmarks/classroom.py` for this machine: 13**" in text
    assert "busy" not in text


def test_the_report_says_when_the_machine_was_busy_and_when_no_limit_was_reached():
    text = ramp.render_markdown(run_report(load=1.7, crossed_last=False))
    assert "**The machine was busy when the ramp started** (1-minute load average 1.70" in text
    assert "**Observed capacity: at least 2 learners**" in text


def test_the_report_refuses_what_is_not_a_ramp():
    with pytest.raises(ValueError, match=r"run must have 'steps' \(a ramp's JSON\), got keys \['date'\]"):  # fmt: skip
        ramp.render_markdown({"date": "x"})


# --- a learner's controls ----------------------------------------------------------------------


def widget_states() -> dict[str, dict]:
    """A demo as course_lib.core.widgets.build makes it, as the kernel opens its comms, and a quiz."""
    return {
        "box": {"_model_name": "VBoxModel", "children": ["IPY_MODEL_row", "IPY_MODEL_status", "IPY_MODEL_img"],
                "_dom_classes": ["course-demo", "course-demo--ffn-width-and-activation"]},
        "row": {"_model_name": "HBoxModel", "children": ["IPY_MODEL_slider", "IPY_MODEL_menu"]},
        "slider": {"_model_name": "SelectionSliderModel", "description": "d_ff", "index": 5,
                   "_options_labels": ["64", "128", "256", "512", "1024", "2048", "4096"]},
        "menu": {"_model_name": "DropdownModel", "description": "activation", "index": 0,
                 "_options_labels": ["relu", "gelu"]},
        "status": {"_model_name": "HTMLModel", "value": "ready"},
        "img": {"_model_name": "ImageModel"},
        "quiz": {"_model_name": "VBoxModel", "children": [], "_dom_classes": ["course-quiz"]},
    }  # fmt: skip


def test_demo_controls_are_found_with_their_image_and_status():
    found = sim.demo_controls(widget_states())
    assert [(c.name, c.model, c.index, len(c.labels)) for c in found] == [
        ("d_ff", "SelectionSliderModel", 5, 7),
        ("activation", "DropdownModel", 0, 2),
    ]
    assert {(c.demo, c.image_id, c.status_id) for c in found} == {
        ("course-demo--ffn-width-and-activation", "img", "status")
    }
    assert sim.demo_controls({}) == []
    with pytest.raises(TypeError, match="widgets must be a dict of comm id -> widget state"):
        sim.demo_controls([])


@pytest.mark.parametrize(
    ("index", "count", "moves", "targets"),
    [(5, 7, 2, [6, 0]), (6, 7, 3, [5, 6, 0]), (0, 2, 2, [1, 0]), (0, 7, 0, []), (3, 7, 1, [4])],
)
def test_controls_move_one_step_then_to_an_end(index, count, moves, targets):
    assert sim.move_targets(index, count, moves) == targets


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [((0, 1, 2), ValueError, "count must be >= 2"), ((7, 7, 2), ValueError, r"index must be in \[0, 6\]"),
     ((0, 7, -1), ValueError, "moves must be >= 0, got -1"), ((0.5, 7, 2), TypeError, "index must be an int, got 0.5")],
)  # fmt: skip
def test_move_targets_refuse_bad_arguments(args, error, message):
    with pytest.raises(error, match=message):
        sim.move_targets(*args)


def message(kind: str, content: dict) -> dict:
    return {"header": {"msg_type": kind}, "content": content}


def exchange(*messages: dict) -> sim.Exchange:
    async def make() -> sim.Exchange:
        return sim.Exchange("m", needs_reply=False, messages=list(messages))

    return sim.run_coroutine(make())


def test_a_move_is_clean_only_with_a_new_picture_and_no_error():
    control = sim.demo_controls(widget_states())[0]
    picture = message("comm_msg", {"comm_id": "img", "data": {"method": "update", "state": {}, "buffer_paths": [["value"]]}})  # fmt: skip
    failed = message("comm_msg", {"comm_id": "status", "data": {"method": "update", "state": {"value": "<b style='color:#c00'>error: X</b>"}}})  # fmt: skip
    stderr = message("stream", {"name": "stderr", "text": "Traceback"})
    assert sim.move_problem(exchange(picture), control) == ""
    assert sim.move_problem(exchange(), control) == "no new picture was sent"
    assert sim.move_problem(exchange(picture, failed), control).startswith("the demo's status shows an error")  # fmt: skip
    assert sim.move_problem(exchange(picture, stderr), control) == "Traceback"


def test_a_saved_notebook_reads_back_intact_only_with_the_same_cells_and_outputs():
    lesson = {"cells": [{"cell_type": "markdown", "source": ["# A"]}, {"cell_type": "code", "source": "x = 1", "outputs": []}]}  # fmt: skip
    saved = json.loads(json.dumps(lesson))
    saved["cells"][1]["outputs"] = [{"output_type": "stream"}]
    assert sim.readback_problem(lesson, saved, {1: (1, [{"output_type": "stream"}])}) == ""
    assert "outputs" in sim.readback_problem(lesson, lesson, {1: (1, [{"output_type": "stream"}])})
    shorter = {"cells": lesson["cells"][:1]}
    assert "cells differ" in sim.readback_problem(lesson, shorter, {})


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [({"name": ""}, TypeError, "name must be a non-empty str, got ''"),
     ({"token": None}, TypeError, "token must be a non-empty str, got None"),
     ({"lesson": "notebooks/01.py"}, ValueError, "lesson must be a notebook path ending in .ipynb, got 'notebooks/01.py'")],
)  # fmt: skip
def test_a_learner_refuses_bad_arguments(kwargs, error, message):
    values = {"hub_url": "http://127.0.0.1:1", "name": "a", "token": "t", "lesson": "notebooks/01.ipynb"}  # fmt: skip
    with pytest.raises(error, match=message):
        sim.LearnerSim(**{**values, **kwargs})


def test_the_ramp_refuses_bad_settings_before_starting_a_hub(tmp_path):
    with pytest.raises(ValueError, match="pattern must be one of"):
        ramp.ramp(pattern="all")
    with pytest.raises(ValueError, match="moves_per_control must be an int >= 0, got -1"):
        ramp.ramp(moves_per_control=-1, measure=refuse_to_measure)
    with pytest.raises(ValueError, match="lesson must be one of the course's notebooks"):
        ramp.ramp(lesson="99_none.ipynb", measure=refuse_to_measure)
    before = signal.getsignal(signal.SIGTERM)
    try:
        assert ramp.main(["--max-learners", "0"]) == 2
        assert signal.getsignal(signal.SIGTERM) is not before  # SIGTERM ends it through cleanup
    finally:
        signal.signal(signal.SIGTERM, before)
    with pytest.raises(TypeError, match=r"limits must be a Limits, got \{'run_all_median_s': 9\}"):
        ramp.ramp(limits={"run_all_median_s": 9}, measure=refuse_to_measure)
    with pytest.raises(ValueError, match="interval must be a number of seconds > 0, got 0"):
        ramp.MachineSampler(interval=0)


def test_the_slowest_control_replies_are_named():
    summary = ramp.summarize_step(step(learner("a", 9.0, replies=(0.2, 1.5)), learner("b", 9.0, replies=(0.9,))))  # fmt: skip
    assert summary["slowest_moves"] == ["a: x d_ff → 64: 1.50 s", "b: x d_ff → 64: 0.90 s", "a: x d_ff → 64: 0.20 s"]  # fmt: skip
    assert "- N=2: a: x d_ff → 64: 1.50 s" in ramp.render_markdown({**run_report(), "steps": [{**summary, "crossed": {}}]})  # fmt: skip


def test_the_ramp_ends_at_the_chosen_limits_and_always_at_memory():
    assert ramp.ends_ramp({"control": "…"}) and not ramp.ends_ramp({})
    only_run_all = ramp.check_stop_at("run_all,errors")
    assert only_run_all == ("run_all", "errors")
    assert not ramp.ends_ramp({"control": "…"}, only_run_all)
    assert ramp.ends_ramp({"memory": "…"}, only_run_all)


@pytest.mark.parametrize(
    ("stop_at", "error"),
    [("speed", ValueError), ("", ValueError), ("run_all,cpu", ValueError), (3, TypeError), ([1], TypeError)],
)  # fmt: skip
def test_stop_at_names_the_known_limits(stop_at, error):
    with pytest.raises(error, match=r"stop_at must be .*\['run_all', 'control', 'memory', 'errors'\], got"):  # fmt: skip
        ramp.check_stop_at(stop_at)


def test_capacity_within_each_limit_alone():
    steps = [{"n": 1, "crossed": {}}, {"n": 2, "crossed": {"control": "…"}},
             {"n": 4, "crossed": {"control": "…", "run_all": "…"}}]  # fmt: skip
    assert ramp.capacity_by_limit(steps) == {"run_all": "2", "control": "1", "memory": "≥ 4", "errors": "≥ 4"}  # fmt: skip
    assert ramp.observed_capacity(steps) == 1


def test_a_class_never_run_for_memory_counts_for_no_other_limit():
    steps = [{"n": 1, "crossed": {}}, {"n": 2, "crossed": {}},
             {"n": 4, "crossed": {"memory": "predicted: …"}, "not_run": True}]  # fmt: skip
    assert ramp.capacity_by_limit(steps) == {"run_all": "≥ 2", "control": "≥ 2", "memory": "2", "errors": "≥ 2"}  # fmt: skip


def test_the_computation_fed_with_one_learner_alone_here_uses_its_cpu_wall_and_memory():
    alone = ramp.summarize_step(step(learner("a", 20.0, kernel_cpu_s=24.0)))
    here = ramp.computed_from_alone(alone, "notebooks/x.ipynb", cores=2, ram_bytes=24 * GIB)
    assert here["cpu_all_run_at_once"] == 5  # floor(60 s x 2 cores / 24 s)
    assert here["memory"] == (22 * 1024) // 590  # (24 - 2) GiB / (500 + 90) MiB
    assert here["learners"] == 5 and here["wall_s"] == 20.0 and here["kernel_cpu_s"] == 24.0
    slow = ramp.summarize_step(step(learner("a", 61.0, kernel_cpu_s=24.0)))
    assert ramp.computed_from_alone(slow, "notebooks/x.ipynb", 2, 24 * GIB)["learners"] == 0


def test_without_a_finished_step_of_one_learner_nothing_is_computed_here():
    two = ramp.summarize_step(step(learner("a", 20.0, kernel_cpu_s=9.0), learner("b", 20.0)))
    assert ramp.computed_from_alone(two, "notebooks/x.ipynb", 2, 24 * GIB) == {}
    no_cpu = ramp.summarize_step(step(learner("a", 20.0)))
    assert ramp.computed_from_alone(no_cpu, "notebooks/x.ipynb", 2, 24 * GIB) == {}
    assert ramp.computed_from_alone(None, "notebooks/x.ipynb", 2, 24 * GIB) == {}


def test_the_report_gives_the_capacity_computed_from_one_learner_here():
    run = run_report()
    run["computed_here"] = ramp.computed_from_alone(
        ramp.summarize_step(step(learner("a", 9.0, kernel_cpu_s=10.0))), "x.ipynb", 2, 24 * GIB
    )
    text = ramp.render_markdown(run)
    assert "from one learner alone on this machine (the N = 1 step): 12**" in text
    assert "by CPU: 12, from 10.0 s of kernel CPU and 9.0 s of Run All" in text


def test_given_sizes_are_tried_as_given():
    assert ramp.given_sizes("1,2,4,6,8") == [1, 2, 4, 6, 8]
    assert ramp.given_sizes("3") == [3]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("1,2,2", ValueError, "sizes must be >= 1 and increasing, got '1,2,2'"),
        ("4,2", ValueError, "sizes must be >= 1 and increasing, got '4,2'"),
        ("0,1", ValueError, "sizes must be >= 1 and increasing, got '0,1'"),
        ("1,two", ValueError, "sizes must be whole numbers separated by commas, got '1,two'"),
        (
            [1, 2],
            TypeError,
            r"sizes must be a comma-separated str such as '1,2,4,6,8', got \[1, 2\]",
        ),
    ],
)
def test_given_sizes_refuse_what_is_not_an_increasing_list(text, error, message):
    with pytest.raises(error, match=message):
        ramp.given_sizes(text)


def test_busy_is_judged_on_the_cpu_sampled_at_the_start_not_on_a_lagging_load_average():
    run = run_report(load=3.0)  # a load average still high from work that has ended
    run["machine"]["cpu_busy_percent_at_start"] = 4.0
    text = ramp.render_markdown(run)
    assert "busy when the ramp started" not in text
    assert "- CPU busy in the 5 s before it started: 4 %." in text
    run["machine"]["cpu_busy_percent_at_start"] = 65.0
    text = ramp.render_markdown(run)
    assert "(its cores were 65 % busy in the 5 s before, over 20 %)" in text


# --- README's observed figures are the committed reports' ----------------------------------------

REPORTS = {"lockstep": "classroom-observed.json", "staggered": "classroom-observed-staggered.json"}


def readme_row(label: str) -> list[str]:
    text = (ramp.HERE / "README.md").read_text(encoding="utf-8")
    rows = [[c.strip().strip("*") for c in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ")]  # fmt: skip
    return next(cells[1:] for cells in rows if cells[0] == label)


def test_readme_shows_the_capacities_the_committed_lockstep_ramp_observed_and_computed():
    run = json.loads((ramp.HERE / REPORTS["lockstep"]).read_text(encoding="utf-8"))
    text = (ramp.HERE / "README.md").read_text(encoding="utf-8")
    for step in run["steps"]:
        within = "yes" if not step["crossed"] else "no"
        shown = readme_row(str(step["n"]))
        assert shown[:3] == [
            f"{step['run_all_median_s']:.1f}",
            f"{step['control_p95_s']:.2f}",
            f"{step['memory_peak_bytes'] / 2**30:.1f}",
        ], (step["n"], shown)
        assert shown[3].startswith(within), (step["n"], shown)
    assert f"Concurrent learners in lockstep: {run['observed_capacity']}** on 2 cores" in text
    here = run["computed_here"]
    assert (
        f"(computed from one learner alone: {here['learners']}, from {here['kernel_cpu_s']:.1f} s"
        in text
    )


def test_a_visit_that_raised_is_a_learner_with_the_error_not_a_lost_step():
    result = ramp.failed_visit("learner-03", "notebooks/x.ipynb", KeyError("kernel"))
    assert result["name"] == "learner-03" and result["run_all_s"] is None
    assert result["errors"] == ["the visit raised KeyError: 'kernel'"]
    summary = ramp.summarize_step(step(learner("a", 9.0), result))
    assert "errors" in ramp.crossed_limits(summary) and summary["finished"] == 1


def test_only_processes_that_name_the_hubs_folder_count_as_its_own(tmp_path):
    """A pid remembered from an earlier server may since belong to another process: it counts only
    while it still names the hub's folder, so the hub's cleanup never kills a stranger."""
    import subprocess

    from deploy.classroom.hub import processes_of

    ours = subprocess.Popen(["sleep", "30"], cwd=tmp_path)
    stranger = subprocess.Popen(["sleep", "30"], cwd="/")
    try:
        found = processes_of(tmp_path, {ours.pid, stranger.pid})
        assert ours.pid in found and stranger.pid not in found
    finally:
        for process in (ours, stranger):
            process.kill()
            process.wait()


def test_the_learners_loop_runs_where_an_event_loop_is_already_running():
    """In make test a worker may run the hub test after the browser suite, whose sync Playwright
    keeps an event loop running in the main thread: there asyncio.run alone raises."""

    async def answer() -> int:
        return 42

    async def inside_a_running_loop() -> int:
        return sim.run_coroutine(answer())

    assert sim.run_coroutine(inside_a_running_loop()) == 42
    with pytest.raises(RuntimeError, match="cannot be called from a running event loop"):
        sim.run_coroutine(_plain_run_inside_a_loop())


async def _plain_run_inside_a_loop() -> None:
    import asyncio

    coroutine = asyncio.sleep(0)
    try:
        asyncio.run(coroutine)
    finally:
        coroutine.close()


def test_the_hub_hands_its_openmp_waiting_to_the_learners_servers_and_keeps_the_spawners_own(
    tmp_path: Path,
):
    from jupyterhub.spawner import SimpleLocalProcessSpawner
    from traitlets.config import Config

    from deploy.classroom import hub

    settings = {key: 1 for key in ("port", "hub_port", "proxy_api_port")}
    settings |= {key: "ab" * 32 for key in ("cookie_secret", "proxy_token", "admin_token")}
    settings |= {key: str(tmp_path / key) for key in ("root", "homes", "notebooks", "matplotlib")}
    settings |= {"proxy_command": "chp", "singleuser": "jupyterhub-singleuser", "as_root": False}
    config = Config()
    hub.configure(config, settings)
    kept = SimpleLocalProcessSpawner(config=config).env_keep
    assert "OMP_WAIT_POLICY" in kept and {"PATH", "VIRTUAL_ENV", "LANG"} <= set(kept)
