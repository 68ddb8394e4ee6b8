"""Lesson 5 checkers accept the right answers and name the typical wrong ones."""

from __future__ import annotations

from functools import partial

import pytest
import torch

from course_lib.core.experiments.memory import first_order_scores, stored_model
from course_lib.lessons.l05_ffn_memory.checks import (
    FACTS,
    ablation_drops,
    check_costliest_unit,
    check_value_projection,
)

FACT = 5


@pytest.fixture(scope="module")
def case():
    model, corpus = stored_model()
    prompts, answers = corpus.prompts()
    return model, prompts[FACT], int(answers[FACT])


def test_ablation_drops_are_single_unit_edits_of_the_model(case):
    model, prompt, answer = case
    drops = ablation_drops(model, prompt, answer)
    assert drops.shape == (2, model.d_ff)
    everywhere = ablation_drops(model, prompt, answer, every_position=True)
    logits = ablation_drops(model, prompt, answer, logit=True)
    with torch.no_grad():
        clean = model(prompt[None])[0, -1]
        for layer, unit in ((0, 5), (1, 200), divmod(int(drops.flatten().argmax()), model.d_ff)):
            for where, expected, read in ((-1, drops, "p"), (slice(None), everywhere, "p"),
                                          (-1, logits, "logit")):  # fmt: skip

                def zero(h, _hook, unit=unit, where=where):
                    h = h.clone()
                    h[:, where, unit] = 0.0
                    return h

                hooks = [(f"layers.{layer}.ffn.hook_hidden", zero)]
                edited = model.run_with_hooks(prompt[None], fwd_hooks=hooks)[0, -1]
                if read == "p":
                    drop = clean.softmax(-1)[answer] - edited.softmax(-1)[answer]
                else:
                    drop = clean[answer] - edited[answer]
                assert abs(drop.item() - expected[layer, unit].item()) < 1e-12
    assert drops.max() > 0.01


def best_unit(model, prompt, answer, **how):
    drops = ablation_drops(model, prompt, answer, **how)
    return divmod(int(drops.flatten().argmax()), model.d_ff)


def firing_most(model, prompt, answer):
    names = [f"layers.{i}.ffn.hook_hidden" for i in range(len(model.layers))]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompt[None], names_filter=names)
    hidden = torch.stack([cache[name][0, -1] for name in names])  # (layers, d_ff)
    return divmod(int(hidden.flatten().argmax()), model.d_ff)


def gradient_times_activation(model, prompt, answer):
    corpus = stored_model()[1]
    fact = next(i for i, p in enumerate(corpus.prompts()[0]) if torch.equal(p, prompt))
    return divmod(int(first_order_scores(model, corpus)[fact].flatten().argmax()), model.d_ff)


def second_best(model, prompt, answer):
    drops = ablation_drops(model, prompt, answer)
    return divmod(int(drops.flatten().topk(2).indices[1]), model.d_ff)


def test_costliest_unit_accepts_the_search_and_says_what_it_costs():
    model, corpus = stored_model()
    result = check_costliest_unit(best_unit, model, corpus)
    prompts, answers = corpus.prompts()
    drop = ablation_drops(model, prompts[FACTS[0]], int(answers[FACTS[0]])).max().item()
    assert result.passed and f"by {drop:.2f}" in result.message and "costliest" in result.message


def test_the_facts_tell_every_usual_wrong_search_from_the_right_one_and_from_each_other():
    model, corpus = stored_model()
    prompts, answers = corpus.prompts()
    searches = (best_unit, partial(best_unit, every_position=True), partial(best_unit, logit=True),
                firing_most, gradient_times_activation)  # fmt: skip
    picks = [tuple(s(model, prompts[f], int(answers[f])) for f in FACTS) for s in searches]
    assert len(set(picks)) == len(picks)  # no two searches agree on every fact
    right = picks[0]
    for wrong in picks[1:]:  # each wrong search misses the costliest unit on some fact
        assert any(w != r for w, r in zip(wrong, right, strict=True))


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda m, p, a: int(ablation_drops(m, p, a).flatten().argmax()), "divmod"),
        (lambda m, p, a: best_unit(m, p, a)[::-1], "swapped"),
        (
            lambda m, p, a: divmod(int(ablation_drops(m, p, a).flatten().argmin()), m.d_ff),
            "not the smallest",
        ),
        (lambda m, p, a: None, "forget"),
        (partial(best_unit, every_position=True), "every word"),
        (partial(best_unit, logit=True), "logit"),
        (firing_most, "fires most"),
        (gradient_times_activation, "first-order"),
        (second_best, "zero each unit in turn"),
    ],
)
def test_costliest_unit_names_the_typical_mistakes(wrong, hint):
    model, corpus = stored_model()
    result = check_costliest_unit(wrong, model, corpus)
    assert result.status == "failed" and hint in result.message, result.message


def test_costliest_unit_says_not_attempted_for_the_stub():
    def stub(model, prompt, answer):
        raise NotImplementedError

    model, corpus = stored_model()
    assert check_costliest_unit(stub, model, corpus).status == "not attempted"


def right_projection(model, layer):
    return model.layers[layer].ffn.linear2.weight.T @ model.unembedding.T


def test_value_projection_accepts_the_formula_and_the_models_own():
    assert check_value_projection(right_projection).passed
    assert check_value_projection(lambda m, layer: m.value_logits(layer)).passed


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda m, layer: m.layers[layer].ffn.linear1.weight @ m.unembedding.T, "W1"),
        (lambda m, layer: right_projection(m, layer).T, "transposed"),
        (
            lambda m, layer: m.norm(m.layers[layer].ffn.linear2.weight.T) @ m.unembedding.T,
            "LayerNorm",
        ),
        (
            lambda m, layer: (
                (m.layers[layer].ffn.linear2.weight.T + m.layers[layer].ffn.linear2.bias)
                @ m.unembedding.T
            ),
            "b2",
        ),
        (lambda m, layer: right_projection(m, layer).softmax(-1), "probabilities"),
        (lambda m, layer: right_projection(m, 1 - layer), "other layer"),
        (lambda m, layer: m.layers[layer].ffn.linear2.weight @ m.unembedding.T, "raised"),
        (lambda m, layer: m.unembedding @ m.layers[layer].ffn.linear2.weight, "transposed"),
    ],
)
def test_value_projection_names_the_typical_mistakes(wrong, hint):
    result = check_value_projection(wrong)
    assert result.status == "failed" and hint in result.message
