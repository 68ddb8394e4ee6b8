"""experiments.one_memory: overlaps count shared units, the chance level is k²/N, attributions of
prompts of two lengths are each prompt's own, LAPE is the paper's entropy, the language-specific
selection and the one-language count pick planted units, the per-language loss is the model's
next-token loss on that language's lines, Tang et al.'s test reads the stored random units, and
Holm's correction steps down as Holm's does."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from course_lib.core.experiments.memory import attributions
from course_lib.lessons.l09_two_languages.experiments import bilingual as bl
from course_lib.lessons.l09_two_languages.experiments import bilingual_model as bm
from course_lib.lessons.l09_two_languages.experiments import one_memory as om
from devtools.spread.record import check_fresh_run


@pytest.fixture(scope="module")
def setup():
    return bm.stored_model(0), bl.split_corpus(0)


def test_the_overlap_matrix_counts_shared_units():
    a = np.array([[1, 2, 3], [4, 5, 6]])
    b = np.array([[3, 2, 9], [7, 8, 1]])
    assert om.overlap_matrix(a, b).tolist() == [[2, 1], [0, 0]]


def test_identical_top_units_overlap_fully_and_beat_every_shuffle():
    rng = np.random.default_rng(1)
    top = np.array([rng.choice(512, 10, replace=False) for _ in range(12)])
    result = om.overlap(top, top, 512)
    assert (result.same == 10).all() and result.different.max() < 10
    assert result.chance == pytest.approx(100 / 512) and result.p_value < 0.01
    assert result.meets_same == 1.0 and result.meets_different < 1.0
    unrelated = om.overlap(top, top[::-1], 512)
    assert unrelated.p_value > 0.01


def test_attributions_of_prompts_of_two_lengths_are_each_prompts_own(setup):
    model, corpus = setup
    zh = bl.in_language(corpus, "zh")
    facts = np.array([0, 1, 5])  # a capital (6 characters), then two colours (7)
    scores = om.fact_attributions(model, zh, facts)
    for row, fact in enumerate(facts):
        alone = replace(zh, facts=(zh.facts[fact],))
        assert torch.allclose(scores[row], attributions(model, alone)[0], atol=1e-12)


def test_top_units_are_the_largest_attributions():
    scores = torch.zeros(2, 2, 4, dtype=torch.float64)
    scores[0, 1, 2], scores[0, 0, 3], scores[1, 0, 0] = 3.0, 2.0, 1.0
    assert set(om.top_units(scores, 2)[0]) == {6, 3}


def test_lape_is_zero_for_one_language_and_log_two_for_both():
    p = np.array([[0.3, 0.0], [0.2, 0.2], [0.0, 0.0]])
    assert om.lape(p).tolist() == pytest.approx([0.0, np.log(2), 0.0])


def test_the_selection_keeps_rarely_shared_frequent_units_and_assigns_their_language():
    p = np.full((2, 100, 2), 0.1)
    p[0, 7] = (0.9, 0.0)  # fires often, in English only
    p[1, 3] = (0.0, 0.8)  # in Chinese only
    p[1, 9] = (0.9, 0.9)  # often, in both: shared, not specific
    p[0, 5] = (0.05, 0.0)  # in English only, but rarely: below the frequency floor
    chosen = om.language_specific(p)
    assert chosen == {"en": [(0, 7)], "zh": [(1, 3)]}


def test_one_language_only_counts_units_silent_in_the_other():
    p = np.zeros((2, 4, 2))
    p[0, 0], p[0, 1], p[1, 2], p[1, 3] = (0.5, 0), (0.5, 0.001), (0, 0.02), (0.005, 0)
    assert om.one_language_only(p).tolist() == [[1, 0], [0, 1]]


def test_each_lines_language_is_read_from_its_tokens(setup):
    _, corpus = setup
    language = om.line_language(corpus)
    assert language.sum() == 288  # 24 facts taught in Chinese, 4 lines each, and 192 filler
    assert all(
        (line[0] > "\u2e80") == bool(lang)
        for line, lang in zip(corpus.lines, language, strict=True)
    )


def test_the_activation_probability_counts_real_tokens_of_each_language(setup):
    model, corpus = setup
    prob = om.activation_probability(model, corpus)
    assert prob.shape == (2, 256, 2) and ((prob >= 0) & (prob <= 1)).all()
    tokens, language = corpus.tokens(), om.line_language(corpus)
    zh = tokens[language == 1]
    with torch.no_grad():
        h = model.ffn_hidden(zh)[1, :, 1:, 17]  # layer 1, unit 17, after <bos>
    real = zh[:, 1:] != 0
    assert prob[1, 17, 1] == pytest.approx(float((h[real] > om.ACTIVE).double().mean()))


def test_the_language_loss_is_the_next_token_loss_on_its_lines(setup):
    model, corpus = setup
    losses = om.language_losses(model, corpus)
    tokens = corpus.tokens()[om.line_language(corpus) == 0]
    with torch.no_grad():
        logits = model(tokens[:, :-1])
    expected = F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], ignore_index=0)
    assert losses[0] == pytest.approx(float(expected))
    worse = om.language_losses(model, corpus, [(0, u) for u in range(128)])
    assert (worse > losses).all()


def test_the_random_baseline_is_the_loss_rise_of_each_draws_units(setup):
    model, corpus = setup
    rises = om.random_units_rise(model, corpus, 3, "zh", draws=12, seed=5)
    rng = np.random.default_rng(5)
    draws = [rng.choice(512, 3, replace=False) for _ in range(12)]  # draw i: the i-th choice
    base = om.language_losses(model, corpus)
    for i in (0, 11):  # the first draw, and one in the second batch of draws
        units = [divmod(int(u), 256) for u in draws[i]]
        expected = om.language_losses(model, corpus, units) - base
        assert rises[i] == pytest.approx(expected[1], abs=1e-10)
    assert rises.shape == (12,) and rises.mean() > 0  # units zeroed at random cost on average
    with pytest.raises(ValueError, match="language"):
        om.random_units_rise(model, corpus, 3, "fr")


def test_a_fresh_random_baseline_is_the_stored_one():
    """The stored baseline of seed 0's Chinese selection, its first 10 draws drawn again.
    Tolerance: 10 × the spread make spread measured (at most 1.6e-08, docs/spread.md)."""
    fresh, stored = check_fresh_run(
        "bilingual random units: seed 0, Chinese selection, first 10 draws"
    )
    assert fresh["rise, zh"].shape == (10,) and len(np.unique(stored["rise, zh"])) == 10
    assert not np.allclose(stored["rise, en"], stored["rise, zh"])  # each language's own lines


def test_the_stored_baseline_names_a_selection_it_does_not_hold(setup):
    model, corpus = setup
    size = len(om.language_specific(om.activation_probability(model, corpus))["zh"])
    assert om.stored_random_rise(0, "zh", size).shape == (om.RANDOM_DRAWS,)
    with pytest.raises(ValueError, match=rf"count must be the stored selection's size {size}"):
        om.stored_random_rise(0, "zh", size + 1)
    with pytest.raises(ValueError, match=r"must name a stored selection, got '7\|zh'"):
        om.stored_random_rise(7, "zh", size)
    with pytest.raises(ValueError, match="language"):
        om.stored_random_rise(0, "fr", size)
    with pytest.raises(ValueError, match="asked must be one of"):
        om.stored_random_rise(0, "zh", size, asked="fr")


def test_tang_et_als_test_reads_each_selection_against_its_stored_random_units(setup):
    model, corpus = setup
    rows = om.deactivation(0)
    chosen = om.language_specific(om.activation_probability(model, corpus))
    assert [r.language for r in rows] == [lang for lang, units in chosen.items() if units]
    for r in rows:
        random = np.expm1(om.stored_random_rise(0, r.language, r.units))
        assert r.units == len(chosen[r.language]) and 0 < r.p_own <= 1 and 0 < r.p_contrast <= 1
        assert r.random95 == pytest.approx(np.percentile(random, 95))
        assert r.p_own == pytest.approx((1 + (random >= r.own).sum()) / (1 + len(random)))


def test_holm_takes_p_values_shifted_by_two_standard_errors_past_0_or_1():
    assert om.holm([0.01, 0.04, 0.03, 0.005]).tolist() == [True, False, False, True]
    assert om.holm([-0.002, 1.01, 0.02]).tolist() == [True, False, True]  # as 0, 1 and 0.02


def test_the_pooled_test_finds_a_planted_same_fact_excess_and_not_an_absent_one():
    g = np.random.default_rng(1)
    lists = [g.permuted(np.tile(np.arange(512), (12, 1)), axis=1)[:, :10] for _ in range(4)]
    same = om.pooled([(a, a) for a in lists], draws=200)
    assert same.same == 10 and same.p_value < 0.01 and same.null < 1
    unrelated = om.pooled([(a, a[::-1]) for a in lists], draws=200)
    assert unrelated.p_value > 0.05 and unrelated.same <= unrelated.null95
    assert 0 < unrelated.detectable < same.same and unrelated.null95 >= unrelated.null
    with pytest.raises(ValueError, match="lists"):
        om.pooled([])


def test_the_pooled_p_counts_every_shuffle_that_ties_the_observed_count():
    # four models' means of k / 12 tie the observed pooled mean in integers but not always in
    # floats (the last bit depends on how the sum splits between models): the p must count them
    g = np.random.default_rng(1)
    lists = [tuple(np.array([g.choice(40, 10, replace=False) for _ in range(12)]) for _ in "ab")
             for _ in range(4)]  # fmt: skip
    matrices = [om.overlap_matrix(a, b) for a, b in lists]
    rng, observed = np.random.default_rng(0), sum(int(np.trace(m)) for m in matrices)
    sums, means = [], []
    for _ in range(200):  # the test's own draws, in the order pooled makes them
        drawn = [m[np.arange(12), rng.permutation(12)] for m in matrices]
        sums.append(sum(int(d.sum()) for d in drawn))
        means.append(np.mean([d.mean() for d in drawn]))
    sums, means = np.array(sums), np.array(means)
    exact = (1 + np.sum(sums >= observed)) / 201
    floats = (1 + np.sum(means >= np.mean([np.diag(m).mean() for m in matrices]))) / 201
    assert np.sum(sums == observed) > 0 and floats != exact  # the case has ties floats miss
    result = om.pooled(lists, draws=200)
    assert result.p_value == pytest.approx(exact)
    assert result.same == pytest.approx(observed / 48) and result.null == pytest.approx(
        sums.mean() / 48
    )


def test_the_phrasing_control_reads_each_phrasings_own_prompt():
    both = np.flatnonzero(bl.taught(0) == "both")[:3]
    tops = om.phrasing_tops(0, both, k=5)
    assert set(tops) == set(bl.LANGUAGES) and tops["en"].shape == (3, 5)
    assert not np.array_equal(tops["en"], tops["zh"])  # two prompts, two attributions
