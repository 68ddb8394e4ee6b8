"""Lesson 10's measurements: the corpus, the keys' rule, Tang et al.'s selection, the retrieval
test's statistics and the dictionary, each on cases whose answer is known."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest
import torch

from course_lib.lessons.l10_real_multilingual_ffn.experiments import (
    activations,
    corpus,
    dictionary,
    keys,
    language_units,
)


def test_cleaning_keeps_the_words_and_drops_code_formulas_and_tables():
    cell = (
        "# A heading\n\nThe **FFN** uses `W1` and $x W_1$ here, see [lesson 1](01.ipynb).\n\n"
        "| a | b |\n|---|---|\n\n```python\nprint(1)\n```"
    )
    assert corpus.clean(cell) == ["A heading", "The FFN uses and here, see lesson 1."]


def test_the_stored_corpus_pairs_every_english_paragraph_with_a_chinese_one():
    stored = corpus.stored_corpus()
    assert len(stored.english) == len(stored.chinese) == len(stored.lesson) > 200
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in text) for text in stored.chinese)
    with pytest.raises(ValueError, match="language must be"):
        stored.texts("fr")


def test_most_common_share_counts_the_commonest_value():
    tokens = np.array([[1, 1, 2, 3], [4, 4, 4, 4]])
    assert keys.most_common_share(tokens).tolist() == [0.5, 1.0]


def test_the_two_proportion_p_is_small_for_a_large_gap_and_one_for_none():
    assert keys.two_proportion_p(50, 100, 50, 100) == pytest.approx(1.0)
    assert keys.two_proportion_p(90, 100, 10, 100) < 1e-10


def test_lape_is_zero_for_one_language_and_log_2_for_both_alike():
    p = np.array([[0.3, 0.0], [0.2, 0.2], [0.0, 0.0]])
    assert language_units.lape(p).tolist() == pytest.approx([0.0, np.log(2), 0.0])


def test_tang_selection_keeps_frequent_low_entropy_units_in_their_language():
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.1, (2, 100, 2))
    p[1, 7] = (0.9, 0.01)  # frequent in English only
    p[0, 3] = (0.02, 0.95)  # frequent in Chinese only
    chosen = language_units.language_specific(p)  # 1 % of 200 units: the two
    assert [tuple(u) for u in chosen["en"]] == [(1, 7)]
    assert [tuple(u) for u in chosen["zh"]] == [(0, 3)]


def test_matched_random_units_come_from_the_same_layer_and_are_not_the_selected_ones():
    p = np.random.default_rng(1).uniform(0, 1, (3, 50, 2))
    units = np.array([[0, 4], [2, 9], [2, 10]])
    random = language_units.matched_random(units, p, seed=3)
    assert random[:, 0].tolist() == units[:, 0].tolist()
    assert not {tuple(u) for u in random} & {tuple(u) for u in units}


def test_the_margin_and_retrieval_read_the_similarity_matrix():
    s = np.array([[0.9, 0.5, 0.1], [0.95, 0.8, 0.2], [0.0, 0.1, 0.3]])
    assert language_units.margins(s).tolist() == pytest.approx([0.4, -0.15, 0.2])
    assert language_units.retrieval(s)[0] == pytest.approx(2 / 3)


def test_the_paired_p_is_small_only_when_the_pairs_differ_consistently():
    a = np.linspace(0, 1, 40)
    assert language_units.paired_p(a + 0.1, a) < 0.001
    assert language_units.paired_p(a, a[::-1]) > 0.5


def test_zeroing_hooks_set_only_the_chosen_units_to_zero():
    [(name, hook)] = language_units.zeroing(np.array([[3, 1], [3, 4]]))
    hidden = torch.ones(2, 5, 6)
    out = hook(hidden, None)
    assert name == "layers.3.ffn.hook_hidden"
    assert out[..., [1, 4]].abs().sum() == 0 and out[..., [0, 2, 3, 5]].eq(1).all()
    assert hidden.eq(1).all()  # the activation itself left alone


def test_a_topk_dictionary_keeps_at_most_k_features_per_input():
    sae = dictionary.TopKDictionary(12, 40, 3, torch.Generator().manual_seed(0))
    f = sae.encode(torch.randn(7, 12))
    assert ((f != 0).sum(-1) <= 3).all() and (f >= 0).all()


def test_fvu_is_zero_for_a_perfect_reconstruction_and_one_for_the_mean():
    x = np.random.default_rng(2).normal(size=(50, 4))
    assert dictionary.fvu(x, x) == 0.0
    assert dictionary.fvu(x, np.broadcast_to(x.mean(0), x.shape).copy()) == pytest.approx(1.0)


def test_the_overlap_p_is_the_hypergeometric_tail_counted_by_hand():
    pairs, english, chinese = 8, 3, 4
    total = comb(pairs, chinese)
    for both in range(4):
        by_hand = sum(
            1 for picked in combinations(range(pairs), chinese) if len(set(picked) & {0, 1, 2}) >= both
        ) / total  # fmt: skip
        assert dictionary.overlap_p(both, english, chinese, pairs) == pytest.approx(by_hand)


def test_the_stored_dictionary_is_outside_the_memorising_regime_and_beats_the_lookup():
    data, settings = dictionary.stored()
    assert data["fvu_held_out"] < 1.2 * data["fvu_train"]
    assert data["fvu_held_out"] < data["lookup_fvu_held_out"]


def test_the_shared_feature_test_passes_fewer_features_under_each_control():
    data, _ = dictionary.stored()
    n = len(corpus.stored_corpus().english)
    lengths = np.bincount(activations.stored()["text_of"])[n:]
    shared = dictionary.shared_features(data, n, lengths)
    assert shared.shuffled == 0 < max(shared.length_matched) < shared.shared <= shared.alive
    assert len(shared.length_matched) == dictionary.MATCHED_DRAWS
    assert shared.overlap > max(shared.overlap_matched)


def test_a_length_matched_shuffle_keeps_no_twin_and_moves_within_similar_lengths():
    lengths = np.arange(40) * 10
    perm = dictionary.length_matched(lengths, seed=0, block=8)
    assert sorted(perm.tolist()) == list(range(40))
    assert (perm != np.arange(40)).all()
    assert np.abs(lengths[perm] - lengths).max() <= 150  # within a block of 8 (or its remainder)


def test_the_overlap_is_one_for_equal_sets_and_zero_for_disjoint_ones():
    a = np.array([[1, 0], [1, 1], [0, 0]], bool)
    assert dictionary.overlap(a, a) == 1.0
    assert dictionary.overlap(a, ~a & np.array([[0, 1], [0, 0], [1, 1]], bool)) == 0.0
    assert dictionary.overlap(a, np.array([[1, 0], [0, 1], [0, 0]], bool)) == pytest.approx(0.75)


def test_the_lookup_baseline_is_zero_when_every_held_out_row_has_a_training_copy():
    x = torch.randn(6, 3)
    x = torch.cat([x, x])
    held = np.arange(12) >= 6
    assert dictionary.nearest_input_fvu(x, held) == pytest.approx(0.0, abs=1e-12)
    far = torch.randn(40, 200, generator=torch.Generator().manual_seed(0))  # no copy: about 2
    assert dictionary.nearest_input_fvu(far, np.arange(40) >= 20) > 1.5


def test_the_stored_pass_counts_each_languages_own_tokens():
    stored = activations.stored()
    n = len(corpus.stored_corpus().english)
    assert stored["tokens_per_language"].tolist() == [
        int((stored["text_of"] < n).sum()), int((stored["text_of"] >= n).sum())
    ]  # fmt: skip
    assert (stored["fires"] <= stored["tokens_per_language"]).all()


def test_units_with_fewer_top_contexts_than_kept_are_left_out_of_the_shallow_count():
    readable = keys.readable()
    stored = activations.stored()
    assert (stored["top_value"][readable][:, -1] > 0).all()
    assert (stored["top_value"][~readable][:, -1] <= 0).all() and (~readable).any()
    share = keys.shallow_share()
    assert share.shape == (12, 2) and ((share >= 0) & (share <= 1)).all()


def test_bottom_against_top_counts_only_the_kept_units():
    shallow = np.zeros((12, 4, 2), bool)
    shallow[:4] = True
    keep = np.ones_like(shallow)
    keep[:4, 0] = False
    low, high, p = keys.bottom_against_top(shallow, keep)["en"]
    assert (low, high) == (1.0, 0.0) and p < 0.001


def test_scripts_are_read_from_the_pieces():
    from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls

    assert [
        controls.script(p) for p in ("\u2581the", "网络", "\u2581W1", "12", "\u2581", "FFN网")
    ] == [0, 1, 0, 2, 2, 1]


def test_eligible_units_are_those_above_the_frequency_bar():
    p = np.zeros((2, 100, 2))
    p[1, :10, 0] = 0.9  # 10 of 400 probabilities, above the 95th percentile
    assert language_units.eligible_per_layer(p).tolist() == [0, 10]


def test_other_language_firing_reads_the_selected_rows():
    p = np.zeros((1, 3, 2))
    p[0, 0] = (0.6, 0.2)
    p[0, 1] = (0.1, 0.5)
    ratio, other = language_units.other_language(p, {"en": np.array([[0, 0]]),
                                                     "zh": np.array([[0, 1]])})["en"]  # fmt: skip
    assert (ratio, other) == (pytest.approx(3.0), pytest.approx(0.2))


def test_the_lowest_other_language_firing_is_the_least_among_the_selected_rows():
    p = np.zeros((2, 3, 2))
    p[0, 0], p[1, 2], p[0, 2] = (0.6, 0.2), (0.7, 0.05), (0.9, 0.0)  # unit (0, 2) not selected
    p[0, 1] = (0.1, 0.5)
    selected = {"en": np.array([[0, 0], [1, 2]]), "zh": np.array([[0, 1]])}
    assert language_units.lowest_other(p, selected) == {
        "en": pytest.approx(0.05), "zh": pytest.approx(0.1)}  # fmt: skip


def test_silent_by_script_keeps_only_units_under_the_bar_on_the_other_script(monkeypatch):
    from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls

    fires = np.zeros((2, 3, 2))
    fires[0, 0], fires[1, 1], fires[0, 2] = (500, 0), (400, 30), (10, 600)
    tokens = np.array([1000, 2000])
    monkeypatch.setattr(controls, "stored", lambda: {"fires_by_script": fires,
                                                     "tokens_by_script": tokens})  # fmt: skip
    monkeypatch.setattr(
        language_units,
        "language_specific",
        lambda p: {"en": np.array([[0, 0], [1, 1]]), "zh": np.array([[0, 2]])},
    )
    rows = language_units.silent_by_script(below=0.02)  # (1, 1) fires on 30 of 2000: 1.5 %
    assert [row[:3] for row in rows] == [("en", 0, 0), ("zh", 0, 2), ("en", 1, 1)]
    assert rows[0][3:] == (pytest.approx(0.5), 0, 2000)
    assert language_units.silent_by_script(below=0.01) == rows[:1]  # 10 of 1000 is not under 1 %


def test_the_rank_p_is_small_only_when_the_own_change_lies_outside_the_random_draws():
    base = np.eye(4) * 0.5
    stored = {"base": base, **{f"random {lang} {d}": base + 0.001 * d * np.eye(4)
                               for lang in ("en", "zh") for d in range(19)}}  # fmt: skip
    stored |= {"zeroed en": base + np.eye(4), "zeroed zh": base + 0.009 * np.eye(4)}
    tests = language_units.against_random(stored)
    assert tests["en"][3] == pytest.approx(0.1) and tests["zh"][3] == 1.0
    assert len(tests["en"][2]) == 19


def test_the_relative_error_reads_only_the_rows_it_is_given():
    from course_lib.lessons.l10_real_multilingual_ffn.experiments import quantisation

    reference = torch.tensor([[100.0, 0.0], [1.0, 0.0]])
    changed = reference + torch.tensor([[1.0, 0.0], [0.5, 0.0]])
    rows = np.array([False, True])
    assert quantisation.relative_error(changed, reference, rows) == pytest.approx(0.5)
    assert quantisation.relative_error(changed, reference, ~rows) == pytest.approx(0.01)
    assert quantisation.relative_error(changed, reference) < 0.02  # the large row dominates


def test_the_ffn_inputs_mark_the_frame_tokens_of_each_text():
    from course_lib.lessons.l10_real_multilingual_ffn.experiments import quantisation

    x, frame = quantisation.ffn_inputs(["A key fires.", "键被激活。"], layer=0)
    assert len(x) == len(frame) and int(frame.sum()) == 4  # <s> and </s> of each text


def test_the_quiz_feedback_quotes_the_shares_the_stored_pass_gives():
    """Exercise 3's feedback states cell 36's shares as text: they must be the stored pass's."""
    from course_lib.lessons.l10_real_multilingual_ffn.figures import ends
    from course_lib.lessons.l10_real_multilingual_ffn.questions import QUESTIONS

    probability = language_units.activation_probability()
    counts = language_units.per_layer(language_units.language_specific(probability))
    eligible = ends(language_units.eligible_per_layer(probability))
    zh, en = ends(counts["zh"]), ends(counts["en"])
    feedback = " ".join(choice.reply for choice in QUESTIONS[0].choices)

    def share(x: float) -> str:
        return f"{round(100 * x)} %"

    for x in (zh[2], eligible[2], zh[0], eligible[0], en[0], zh[1], eligible[1]):
        assert share(x) in feedback
    correct = [c for c in QUESTIONS[0].choices if c.correct]
    assert len(correct) == 1 and "last three" in correct[0].text and zh[2] > 0.5 > zh[0]


