"""Lesson 5's readings beyond ``experiments.memory``: prefix activations equal the model's own,
the key-pattern rule sorts hand-made triggers as it says and finds mostly token keys in random
weights too, the promotion count matches a direct count, random firing units are a weak control,
the agreement rate's shuffled pairing and interval are what they say, a binomial power count, Dai
et al.'s average, the units near a kink, and an edit's distribution is the model's."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
import torch

from course_lib.core.experiments.memory import (
    SETTINGS,
    attributions,
    build_model,
    knowledge_neuron_effects,
    scale_units,
    stored_model,
    unit_promotes,
    unit_triggers,
)
from course_lib.lessons.l05_ffn_memory.experiments.keys import (
    PATTERNS,
    classify_units,
    pattern_counts,
    pattern_of,
    prefix_activations,
    untrained_pattern_counts,
)
from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import (
    active_unit_effects,
    firing_units_promote_answers,
    hits_needed,
    near_kinks,
    next_token_probabilities,
    random_unit_effects,
    relation_average,
    top_units,
)

ENTITIES = {"velor", "brask"}


def test_prefix_activations_are_the_models_own_at_each_prefix():
    model, corpus = stored_model()
    acts = prefix_activations(model, corpus)
    assert len(set(acts.prefixes)) == len(acts.prefixes) == acts.values.shape[1]
    assert acts.values.shape == (2, len(acts.prefixes), model.d_ff)
    for prefix in (acts.prefixes[0], acts.prefixes[-1], ("the", "capital")):
        alone = torch.tensor([corpus.encode(("<bos>", *prefix))])
        with torch.no_grad():
            expected = model.ffn_hidden(alone)[:, 0, -1].numpy()  # (layers, d_ff)
        np.testing.assert_allclose(acts.values[:, acts.prefixes.index(prefix)], expected, atol=1e-9)


def test_triggers_agree_with_unit_triggers_of_the_memory_module():
    model, corpus = stored_model()
    acts = prefix_activations(model, corpus)
    for layer, unit in ((1, 52), (0, 7)):
        expected = [t.prefix for t in unit_triggers(model, corpus, layer, unit, k=4)]
        assert acts.triggers(layer, unit, k=4) == expected


@pytest.mark.parametrize(
    ("triggers", "pattern"),
    [
        (
            [("the", "colour", "of", "velor", "is")] * 2 + [("the", "colour", "of", "brask")],
            "relation",
        ),
        (
            [("people", "in", "velor", "like"), ("velor", "is", "a"), ("to", "velor", "in")],
            "entity",
        ),
        ([("a", "red", "bear"), ("the", "bear"), ("people", "in", "brask")], "token"),
        ([("a", "red"), ("the", "bear"), ("people", "in", "brask")], "mixed"),
        ([("the", "colour", "of", "velor"), ("the", "food", "of", "velor"), ("velor",)], "token"),
    ],
)
def test_the_pattern_rule_sorts_hand_made_triggers(triggers, pattern):
    # the last case: an entity as the last word is the token itself, a shallow pattern
    assert pattern_of(triggers, ENTITIES, share=0.6) == pattern


def test_classify_units_gives_every_unit_one_pattern_and_mostly_shallow_ones():
    model, corpus = stored_model()
    patterns = classify_units(model, corpus)
    assert patterns.shape == (2, model.d_ff) and set(np.unique(patterns)) <= set(PATTERNS)
    for layer in (0, 1):  # shipped: 168 and 153 token keys, 36 and 17 semantic
        semantic = int(np.isin(patterns[layer], ["relation", "entity"]).sum())
        assert (patterns[layer] == "token").sum() > 2 * semantic > 0


def promoted_by_top_unit(model, corpus) -> list[set[str]]:
    """Per fact, the 10 words promoted by the layer-1 unit firing most on its prompt, counted by
    hand (unit_promotes, one unit at a time)."""
    prompts, _ = corpus.prompts()
    with torch.no_grad():
        hidden = model.ffn_hidden(prompts)[1, :, -1]
    return [
        {w for w, _ in unit_promotes(model, corpus, 1, int(hidden[i].argmax()), k=10)}
        for i in range(len(corpus.facts))
    ]


def test_the_promotion_count_is_a_direct_count():
    model, corpus = stored_model()
    result = firing_units_promote_answers(model, corpus, layer=1, firing=1, top_tokens=10)
    promoted = promoted_by_top_unit(model, corpus)
    hits = sum(fact.answer in promoted[i] for i, fact in enumerate(corpus.facts))
    assert result.hits == hits and result.facts == 48
    assert result.chance == pytest.approx(48 * 10 / len(corpus.vocabulary))
    assert result.hits > 3 * result.chance  # shipped: 28 of 48 against 5.8


def test_random_units_are_drawn_among_those_that_fire_and_matter_far_less_than_a_facts_top_units():
    model, corpus = stored_model()
    control = random_unit_effects(model, corpus, count=5, seed=0)
    prompts, _ = corpus.prompts()
    with torch.no_grad():
        active = model.ffn_hidden(prompts)[:, :, -1].permute(1, 0, 2).flatten(1)  # (facts, 512)
    rng = np.random.default_rng(0)  # the same draw, by hand: each fact's units among its firing
    chosen = [rng.choice(np.flatnonzero(row.numpy() > 0), 5, replace=False) for row in active]
    assert all(bool((active[i, c] > 0).all()) for i, c in enumerate(chosen))
    units = [divmod(int(u), model.d_ff) for u in chosen[3]]
    with torch.no_grad():
        p = model(prompts[3:4])[0, -1].softmax(-1)[corpus.prompts()[1][3]]
        q = model.run_with_hooks(prompts[3:4], fwd_hooks=scale_units(units, 0.0))[0, -1].softmax(
            -1
        )[corpus.prompts()[1][3]]
    assert control[3] == pytest.approx(float(q / p - 1), abs=1e-9)
    erased = knowledge_neuron_effects(model, corpus, top=5, factor=0.0)
    assert control.shape == (48,)
    assert abs(control.mean()) < 0.02 < abs(erased.own.mean())
    np.testing.assert_array_equal(control, random_unit_effects(model, corpus, count=5, seed=0))
    assert not np.array_equal(control, random_unit_effects(model, corpus, count=5, seed=1))
    unchanged = random_unit_effects(model, corpus, count=5, factor=1.0)
    assert np.abs(unchanged).max() < 1e-12


def test_top_units_are_the_highest_scores_and_the_edit_distribution_is_the_models():
    model, corpus = stored_model()
    scores = attributions(model, corpus)
    units = top_units(scores, fact=3, n=4)
    values = [scores[3, layer, unit].item() for layer, unit in units]
    assert (
        values == sorted(values, reverse=True)
        and values[-1] >= scores[3].flatten().topk(4).values[-1]
    )
    before, after = next_token_probabilities(model, corpus, 3, units, 0.0)
    prompt = corpus.prompts()[0][3:4]
    with torch.no_grad():
        expected = (
            model.run_with_hooks(prompt, fwd_hooks=scale_units(units, 0.0))[0, -1]
            .softmax(-1)
            .numpy()
        )
    np.testing.assert_allclose(after, expected, atol=1e-12)
    assert abs(before.sum() - 1) < 1e-12 and np.abs(after - before).max() > 1e-3
    same = next_token_probabilities(model, corpus, 3, units, 1.0)
    np.testing.assert_allclose(same[1], same[0], atol=1e-12)


def test_the_relation_matched_control_counts_hits_of_other_entities_units_on_this_answer():
    model, corpus = stored_model()
    result = firing_units_promote_answers(model, corpus, layer=1, firing=1, top_tokens=10)
    promoted = promoted_by_top_unit(model, corpus)
    facts, expected = corpus.facts, 0.0
    for fact in facts:
        others = [
            j
            for j, f in enumerate(facts)
            if f.relation == fact.relation and f.entity != fact.entity
        ]
        expected += np.mean([fact.answer in promoted[j] for j in others])
    assert result.control == pytest.approx(expected, abs=1e-12)
    # the control is stronger than vocabulary-wide chance: shared answers fit in one top 10
    assert result.control > 1.5 * result.chance
    assert sum(h for h, _ in result.by_relation.values()) == result.hits
    assert {n for _, n in result.by_relation.values()} == {12}
    assert sum(result.control_by_relation.values()) == pytest.approx(result.control, abs=1e-12)
    capital = [i for i, f in enumerate(facts) if f.relation == "capital"]
    expected_capital = sum(
        np.mean([facts[i].answer in promoted[j] for j, f in enumerate(facts)
                 if f.relation == "capital" and f.entity != facts[i].entity])
        for i in capital
    )  # fmt: skip
    assert result.control_by_relation["capital"] == pytest.approx(expected_capital, abs=1e-12)


def test_value_agreement_is_a_direct_count_over_every_unit():
    # Independently: each line read word by word, each unit's strongest prefix that a word
    # follows found by running the model on that prefix alone, its value's top token compared.
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import value_agreement

    model, corpus = stored_model()
    result = value_agreement(model, corpus)
    lines = {tuple(corpus.decode(t[1 : int((t != 0).sum())])) for t in corpus.tokens()}
    following: dict[tuple[str, ...], set[str]] = {}
    for words in lines:
        for end in range(1, len(words)):
            following.setdefault(words[:end], set()).add(words[end])
    prefixes = sorted(following)
    batch = [corpus.encode(("<bos>", *p)) for p in prefixes]
    width = max(map(len, batch))
    tokens = torch.tensor([b + [0] * (width - len(b)) for b in batch])
    ends = torch.tensor([len(b) - 1 for b in batch])
    with torch.no_grad():
        hidden = model.ffn_hidden(tokens)[:, torch.arange(len(batch)), ends]  # (layers, P, d_ff)
    for layer in range(2):
        with torch.no_grad():
            top_word = corpus.decode(model.value_logits(layer).argmax(dim=-1))
        best = hidden[layer].argmax(dim=0)  # (d_ff,): each unit's strongest prefix
        agree = [top_word[u] in following[prefixes[int(best[u])]] for u in range(model.d_ff)]
        assert result.rate[layer] == pytest.approx(np.mean(agree), abs=2 / model.d_ff)
        chance = np.mean([len(following[prefixes[int(b)]]) for b in best]) / model.vocab_size
        assert result.chance[layer] == pytest.approx(chance, rel=0.05)
    assert result.units == model.d_ff and (result.rate > 5 * result.chance).all()


def test_value_agreement_falls_to_chance_when_values_are_shuffled():
    # The typical wrong reading, a unit's value read against another unit's key: agreement
    # should collapse towards chance (the top tokens no longer follow the key's trigger).
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import value_agreement

    model, corpus = stored_model()
    shuffled = copy.deepcopy(model)
    order = torch.randperm(model.d_ff, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        for layer in shuffled.layers:
            layer.ffn.linear2.weight.copy_(layer.ffn.linear2.weight[:, order])
    original, wrong = value_agreement(model, corpus), value_agreement(shuffled, corpus)
    assert (wrong.rate < original.rate / 2).all(), (wrong.rate, original.rate)


def test_the_activation_baseline_zeroes_each_facts_most_active_units_only():
    """Dai et al.'s baseline: a fact's 5 most active units at its last word, over both layers."""
    model, corpus = stored_model()
    changes = active_unit_effects(model, corpus, count=5, factor=0.0)
    assert changes.shape == (48,)
    prompts, answers = corpus.prompts()
    fact = 7
    with torch.no_grad():
        active = model.ffn_hidden(prompts[fact : fact + 1])[:, 0, -1]  # (layers, d_ff)
        top = active.flatten().topk(5).indices
        units = [divmod(int(u), model.d_ff) for u in top]
        p = model(prompts[fact : fact + 1])[0, -1].softmax(-1)[answers[fact]]
        q = model.run_with_hooks(prompts[fact : fact + 1], fwd_hooks=scale_units(units, 0.0))[
            0, -1
        ].softmax(-1)
    assert changes[fact] == pytest.approx(float(q[answers[fact]] / p - 1), abs=1e-6)
    erased = knowledge_neuron_effects(model, corpus, top=5, factor=0.0)
    assert erased.own.mean() < changes.mean() < 0  # shipped: -62 % against -40 %
    unchanged = active_unit_effects(model, corpus, count=5, factor=1.0)
    assert np.abs(unchanged).max() < 1e-12


def test_the_key_counts_group_the_rule_and_random_weights_give_mostly_token_keys():
    patterns = np.array([["token", "relation", "entity", "mixed", "token"]])
    assert pattern_counts(patterns).tolist() == [[2, 2, 1]]  # token, semantic, mixed
    model, corpus = stored_model()
    draws = untrained_pattern_counts(SETTINGS, corpus, seeds=(0, 1))
    assert draws.shape == (2, 2, 3) and (draws.sum(-1) == model.d_ff).all()
    assert (draws[..., 0] > 2 * draws[..., 1]).all()  # mostly token keys, untrained too
    assert not np.array_equal(draws[0], draws[1])  # each draw its own weights
    untrained = build_model(SETTINGS, len(corpus.vocabulary))  # seed 0: the model's own start
    expected = pattern_counts(classify_units(untrained, corpus))
    assert np.array_equal(draws[0], expected)
    trained = pattern_counts(classify_units(model, corpus))
    assert not np.array_equal(trained, expected)


def test_hits_needed_is_the_smallest_count_a_binomial_test_calls_above_its_control():
    for control, facts in ((3.36, 48), (12.0, 48), (0.5, 10)):
        k = hits_needed(control, facts)
        rate = control / facts

        def tail(k, facts=facts, rate=rate):
            return sum(math.comb(facts, j) * rate**j * (1 - rate) ** (facts - j)
                       for j in range(k, facts + 1))  # fmt: skip

        assert tail(k) <= 0.05 < tail(k - 1)
    assert hits_needed(3.36, 48) == 7


def test_relation_average_is_dai_et_als_mean_change_over_mean_p_per_relation():
    model, corpus = stored_model()
    relations = [f.relation for f in corpus.facts]
    p = np.linspace(0.5, 1.0, len(relations))
    change = np.where(np.array(relations) == "capital", -1.0, 0.0)  # capitals erased, others kept
    assert relation_average(change, p, corpus) == pytest.approx(-0.25)  # 1 of 4 relations: -100 %
    change = np.full(len(relations), -0.3)
    assert relation_average(change, p, corpus) == pytest.approx(-0.3)


def test_near_kinks_counts_inputs_close_to_zero_as_a_nudge_switches_them():
    model, corpus = stored_model()
    prompts, _ = corpus.prompts()
    names = [f"layers.{i}.ffn.hook_hidden" for i in range(2)]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=names)
    # the units at the last word with no input at all: a loose bound counts every unit that fires
    # weakly; a bound of 0 counts none
    assert near_kinks(model, corpus, within=0.0) == 0
    weak = sum(int(((cache[n][:, -1] > 0) & (cache[n][:, -1] < 0.05)).sum()) for n in names)
    assert near_kinks(model, corpus, within=0.05) >= weak > 0
    assert near_kinks(model, corpus, within=1e-7) > near_kinks(
        build_model(SETTINGS, len(corpus.vocabulary)), corpus, within=1e-7
    )


def test_value_agreement_has_a_shuffled_pairing_and_an_interval_for_its_rise():
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import ValueAgreement

    result = ValueAgreement(np.array([0.3, 0.2]), np.array([0.02, 0.02]), 400, np.array([0.05] * 2))
    rise, low, high = result.rise()
    half = 1.96 * np.sqrt((0.3 * 0.7 + 0.2 * 0.8) / 400)
    assert rise == pytest.approx(-0.1) and (low, high) == pytest.approx((-0.1 - half, -0.1 + half))
    model, corpus = stored_model()
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import value_agreement

    agreement = value_agreement(model, corpus)
    assert ((agreement.null > agreement.chance) & (agreement.null < agreement.rate / 3)).all()


def test_detection_power_is_the_binomial_tail_from_the_hits_needed():
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import detection_power

    k = hits_needed(3.36, 48)  # 7
    tail = sum(math.comb(48, j) * 0.2**j * 0.8 ** (48 - j) for j in range(k, 49))
    assert detection_power(3.36, 48, 0.2) == pytest.approx(tail, rel=1e-12)
    assert detection_power(3.36, 48, 3.36 / 48) <= 0.05  # at the control's own rate: at most alpha
    assert (
        detection_power(3.36, 48, 1.0) == pytest.approx(1.0) and detection_power(3.36, 48, 0) == 0
    )
    with pytest.raises(ValueError, match="rate"):
        detection_power(3.36, 48, 1.5)


def test_binomial_tail_is_the_chance_of_as_many_hits_from_the_control_alone():
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import binomial_tail

    k = hits_needed(12.0, 48)
    assert binomial_tail(k, 12.0, 48) <= 0.05 < binomial_tail(k - 1, 12.0, 48)
    assert binomial_tail(0, 12.0, 48) == pytest.approx(1.0)
    assert binomial_tail(48, 12.0, 48) == pytest.approx(0.25**48)


def test_the_rise_power_is_alpha_at_no_effect_and_grows_with_the_effect():
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import ValueAgreement

    result = ValueAgreement(np.array([0.3, 0.2]), np.array([0.02] * 2), 400, np.array([0.05] * 2))
    error = np.sqrt((0.3 * 0.7 + 0.2 * 0.8) / 400)
    assert result.rise_power(0.0) == pytest.approx(0.05, abs=1e-3)
    assert result.rise_power(1.96 * error) == pytest.approx(0.5, abs=1e-3)  # half the time
    assert result.rise_power(0.02) == pytest.approx(result.rise_power(-0.02))
    assert result.rise_power(0.01) < result.rise_power(0.05) < result.rise_power(0.2)
    with pytest.raises(ValueError, match="effect"):
        result.rise_power(3.5)


def test_holm_steps_down_from_the_smallest_p_and_stops_at_the_first_failure():
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import holm

    # 0.001 < 0.05/4, 0.010 < 0.05/3, 0.0247 < 0.05/2, 0.031 < 0.05: all four pass
    assert holm([0.010, 0.0247, 0.031, 0.001]).tolist() == [True, True, True, True]
    # 0.026 >= 0.025 fails, and the larger 0.031 fails with it though it is below 0.05
    assert holm([0.010, 0.026, 0.031, 0.001]).tolist() == [True, False, False, True]
    # uncorrected, 0.04 would pass at 5 %; three tests make its bar 0.05/3 at the first step
    assert holm([0.04, 0.5, 0.9]).tolist() == [False, False, False]
