"""experiments.fact_experts: lesson 5's fact model with its FFNs split into experts. The routes
are each router's first choice, the tables count them by relation, erasing an expert silences
exactly that expert, and the stored models are what their rebuild trains."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments.facts import RELATIONS
from course_lib.core.experiments.memory import (
    load_model,
    router_logits,
    training_tokens,
)
from course_lib.core.model.moe import top_k_gates
from course_lib.lessons.l07_mixture_of_experts.experiments import fact_experts
from devtools.spread.record import check_fresh_run


def test_the_two_budgets_hold_the_dense_ffns_parameters_or_its_compute_per_token():
    dense = 2 * 64 * 256 + 256 + 64  # lesson 5's FFN
    total, active = (
        fact_experts.MOE_SETTINGS["equal total"].model,
        fact_experts.MOE_SETTINGS["equal active"].model,
    )
    expert = lambda d_ff: 2 * 64 * d_ff + d_ff + 64  # noqa: E731
    assert abs(total.num_experts * expert(total.d_ff) / dense - 1) < 0.01
    assert abs(active.k * expert(active.d_ff) / dense - 1) < 0.01


def test_routes_are_each_layers_first_choice_at_each_prompts_last_word():
    model, corpus = fact_experts.stored_moe("equal total", 0)
    chosen = fact_experts.routes(model, corpus)
    prompts, _ = corpus.prompts()
    with torch.no_grad(), router_logits(model) as logits:
        model(prompts)
    assert chosen.shape == (48, 2) and len(logits) == 2
    for layer, z in enumerate(logits):
        assert np.array_equal(chosen[:, layer], z[:, -1].argmax(-1).numpy())


def test_the_routing_tables_count_every_fact_once_and_purity_reads_them():
    model, corpus = fact_experts.stored_moe("equal total", 0)
    chosen = fact_experts.routes(model, corpus)[:, 1]
    relations = [fact.relation for fact in corpus.facts]
    table = fact_experts.routing_table(chosen, relations, 4)
    assert table.shape == (len(RELATIONS), 4) and table.sum() == 48
    assert (table.sum(axis=1) == 12).all()  # twelve entities per relation
    capitals = [i for i, fact in enumerate(corpus.facts) if fact.relation == relations[0]]
    assert table[0].tolist() == np.bincount(chosen[capitals], minlength=4).tolist()
    assert fact_experts.purity(np.diag([12, 12, 12, 12])) == 1.0  # one expert per relation
    assert fact_experts.purity(np.full((4, 4), 3)) == 0.25  # routing that ignores the relation


def test_an_own_expert_takes_all_of_one_groups_facts_and_nothing_else():
    assert fact_experts.own_experts(np.diag([12, 12, 12, 12])) == 4
    assert (
        fact_experts.own_experts(np.array([[12, 0], [3, 9]])) == 0
    )  # expert 0 takes all of a, and b's
    assert (
        fact_experts.own_experts(np.array([[12, 0, 0], [0, 9, 3]])) == 1
    )  # a has expert 0; b has none
    assert (
        fact_experts.own_experts(np.array([[6, 6], [0, 12]])) == 0
    )  # expert 1 has all of b, and a's


def test_chance_purity_is_what_routing_that_ignores_the_labels_scores():
    labels = ["a"] * 6 + ["b"] * 6
    by_label = np.array([0] * 6 + [1] * 6)  # one expert per label: purity 1
    assert fact_experts.purity(fact_experts.routing_table(by_label, labels, 2)) == 1.0
    chance = fact_experts.chance_purity(by_label, labels, 2)
    assert 0.5 < chance < 0.8  # dealt at random, each label gets a mix
    assert fact_experts.chance_purity(by_label, labels, 2) == chance  # seeded
    everyone_to_one = np.zeros(12, dtype=int)
    assert fact_experts.chance_purity(everyone_to_one, labels, 2) == 1.0  # nothing to tell apart
    # two facts of each label, one expert each: dealt at random, a label keeps both of its facts
    # on one expert with probability 1/3 (purity 1), else splits them (purity 1/2): 2/3 expected
    assert (
        abs(fact_experts.chance_purity(np.array([0, 0, 1, 1]), ["a", "a", "b", "b"], 2) - 2 / 3)
        < 0.01
    )


def test_the_purity_p_value_is_the_share_of_shuffles_at_least_as_pure():
    labels = ["a"] * 6 + ["b"] * 6
    by_label = np.array([0] * 6 + [1] * 6)
    # 924 ways to deal six 0s among 12 facts; 2 of them are as pure as the labels (purity 1)
    p = fact_experts.purity_p_value(by_label, labels, 2, draws=20000)
    assert abs(p - 2 / 924) < 0.002
    assert fact_experts.purity_p_value(np.zeros(12, dtype=int), labels, 2) == 1.0  # untestable
    # two facts each: purity 1 in a third of the deals, so exact p = 1/3
    assert (
        abs(fact_experts.purity_p_value(np.array([0, 0, 1, 1]), ["a", "a", "b", "b"], 2) - 1 / 3)
        < 0.02
    )
    assert fact_experts.purity_p_value(by_label, labels, 2, draws=99) >= 1 / 100  # never 0


def test_an_erased_expert_outputs_zeros_inside_the_block_only():
    model, corpus = fact_experts.stored_moe("equal total", 0)
    moe, x = model.layers[1].ffn, torch.randn(5, 64, dtype=torch.float64)
    gates = moe.gates(x)
    with torch.no_grad():
        before = moe(x)
        with fact_experts.erased(model, 1, 2):
            during = moe(x)
        after = moe(x)
        without = before - gates[:, 2:3] * moe.experts[2](x)
    torch.testing.assert_close(during, without)
    torch.testing.assert_close(after, before)
    with pytest.raises(ValueError, match=r"expert must be in \[0, 4\), got 4"):
        with fact_experts.erased(model, 0, 4):
            pass


@pytest.mark.parametrize(
    ("name", "expert", "shared"), [("equal total", 2, False), ("shared expert", 0, True)]
)
def test_erasing_an_expert_at_the_last_word_takes_its_share_there_and_nothing_else(
    name, expert, shared
):
    """A routed expert's gated output, or a shared one's whole output, leaves the mixture's output
    at each prompt's last word; the other words keep theirs to the bit."""
    model, corpus = fact_experts.stored_moe(name, 0)
    prompts, _ = corpus.prompts()
    moe, names = model.layers[0].ffn, ["layers.0.hook_resid_mid", "layers.0.ffn.hook_out"]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=names)
        with fact_experts.erased(model, 0, expert, last_only=True, shared=shared):
            _, erased = model.run_with_cache(prompts, names_filter=names[1])
        x = model.layers[0].sublayers[1].norm(cache[names[0]][:, -1])  # the last words' input
        if shared:
            taken = moe.shared[expert](x)
        else:
            taken = moe.gates(x)[:, expert, None] * moe.experts[expert](x)
    out, without = cache[names[1]], erased[names[1]]
    assert (taken.abs().sum(-1) > 1e-3).any()  # the expert had a share to take
    torch.testing.assert_close(without[:, -1], out[:, -1] - taken)
    assert torch.equal(without[:, :-1], out[:, :-1])


