"""Lesson 9's figures show the quantities they are given, read back from them; the demo's frames
are the stored sweep's numbers, at the weakest strength reaching p(new) 0.9, and name a wrong
control value."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.experiments.edit_measures import METRICS
from course_lib.core.experiments.edit_sweep import BY_NAME, RANK_ONE
from course_lib.lessons.l09_two_languages import demos, figures
from course_lib.lessons.l09_two_languages.experiments import cross_edits


def test_the_overlap_figure_draws_each_models_two_means_and_chance():
    models = {"a": (1.5, 1.25), "b": (7.0, 4.5)}
    fig = figures.overlap_figure(models, chance=0.2, k=10)
    ax = fig.axes[0]
    heights = sorted(round(p.get_height(), 6) for p in ax.patches)
    assert heights == [1.25, 1.5, 4.5, 7.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]
    (line,) = ax.get_lines()
    assert line.get_ydata()[0] == pytest.approx(0.2)
    assert {t.get_text() for t in ax.texts} == {"1.5", "1.2", "7.0", "4.5"}


def test_the_trace_figure_writes_each_cells_share_under_its_language():
    effects = {"en": np.array([[0.0, 0.1], [0.2, 0.7]]), "zh": np.array([[0.3, 0.4], [0.5, 0.6]])}
    words = {"en": ["<bos>", "is"], "zh": ["<bos>", "是"]}
    fig = figures.trace_pair_figure(effects, words)
    for ax, language in zip(fig.axes, ("en", "zh"), strict=True):
        assert ax.get_title() == figures.LANGUAGE_NAMES[language]
        shown = sorted(float(t.get_text()) for t in ax.texts)
        assert shown == sorted(effects[language].ravel().round(2).tolist())
        assert [t.get_text() for t in ax.get_xticklabels()] == words[language]


@pytest.fixture(scope="module")
def frame():
    prompt = demos.prompts()[0]
    return prompt, demos.cross_edit_data(prompt, "zh", RANK_ONE)


def test_a_frame_is_the_stored_sweep_at_the_weakest_strength_reaching_0_9(frame):
    _, data = frame
    rows = cross_edits.stored(cross_edits.edits_file(False))[f"plain|0|zh|{RANK_ONE}"][0]
    p_new = rows[:, METRICS.index("p(new)")]
    level = int(np.argmax(p_new >= 0.9)) if (p_new >= 0.9).any() else len(p_new) - 1
    # rows of the frame: English, Chinese; the Chinese prompt was edited
    assert data.p_new[1, 1] == rows[level, METRICS.index("p(new)")]
    assert data.p_new[0, 1] == rows[level, METRICS.index("p(new), other phrasing")]
    assert data.p_old[0, 1] == rows[level, METRICS.index("p(old), other phrasing")]
    assert f"{BY_NAME[RANK_ONE].strengths[level]:g}" in data.strength


def test_a_frame_names_both_languages_answers_and_prompts(frame):
    prompt, data = frame
    assert data.prompts == (prompt, "图门的首都是")
    assert data.old == ("kriloth", "基")
    assert data.new[1] != data.old[1] and len(data.new[1]) == 1 and data.new[0].isascii()


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


def test_a_control_value_outside_the_grid_is_named():
    with pytest.raises(ValueError, match="edited_in must be one of"):
        demos.cross_edit_data(demos.prompts()[0], "fr", RANK_ONE)
    with pytest.raises(ValueError, match="prompt must be one of"):
        demos.cross_edit_data("the capital of nowhere is", "en", RANK_ONE)