@pytest.mark.parametrize(("t", "df", "p"), [(12.706, 1, 0.05), (4.303, 2, 0.05), (3.182, 3, 0.05),
                                            (2.262, 9, 0.05), (3.250, 9, 0.01), (2.228, 10, 0.05),
                                            (0.0, 9, 1.0)])  # fmt: skip
def test_the_t_tail_gives_the_tables_two_sided_values(t, df, p):
    assert language_units.t_two_sided(t, df) == pytest.approx(p, abs=2e-4)
    assert language_units.t_two_sided(-t, df) == language_units.t_two_sided(t, df)


def test_the_prediction_test_rejects_a_change_far_outside_the_draws_and_not_one_inside():
    draws = np.array([-0.2, -0.1, 0.0, 0.1, 0.2, -0.15, 0.05, 0.15, -0.05, 0.0])
    assert language_units.prediction_p(0.05, draws) > 0.5
    assert language_units.prediction_p(1.0, draws) < 0.001
    edge = language_units.detectable(draws, 0.05)  # the distance the test just tells apart
    assert language_units.prediction_p(draws.mean() + 1.01 * edge, draws) < 0.05
    assert language_units.prediction_p(draws.mean() + 0.99 * edge, draws) > 0.05


def test_the_normal_tests_are_holm_corrected_over_the_languages():
    draws = np.array([-0.2, -0.1, 0.0, 0.1, 0.2, -0.15, 0.05, 0.15, -0.05, 0.0])
    tests = {"en": (0.1, None, draws, None), "zh": (0.9, None, draws, None)}
    normal = language_units.normal_tests(tests)
    raw = [language_units.prediction_p(t[0], draws) for t in tests.values()]
    assert normal["zh"][0] == pytest.approx(2 * raw[1])  # the smaller p doubled
    assert normal["en"][0] == pytest.approx(max(raw[0], 2 * raw[1]))
    assert normal["en"][1] == pytest.approx(language_units.detectable(draws, 0.025))


