"""experiments.experts: the bilingual mixture of experts is what its rebuild command makes and
knows its facts; the mutual information and its permutation test find a planted split and no
split in random routes; the routes are the experts the model runs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

from course_lib.core.experiments.memory import build_model, router_logits
from course_lib.core.model.moe import top_k_gates
from course_lib.lessons.l09_two_languages.experiments import experts as ex
from course_lib.lessons.l09_two_languages.experiments.bilingual import bilingual_corpus
from course_lib.lessons.l09_two_languages.experiments.bilingual_model import known
from course_lib.lessons.l09_two_languages.experiments.one_memory import line_language
from devtools.spread.record import check_fresh_run

KNOWN = {seed: {"en": 48, "zh": 48} for seed in ex.SEEDS}  # measured: every fact, every seed


@pytest.fixture(scope="module")
def corpus():
    return bilingual_corpus()


@pytest.fixture(scope="module")
def routed(corpus):
    return ex.routing(ex.stored_moe(0), corpus)


@pytest.mark.parametrize("seed", ex.SEEDS)
def test_every_stored_model_knows_its_facts_in_both_languages(seed):
    right = {lang: int(r.sum()) for lang, r in known(ex.stored_moe(seed)).items()}
    assert right == KNOWN[seed]


def test_a_fresh_run_of_the_rebuild_starts_as_the_stored_one():
    """A fresh run's first 8 steps are the stored run's first 8. Tolerance: 10 × the spread make
    spread measured (at most 5.2e-09, docs/spread.md)."""
    fresh, _ = check_fresh_run("bilingual experts: first 8 losses")
    assert fresh["losses"].shape == (8,) and fresh["losses"][-1] < fresh["losses"][0]


def test_a_route_that_is_a_function_of_the_label_gives_all_its_bits_and_beats_every_shuffle():
    labels = np.random.default_rng(1).integers(0, 4, 480)
    test = ex.permutation_test(np.array([3, 5, 6, 9])[labels], labels, np.arange(480))
    assert test.value == pytest.approx(float(ex.entropy(labels)), abs=1e-12)
    assert test.value > 1.9 and test.p_value == pytest.approx(1 / 1001) and test.null95 < 0.1


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


def test_a_planted_language_split_is_found_by_both_shuffles(routed, corpus):
    chinese = line_language(corpus)[routed.line].astype(bool)
    planted = np.where(chinese[:, None], [0, 1], [2, 3])[None]  # zh to experts 0, 1; en to 2, 3
    r = replace(routed, experts=planted, routes=ex.route_codes(planted))
    split = ex.language_split(r, corpus, 0)
    assert split.by_line.value == pytest.approx(split.language_bits, abs=1e-12)
    assert split.by_line.p_value == split.by_type.p_value == pytest.approx(1 / 1001)
    assert split.chinese.tolist() == [1, 1, 0, 0] and split.one_language == 4
    assert split.base_rate == pytest.approx(chinese.mean()) and 0.5 < split.base_rate < 0.6


def test_an_untrained_router_splits_lines_by_language_but_not_more_than_its_tokens(corpus):
    # why the token-type shuffle: a random router already routes by token, and the tokens tell
    # the languages apart
    r = ex.routing(build_model(ex.settings_of(0), len(corpus.vocabulary)), corpus)
    split = ex.language_split(r, corpus, 0)
    assert split.by_line.p_value < 0.01 and split.by_type.p_value > 0.05
    assert split.token_share > 0.8


@pytest.mark.parametrize("seed", ex.SEEDS)
def test_in_every_layer_the_routes_lean_by_language_beyond_the_tokens_yet_no_expert_is_one_languages(
    seed,
):
    for split in ex.expert_splits(seed).language:
        assert split.by_line.p_value == pytest.approx(1 / 1001) and split.by_type.p_value < 0.05
        assert 0.1 < split.by_line.value < 0.25 * split.language_bits
        assert split.one_language == 0 and split.token_share > 0.7


def test_a_seed_outside_the_stored_ones_is_named():
    with pytest.raises(ValueError, match=r"seed must be one of \[0, 1, 2\], got 7"):
        ex.stored_moe(7)


def test_route_agreement_finds_shared_routes_and_none_in_independent_ones():
    g = np.random.default_rng(0)
    english = np.stack([g.permutation(4)[:2] for _ in range(48)])
    shared = ex.route_agreement(english, english[:, ::-1])  # the same pair, in another order
    assert shared.same == 1.0 and shared.p_value == pytest.approx(1 / 1001)
    assert 0.1 < shared.chance < 0.3  # six pairs of four experts: about 1/6 by chance
    other = np.stack([g.permutation(4)[:2] for _ in range(48)])
    assert ex.route_agreement(english, other).p_value > 0.05
