"""experiments.transfer: every fact asked in a language is read as that language answers it
(top-1, p, rank among its relation's answers); the paired comparison finds a planted transfer and
none where none is planted; the stored models are the ones the lesson reads, and the two-phrasing
models are what their rebuild command makes."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.lessons.l09_two_languages import checks
from course_lib.lessons.l09_two_languages.experiments import bilingual as bl
from course_lib.lessons.l09_two_languages.experiments import bilingual_model as bm
from course_lib.lessons.l09_two_languages.experiments import transfer as tf
from devtools.spread.record import check_fresh_run


def test_a_facts_rank_counts_the_relations_answers_above_its_own():
    corpus = bl.in_language(bl.split_corpus(0), "zh")
    asked = tf.ask(bm.stored_model(0), corpus, "zh")
    p = bl.next_token(bm.stored_model(0), corpus).numpy()
    colours = tf.relation_answers(corpus, "zh")["colour"]
    assert len(colours) == 8 and corpus.decode(colours)[0] == "红"
    fact = 1  # tumen's colour
    own = bl.answer_ids(corpus)[fact]
    assert asked.rank[fact] == 1 + sum(p[fact, c] > p[fact, own] for c in colours)
    assert asked.p[fact] == p[fact, own] and asked.top1[fact] == (p[fact].argmax() == own)
    assert set(np.unique(asked.rank[tf.shared_facts()])) <= set(range(1, 9))


def test_how_a_fact_was_taught_is_seen_from_the_language_asked():
    way = bl.taught(2)
    for language, other in (("en", "zh"), ("zh", "en")):
        seen = tf.ways_seen_from(2, language)
        assert (seen[np.isin(way, ("both", language))] == tf.WAYS[0]).all()
        assert (seen[way == other] == tf.WAYS[1]).all() and (
            seen[way == "none"] == tf.WAYS[2]
        ).all()


def _planted(effect: float, seed: int = 0) -> tuple[dict, dict]:
    """Answers of four models where a fact taught only in the other language ranks ``effect``
    better than a guess (rank 4.5 on average) and a taught one ranks 1."""
    g = np.random.default_rng(seed)
    answers, ways = {}, {}
    for s in bl.SPLIT_SEEDS:
        for language in bl.LANGUAGES:
            seen = tf.ways_seen_from(s, language)
            rank = g.integers(1, 9, 48).astype(float)
            rank[seen == tf.WAYS[0]] = 1
            rank[seen == tf.WAYS[1]] = np.clip(rank[seen == tf.WAYS[1]] - effect, 1, 8)
            answers[s, language] = tf.Asked(rank == 1, 1 / rank, rank)
            ways[s, language] = seen
    return answers, ways


def test_the_paired_comparison_finds_a_planted_transfer_and_none_where_none_is():
    moved = tf.paired(*_planted(3.0), "rank")
    assert moved.difference[2] < -1 and moved.pairs == 72
    assert moved.by_way[tf.WAYS[0]][0] == 1
    still = tf.paired(*_planted(0.0), "rank")
    assert still.difference[1] < 0 < still.difference[2]
    assert still.difference[1] <= still.difference[0] <= still.difference[2]


def test_the_paired_comparison_needs_every_way_asked():
    answers, ways = _planted(0.0)
    del answers[3, "en"], ways[3, "en"]
    with pytest.raises(ValueError, match="answers must ask every fact every way"):
        tf.paired(answers, ways, "rank")
    with pytest.raises(ValueError, match="measure must be one of"):
        tf.paired(*_planted(0.0), "accuracy")


def test_the_phrasing_split_teaches_each_phrasing_as_the_languages_are_taught():
    corpus = tf.phrasing_corpus(1)
    lines = set(corpus.lines)
    for fact, taught_first, taught_second in zip(
        corpus.facts, bl.taught_in(1, "en"), bl.taught_in(1, "zh"), strict=True
    ):
        assert (fact.sentence in lines) == taught_first
        assert (fact.paraphrased_sentence in lines) == taught_second


@pytest.mark.parametrize("seed", bm.SEEDS)
def test_every_stored_phrasing_model_knows_every_fact_in_each_phrasing_it_was_taught(seed):
    answers = tf.phrasing_answers()
    for language in bl.LANGUAGES:
        assert answers[seed, language].top1[bl.taught_in(seed, language)].all()


def test_a_fresh_run_of_the_phrasing_rebuild_starts_as_the_stored_one():
    """A fresh run's first 8 steps are the stored run's first 8. Tolerance: 10 × the spread make
    spread measured (at most 3.0e-08, docs/spread.md)."""
    fresh, _ = check_fresh_run("two phrasings: first 8 losses")
    assert fresh["losses"].shape == (8,) and fresh["losses"][-1] < fresh["losses"][0]


def test_each_models_difference_is_its_own_taught_elsewhere_minus_never_taught():
    answers = {}
    for s in bl.SPLIT_SEEDS:
        for language in bl.LANGUAGES:
            seen = tf.ways_seen_from(s, language)
            top1 = (seen == tf.WAYS[1]) if s == 1 else np.zeros(48, dtype=bool)
            answers[s, language] = tf.Asked(top1, top1 * 1.0, np.where(top1, 1.0, 8.0))
    assert tf.per_model_difference(answers, 1) == 1.0
    assert tf.per_model_difference(answers, 0) == 0.0
    assert tf.per_model_difference(answers, 1, "rank") == -7.0
    with pytest.raises(ValueError, match="seed"):
        tf.per_model_difference(answers, 9)
    with pytest.raises(ValueError, match="measure"):
        tf.per_model_difference(answers, 1, "top1")


def test_the_exercise_counts_read_back_from_the_stored_models():
    """Exercise 1's checker prints what the stored models answer in Chinese: 2 of the 36 facts
    taught only in English, 7 of the 36 never taught (a blind guess 4.5)."""
    asked = tf.bilingual_answers()

    def right_in(way):
        return sum(int(asked[s, "zh"].top1[(tf.ways_seen_from(s, "zh") == way)
                                           & tf.shared_facts()].sum()) for s in bl.SPLIT_SEEDS)  # fmt: skip

    measured, never = right_in(tf.WAYS[1]), right_in(tf.WAYS[2])
    assert (measured, never) == (2, 7)
    message = checks.check_transfer_prediction(lambda: 4, measured, 36, never).message
    assert "measured: 2 of 36" in message and message.endswith("in Chinese, get 7.")
