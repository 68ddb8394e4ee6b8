"""Lesson 9's figures show the quantities they are given, read back from them; the demo's frames
are the stored sweep's numbers, at the weakest strength reaching p(new) 0.9, its controls are
labelled in words, and a wrong control value is named."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.experiments.edit_sweep import BY_NAME, RANK_ONE
from course_lib.lessons.l09_two_languages import demos, figures
from course_lib.lessons.l09_two_languages.experiments import cross_edits
from course_lib.lessons.l09_two_languages.experiments.transfer import WAYS, Transfer


def test_the_transfer_figure_draws_each_ways_mean_and_interval_under_its_run():
    runs = {
        "a": Transfer("top-1", {WAYS[0]: (1.0, 1.0, 1.0), WAYS[1]: (0.1, 0.0, 0.2),
                                WAYS[2]: (0.15, 0.05, 0.3)}, (-0.05, -0.2, 0.1), 72),
        "b": Transfer("top-1", {WAYS[0]: (0.9, 0.8, 1.0), WAYS[1]: (0.6, 0.5, 0.7),
                                WAYS[2]: (0.1, 0.0, 0.2)}, (0.5, 0.4, 0.6), 72),
    }  # fmt: skip
    fig = figures.transfer_figure(runs, "top-1")
    for ax, (label, run) in zip(fig.axes, runs.items(), strict=True):
        assert ax.get_title() == label
        heights = [round(p.get_height(), 6) for p in ax.patches]
        assert heights == [run.by_way[w][0] for w in WAYS]
        (caps,) = [c for c in ax.containers if hasattr(c, "has_yerr")]
        segments = caps.lines[2][0].get_segments()  # one vertical bar per way: low to high
        assert [tuple(np.round(s[:, 1], 6)) for s in segments] == [run.by_way[w][1:] for w in WAYS]
        names = [t.get_text().replace("\n", " ") for t in ax.get_xticklabels()]
        assert names == [figures.WAY_NAMES[w] for w in WAYS]
    assert fig.axes[0].get_ylabel() == figures.MEASURE_NAMES["top-1"]


def test_the_dose_response_figure_draws_each_methods_two_curves():
    rows = np.array([[0.1, 0.001, 0.002], [0.5, 0.003, 0.001], [0.95, 0.01, 0.004]])
    fig = figures.dose_response_figure({"edited in English": {RANK_ONE: rows}})
    (ax,) = fig.axes
    edited, rest = ax.get_lines()[:2]
    assert edited.get_xdata().tolist() == rows[:, 0].tolist()
    assert edited.get_ydata().tolist() == rows[:, 1].tolist()
    assert rest.get_ydata().tolist() == rows[:, 2].tolist() and rest.get_linestyle() == "--"
    assert ax.get_yscale() == "log" and ax.get_title() == "edited in English"
    assert ax.get_legend().get_texts()[0].get_text() == figures.method_name(RANK_ONE)
    assert figures.method_name(RANK_ONE) == "rank-one, layer 1, last token"  # not "word": 是


@pytest.fixture(scope="module")
def frame():
    prompt = demos.prompts()[0]
    return prompt, demos.cross_edit_data(prompt, "zh", RANK_ONE)


def test_a_frame_is_the_stored_sweep_at_the_weakest_strength_reaching_0_9(frame):
    _, data = frame
    rows = cross_edits.results(RANK_ONE, "zh")[0, 0]  # seed 0, its first fact taught in both
    p_new = cross_edits.column(rows, "p(new)")
    level = int(np.argmax(p_new >= 0.9)) if (p_new >= 0.9).any() else len(p_new) - 1
    # rows of the frame: English, Chinese; the Chinese prompt was edited
    assert data.p_new[1, 1] == p_new[level]
    assert data.p_new[0, 1] == cross_edits.column(rows, "p(new), other language")[level]
    assert data.p_old[0, 1] == cross_edits.column(rows, "p(old), other language")[level]
    assert f"{BY_NAME[RANK_ONE].strengths[level]:g}" in data.strength


def test_a_frame_names_both_languages_answers_and_prompts(frame):
    prompt, data = frame
    assert data.prompts == (prompt, "图蒙的首都是")
    assert data.old == ("kriloth", "克洛")
    assert data.new[1] != data.old[1] and len(data.new[1]) == 2 and data.new[0].isascii()


def test_the_view_draws_the_frames_bars_and_marks_the_edited_language(frame):
    _, data = frame
    view = figures.CrossEditView()
    fig = view.update(data)
    bars = [round(b.get_height(), 9) for b in view.before] + [
        round(b.get_height(), 9) for b in view.after
    ]
    expected = [p[row, col] for col in (0, 1) for row in (0, 1) for p in (data.p_old, data.p_new)]
    assert bars == [round(v, 9) for v in expected]
    texts = [t.get_text() for t in view.groups]
    assert "(edited)" in texts[1] and "(edited)" not in texts[0]
    assert "edited with the Chinese prompt" in fig._suptitle.get_text()
    # a Chinese answer's bar is its first character's probability, and the axis says so
    assert view.ax.get_ylabel() == "p(first token) after the prompt"
    # the legend names the bars by the edit, and the title names the rank-one knob as the text does
    legend = [t.get_text() for t in view.ax.get_legend().get_texts()]
    assert legend == ["before the edit", "after the edit"]
    assert data.strength.startswith("scale factor of the update ")
    assert data.strength in fig._suptitle.get_text()


def test_the_demos_controls_are_labelled_in_words():
    (demo,) = demos.demos()
    assert [c.title() for c in demo.controls] == ["prompt", "edit made in", "method"]
    assert [c.name for c in demo.controls] == ["prompt", "edited_in", "method"]


def test_a_control_value_outside_the_grid_is_named():
    with pytest.raises(ValueError, match="edited_in must be one of"):
        demos.cross_edit_data(demos.prompts()[0], "fr", RANK_ONE)
    with pytest.raises(ValueError, match="prompt must be one of"):
        demos.cross_edit_data("the capital of nowhere is", "en", RANK_ONE)


def test_a_tick_label_without_spaces_is_wrapped_in_lines_of_equal_length():
    assert figures._wrapped("按所问的方式教过") == "按所问的\n方式教过"
    assert figures._wrapped("只按另一种方式教过") == "只按另一种\n方式教过"
    assert figures._wrapped("从未教过") == "从未教过"
    assert figures._wrapped("一二三四五六七八九十一二三") == "一二三四五\n六七八九十\n一二三"
    assert figures._wrapped("never taught") == "never taught"