def test_the_facts_an_expert_takes_were_answered_right_before():
    model, corpus = fact_experts.stored_moe("equal total", 0)
    right = fact_experts.fact_predictions(model, corpus)[1]
    for expert in range(4):
        lost = fact_experts.facts_lost(model, corpus, 1, expert)
        assert lost.shape == (48,) and not (lost & ~right).any()


def test_a_seed_or_name_that_is_not_stored_is_named():
    with pytest.raises(ValueError, match=r"seed must be one of \[0\] for 'equal active', got 1"):
        fact_experts.stored_moe("equal active", 1)
    with pytest.raises(ValueError, match="name must be one of"):
        fact_experts.settings_of("sparse", 0)


@pytest.mark.parametrize(
    "quantity", ["experts, equal total: first 8 losses", "experts, equal active: first 8 losses"]
)
def test_a_stored_loss_curve_starts_as_a_fresh_run_of_its_rebuild_does(quantity):
    """The warm-up's learning rate does not depend on the number of steps, so a fresh run's first
    8 steps are the stored run's first 8. Tolerance: 10 × the spread make spread measured (at most
    9.4e-09 and 1.7e-08, docs/spread.md)."""
    name = quantity.removeprefix("experts, ").removesuffix(": first 8 losses")
    assert load_model(fact_experts.model_file(name, 0))[1] == fact_experts.settings_of(name, 0)
    check_fresh_run(quantity)


def test_the_token_load_is_each_routers_first_choice_over_every_real_word():
    model, corpus = fact_experts.stored_moe("equal total", 0)
    load = fact_experts.token_load(model, corpus)
    tokens = training_tokens(corpus)[:, :-1]  # what the model read in training
    with torch.no_grad(), router_logits(model) as logits:
        model(tokens)
    first = logits[1][tokens != 0].argmax(-1)
    assert load.shape == (2, 4) and np.allclose(load.sum(axis=1), 1)
    assert np.allclose(load[1], np.bincount(first.numpy(), minlength=4) / len(first))


def test_the_last_word_gates_are_the_routers_gates_at_each_prompts_last_word():
    model, corpus = fact_experts.stored_moe("equal total", 1)
    prompts, _ = corpus.prompts()
    with torch.no_grad(), router_logits(model) as logits:
        model(prompts)
    expected = top_k_gates(logits[0][:, -1], 2).numpy()
    gates = fact_experts.last_word_gates(model, corpus, 0)
    assert gates.shape == (48, 4) and np.allclose(gates, expected)
    assert ((gates > 0).sum(axis=1) == 2).all()  # top 2 at every prompt
