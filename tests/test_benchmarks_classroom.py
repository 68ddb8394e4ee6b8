"""benchmarks/classroom.py: how many learners a machine holds, from measured per-learner costs."""

from __future__ import annotations

import pytest

from benchmarks import classroom, report
from benchmarks.classroom import GIB, Learner

MIB = 1024**2


def learner(**change) -> Learner:
    values = dict(
        server_bytes=150 * MIB,
        kernel_peak_bytes={"a.ipynb": 450 * MIB, "b.ipynb": 350 * MIB},
        kernel_cpu_s={"a.ipynb": 6.0, "b.ipynb": 12.0},
        wall_s={"a.ipynb": 5.0, "b.ipynb": 10.0},
    )
    return Learner(**{**values, **change})


def test_memory_counts_the_server_and_one_kernel_or_all_of_them():
    one = learner()
    assert one.one_lesson_bytes == 600 * MIB and one.all_lessons_bytes == 950 * MIB
    assert classroom.by_memory(one, 24 * GIB) == (22 * 1024) // 600  # 37
    assert classroom.by_memory(one, 24 * GIB, every_lesson_open=True) == (22 * 1024) // 950
    assert classroom.by_memory(one, 1 * GIB) == 0  # less RAM than the system's share


def test_cpu_lets_everyone_run_the_heaviest_lesson_at_once_within_the_class_limit():
    one = learner()
    assert one.heaviest == "b.ipynb" and one.course_cpu_s == 18.0
    assert classroom.by_cpu(one, cores=2) == 10  # 60 s x 2 cores / 12 s
    assert classroom.by_cpu(one, cores=16) == 80
    assert classroom.by_cpu(learner(wall_s={"a.ipynb": 5.0, "b.ipynb": 61.0}), cores=16) == 0


def test_capacity_is_the_smaller_limit():
    found = classroom.capacity(learner(), cores=2, ram_bytes=24 * GIB)
    assert found["learners"] == min(found["memory"], found["cpu_all_run_at_once"]) == 10
    big = classroom.capacity(learner(), 16, 64 * GIB)
    assert (big["memory"], big["cpu_all_run_at_once"], big["learners"]) == (105, 80, 80)


def test_a_learner_needs_the_same_lessons_measured_twice():
    with pytest.raises(ValueError, match="same lessons"):
        learner(kernel_cpu_s={"a.ipynb": 6.0})


def test_the_report_states_the_learners_per_machine():
    notebooks = [
        {"name": "a.ipynb", "cpu_s": 6.0, "peak_bytes": 450 * MIB, "wall_s": 5.0},
        {"name": "b.ipynb", "cpu_s": 12.0, "peak_bytes": 350 * MIB, "wall_s": 10.0},
        {"name": "zh/a.ipynb", "cpu_s": 99.0, "peak_bytes": 9 * GIB, "wall_s": 5.0},
    ]
    results = {"benchmarks": [{"extra_info": {"kind": "server memory", "rss_bytes": 150 * MIB}}]}
    lines = report.classroom_section(results, {"notebooks": notebooks})
    text = "\n".join(lines)
    assert "| 2 cores, 24 GiB | 37 | 23 | 10 | **10** |" in text
    assert "single-user Jupyter server of 150 MiB" in text
    assert "Not measured" in "\n".join(report.classroom_section({}, {"notebooks": notebooks}))
