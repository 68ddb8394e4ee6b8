"""Lesson 6's rewriting demo: every frame is the stored sweep's measurement of the edit its
controls name (fact, which other answer, method, strength), and its one live figure draws that
frame's probabilities and fact grid. Nothing is edited on a move."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_hex

from course_lib.core.experiments import edit_measures, edit_sweep, fact_edits
from course_lib.lessons.l06_locating_and_editing.demos import (
    CHOICES,
    LEVELS,
    demos,
    prompts,
    rewrite_data,
)
from course_lib.lessons.l06_locating_and_editing.experiments import editing
from course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep import stored_sweep
from course_lib.lessons.l06_locating_and_editing.figures import REWRITE_COLORS


def test_the_demo_offers_every_fact_three_answers_six_methods_and_six_strengths():
    (demo,) = demos()
    assert [c.name for c in demo.controls] == ["prompt", "choice", "method", "strength"]
    assert demo.controls[0].values == prompts() and len(prompts()) == 48
    assert CHOICES == (1, 2, 3) and LEVELS == (1, 2, 3, 4, 5, 6)
    assert demo.controls[2].values == tuple(m.name for m in edit_sweep.METHODS)


@pytest.mark.parametrize(
    ("fact", "choice", "method", "strength"),
    [
        (0, 1, edit_sweep.RANK_ONE, 4),
        (13, 3, edit_sweep.NEURONS, 1),
        (30, 2, edit_sweep.FINE_TUNING, 6),
        (47, 2, edit_sweep.BOUNDED, 3),
    ],
)
def test_a_frame_is_the_sweeps_measurement_of_the_named_edit(fact, choice, method, strength):
    _, corpus = editing.paraphrased_model()
    data = rewrite_data(prompts()[fact], choice, method, strength)
    sweep = stored_sweep()
    new = fact_edits.new_answer(corpus, fact, choice - 1)
    edit = sweep.edits.index((fact, new))
    row = dict(zip(edit_measures.METRICS, sweep.results[method][edit, strength - 1], strict=True))
    assert data.new == new and data.old == corpus.facts[fact].answer
    assert data.p_new[0].tolist() == [sweep.before[edit][0], row["p(new)"]]
    assert data.p_new[1].tolist() == [sweep.before[edit][2], row["p(new), other phrasing"]]
    assert data.p_old[:, 1].tolist() == [row["p(old)"], row["p(old), other phrasing"]]
    changed = sweep.changed[method][edit, strength - 1]
    codes = data.codes.ravel()
    assert codes[fact] == (2 if row["top-1"] else 3)
    others = np.delete(np.arange(48), fact)
    np.testing.assert_array_equal(codes[others], changed[others].astype(int))
    strengths = edit_sweep.BY_NAME[method].strengths
    assert data.strength.endswith(f"{strengths[strength - 1]:g}")
    assert data.paraphrase == " ".join(corpus.facts[fact].paraphrase)
    assert data.entities[fact // 4] == corpus.facts[fact].entity
    assert data.relations[fact % 4] == corpus.facts[fact].relation


def test_the_default_frame_rewrites_the_first_fact_and_fine_tuning_changes_more_facts():
    ours = rewrite_data(prompts()[0], 1, edit_sweep.RANK_ONE, 4)
    tuned = rewrite_data(prompts()[0], 1, edit_sweep.FINE_TUNING, 6)
    assert ours.codes.flat[0] == 2 and ours.kept >= 45 and ours.p_new[1, 1] > 0.5
    assert tuned.codes.flat[0] == 2 and tuned.kept < ours.kept


def test_the_figure_shows_its_data_cell_by_cell():
    (demo,) = demos()
    demo.clear_cache()
    first = demo.figure()
    moves = list(demo.one_at_a_time())[::9]
    moves.append(
        {"prompt": prompts()[30], "choice": 2, "method": edit_sweep.NEURONS, "strength": 6}
    )
    for values in moves:
        values = demo.defaults() | values
        fig = demo.figure(**values)
        data = rewrite_data(**values)
        assert fig is first
        bars, grid = fig.axes[:2]
        heights = [[b.get_height() for b in c] for c in bars.containers]
        expected = [[p[row, column] for row in (0, 1) for p in (data.p_old, data.p_new)]
                    for column in (0, 1)]  # fmt: skip
        np.testing.assert_allclose(heights, expected)
        words = [t.get_text() for t in bars.get_xticklabels()]
        assert words == [f"old: {data.old}", f"new: {data.new}"] * 2
        (mesh,) = grid.collections  # a cell per fact: a row per relation, a column per entity
        np.testing.assert_array_equal(np.asarray(mesh.get_array()), data.codes.T)
        assert grid.get_ylim() == (4, 0) and grid.get_xlim() == (0, 12)  # first relation on top
        colours = [to_hex(mesh.cmap(mesh.norm(code))) for code in range(4)]
        assert colours == [to_hex(c) for c in REWRITE_COLORS]
        assert [t.get_text() for t in grid.get_xticklabels()] == list(data.entities)
        assert [t.get_text() for t in grid.get_yticklabels()] == list(data.relations)
        title = fig._suptitle.get_text()
        assert f"{data.method}, {data.strength}: {data.kept} of 47 other facts" in title
        assert f"“{data.new}”" in title and f"filler loss {data.filler_loss_change:+.2f}" in title
        assert f"other phrasing: “{data.paraphrase}”" in title


@pytest.mark.parametrize(
    ("values", "name"),
    [({"prompt": "the capital of paris is"}, "prompt"), ({"choice": 4}, "choice"),
     ({"method": "retraining"}, "method"), ({"strength": 7}, "strength"),
     ({"strength": True}, "strength")],
)  # fmt: skip
def test_rewrite_data_rejects_a_value_no_control_offers(values, name):
    arguments = {
        "prompt": prompts()[0],
        "choice": 1,
        "method": edit_sweep.RANK_ONE,
        "strength": 4,
        **values,
    }
    with pytest.raises(ValueError, match=rf"{name} must be one of"):
        rewrite_data(**arguments)


def test_a_bool_strength_is_refused_even_after_its_integer_was_drawn():
    """True == 1 and hashes alike: a cache asked first would hand back strength 1's frame."""
    arguments = {"prompt": prompts()[0], "choice": 1, "method": edit_sweep.RANK_ONE}
    rewrite_data(**arguments, strength=1)
    with pytest.raises(ValueError, match="strength must be one of"):
        rewrite_data(**arguments, strength=True)