def test_the_alignment_counts_a_copy_of_the_twin_as_found_and_a_shuffle_as_lost():
    english = np.eye(4)[[0, 1, 2, 3]]
    chinese_texts = ["a", "b", "a", "d"]  # paragraphs 0 and 2 are copies
    embeddings = np.vstack([english, np.eye(4)[[0, 1, 0, 3]] + 0.01])  # 2 retrieves 0: a copy
    assert language_units.alignment(embeddings, chinese_texts) == (4, 4)
    shuffled = np.vstack([english, np.eye(4)[[1, 0, 3, 2]]])
    assert language_units.alignment(shuffled, ["a", "b", "c", "d"]) == (0, 4)


def test_the_query_retrieval_reads_its_own_arrays():
    base = np.eye(3) * 0.5
    stored = {"query base": base, "query zeroed en": base + 0.1 * np.eye(3),
              "query zeroed zh": base - 0.1 * np.eye(3) + 0.5 * (1 - np.eye(3)),
              "base": np.zeros((3, 3))}  # fmt: skip
    query = language_units.with_query(stored)
    assert query["none"][0] == 1.0 and query["en"][1] == pytest.approx(0.1)
    assert query["zh"][0] < 1.0  # the twins fall below the others: retrieval lost
    assert query["en"][2][0] == pytest.approx(0.1)  # every pair moved alike: no spread


