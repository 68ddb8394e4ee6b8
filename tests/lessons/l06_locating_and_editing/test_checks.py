"""Lesson 6 checkers accept the right answers and name the typical wrong ones: the rank-one
update's formula, and a rewrite of a fact that must be the lesson's edit."""

from __future__ import annotations

import copy
import re
from functools import partial

import torch

from course_lib.core.experiments import edit_methods, fact_edits
from course_lib.core.experiments.fact_edits import rank_one_update
from course_lib.lessons.l06_locating_and_editing.checks import (
    check_fact_rewrite,
    check_rank_one_update,
)
from course_lib.lessons.l06_locating_and_editing.experiments import editing


def _reference_edit(W, k, v, C):
    u = torch.linalg.solve(C, k)
    return W + torch.outer(v - W @ k, u) / (u @ k)


def test_the_rank_one_checker_passes_the_formula_and_names_each_typical_mistake():
    assert check_rank_one_update(_reference_edit).status == "passed"
    assert check_rank_one_update(lambda *a: (_ for _ in ()).throw(NotImplementedError)).status == (
        "not attempted"
    )
    wrong = {
        "ignores C": lambda W, k, v, C: W + torch.outer(v - W @ k, k) / (k @ k),
        "not C⁻¹ k": lambda W, k, v, C: W + torch.outer(v - W @ k, C @ k) / ((C @ k) @ k),
        "not v": lambda W, k, v, C: (
            W + torch.outer(v, torch.linalg.solve(C, k)) / (torch.linalg.solve(C, k) @ k)
        ),
        "divide by u·k": lambda W, k, v, C: W + torch.outer(v - W @ k, torch.linalg.solve(C, k)),
        "differs": lambda W, k, v, C: W * 2,
    }
    for hint, fn in wrong.items():
        result = check_rank_one_update(fn)
        assert result.status == "failed" and hint in result.message, (hint, result.message)


def _rewrite(covariance="corpus", in_place=False, bias=True, layer=1):
    """The exercise's rewrite(fact, new), right by default, else with one typical mistake."""
    model, corpus = editing.paraphrased_model()
    last = corpus.prompts()[0].shape[1] - 1

    def rewrite(fact, new):
        prompt = corpus.prompts()[0][fact : fact + 1]
        k = fact_edits.keys(model, prompt, layer=layer)[0, -1]
        v = fact_edits.target_value(
            model, prompt, corpus.encode([new])[0], layer=layer, position=last
        )
        C = (
            fact_edits.key_covariance(model, corpus, layer)
            if covariance in ("corpus", "sum")
            else torch.outer(k, k)
        )
        if covariance == "sum":  # a sum of k kᵀ over the corpus' keys, not their mean
            C = C * int((corpus.tokens() != 0).sum())
        edited = model if in_place else copy.deepcopy(model)
        W2 = edited.layers[layer].ffn.linear2
        with torch.no_grad():
            W2.weight.copy_(rank_one_update(W2.weight, k, v - W2.bias * bias, C))
        return edited

    return rewrite


def test_the_fact_rewrite_checker_passes_the_lessons_edit_and_names_each_typical_mistake():
    model, corpus = editing.paraphrased_model()
    last = corpus.prompts()[0].shape[1] - 1
    weights = {n: p.clone() for n, p in model.state_dict().items()}
    cases = {i: fact_edits.new_answer(corpus, i) for i in (0, 17)}
    reference = partial(edit_methods.rank_one_edit, model, corpus, layer=1, position=last)

    def check(fn):
        return check_fact_rewrite(fn, model, corpus.prompts()[0], cases, reference)

    assert check(_rewrite()).status == "passed"
    assert check(_rewrite(covariance="sum")).status == "passed"  # C's scale is free
    forgot_c = check(_rewrite(covariance="own key"))
    assert forgot_c.status == "failed" and "written along k* itself" in forgot_c.message
    no_bias = check(_rewrite(bias=False)).message
    assert "differs from the lesson's rank-one edit" in no_bias
    assert re.search(r"yours changes the answers of \d+ other facts, the lesson's \d+", no_bias)
    assert (
        "blocks.0" in check(_rewrite(layer=0)).message
        or "layers.0" in check(_rewrite(layer=0)).message
    )
    in_place = check(_rewrite(in_place=True))
    assert "changed the lesson's model itself" in in_place.message
    assert all(torch.equal(p, weights[n]) for n, p in model.state_dict().items())  # restored
    assert "not dict" in check(lambda fact, new: {}).message
    assert check(lambda fact, new: None).status == "failed"
