"""Lesson 5 checkers accept the right answers and name the typical wrong ones."""

from __future__ import annotations

import pytest
import torch

from course_lib.core.experiments.memory import attributions, stored_model
from course_lib.lessons.l05_ffn_memory.checks import (
    ablation_drops,
    check_costliest_unit,
    check_value_projection,
)

FACT = 0


@pytest.fixture(scope="module")
def case():
    model, corpus = stored_model()
    prompts, answers = corpus.prompts()
    return model, prompts[FACT], int(answers[FACT])


def test_ablation_drops_are_single_unit_edits_of_the_model(case):
    model, prompt, answer = case
    drops = ablation_drops(model, prompt, answer)
    assert drops.shape == (2, model.d_ff)
    with torch.no_grad():
        p = model(prompt[None])[0, -1].softmax(-1)[answer]
        for layer, unit in ((0, 5), (1, 200), divmod(int(drops.flatten().argmax()), model.d_ff)):

            def zero(h, _hook, unit=unit):
                h = h.clone()
                h[:, -1, unit] = 0.0
                return h

            hooks = [(f"layers.{layer}.ffn.hook_hidden", zero)]
            edited = model.run_with_hooks(prompt[None], fwd_hooks=hooks)[0, -1].softmax(-1)
            assert abs((p - edited[answer]).item() - drops[layer, unit].item()) < 1e-12
    assert drops.max() > 0.01


def best_unit(model, prompt, answer):
    drops = ablation_drops(model, prompt, answer)
    return divmod(int(drops.flatten().argmax()), model.d_ff)


def test_costliest_unit_accepts_the_search_and_says_what_it_costs(case):
    result = check_costliest_unit(best_unit, *case)
    model, prompt, answer = case
    drop = ablation_drops(model, prompt, answer).max().item()
    assert result.passed and f"by {drop:.2f}" in result.message and "costliest" in result.message


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda m, p, a: int(ablation_drops(m, p, a).flatten().argmax()), "divmod"),
        (lambda m, p, a: best_unit(m, p, a)[::-1], "swapped"),
        (
            lambda m, p, a: divmod(int(ablation_drops(m, p, a).flatten().argmin()), m.d_ff),
            "wrong sign",
        ),
        (lambda m, p, a: None, "forget"),
    ],
)
def test_costliest_unit_names_the_typical_mistakes(case, wrong, hint):
    result = check_costliest_unit(wrong, *case)
    assert result.status == "failed" and hint in result.message


def firing_most(model, prompt, answer):
    names = [f"layers.{i}.ffn.hook_hidden" for i in range(len(model.layers))]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompt[None], names_filter=names)
    hidden = torch.stack([cache[name][0, -1] for name in names])  # (layers, d_ff)
    return divmod(int(hidden.flatten().argmax()), model.d_ff)


def test_costliest_unit_says_that_firing_is_not_mattering():
    model, corpus = stored_model()
    prompts, answers = corpus.prompts()
    for i in range(len(corpus.facts)):  # a fact whose most active unit matters little
        drops = ablation_drops(model, prompts[i], int(answers[i])).flatten()
        layer, unit = firing_most(model, prompts[i], int(answers[i]))
        if 0 < drops[layer * model.d_ff + unit] < drops.topk(3).values[-1]:
            break
    else:
        pytest.fail("no fact's most active unit has a small positive effect")
    result = check_costliest_unit(firing_most, model, prompts[i], int(answers[i]))
    assert result.status == "failed" and "fires most" in result.message


def test_costliest_unit_rejects_a_unit_that_matters_little(case):
    model, prompt, answer = case
    drops = ablation_drops(model, prompt, answer).flatten()
    small = int(((drops > 0) & (drops < drops.topk(3).values[-1] / 4)).nonzero()[0])
    result = check_costliest_unit(lambda m, p, a: divmod(small, m.d_ff), *case)
    assert result.status == "failed" and "measure" in result.message


def test_the_attribution_answer_is_judged_by_its_measured_effect(case):
    # gradient x activation's top unit for fact 0 is not among its 3 largest drops: a linear
    # estimate, and the checker says so instead of accepting it
    model, corpus = stored_model()
    scores = attributions(model, corpus)
    top = divmod(int(scores[FACT].flatten().argmax()), model.d_ff)
    drops = ablation_drops(*case).flatten()
    in_top3 = top[0] * model.d_ff + top[1] in drops.topk(3).indices.tolist()
    assert check_costliest_unit(lambda m, p, a: top, *case).passed is in_top3


def test_costliest_unit_says_not_attempted_for_the_stub(case):
    def stub(model, prompt, answer):
        raise NotImplementedError

    assert check_costliest_unit(stub, *case).status == "not attempted"


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
