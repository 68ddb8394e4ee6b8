"""Where doubling a fact's top units acts: the full path is the knowledge-neuron edit itself, a
factor of 1 changes nothing on any path, the "later layers blind" path is the full one when the
later layers add nothing, the held scale is the LayerNorm's own on the unedited stream, and each
layer's split covers the facts that have units there."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch

from course_lib.core.experiments.memory import (
    knowledge_neuron_effects,
    stored_attributions,
    stored_model,
)
from course_lib.lessons.l05_ffn_memory.experiments.doubling import (
    PATHS,
    doubling_paths,
    scale_ratio,
    scaled_log_odds,
    top_unit_layers,
)
from course_lib.lessons.l05_ffn_memory.experiments.paths import held_scale_logits, norm_scale


@pytest.fixture(scope="module")
def lesson_model():
    model, corpus = stored_model()
    return model, corpus, stored_attributions()


def test_the_full_path_is_the_knowledge_neuron_edit_itself(lesson_model):
    model, corpus, scores = lesson_model
    for factor in (0.0, 2.0):
        expected = knowledge_neuron_effects(model, corpus, top=5, factor=factor).own_log_odds
        got = scaled_log_odds(model, corpus, scores, factor=factor)
        np.testing.assert_allclose(got, expected, atol=1e-9)


@pytest.mark.parametrize(("later", "held"), [(True, False), (True, True), (False, False),
                                             (False, True)])  # fmt: skip
def test_a_factor_of_one_changes_nothing_on_any_path(lesson_model, later, held):
    model, corpus, scores = lesson_model
    got = scaled_log_odds(model, corpus, scores, factor=1.0, later_layers=later, held_scale=held)
    assert np.abs(got).max() < 1e-10


def test_the_held_scale_is_the_layer_norms_own_on_the_unedited_stream(lesson_model):
    model = lesson_model[0]
    stream = torch.randn(7, model.d_model, generator=torch.Generator().manual_seed(0)).double()
    with torch.no_grad():
        held = held_scale_logits(model, stream, norm_scale(model, stream))
        doubled = held_scale_logits(model, 2 * stream, norm_scale(model, stream))
        torch.testing.assert_close(held, model.logits(stream), atol=1e-12, rtol=0)
        # held, the scale no longer absorbs a larger stream: all but the bias's part doubles
        shift = model.norm.bias @ model.unembedding.T  # (vocab,)
        torch.testing.assert_close(doubled - shift, 2 * (held - shift), atol=1e-12, rtol=0)


def test_the_blind_path_is_the_full_one_when_the_later_layers_add_nothing(lesson_model):
    model, corpus, scores = lesson_model
    silent = copy.deepcopy(model)
    with torch.no_grad():  # layer 1 writes nothing into the stream: attention out and W2 zeroed
        for linear in (silent.layers[1].self_attn.linear_out, silent.layers[1].ffn.linear2):
            linear.weight.zero_()
            linear.bias.zero_()
    full = scaled_log_odds(silent, corpus, scores, layers=(0,))
    blind = scaled_log_odds(silent, corpus, scores, layers=(0,), later_layers=False)
    np.testing.assert_allclose(blind, full, atol=1e-9)
    # in the lesson's model layer 1 does read the doubled units: the two paths differ
    lesson = scaled_log_odds(model, corpus, scores, layers=(0,))
    assert np.abs(lesson - scaled_log_odds(model, corpus, scores, layers=(0,),
                                           later_layers=False)).max() > 0.1  # fmt: skip


def test_the_last_layers_units_have_no_later_layer_to_reach(lesson_model):
    model, corpus, scores = lesson_model
    for held in (False, True):
        full = scaled_log_odds(model, corpus, scores, layers=(1,), held_scale=held)
        blind = scaled_log_odds(model, corpus, scores, layers=(1,), later_layers=False,
                                held_scale=held)  # fmt: skip
        np.testing.assert_allclose(blind, full, atol=1e-9)


def test_each_layers_split_covers_the_facts_with_units_there(lesson_model):
    model, corpus, scores = lesson_model
    layers = top_unit_layers(scores, top=5)
    flat = scores.flatten(1).topk(5, dim=1).indices.numpy()
    assert np.array_equal(layers, flat // model.d_ff)
    paths = doubling_paths(model, corpus, scores)
    assert set(paths.paths) == set(PATHS) and np.array_equal(paths.layers, layers)
    assert np.array_equal(paths.scale, scale_ratio(model, corpus, scores))
    for layer in (0, 1):
        has = (layers == layer).any(axis=1)
        assert np.array_equal(~np.isnan(paths.only[layer]), has)
        assert np.array_equal(~np.isnan(paths.only_held[layer]), has)
    # a fact whose five units all sit in layer 0: doubling its layer-0 ones is doubling them all
    alone = np.flatnonzero((layers == 0).all(axis=1))
    assert len(alone) > 0
    np.testing.assert_allclose(paths.only[0][alone], paths.paths["as run"][alone], atol=1e-9)


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"layers": (2,)}, ValueError, r"layer must be in \[0, 2\), got 2"),
        ({"top": 0}, ValueError, "top must be"),
    ],
)
def test_bad_arguments_are_named(lesson_model, changes, error, message):
    model, corpus, scores = lesson_model
    with pytest.raises(error, match=message):
        scaled_log_odds(model, corpus, scores, **changes)


def test_the_scale_ratio_is_the_final_layer_norms_divisor_doubled_over_as_trained(lesson_model):
    model, corpus, scores = lesson_model
    assert np.abs(scale_ratio(model, corpus, scores, factor=1.0) - 1).max() < 1e-12
    ratio = scale_ratio(model, corpus, scores)
    fact, d_ff = 3, model.d_ff
    units = [divmod(int(u), d_ff) for u in scores[fact].flatten().topk(5).indices]
    prompt = corpus.prompts()[0][fact : fact + 1]

    def doubled(h, hook):
        h = h.clone()
        for layer, unit in units:
            if hook.name == f"layers.{layer}.ffn.hook_hidden":
                h[:, -1, unit] *= 2
        return h

    final = "layers.1.hook_resid_post"
    hooks = [(f"layers.{i}.ffn.hook_hidden", doubled) for i in (0, 1)]
    with torch.no_grad():
        _, clean = model.run_with_cache(prompt, names_filter=[final])
        with model.hooks(hooks):
            _, edited = model.run_with_cache(prompt, names_filter=[final])
    spread = [c[final][0, -1].var(unbiased=False) + model.norm.eps for c in (edited, clean)]
    assert abs(ratio[fact] - float((spread[0] / spread[1]).sqrt())) < 1e-12


def test_matched_reads_both_layers_on_the_same_facts_and_per_unit():
    from course_lib.lessons.l05_ffn_memory.experiments.doubling import DoublingPaths

    layers = np.array([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1]])
    only = {0: np.array([-3.0, -9.0, -2.0]), 1: np.array([-1.0, np.nan, -0.5])}
    paths = {"as run": np.array([-3.0, -2.0]), "scale held": np.array([-2.0, -1.0]),
             "later layers blind": np.array([-1.0, -1.0]), "both held": np.array([0.0, 1.0])}  # fmt: skip
    doubled = DoublingPaths(layers, only, only, paths, np.ones(3))
    n, alone, per_unit = doubled.matched()
    assert n == 2  # the second fact has no layer-1 unit: its -9 is left out of layer 0's mean
    np.testing.assert_allclose(alone, [-2.5, -0.75])
    np.testing.assert_allclose(per_unit, [(-1.0 - 0.5) / 2, (-0.5 - 0.5) / 2])
    # fact 0: -3 + 2 + 1 + 0 = 0, the paths add; fact 1: -2 + 1 + 1 + 1 = 1
    np.testing.assert_allclose(doubled.interaction(), [0.0, 1.0])


def test_the_ratio_interval_resamples_the_matched_facts_only():
    from course_lib.lessons.l05_ffn_memory.experiments.doubling import DoublingPaths

    layers = np.array([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 1, 1]])
    only = [np.array([-2.0, -9.0, -4.0, -2.0]), np.array([-1.0, np.nan, -0.5, -1.0])]
    paths = {"as run": np.zeros(4)}
    doubled = DoublingPaths(layers, only, only, paths, np.ones(4))
    per_unit = doubled.matched()[2]
    low, high = doubled.per_unit_ratio_interval(draws=500)
    # per fact, layer 0 over layer 1: 2 / 3 over 1 / 2, 1 over 1 / 2, 2 / 3 over 1 / 2; the
    # unmatched -9 would push the ratio far above 2 if it were resampled
    assert 4 / 3 <= low <= per_unit[0] / per_unit[1] <= high <= 2
    assert low < high
    assert doubled.per_unit_ratio_interval(draws=500) == (low, high)  # a local generator
    with pytest.raises(ValueError, match="draws"):
        doubled.per_unit_ratio_interval(draws=0)
