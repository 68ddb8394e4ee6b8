"""experiments.cross_edits: the stored sweep of edits across languages is what a fresh sweep
gives; each edit rewrites a fact taught in both languages to an answer the model knows in both,
reads the other language in its own words, and measures the facts it was not asked to change."""

from __future__ import annotations

import numpy as np

from course_lib.lessons.l09_two_languages.experiments import bilingual as bl
from course_lib.lessons.l09_two_languages.experiments import cross_edits as ce
from devtools.spread.record import check_fresh_run


def test_one_facts_edits_made_again_are_the_stored_ones():
    """Fact 0 of seed 0's model (tumen's capital), edited in each language by every method at
    every strength. Tolerance: 10 × the spread make spread measured (at most 1.5e-05, the
    fine-tuned edits', docs/spread.md)."""
    fresh, _ = check_fresh_run("bilingual edits: seed 0, fact 0, both languages")
    for language in bl.LANGUAGES:  # one value per strength, weakest first
        p_new = fresh[f"{language} | {ce.METHODS[0]} | p(new)"]
        assert p_new.shape == (6,) and p_new[-1] > 0.9 > fresh[f"{language} | before | p(new)"]


def test_the_edited_facts_are_those_taught_in_both_languages_and_their_new_answers_too():
    for seed in bl.SPLIT_SEEDS:
        facts = ce.edited_facts(seed)
        assert len(facts) == 12 and (bl.taught(seed)[facts] == "both").all()
        corpus = bl.split_corpus(seed)
        both = {corpus.facts[i].english.answer for i in facts}
        for fact in facts:
            english = corpus.facts[fact].english
            new = ce.new_answer(seed, int(fact))
            assert new != english.answer
            if english.relation == "capital":  # its Chinese name is in the corpus
                assert new in both


def test_the_stored_readings_before_the_edits_agree_across_directions():
    before = {lang: ce.before(lang) for lang in bl.LANGUAGES}  # (seeds, 12, MEASURES)
    old, old_other = ce.MEASURES.index("p(old)"), ce.MEASURES.index("p(old), other language")
    assert np.allclose(before["en"][..., old], before["zh"][..., old_other])
    assert (before["en"][..., old] > 0.5).all() and (before["zh"][..., old] > 0.5).all()
    neighbours = ce.MEASURES.index("neighbours' p(new), other language")
    assert np.isfinite(before["en"][..., neighbours]).all()  # every edit has facts left alone


def test_a_relation_view_holds_the_relations_facts_in_one_prompt_length():
    corpus = bl.split_corpus(0)
    view, index = ce.relation_view(corpus, 1, "zh")  # tumen's colour
    assert len(view.facts) == 12 and view.facts[index].english == corpus.facts[1].english
    assert {len(f.prompt) for f in view.facts} == {7} and view.prompts()[0].shape == (12, 8)
