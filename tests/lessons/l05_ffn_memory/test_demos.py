"""The lesson 5 demos: the edit demo's data is the shipped model's next-word distribution under
the edit the controls name, over every grid value, and its one live figure shows that data; the
sparsity demo's data is the stored sweep with the chosen width, and its figure draws it."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from matplotlib.colors import to_hex

from course_lib.core.experiments.memory import attributions, scale_units, stored_model
from course_lib.core.plots import PALETTE
from course_lib.lessons.l05_ffn_memory.demos import (
    SCALES,
    SHOWN,
    UNIT_COUNTS,
    d_ff_values,
    demos,
    edit_data,
    prompts,
    sparsity_data,
)
from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import load_sweep
from course_lib.lessons.l05_ffn_memory.figures import SparsityView


def test_the_controls_offer_every_fact_and_at_least_two_values_each():
    demo, sparsity = demos()
    assert [c.name for c in sparsity.controls] == ["d_ff"]
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
            after = model.run_with_hooks(
                prompt, fwd_hooks=scale_units(expected_units, values["scale"])
            )[0, -1].softmax(-1)
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


def test_a_bool_is_refused_even_after_its_number_was_drawn():
    """True == 1 and hashes alike: a cache asked first would hand back the frame of 1."""
    prompt = prompts()[0]
    if 1 in UNIT_COUNTS:
        edit_data(prompt, 1, SCALES[0])
        with pytest.raises(ValueError, match="units must be one of"):
            edit_data(prompt, True, SCALES[0])
    if 1.0 in SCALES:
        edit_data(prompt, UNIT_COUNTS[0], 1.0)
        with pytest.raises(ValueError, match="scale must be one of"):
            edit_data(prompt, UNIT_COUNTS[0], True)
    assert 1 in UNIT_COUNTS or 1.0 in SCALES  # the case the cache could confuse exists
