"""The lesson 5 demos: the edit demo's data is the shipped model's next-word distribution under
the edit the controls name, over every grid value, and its one live figure shows that data; the
sparsity demo's data is the stored sweep with the chosen width, and its figure draws it."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from matplotlib.colors import to_hex

from course_lib.experiments import editing as ED
from course_lib.experiments.memory import attributions, fact_predictions, scale_units, stored_model
from course_lib.experiments.sparsity_sweep import load_sweep
from course_lib.plots import PALETTE
from course_lib.plots.memory import REWRITE_COLORS, SparsityView
from course_lib.widgets.memory import (
    CHOICES,
    METHODS,
    SCALES,
    SHOWN,
    UNIT_COUNTS,
    d_ff_values,
    demos,
    edit_data,
    prompts,
    rewrite_data,
    sparsity_data,
)


def test_the_controls_offer_every_fact_and_at_least_two_values_each():
    demo, sparsity, _ = demos()
    assert [c.name for c in sparsity.controls] == ["d_ff"] and not sparsity.trains
    assert [c.name for c in demo.controls] == ["prompt", "units", "scale"]
    assert len(prompts()) == 48 and all(len(c.values) >= 2 for c in demo.controls)
    assert {0.0, 1.0, 2.0} <= set(SCALES)


def test_edit_data_is_the_models_distribution_under_the_named_edit():
    demo = demos()[0]
    model, corpus = stored_model()
    scores = attributions(model, corpus)
    for values in demo.one_at_a_time():
        data = edit_data(**values)
        fact = prompts().index(values["prompt"])
        expected_units = [
            divmod(int(u), model.d_ff) for u in scores[fact].flatten().topk(values["units"]).indices
        ]
        assert list(data.units) == expected_units and data.scale == values["scale"]
        prompt = corpus.prompts()[0][fact : fact + 1]
        with torch.no_grad():
            after = model(prompt, scale_units(expected_units, values["scale"]))[0, -1].softmax(-1)
        ids = corpus.encode(data.words)
        np.testing.assert_allclose(data.after, after[ids].numpy(), atol=1e-12)
        assert len(data.words) == SHOWN and corpus.facts[fact].answer == data.answer in data.words
        if values["scale"] == 1.0:
            np.testing.assert_allclose(data.after, data.before, atol=1e-12)


def test_erasing_more_units_lowers_the_answer_further_for_the_default_prompt():
    demo = demos()[0]
    prompt = demo.defaults()["prompt"]
    p = []
    for units in UNIT_COUNTS:
        data = edit_data(prompt, units, 0.0)
        p.append(data.after[data.words.index(data.answer)])
    assert p[0] > p[-1] and p[-1] < data.before[data.words.index(data.answer)] - 0.05


def test_demo_figure_shows_the_data_of_every_control_value_in_one_figure():
    demo = demos()[0]
    demo.clear_cache()
    first = demo.figure()
    moves = list(demo.one_at_a_time())
    assert len(moves) == 48 + len(UNIT_COUNTS) + len(SCALES)
    for values in moves[::7] + moves[-len(SCALES) - len(UNIT_COUNTS) :]:
        fig = demo.figure(**values)
        data = edit_data(**values)
        assert fig is first and len(fig.axes) == 1
        ax = fig.axes[0]
        heights = [bar.get_height() for bar in ax.containers[1]]
        np.testing.assert_allclose(heights, np.maximum(data.after, 1e-4))
        assert [t.get_text() for t in ax.get_xticklabels()] == list(data.words)


@pytest.mark.parametrize(
    ("values", "name"),
    [
        ({"prompt": "the capital of paris is"}, "prompt"),
        ({"units": 4}, "units"),
        ({"scale": 3.0}, "scale"),
    ],
)
def test_edit_data_rejects_a_value_no_control_offers(values, name):
    arguments = {"prompt": prompts()[0], "units": 5, "scale": 0.0, **values}
    with pytest.raises(ValueError, match=rf"{name} must be one of"):
        edit_data(**arguments)


def test_the_d_ff_slider_offers_the_stored_widths():
    sparsity = demos()[1]
    (control,) = sparsity.controls
    assert tuple(control.values) == d_ff_values() == load_sweep().settings.widths
    assert control.default == 256 and len(control.values) >= 4


def test_sparsity_data_is_the_stored_sweep_with_the_chosen_width():
    sparsity = demos()[1]
    sweep = load_sweep()
    for values in sparsity.one_at_a_time():
        data = sparsity_data(**values)
        assert data.d_ff == values["d_ff"] and data.widths[data.index] == data.d_ff
        np.testing.assert_array_equal(data.trained, sweep.trained)
        np.testing.assert_array_equal(data.initial, sweep.initial)
        np.testing.assert_array_equal(data.facts_right, sweep.facts_right)
        assert data.facts == 48 and ((data.trained >= 0) & (data.trained <= 1)).all()


def test_sparsity_figure_marks_the_chosen_width_over_every_grid_value():
    sparsity = demos()[1]
    sparsity.clear_cache()
    first = sparsity.figure()
    for values in sparsity.one_at_a_time():
        fig = sparsity.figure(**values)
        data = sparsity_data(**values)
        assert fig is first and len(fig.axes) == 2
        ax, facts_ax = fig.axes
        trained = [line for line in ax.lines if line.get_linestyle() == "-"]
        assert len(trained) == 2
        for layer, line in enumerate(trained):  # the mean over seeds
            np.testing.assert_allclose(line.get_ydata(), data.trained[:, :, layer].mean(axis=0))
        np.testing.assert_allclose(
            ax.collections[0].get_offsets(),
            np.column_stack([[data.d_ff] * 2, data.trained[:, data.index].mean(axis=0)]),
        )
        bands = ax.collections[1:]  # per layer: from the lowest seed to the highest
        assert len(bands) == 2
        for layer, band in enumerate(bands):
            ys = band.get_paths()[0].vertices[:, 1]
            low, high = data.trained[:, :, layer].min(), data.trained[:, :, layer].max()
            assert ys.min() == pytest.approx(low) and ys.max() == pytest.approx(high)
        heights = [bar.get_height() for bar in facts_ax.patches]
        np.testing.assert_allclose(heights, data.facts_right.min(axis=0))  # the worst seed
        colors = {to_hex(bar.get_facecolor()) for bar in facts_ax.patches}
        assert to_hex(facts_ax.patches[data.index].get_facecolor()) == to_hex(PALETTE[2])
        assert len(colors) == 2
    assert isinstance(sparsity.view(), SparsityView)


@pytest.mark.parametrize("d_ff", [48, 1024, True, "256"])
def test_sparsity_data_rejects_a_width_the_sweep_does_not_hold(d_ff):
    with pytest.raises(ValueError, match="d_ff must be one of"):
        sparsity_data(d_ff)


def test_the_rewriting_demo_offers_every_fact_three_answers_and_three_methods():
    rewriting = demos()[2]
    assert [c.name for c in rewriting.controls] == ["prompt", "choice", "method"]
    assert rewriting.controls[0].values == prompts() and CHOICES == (1, 2, 3)
    assert METHODS == (ED.EDITS[0], ED.EDITS[2], ED.EDITS[3])
    assert rewriting.trains and "training" in rewriting.busy_text


def _expected_rewrite(fact: int, choice: int, method: str) -> tuple[np.ndarray, str, float]:
    """The demo's grid, new answer and p(new) after the other phrasing, recomputed from the
    lesson's own edit functions on the two-phrasing model."""
    model, corpus = ED.paraphrased_model()
    new = ED.new_answer(corpus, fact, choice - 1)
    edit = {
        METHODS[0]: lambda: ED.rank_one_edit(model, corpus, fact, new, layer=1, position=5),
        METHODS[1]: lambda: ED.neuron_edit(model, corpus, fact, new),
        METHODS[2]: lambda: ED.fine_tune_edit(model, corpus, fact, new, layer=1),
    }[method]()
    before, after = fact_predictions(model, corpus)[0], fact_predictions(edit, corpus)[0]
    codes = (before != after).astype(int)
    codes[fact] = 2 if corpus.decode([after[fact]]) == [new] else 3
    with torch.no_grad():
        p = edit(corpus.prompts(paraphrased=True)[0][fact : fact + 1])[0, -1].softmax(-1)
    return codes.reshape(12, 4), new, float(p[corpus.encode([new])[0]])


