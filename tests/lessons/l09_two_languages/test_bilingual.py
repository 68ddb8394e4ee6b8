"""experiments.bilingual and bilingual_model: lesson 5's facts and lines in two languages, every
Chinese form a table entry, the answer tokens telling the answers apart; the stored models know
every fact in both languages and are what their rebuild command makes."""

from __future__ import annotations

from collections import Counter

import pytest

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
    fact = bl.in_language(corpus, "zh").facts[0]
    assert fact.prompt == ("图", "门", "的", "首", "都", "是")
    assert fact.sentence == (*fact.prompt, "基", "洛", "。")
    assert fact.subject_positions == (1, 2) and corpus.facts[0].subject_positions == (4,)
    assert fact.answer == "基" and fact.paraphrase_answer == "kriloth"


def test_the_first_character_tells_a_relations_answers_apart():
    for words in (bl.COLOURS, bl.ANIMALS, bl.FOODS, tuple(bl.CAPITALS)):
        firsts = [bl.WORDS[w][0] for w in words]
        assert len(set(firsts)) == len(firsts), words


def test_every_invented_name_has_a_two_character_form_used_once(corpus):
    names = {f.english.entity for f in corpus.facts} | {
        f.english.answer for f in corpus.facts if f.english.relation == "capital"
    }
    assert names == set(bl.ENTITIES) | set(bl.CAPITALS)
    forms = [bl.WORDS[n] for n in names]
    assert all(len(f) == 2 for f in forms) and len(set(forms)) == len(forms)


def test_both_views_share_lines_and_vocabulary_and_swap_prompts(corpus):
    zh = bl.in_language(corpus, "zh")
    assert zh.lines == corpus.lines and zh.vocabulary == corpus.vocabulary
    en_prompts, en_answers = corpus.prompts(paraphrased=True)
    zh_prompts, zh_answers = zh.prompts()
    assert (en_prompts == zh_prompts).all() and (en_answers == zh_answers).all()


def test_filler_states_no_fact_in_either_language(corpus):
    sentences = {s for f in corpus.facts for s in (f.sentence, f.paraphrased_sentence)}
    filler = [line for line in corpus.lines if line not in sentences]
    assert len(filler) == 384
    for line in filler:
        text = "".join(line)
        stated = (
            bl.WORDS[f.english.entity] + "的" + bl.WORDS[f.english.relation] for f in corpus.facts
        )
        assert not any(s in text for s in stated)  # "图门的路" (the road to tumen) is no fact
        assert not (" ".join(line).startswith("the ") and " of " in " ".join(line))


def test_the_dictionary_links_every_word_both_ways_and_states_no_fact():
    with_dictionary = bl.bilingual_corpus(dictionary=True)
    lines = Counter(with_dictionary.lines)
    for english, chinese in bl.WORDS.items():
        assert lines[(english, "=", *chinese, ".")] == 2
        assert lines[(*chinese, "=", english, ".")] == 2
    assert len(with_dictionary.lines) == 768 + 4 * len(bl.WORDS)


def test_a_language_outside_the_two_is_named():
    fact = make_corpus(0).facts[0]
    with pytest.raises(ValueError, match=r"language must be one of \['en', 'zh'\], got 'fr'"):
        bl.stated(fact, "fr")


def test_another_corpus_seed_is_refused_by_name():
    with pytest.raises(ValueError, match="seed must give lesson 5's entities"):
        bl.bilingual_corpus(seed=1)


@pytest.mark.parametrize("dictionary", [False, True])
@pytest.mark.parametrize("seed", bm.SEEDS)
def test_every_stored_model_knows_every_fact_in_both_languages(seed, dictionary):
    model = bm.stored_model(seed, dictionary)
    right = bm.known(model, bl.bilingual_corpus(dictionary=dictionary))
    assert {lang: int(r.sum()) for lang, r in right.items()} == {"en": 48, "zh": 48}


def test_an_untrained_model_knows_almost_none():
    from course_lib.core.experiments.memory import build_model

    model = build_model(bm.settings_of(0), len(bl.bilingual_corpus().vocabulary))
    assert all(r.sum() <= 3 for r in bm.known(model).values())


@pytest.mark.parametrize(
    "quantity",
    ["bilingual model: first 8 losses", "bilingual model, dictionary: first 8 losses"],
)
def test_a_fresh_run_of_the_rebuild_starts_as_the_stored_one(quantity):
    """The warm-up's learning rate does not depend on the number of steps, so a fresh run's first
    8 steps are the stored run's first 8. Tolerance: 10 × the spread make spread measured (at
    most 4.4e-09 without the dictionary and 1.7e-08 with it, docs/spread.md)."""
    fresh, _ = check_fresh_run(quantity)
    assert fresh["losses"].shape == (8,) and fresh["losses"][-1] < fresh["losses"][0]


def test_a_seed_outside_the_stored_ones_is_named():
    with pytest.raises(ValueError, match=r"seed must be one of \[0, 1, 2\], got 7"):
        bm.stored_model(7)
    with pytest.raises(TypeError, match="dictionary must be True or False, got 'yes'"):
        bm.stored_model(0, "yes")
