"""experiments.feature_edit: the three edits add the same vector at the edited word and, elsewhere,
that vector times their detector's gate; a feature edit leaves the model exact where the feature
is silent; the features are chosen as the rules say."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments import fact_edits
from course_lib.core.experiments.memory import stored_model
from course_lib.lessons.l08_superposition.experiments import feature_edit as fe
from course_lib.lessons.l08_superposition.experiments.dictionary_runs import stored_dictionary
from course_lib.lessons.l08_superposition.experiments.transcoder import feature_attributions

FACT = 9


@pytest.fixture(scope="module")
def setup():
    model, corpus = stored_model()
    new = fact_edits.new_answer(corpus, FACT)
    change, x = fe.edit_value(model, corpus, FACT, new)
    return model, corpus, new, change, x, fe.detectors(model, corpus)


def _edited(setup, method: str, scale: float):
    model, corpus, _, change, x, found = setup
    if method in (fe.RANK_ONE, fe.RANK_ONE_FILLER):
        C = fact_edits.key_covariance(model, corpus, fe.LAYER, facts=method == fe.RANK_ONE)
        return fe.rank_one_edit(model, corpus, FACT, change, C, scale)
    index = int(found[f"index|{method}"][FACT])
    if method in fe.UNITS.values():
        return fe.unit_edit(model, x, change, index, scale)
    rule, size = next((r, s) for c in fe.CHOICES for r, s in fe.TRANSCODERS
                      if fe.feature_method(r, s, c) == method)  # fmt: skip
    transcoder = stored_dictionary("transcoder", rule, size).dictionary
    return fe.feature_edit(model, x, change, transcoder, index, scale)


def _added(model, edited, prompts) -> torch.Tensor:
    """What the edit adds to layer 0's FFN output at every prompt's last word: (prompts, d)."""
    name = f"layers.{fe.LAYER}.ffn.hook_out"
    outs = []
    for m in (model, edited):
        with torch.no_grad():
            _, cache = m.run_with_cache(prompts, names_filter=[name])
        outs.append(cache[name][:, -1])
    return outs[1] - outs[0]


@pytest.mark.parametrize(
    "method",
    [
        fe.RANK_ONE,
        fe.RANK_ONE_FILLER,
        fe.UNITS["top"],
        fe.UNITS["quietest on filler"],
        fe.FEATURES[0],
        fe.FEATURES[-1],
    ],  # fmt: skip
)
def test_each_edit_adds_its_gate_times_the_same_vector_at_every_prompts_last_word(setup, method):
    """At the edited word every method adds scale x (v* - y*); at another prompt's last word it
    adds that vector times the gate ``detectors`` reports (the prompts' last words all read the
    same layer-0 input position, and what layer 0's FFN adds there is its whole edit)."""
    model, corpus, _, change, _, found = setup
    prompts = corpus.prompts()[0]
    added = _added(model, _edited(setup, method, 0.5), prompts)
    torch.testing.assert_close(added[FACT], 0.5 * change, rtol=1e-5, atol=1e-8)
    gate = torch.as_tensor(found[f"gates|{method}"][FACT])
    torch.testing.assert_close(added, 0.5 * gate[:, None] * change, rtol=1e-4, atol=1e-6)
    assert found[f"gates|{method}"][FACT, FACT] == pytest.approx(1.0)


def test_a_feature_edit_is_the_trained_ffn_wherever_the_feature_is_silent(setup):
    """At every word where the chosen feature is silent, the edited slot gives the trained FFN's
    output bit for bit; where it fires, that output plus f times the edit's vector."""
    model, corpus, _, _, _, found = setup
    prompts = corpus.prompts()[0]
    method = fe.feature_method("l1", 256, "narrowest carrying")
    transcoder = stored_dictionary("transcoder", "l1", 256).dictionary
    name = f"layers.{fe.LAYER}.hook_resid_mid"
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=[name])
        x = model.layers[fe.LAYER].sublayers[1].norm(cache[name])
        f = transcoder.encode(x.float())[..., int(found[f"index|{method}"][FACT])]  # (48, L)
    edited, hook = _edited(setup, method, 1.0), f"layers.{fe.LAYER}.ffn.hook_out"
    outs = []
    for m in (model, edited):
        with torch.no_grad():
            outs.append(m.run_with_cache(prompts, names_filter=[hook])[1][hook])
    silent = f == 0  # (48, L): every word of every prompt
    assert 0 < int(silent.sum()) < silent.numel()
    torch.testing.assert_close(outs[1][silent], outs[0][silent], rtol=0, atol=0)
    delta = edited.layers[fe.LAYER].ffn.delta
    torch.testing.assert_close(outs[1][~silent] - outs[0][~silent],
                               f[~silent, None].double() * delta, rtol=1e-5, atol=1e-9)  # fmt: skip


def test_each_chosen_feature_is_what_its_rule_says(setup):
    model, corpus, *_, found = setup
    x, _ = fe.last_word_inputs(model, corpus)
    filler = fe.filler_inputs(model, corpus)
    for rule, size in fe.TRANSCODERS:
        transcoder = stored_dictionary("transcoder", rule, size).dictionary
        scores, _ = feature_attributions(model, corpus, transcoder)
        active = (transcoder.encode(x.float()) > fe.FIRING).numpy()  # (facts, n_features)
        fires = active.sum(0)
        quiet = (transcoder.encode(filler.float()) > fe.FIRING).sum(0).numpy()
        top, carrying, sharp, blind = (int(found[f"index|{fe.feature_method(rule, size, c)}"][FACT])
                                       for c in fe.CHOICES)  # fmt: skip
        assert top == int(np.argmax(scores[FACT]))
        assert scores[FACT, carrying] > fe.CARRIES * scores[FACT].max()
        assert active[FACT, sharp] and fires[sharp] <= fires[carrying] <= fires[top]
        assert active[FACT, blind] and quiet[blind] == quiet[active[FACT]].min()
        share = found[f"share|{fe.feature_method(rule, size, 'top')}"][FACT]
        assert share == pytest.approx(1.0)


def test_the_filler_inputs_are_every_word_of_the_lines_that_state_no_fact(setup):
    model, corpus, *_ = setup
    tokens = corpus.tokens()[fact_edits.fact_free_lines(corpus)]
    assert fe.filler_inputs(model, corpus).shape == (int((tokens != 0).sum()), model.d_model)


def test_the_chosen_feature_rules_reject_what_they_must():
    scores = np.array([0.5, 0.3, 0.05, 0.0, 0.0])  # feature 2 is below 0.2 x 0.5: it does not carry
    active = np.array([True, True, True, True, False])  # feature 4 is silent at the edited word
    fires = np.array([40, 30, 2, 1, 0])
    quiet = np.array([9, 8, 0, 5, 0])  # feature 4 is quieter, but silent where the edit is
    assert fe.chosen_feature(scores, active, fires, quiet, "top") == 0
    assert fe.chosen_feature(scores, active, fires, quiet, "narrowest carrying") == 1
    assert fe.chosen_feature(scores, active, fires, quiet, "narrowest active") == 3
    assert fe.chosen_feature(scores, active, fires, quiet, "quietest on filler") == 2
