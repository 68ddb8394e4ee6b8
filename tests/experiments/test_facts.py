"""The invented-facts corpus: one seed, one corpus; every fact stated often; a round-tripping vocabulary."""

from __future__ import annotations

import pytest
import torch

from course_lib.core.experiments.facts import (
    ANIMALS,
    BOS,
    COLOURS,
    FOODS,
    MAX_LEN,
    PAD,
    RELATIONS,
    Fact,
    majority_baseline,
    make_corpus,
    vocabulary_of,
)


def test_the_same_seed_gives_the_same_corpus_and_another_seed_another():
    first, again, other = make_corpus(3), make_corpus(3), make_corpus(4)
    assert first == again
    assert first.lines != other.lines
    assert [f.entity for f in first.facts] != [f.entity for f in other.facts]


@pytest.mark.parametrize(("n_entities", "repeats"), [(12, 4), (5, 2)])
def test_every_fact_is_stated_repeats_times(n_entities, repeats):
    corpus = make_corpus(0, n_entities, repeats)
    assert len(corpus.facts) == n_entities * len(RELATIONS)
    for fact in corpus.facts:
        assert corpus.lines.count(fact.sentence) == repeats


def test_each_entity_has_one_answer_per_relation_and_a_capital_of_its_own():
    corpus = make_corpus(0, n_entities=12)
    pairs = [(f.entity, f.relation) for f in corpus.facts]
    assert len(set(pairs)) == len(pairs) == 48
    capitals = [f.answer for f in corpus.facts if f.relation == "capital"]
    assert len(set(capitals)) == 12
    shared = {"colour": COLOURS, "animal": ANIMALS, "food": FOODS}
    assert all(f.answer in shared[f.relation] for f in corpus.facts if f.relation in shared)


def test_no_filler_line_states_a_fact_and_no_invented_name_is_a_common_word():
    corpus = make_corpus(0)
    sentences = {f.sentence for f in corpus.facts}
    filler = [line for line in corpus.lines if line not in sentences]
    assert len(filler) == len(corpus.lines) - 4 * len(corpus.facts) > 0
    assert not any(line[0] == "the" and line[2] == "of" for line in filler)
    capitals = {f.answer for f in corpus.facts if f.relation == "capital"}
    names = {f.entity for f in corpus.facts} | capitals
    assert len(names) == 24 and names.isdisjoint(vocabulary_of([], []))


def test_the_vocabulary_is_small_and_round_trips():
    corpus = make_corpus(0)
    assert corpus.vocabulary[:2] == (PAD, BOS)
    assert len(set(corpus.vocabulary)) == len(corpus.vocabulary) <= 300
    line = corpus.lines[0]
    assert corpus.decode(corpus.encode(line)) == list(line)
    assert corpus.encode(corpus.decode(range(len(corpus.vocabulary)))) == list(
        range(len(corpus.vocabulary))
    )


def test_an_unknown_word_is_named():
    with pytest.raises(ValueError, match="unknown \\['paris'\\]"):
        make_corpus(0).encode(["the", "capital", "paris"])


def test_tokens_start_with_bos_and_are_padded_to_the_context():
    corpus = make_corpus(0, n_entities=3)
    tokens = corpus.tokens()
    assert tokens.shape == (len(corpus.lines), MAX_LEN) and tokens.dtype == torch.int64
    assert bool((tokens[:, 0] == 1).all())
    lengths = (tokens != 0).sum(dim=1)
    assert lengths.tolist() == [len(line) + 1 for line in corpus.lines]


def test_a_prompt_ends_just_before_its_answer():
    corpus = make_corpus(0, n_entities=3)
    prompts, answers = corpus.prompts()
    fact = corpus.facts[5]
    assert corpus.decode(prompts[5]) == [BOS, "the", fact.relation, "of", fact.entity, "is"]
    assert corpus.decode([answers[5]]) == [fact.answer]
    assert Fact("velor", "capital", "quen").sentence == (
        "the", "capital", "of", "velor", "is", "quen", ".",
    )  # fmt: skip


def test_the_subject_stands_where_subject_positions_says_in_the_prompts_tensor():
    """<bos> counted: the entity is token 4 of "<bos> the capital of velor is" for every fact."""
    corpus = make_corpus(0, n_entities=5)
    prompts, _ = corpus.prompts()
    for fact, row in zip(corpus.facts, prompts, strict=True):
        assert fact.subject_positions == (4,)
        assert [corpus.decode(row)[i] for i in fact.subject_positions] == [fact.entity]


def test_the_majority_baseline_counts_the_commonest_answer_of_each_relation():
    corpus = make_corpus(0, n_entities=12)
    baseline = majority_baseline(corpus)
    # capitals are unique (1 of 12); each shared relation's commonest value is right for >= 2
    assert 1 / 48 + 3 * 2 / 48 <= baseline < 0.5


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_entities": 0}, "n_entities must be a positive int"),
        ({"repeats": 1.5}, "repeats must be a positive int"),
        ({"filler_per_fact": -1}, "filler_per_fact must be a number in \\[0, 10\\]"),
        ({"filler_per_fact": True}, "filler_per_fact must be a number in \\[0, 10\\]"),
        ({"seed": "0"}, "seed must be an int"),
        ({"paraphrases": 1}, "paraphrases must be True or False"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make_corpus(**kwargs)


def test_a_paraphrased_corpus_states_each_fact_both_ways_in_the_same_vocabulary():
    plain, both = make_corpus(0, n_entities=3), make_corpus(0, n_entities=3, paraphrases=True)
    assert both.vocabulary == plain.vocabulary and both.facts == plain.facts
    for fact in both.facts:
        assert both.lines.count(fact.sentence) == both.lines.count(fact.paraphrased_sentence) == 4
        assert plain.lines.count(fact.paraphrased_sentence) == 0
    assert len(both.lines) == 2 * len(plain.lines)  # filler grows with the fact lines
    prompts, answers = both.prompts(paraphrased=True)
    fact = both.facts[5]
    assert both.decode(prompts[5]) == [BOS, "in", fact.entity, "the", fact.relation, "is"]
    assert torch.equal(answers, both.prompts()[1])
    assert make_corpus(0, n_entities=3, paraphrases=False) == plain