def test_the_prefix_difference_pairs_the_two_changes_over_the_same_pairs():
    """A rise after "passage: " and none after "query: " is a difference only if their paired
    difference is: here every pair rises by 0.1 more after "passage: ", so its interval excludes 0."""
    rng = np.random.default_rng(0)
    base = np.eye(8) * 0.5 + rng.normal(0, 0.01, (8, 8))
    noise = np.diag(rng.normal(0, 0.05, 8))
    stored = {"base": base, "query base": base,
              **{f"zeroed {lang}": base + 0.1 * np.eye(8) + noise for lang in ("en", "zh")},
              **{f"query zeroed {lang}": base + noise for lang in ("en", "zh")}}  # fmt: skip
    diff = language_units.prefix_difference(stored)
    mean, (lo, hi), p = diff["en"]
    assert mean == pytest.approx(0.1) and lo == pytest.approx(0.1) and p < 0.05
    same = {**stored, **{f"query zeroed {lang}": stored[f"zeroed {lang}"] for lang in ("en", "zh")}}
    same["query base"] = base  # the same change after both prefixes: no difference to tell
    mean, (lo, hi), p = language_units.prefix_difference(same)["zh"]
    assert mean == pytest.approx(0.0) and lo == hi == pytest.approx(0.0) and p == 1.0


def test_the_scoreboard_does_not_read_the_keys_trend_as_agreement_with_geva():
    """Section 4's control shows random directions fall the same way: the row must say so."""
    from course_lib.lessons.l10_real_multilingual_ffn.figures import MATCH

    assert MATCH["geva"].startswith("not comparable") and "random directions" in MATCH["geva"]


def test_the_units_table_keeps_layer_numbers_out_of_the_translated_headers():
    """A header goes through the shared catalogue, where lesson 3 reads "2" as "1/2"."""
    from course_lib.core.i18n import tr
    from course_lib.lessons.l10_real_multilingual_ffn.figures import units_table

    counts = {"en": np.array([1, 2, 3]), "zh": np.array([4, 5, 6])}
    headers, rows = units_table(counts, np.array([7, 8, 9]))
    assert [row[0] for row in rows] == ["0", "1", "2"] and rows[2][1:] == [3, 6, 9]
    assert all(tr(h, "zh") != h for h in headers)  # every header is a catalogued template
