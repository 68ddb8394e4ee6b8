"""experiments.experts: the bilingual mixture of experts is what its rebuild command makes and
knows what it was taught; the mutual information, purity and their permutation tests find a
planted split and no split in random routes; the routes are the experts the model runs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

from course_lib.core.experiments.memory import build_model, router_logits
from course_lib.core.model.moe import top_k_gates
from course_lib.lessons.l09_two_languages.experiments import experts as ex
from course_lib.lessons.l09_two_languages.experiments.bilingual import split_corpus, taught_in
from course_lib.lessons.l09_two_languages.experiments.bilingual_model import known
from course_lib.lessons.l09_two_languages.experiments.one_memory import line_language
from devtools.spread.record import check_fresh_run


@pytest.fixture(scope="module")
def corpus():
    return split_corpus(0)


@pytest.fixture(scope="module")
def routed(corpus):
    return ex.routing(ex.stored_moe(0), corpus)


@pytest.mark.parametrize("seed", ex.SEEDS)
def test_every_stored_model_knows_every_fact_it_was_taught(seed):
    right = known(ex.stored_moe(seed), split_corpus(seed))
    for language, r in right.items():
        assert r[taught_in(seed, language)].all()


def test_a_fresh_run_of_the_rebuild_starts_as_the_stored_one():
    """A fresh run's first 8 steps are the stored run's first 8. Tolerance: 10 × the spread make
    spread measured (at most 1.6e-08, docs/spread.md)."""
    fresh, _ = check_fresh_run("bilingual experts: first 8 losses")
    assert fresh["losses"].shape == (8,) and fresh["losses"][-1] < fresh["losses"][0]


def test_a_route_that_is_a_function_of_the_label_gives_all_its_bits_and_beats_every_shuffle():
    labels = np.random.default_rng(1).integers(0, 4, 480)
    test = ex.permutation_test(np.array([3, 5, 6, 9])[labels], labels, np.arange(480))
    assert test.value == pytest.approx(float(ex.entropy(labels)), abs=1e-12)
    assert (
        test.value > 1.9
        and test.p_value == pytest.approx(1 / (1 + ex.SHUFFLES))
        and test.null95 < 0.1
    )


def test_a_random_route_is_within_the_shuffles():
    g = np.random.default_rng(2)
    labels, routes = g.integers(0, 4, 480), g.integers(0, 6, 480)
    test = ex.permutation_test(routes, labels, np.arange(480))
    assert 0 < test.value < test.null95 and test.p_value > 0.05


def test_shuffling_among_units_moves_whole_units():
    unit_of = np.repeat(np.arange(40), 10)  # 40 lines of 10 tokens
    unit_labels = np.arange(40) % 2
    routes = np.random.default_rng(3).integers(0, 6, 40)[unit_of]  # a line's tokens share a route
    test = ex.permutation_test(routes, unit_labels, unit_of)
    # tokens shuffled one by one would score almost 0; whole lines keep the lumps: same null
    assert test.null_mean > 0.02 and test.p_value > 0.05


@pytest.mark.parametrize("case", ["lines of unequal length", "a rare route and a rare label"])
def test_the_shuffles_counted_per_unit_are_the_shuffles_counted_per_token(case):
    g = np.random.default_rng(5)
    unit_of = np.repeat(np.arange(60), g.integers(1, 12, 60))
    unit_labels = g.integers(0, 3, 60)
    routes = g.integers(0, 5, len(unit_of)) * 7 + 2  # any codes
    if case == "a rare route and a rare label":
        unit_labels = np.where(
            np.arange(60) < 2, 9, unit_labels % 2
        )  # label 9: two lines of one token
        unit_of = np.concatenate([[0, 1], unit_of[unit_of > 1]])
        routes = np.where(
            unit_of < 2, 40, routes[: len(unit_of)] % 14
        )  # route 40: only on those two
    order = np.argsort(g.random((200, 60)), axis=1)
    per_token = ex.mutual_information(routes, unit_labels[order][:, unit_of])
    assert np.array_equal(ex._shuffled_information(routes, unit_labels, unit_of, order), per_token)
    assert per_token.std() > 0  # the draws differ: a constant would not test the counting


def test_the_normalised_test_divides_every_shuffle_by_its_own_ceiling():
    g = np.random.default_rng(6)
    unit_of = np.repeat(np.arange(30), g.integers(1, 15, 30))  # units of unequal size
    unit_labels = np.arange(30) % 2
    routes = g.integers(0, 4, len(unit_of))
    test = ex.permutation_test(routes, unit_labels, unit_of, shuffles=300, normalised=True)
    labels = unit_labels[unit_of]
    assert test.value == pytest.approx(
        float(ex.mutual_information(routes, labels) / ex.entropy(labels))
    )
    order = np.argsort(np.random.default_rng(0).random((300, 30)), axis=1)
    drawn = unit_labels[order][:, unit_of]
    ratio = ex.mutual_information(routes, drawn) / ex.entropy(drawn)  # each draw its own H
    assert ex.entropy(drawn).std() > 0.005  # the ceilings differ between draws
    assert test.p_value == pytest.approx((1 + np.sum(ratio >= test.value - 1e-12)) / 301)
    assert test.null_mean == pytest.approx(ratio.mean())
    raw = ex.permutation_test(routes, unit_labels, unit_of, shuffles=300)
    assert raw.value == pytest.approx(test.value * float(ex.entropy(labels)))
    # dividing every draw by the observed ceiling instead would give another null
    assert test.null_mean != pytest.approx(raw.null_mean / float(ex.entropy(labels)))


def test_in_the_stored_mixture_the_raw_information_test_is_tilted_by_the_ceiling():
    # a shuffle of the language among token types keeps the number of Chinese types, not tokens:
    # its ceiling H(language) is lower than the observed on average, and so is its raw I
    layer = ex.expert_splits(0).language[1]
    assert layer.normalised.value == pytest.approx(layer.by_type.value / layer.language_bits)
    assert layer.by_type.p_value < layer.normalised.p_value
    assert ex.expert_splits(0).language[0].normalised.p_value == pytest.approx(
        1 / (1 + ex.SHUFFLES)
    )


def test_the_corrected_token_share_takes_off_what_the_plug_in_finds_in_random_routes():
    g = np.random.default_rng(7)
    token = g.integers(0, 50, 400)
    random = g.integers(0, 6, 400)
    assert ex.mutual_information(random, token) / ex.entropy(random) > 0.1  # the plug-in's bias
    assert abs(ex.corrected_share(random, token)) < 0.05
    fixed = token % 6  # the token fixes the route: nearly all of it stays
    assert 0.7 < ex.corrected_share(fixed, token) < 1  # the bias taken off a share of 1


def test_what_the_token_explains_leaves_no_conditional_information():
    token = np.random.default_rng(4).integers(0, 10, 600)
    label, route = token % 2, token % 3  # both functions of the token
    assert ex.mutual_information(route, token % 6) > 0.5
    assert ex.mutual_information(route, label, given=token) == pytest.approx(0, abs=1e-12)


def test_the_routes_are_the_experts_the_gates_open(routed, corpus):
    tokens = corpus.tokens()
    model = ex.stored_moe(0)
    with torch.no_grad(), router_logits(model) as logits:
        model(tokens)
    real = (tokens != 0).numpy()
    real[:, 0] = False
    assert routed.experts.shape == (2, int(real.sum()), 2)
    for layer, z in enumerate(logits):
        opened = (top_k_gates(z, 2) > 0).numpy()[real]  # (tokens, experts)
        chosen = np.zeros_like(opened)
        np.put_along_axis(chosen, routed.experts[layer], True, axis=1)
        assert (chosen == opened).all()
        assert (routed.routes[layer] == (opened * [1, 2, 4, 8]).sum(axis=1)).all()
    assert (routed.token == tokens.numpy()[real]).all() and 1 not in routed.token  # no <bos>


def test_a_planted_language_split_is_found_by_the_shuffle_of_types(routed, corpus):
    chinese = line_language(corpus)[routed.line].astype(bool)
    planted = np.where(chinese[:, None], [0, 1], [2, 3])[None]  # zh to experts 0, 1; en to 2, 3
    r = replace(routed, experts=planted, routes=ex.route_codes(planted))
    split = ex.language_split(r, corpus, 0)
    assert split.by_type.value == pytest.approx(split.language_bits, abs=1e-12)
    assert split.by_type.p_value == pytest.approx(1 / (1 + ex.SHUFFLES))
    assert split.chinese.tolist() == [1, 1, 0, 0] and split.one_language == 4
    assert split.base_rate == pytest.approx(chinese.mean()) and 0.5 < split.base_rate < 0.6


def test_an_untrained_router_splits_lines_by_language_but_not_more_than_its_tokens(corpus):
    # why the token-type shuffle: a random router already routes by token, and the tokens tell
    # the languages apart
    r = ex.routing(build_model(ex.settings_of(0), len(corpus.vocabulary)), corpus)
    split = ex.language_split(r, corpus, 0)
    by_line = ex.permutation_test(r.routes[0], line_language(corpus), r.line)
    assert by_line.p_value < 0.01 and split.by_type.p_value > 0.05
    assert split.token_share > 0.8


def test_purity_and_information_find_a_planted_relation_route_and_share_their_shuffles():
    relation = np.repeat(np.arange(4), 12)
    routes = np.array([3, 5, 6, 9])[relation]  # each relation its own pair of experts
    assert ex.route_purity(routes, relation)[0] == 1.0
    g = np.random.default_rng(0)
    assert ex.route_purity(g.integers(0, 6, 48), relation)[0] < 0.6
    test = ex.permutation_test(routes, relation, np.arange(48))
    assert test.value == pytest.approx(2.0) and test.p_value == pytest.approx(1 / (1 + ex.SHUFFLES))


def test_purity_and_information_can_disagree_and_say_why():
    # every relation split evenly over two routes of its own: the most common route holds half,
    # as shuffles do, yet the route still names the relation
    relation = np.repeat(np.arange(4), 12)
    routes = np.array([[3, 5], [6, 9], [10, 12], [17, 18]])[relation, np.arange(48) % 2]
    test = ex.permutation_test(routes, relation, np.arange(48))
    null = ex.route_purity(routes, relation[np.random.default_rng(0).permutation(48)])
    assert test.p_value < 0.01 and ex.route_purity(routes, relation)[0] == 0.5
    assert abs(null[0] - 0.5) < 0.25


def test_a_relation_split_reads_the_prompts_last_token_in_either_language(corpus):
    model = ex.stored_moe(0)
    routes = {lang: ex.prompt_routes(model, corpus, lang) for lang in ("en", "zh")}
    assert routes["en"].shape == routes["zh"].shape == (2, 48, 2)
    split = ex.relation_split(model, corpus, 1, "zh")
    assert 0 < split.information.p_value <= 1 and 0 < split.purity_p <= 1
    assert 0.25 <= split.chance_purity <= split.purity or split.purity_p > 0.05


def test_a_seed_outside_the_stored_ones_is_named():
    with pytest.raises(ValueError, match=r"seed must be one of \[0\], got 7"):
        ex.stored_moe(7)