@pytest.mark.parametrize(("fact", "choice", "method"), [(0, 1, 0), (13, 3, 1), (30, 2, 2)])
def test_rewrite_data_is_the_named_edit_of_the_named_fact(fact, choice, method):
    data = rewrite_data(prompts()[fact], choice, METHODS[method])
    codes, new, p_new = _expected_rewrite(fact, choice, METHODS[method])
    np.testing.assert_array_equal(data.codes, codes)
    assert data.new == new and data.p_new[1, 1] == pytest.approx(p_new, abs=1e-9)
    assert data.kept == int((codes == 0).sum()) and data.others == 47
    _, corpus = ED.paraphrased_model()
    assert data.paraphrase == " ".join(corpus.facts[fact].paraphrase)
    assert data.entities[fact // 4] == corpus.facts[fact].entity
    assert data.relations[fact % 4] == corpus.facts[fact].relation


def test_the_rank_one_edit_rewrites_the_first_fact_and_keeps_the_others_fine_tuning_does_not():
    ours = rewrite_data(prompts()[0], 1, METHODS[0])
    tuned = rewrite_data(prompts()[0], 1, METHODS[2])
    assert ours.codes.flat[0] == 2 and ours.kept >= 44 and ours.p_new[1, 1] > 0.5
    assert tuned.codes.flat[0] == 2 and tuned.kept < ours.kept


def test_the_rewriting_figure_shows_its_data_cell_by_cell():
    rewriting = demos()[2]
    rewriting.clear_cache()
    first = rewriting.figure()
    for values in list(rewriting.one_at_a_time())[::9] + [
        {"prompt": prompts()[30], "choice": 2, "method": METHODS[2]}
    ]:
        values = rewriting.defaults() | values
        fig = rewriting.figure(**values)
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
        shown = np.asarray(mesh.get_array())
        np.testing.assert_array_equal(shown, data.codes.T)
        assert grid.get_ylim() == (4, 0) and grid.get_xlim() == (0, 12)  # first relation on top
        colours = [to_hex(mesh.cmap(mesh.norm(code))) for code in range(4)]
        assert colours == [to_hex(c) for c in REWRITE_COLORS]
        assert [t.get_text() for t in grid.get_xticklabels()] == list(data.entities)
        assert [t.get_text() for t in grid.get_yticklabels()] == list(data.relations)
        title = fig._suptitle.get_text()
        assert f"{data.kept} of 47 other facts" in title and f"“{data.new}”" in title
        assert f"other phrasing: “{data.paraphrase}”" in title


@pytest.mark.parametrize(
    ("values", "name"),
    [({"prompt": "the capital of paris is"}, "prompt"), ({"choice": 4}, "choice"),
     ({"method": "retraining"}, "method")],
)  # fmt: skip
def test_rewrite_data_rejects_a_value_no_control_offers(values, name):
    arguments = {"prompt": prompts()[0], "choice": 1, "method": METHODS[0], **values}
    with pytest.raises(ValueError, match=rf"{name} must be one of"):
        rewrite_data(**arguments)
