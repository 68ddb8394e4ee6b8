"""Lesson 5's readings beyond ``experiments.memory``: prefix activations equal the model's own,
the key-pattern rule sorts hand-made triggers as it says, the promotion count matches a direct
count, random units are a weak control, and an edit's distribution is the model's."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch

from course_lib.core.experiments.memory import (
    attributions,
    knowledge_neuron_effects,
    scale_units,
    stored_model,
    unit_promotes,
    unit_triggers,
)
from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import (
    PATTERNS,
    active_unit_effects,
    classify_units,
    firing_units_promote_answers,
    next_token_probabilities,
    pattern_of,
    prefix_activations,
    random_unit_effects,
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


def test_random_units_matter_far_less_than_a_facts_top_units():
    model, corpus = stored_model()
    control = random_unit_effects(model, corpus, count=5, seed=0)
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
        expected = model(prompt, scale_units(units, 0.0))[0, -1].softmax(-1).numpy()
    np.testing.assert_allclose(after, expected, atol=1e-12)
    assert abs(before.sum() - 1) < 1e-12 and np.abs(after - before).max() > 1e-3
    same = next_token_probabilities(model, corpus, 3, units, 1.0)
    np.testing.assert_allclose(same[1], same[0], atol=1e-12)


def test_layer_contributions_split_each_layers_effect_on_the_answers_logit():
    from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import layer_contributions

    model, corpus = stored_model()
    parts = layer_contributions(model, corpus)
    assert parts.direct.shape == parts.total.shape == (48, 2)
    # total: the logit's drop when every unit of the layer is zeroed at the last word, fact 7
    prompts, answers = corpus.prompts()
    everything = [(0, u) for u in range(model.d_ff)]
    with torch.no_grad():
        clean = model(prompts[7:8])[0, -1, answers[7]]
        zeroed = model(prompts[7:8], scale_units(everything, 0.0))[0, -1, answers[7]]
    assert abs((clean - zeroed).item() - parts.total[7, 0]) < 1e-9
    # direct: the layer's values removed from the stream with the LayerNorm's scale frozen, by hand
    hidden = {}

    def keep(index, h):
        hidden[index] = h
        return h

    with torch.no_grad():
        stream = model.residual_stream(prompts[7:8], keep)[0, -1]
        values = hidden[0][0, -1] @ model.layers[0].ffn.linear2.weight.T
        sigma = torch.sqrt(stream.var(unbiased=False) + model.norm.eps)

        def frozen(x):
            return model.norm.weight * (x - x.mean()) / sigma + model.norm.bias

        by_hand = (frozen(stream) - frozen(stream - values)) @ model.unembedding[answers[7]]
    assert abs(by_hand.item() - parts.direct[7, 0]) < 1e-9
    # the last layer has no later layer: what it does not do directly is the LayerNorm's
    # rescaling, which moves one fact's total either way and nearly cancels on average
    rest = parts.total[:, 1] - parts.direct[:, 1]
    assert abs(rest.mean()) < 0.1 * parts.direct[:, 1].mean()
    assert np.abs(rest).max() > 0.1  # per fact it does move: the rescaling is real


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
        q = model(prompts[fact : fact + 1], scale_units(units, 0.0))[0, -1].softmax(-1)
    assert changes[fact] == pytest.approx(float(q[answers[fact]] / p - 1), abs=1e-6)
    erased = knowledge_neuron_effects(model, corpus, top=5, factor=0.0)
    assert erased.own.mean() < changes.mean() < 0  # shipped: -62 % against -40 %
    unchanged = active_unit_effects(model, corpus, count=5, factor=1.0)
    assert np.abs(unchanged).max() < 1e-12
