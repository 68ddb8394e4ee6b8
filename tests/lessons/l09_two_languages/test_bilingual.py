"""experiments.bilingual and bilingual_model: lesson 5's facts and lines in two languages, every
Chinese form a table entry that reads as Chinese and names no real place, the answer tokens
telling the answers apart; each seed's split teaches every fact one of four ways, a Latin square;
the stored models know what they were taught and are what their rebuild command makes."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import torch

from course_lib.core.experiments.facts import MAX_LEN, make_corpus
from course_lib.lessons.l09_two_languages.experiments import bilingual as bl
from course_lib.lessons.l09_two_languages.experiments import bilingual_model as bm
from devtools.spread.record import check_fresh_run


@pytest.fixture(scope="module")
def corpus():
    return bl.bilingual_corpus()


def test_the_english_lines_are_lesson_5s_and_the_chinese_ones_as_many(corpus):
    english = Counter(make_corpus(0).lines)
    lines = Counter(corpus.lines)
    assert all(lines[line] >= n for line, n in english.items())
    chinese = [line for line in corpus.lines if line[0] > "\u2e80"]
    assert len(chinese) == len(corpus.lines) - sum(english.values()) == 384


def test_each_fact_is_stated_four_times_in_each_language(corpus):
    lines = Counter(corpus.lines)
    for fact in corpus.facts:
        assert lines[fact.sentence] == 4 and lines[fact.paraphrased_sentence] == 4
        assert fact.paraphrased_sentence == bl.stated(fact.english, "zh").sentence


def test_every_line_fits_the_models_context(corpus):
    assert max(len(line) for line in corpus.lines) <= MAX_LEN - 1
    assert corpus.tokens().shape == (768, MAX_LEN)


def test_a_chinese_fact_reads_subject_first_one_character_per_token(corpus):
    facts = bl.in_language(corpus, "zh").facts
    assert facts[0].prompt == ("图", "蒙", "的", "首", "都", "是")
    assert "".join(facts[1].sentence) == "图蒙的代表色是" + bl.WORDS[facts[1].english.answer] + "。"
    assert facts[0].subject_positions == (1, 2) and corpus.facts[0].subject_positions == (4,)
    assert facts[0].answer == "克" and facts[0].paraphrase_answer == "kriloth"


def test_the_relations_read_as_a_chinese_text_says_them_of_a_country():
    assert bl.ZH_RELATIONS == {"capital": "首都", "colour": "代表色", "animal": "国兽",
                               "food": "特产"}  # fmt: skip
    assert bl.ANSWERS["rice"] == "大米"  # a specialty is raw rice, not a cooked bowl


def test_the_first_character_tells_a_relations_answers_apart():
    for words in (bl.COLOURS, bl.ANIMALS, bl.FOODS, tuple(bl.CAPITALS)):
        firsts = [bl.WORDS[w][0] for w in words]
        assert len(set(firsts)) == len(firsts), words


REAL_NAMES = (
    "图门",
    "图们",
    "库姆",
    "苏德",
    "克拉",
    "基洛",
    "内托",
    "帕里",
)  # places, words, names


def test_every_invented_name_has_a_two_character_form_used_once_and_no_real_one(corpus):
    names = {f.english.entity for f in corpus.facts} | {
        f.english.answer for f in corpus.facts if f.english.relation == "capital"
    }
    assert names == set(bl.ENTITIES) | set(bl.CAPITALS)
    forms = [bl.WORDS[n] for n in names]
    assert all(len(f) == 2 for f in forms) and len(set(forms)) == len(forms)
    assert not set(forms) & set(REAL_NAMES)
    assert len({f[0] for f in bl.ENTITIES.values()}) == 12  # a subject's first character names it


def test_filler_states_no_fact_in_either_language(corpus):
    sentences = {s for f in corpus.facts for s in (f.sentence, f.paraphrased_sentence)}
    filler = [line for line in corpus.lines if line not in sentences]
    assert len(filler) == 384
    for line in filler:
        text = "".join(line)
        stated = (bl.WORDS[f.english.entity] + "的" + bl.WORDS[f.english.relation]
                  for f in corpus.facts)  # fmt: skip
        assert not any(s in text for s in stated)  # "图蒙的路" (the road to tumen) is no fact
        assert not (" ".join(line).startswith("the ") and " of " in " ".join(line))


def test_the_dictionary_links_every_word_both_ways_and_states_no_fact():
    with_dictionary = bl.bilingual_corpus(dictionary=True)
    lines = Counter(with_dictionary.lines)
    for english, chinese in bl.WORDS.items():
        assert lines[(english, "=", *chinese, ".")] == 2
        assert lines[(*chinese, "=", english, ".")] == 2
    assert len(with_dictionary.lines) == 768 + 4 * len(bl.WORDS)


# ---- the split: each fact taught one of four ways


def test_each_split_teaches_each_way_three_facts_of_every_relation_and_one_of_every_entity():
    facts = make_corpus(0).facts
    for seed in bl.SPLIT_SEEDS:
        way = bl.taught(seed)
        for w in bl.TAUGHT:
            chosen = [f for f, x in zip(facts, way, strict=True) if x == w]
            assert Counter(f.relation for f in chosen) == {r: 3 for r in Counter(
                f.relation for f in facts)}  # fmt: skip
            assert sorted(Counter(f.entity for f in chosen).values()) == [1] * 12


def test_over_the_four_seeds_each_fact_is_taught_each_way_once():
    ways = np.stack([bl.taught(seed) for seed in bl.SPLIT_SEEDS], axis=1)  # (48, 4)
    assert all(sorted(row) == sorted(bl.TAUGHT) for row in ways)


@pytest.mark.parametrize("dictionary", [False, True])
def test_a_split_corpus_drops_exactly_the_untaught_statements(dictionary):
    full = Counter(bl.bilingual_corpus(dictionary=dictionary).lines)
    split = Counter(bl.split_corpus(1, dictionary).lines)
    for language in bl.LANGUAGES:
        taught = bl.taught_in(1, language)
        for fact, keep in zip(bl.split_corpus(1).facts, taught, strict=True):
            assert split[bl.stated(fact.english, language).sentence] == (4 if keep else 0)
    assert sum(full.values()) - sum(split.values()) == 2 * 24 * 4  # 24 statements per language
    assert all(split[line] == n for line, n in full.items() if split[line])


def test_asking_prompts_of_two_lengths_is_asking_each_group_alone(corpus):
    zh = bl.in_language(corpus, "zh")
    groups = bl.prompt_groups(zh)
    assert sorted(p.shape[1] for _, p, _ in groups) == [7, 8]  # <bos> and 6 or 7 characters
    model = bm.stored_model(0)
    p = bl.next_token(model, zh)
    for index, prompts, answers in groups:
        with torch.no_grad():
            alone = model(prompts)[:, -1].softmax(-1)
        assert torch.allclose(p[torch.from_numpy(index)], alone, atol=1e-12)
        assert (bl.answer_ids(zh)[index] == answers.numpy()).all()


def test_a_language_or_seed_outside_the_accepted_ones_is_named():
    fact = make_corpus(0).facts[0]
    with pytest.raises(ValueError, match=r"language must be one of \['en', 'zh'\], got 'fr'"):
        bl.stated(fact, "fr")
    with pytest.raises(ValueError, match="seed must give lesson 5's entities"):
        bl.bilingual_corpus(seed=1)
    with pytest.raises(ValueError, match=r"seed must be one of \[0, 1, 2, 3\], got 4"):
        bl.taught(4)


# ---- the stored models


@pytest.mark.parametrize("dictionary", [False, True])
@pytest.mark.parametrize("seed", bm.SEEDS)
def test_every_stored_model_knows_every_fact_it_was_taught(seed, dictionary):
    corpus = bl.split_corpus(seed, dictionary)
    right = bm.known(bm.stored_model(seed, dictionary), corpus)
    for language, r in right.items():
        assert r[bl.taught_in(seed, language)].all()
        assert r[~bl.taught_in(seed, language)].mean() < 0.4  # the rest: a guess, now and then


@pytest.mark.parametrize("seed", bm.SEEDS)
def test_with_the_dictionary_every_stored_model_translates_every_word_both_ways(seed):
    words = bm.translates(bm.stored_model(seed, True), bl.split_corpus(seed, True))
    assert words == {"en->zh": 1.0, "zh->en": 1.0}


def test_an_untrained_model_knows_almost_none(corpus):
    from course_lib.core.experiments.memory import build_model

    model = build_model(bm.settings_of(0), len(corpus.vocabulary))
    assert all(r.sum() <= 3 for r in bm.known(model, bl.split_corpus(0)).values())


@pytest.mark.parametrize(
    "quantity",
    ["bilingual model: first 8 losses", "bilingual model, dictionary: first 8 losses"],
)
def test_a_fresh_run_of_the_rebuild_starts_as_the_stored_one(quantity):
    """The warm-up's learning rate does not depend on the number of steps, so a fresh run's first
    8 steps are the stored run's first 8. Tolerance: 10 × the spread make spread measured
    (at most 1.3e-08 without the dictionary, 1.8e-08 with it, docs/spread.md)."""
    fresh, _ = check_fresh_run(quantity)
    assert fresh["losses"].shape == (8,) and fresh["losses"][-1] < fresh["losses"][0]


def test_a_seed_outside_the_stored_ones_is_named():
    with pytest.raises(ValueError, match=r"seed must be one of \[0, 1, 2, 3\], got 7"):
        bm.stored_model(7)
    with pytest.raises(TypeError, match="dictionary must be True or False, got 'yes'"):
        bm.stored_model(0, "yes")
