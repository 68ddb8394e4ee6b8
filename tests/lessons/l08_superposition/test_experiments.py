"""Lesson 8's experiments: the toy's dimensionality, the count of shared units and its shuffle, the
dictionaries' splices (an exact dictionary changes nothing), the transcoder's feature attributions
against zeroing each feature in a full rerun, and the purity measure."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from course_lib.core.experiments.memory import knowledge_neurons, stored_model
from course_lib.lessons.l08_superposition.experiments import (
    dictionary_split,
    fact_dictionaries,
    grammar,
    monosemantic,
    polysemantic,
    toy,
    transcoder,
)
from course_lib.lessons.l08_superposition.experiments.dictionary import SparseDictionary


def _columns(*angles_and_norms):
    return np.array([[r * np.cos(a), r * np.sin(a)] for a, r in angles_and_norms]).T  # (2, n)


def test_dimensionality_is_1_alone_half_in_an_antipodal_pair_two_fifths_in_a_pentagon():
    alone = _columns((0, 1.0), (np.pi / 2, 2.0))
    pair = _columns((0, 1.0), (np.pi, 1.0), (np.pi / 2, 1.0))
    pentagon = _columns(*[(2 * np.pi * i / 5, 1.3) for i in range(5)])
    dropped = np.array([[1.0, 0.0], [0.0, 0.0]])
    assert np.allclose(toy.dimensionality(alone), [1, 1])
    assert np.allclose(toy.dimensionality(pair), [0.5, 0.5, 1])
    assert np.allclose(toy.dimensionality(pentagon), 0.4)
    assert np.allclose(toy.dimensionality(dropped), [1, 0])


def test_knowledge_neurons_are_the_units_above_a_fifth_of_each_facts_largest():
    scores = np.array([[[1.0, 0.3, 0.1]], [[0.0, 0.5, 0.09]]])  # (facts, layers, d_ff)
    expected = np.array([[[True, True, False]], [[False, True, False]]])
    assert (knowledge_neurons(scores) == expected).all()


def test_sharing_counts_units_facts_relations_entities_and_purity():
    mask = np.array([[1, 1, 0], [1, 0, 0], [1, 0, 1]], dtype=bool)  # (facts, units)
    relations, entities = np.array(["a", "a", "b"]), np.array(["x", "y", "y"])
    found = polysemantic.sharing(mask, relations, entities)
    assert (found.units_used, found.pairs, found.most_facts, found.shared) == (3, 5, 3, 1)
    assert found.facts_per_unit == pytest.approx(5 / 3)
    assert found.relations_per_unit == pytest.approx((2 + 1 + 1) / 3)
    assert found.entities_per_unit == pytest.approx((2 + 1 + 1) / 3)
    assert found.relation_purity == pytest.approx(2 / 3)  # unit 0: two of its three facts "a"


def test_a_shuffle_keeps_each_facts_count_and_draws_only_firing_units():
    rng = np.random.default_rng(3)
    fires = rng.random((6, 40)) < 0.5
    mask = fires & (rng.random((6, 40)) < 0.3)
    for drawn in polysemantic.shuffled_masks(mask, fires, shuffles=5, seed=1):
        assert (drawn.sum(1) == mask.sum(1)).all()
        assert not (drawn & ~fires).any()
    first, second = polysemantic.shuffled_masks(mask, fires, shuffles=2, seed=1)
    assert not (first == second).all()


def test_the_matched_draws_keep_each_pools_count_and_give_sharings_used_units_and_purity():
    rng = np.random.default_rng(4)
    fires = rng.random((8, 60)) < 0.6
    mask = fires & (rng.random((8, 60)) < 0.3)
    write = rng.random((8, 60))
    pools = polysemantic.matched_pools(mask, fires, write, 30)
    drawn = polysemantic.matched_draws(mask, pools, shuffles=20, seed=2)
    for fact, pool, count in pools:
        assert (drawn[:, fact, pool].sum(1) == count).all()
    assert (drawn.sum(2) == mask.sum(1)).all() and not (drawn & ~fires).any()
    assert not (drawn[0] == drawn[1]).all()
    relations = np.array(list("abcdabcd"))
    used, purity = polysemantic.used_and_purity(drawn, relations)
    for m, u, p in zip(drawn, used, purity, strict=True):
        found = polysemantic.sharing(m, relations, relations)
        assert (u, p) == (found.units_used, pytest.approx(found.relation_purity))


def test_the_matched_shuffle_in_chunks_is_the_chunks_draws_one_after_another():
    rng = np.random.default_rng(5)
    fires = rng.random((8, 60)) < 0.6
    mask = fires & (rng.random((8, 60)) < 0.3)
    pools = polysemantic.matched_pools(mask, fires, rng.random((8, 60)), 30)
    relations = np.array(list("abcdabcd"))
    used, purity = polysemantic.matched_shuffle(mask, pools, relations, 25, chunk=10)
    assert len(used) == len(purity) == 25
    for i, start in enumerate((0, 10, 20)):
        alone = polysemantic.used_and_purity(
            polysemantic.matched_draws(mask, pools, min(10, 25 - start), i), relations
        )
        assert (used[start : start + 10] == alone[0]).all()
        assert np.allclose(purity[start : start + 10], alone[1], equal_nan=True)


def test_the_top_tenth_share_counts_pairs_among_the_units_that_write_most():
    fires = np.ones((2, 20), dtype=bool)  # two layers of 10 units, every unit firing
    write = np.tile(np.arange(20.0), (2, 1))  # unit 9 writes most in layer 0, 19 in layer 1
    mask = np.zeros((2, 20), dtype=bool)
    mask[0, [9, 19]] = True  # both the top unit of their layer
    mask[1, [0, 3]] = True  # neither
    assert polysemantic.top_tenth_share(mask, fires, write, 10) == 0.5
    assert polysemantic.top_tenth_share(mask, fires, -write, 10) == 0.25  # unit 0 now on top


@pytest.fixture(scope="module")
def fact_model():
    return stored_model()


def _ffn_as_transcoder(model) -> SparseDictionary:
    """A transcoder with layer 0's FFN's own weights: ReLU(x W1 + b1) W2 + b2, exactly the FFN."""
    ffn = model.layers[0].ffn
    d = SparseDictionary(model.d_model, model.d_model, model.d_ff, autoencoder=False)
    with torch.no_grad():
        d.W_enc.copy_(ffn.linear1.weight.T), d.b_enc.copy_(ffn.linear1.bias)
        d.W_dec.copy_(ffn.linear2.weight.T), d.b_dec.copy_(ffn.linear2.bias)
    return d


def _identity_sae(d_ff: int) -> SparseDictionary:
    d = SparseDictionary(d_ff, d_ff, d_ff)
    with torch.no_grad():
        d.W_enc.copy_(torch.eye(d_ff)), d.W_dec.copy_(torch.eye(d_ff))
        d.b_enc.zero_(), d.b_dec.zero_()
    return d


def test_a_transcoder_with_the_ffns_own_weights_leaves_the_loss_unchanged(fact_model):
    model, corpus = fact_model
    clean = fact_dictionaries.spliced_loss(model, corpus)
    hooks = fact_dictionaries.transcoder_hooks(model, _ffn_as_transcoder(model))
    assert fact_dictionaries.spliced_loss(model, corpus, hooks) == pytest.approx(clean, abs=1e-5)
    ablated = fact_dictionaries.spliced_loss(model, corpus, fact_dictionaries.ablation_hooks())
    assert ablated > clean + 0.5  # the splice is not a no-op: zeroing the layer costs


def test_an_identity_sae_leaves_the_loss_unchanged_and_recovers_all(fact_model):
    model, corpus = fact_model
    clean = fact_dictionaries.spliced_loss(model, corpus)
    ablated = fact_dictionaries.spliced_loss(model, corpus, fact_dictionaries.ablation_hooks())
    hooks = fact_dictionaries.sae_hooks(_identity_sae(model.d_ff))
    spliced = fact_dictionaries.spliced_loss(model, corpus, hooks)
    assert spliced == pytest.approx(clean, abs=1e-5)
    assert fact_dictionaries.loss_recovered(clean, spliced, ablated) == pytest.approx(1, abs=1e-4)
    assert fact_dictionaries.loss_recovered(1.0, 2.0, 3.0) == pytest.approx(0.5)


def test_feature_attributions_equal_zeroing_each_feature_at_the_last_word_in_a_full_rerun(
    fact_model,
):
    model, corpus = fact_model
    g = torch.Generator().manual_seed(0)
    d = SparseDictionary(model.d_model, model.d_model, 64, k=4, autoencoder=False, generator=g)
    scores, active = transcoder.feature_attributions(model, corpus, d)
    prompts, answers = corpus.prompts()
    fact = 5
    features = np.flatnonzero(active[fact])
    assert len(features) == 4 and (scores[fact, ~active[fact]] == 0).all()
    base = fact_dictionaries.transcoder_hooks(model, d)
    seen = {}
    for feature in features[:2]:

        def zero(out, _hook, feature=feature):
            f = d.encode(model.layers[0].sublayers[1].norm(seen["mid"]).float())
            out = out.clone()
            out[:, -1] -= (f[:, -1, feature, None] * d.W_dec[feature]).to(out.dtype)
            return out

        keep = ("layers.0.hook_resid_mid", lambda x, _h: seen.__setitem__("mid", x))
        with torch.no_grad():
            with model.hooks(base):
                p_before = model(prompts[fact : fact + 1])[0, -1].softmax(-1)[answers[fact]]
            with model.hooks([keep, *base, ("layers.0.ffn.hook_out", zero)]):
                p_after = model(prompts[fact : fact + 1])[0, -1].softmax(-1)[answers[fact]]
        assert scores[fact, feature] == pytest.approx(float(p_before - p_after), abs=1e-9)


def test_top_purity_is_the_most_common_labels_share_of_the_top_active_prompts():
    acts = np.array([[5.0, 1.0, 0.0], [4.0, 0.0, 0.0], [3.0, 2.0, 0.0], [0.1, 0.0, 1.0]])
    labels = np.array(["a", "a", "b", "b"])
    purity = monosemantic.top_purity(acts, labels, top=3)
    assert purity[0] == pytest.approx(2 / 3)  # top 3: a, a, b
    assert purity[1] == pytest.approx(1 / 2)  # active on prompts 0 (a) and 2 (b)
    assert np.isnan(purity[2])  # active on one prompt only: not counted


def test_a_random_rotation_is_orthogonal_and_differs_by_seed():
    q = monosemantic.random_rotation(16, seed=2)
    assert torch.allclose(q @ q.T, torch.eye(16, dtype=q.dtype), atol=1e-12)
    assert not torch.allclose(q, monosemantic.random_rotation(16, seed=3))


def test_the_permutation_p_value_is_small_for_a_clear_shift_and_large_without_one():
    rng = np.random.default_rng(0)
    a, b = rng.choice([0.5, 0.75, 1.0], 30), rng.choice([0.25, 1 / 3, 0.5], 30)
    assert monosemantic.permutation_p(a, b) < 0.01
    assert monosemantic.permutation_p(b, a) > 0.9
    assert monosemantic.permutation_p(a, a) > 0.3  # no shift: not rejected


def test_the_permutation_p_value_counts_every_split_exactly():
    """Against all 56 ways to pick 3 of 8 purities, and against 200,000 random relabellings."""
    a, b = np.array([1.0, 0.5, 0.75]), np.array([0.25, 0.5, 1 / 3, 2 / 3, 1.0])
    pooled, observed = np.concatenate([a, b]), a.mean() - b.mean()
    splits = [np.isin(np.arange(8), picked) for picked in itertools.combinations(range(8), 3)]
    at_least = [pooled[m].mean() - pooled[~m].mean() >= observed - 1e-12 for m in splits]
    assert monosemantic.permutation_p(a, b) == pytest.approx(np.mean(at_least), abs=1e-15)
    rng = np.random.default_rng(1)
    a, b = rng.choice([1 / 3, 0.5, 2 / 3, 0.75, 1.0], 12), rng.choice([0.25, 0.5, 2 / 3, 1.0], 150)
    pooled, observed = np.concatenate([a, b]), a.mean() - b.mean()
    shuffled = rng.permuted(np.tile(pooled, (200_000, 1)), axis=1)
    drawn = (shuffled[:, :12].mean(1) - shuffled[:, 12:].mean(1) >= observed - 1e-12).mean()
    assert abs(monosemantic.permutation_p(a, b) - drawn) < 4 * np.sqrt(drawn * (1 - drawn) / 2e5)


def test_the_permutation_p_value_refuses_values_that_are_not_purities():
    with pytest.raises(ValueError, match="multiples of 1/12"):
        monosemantic.permutation_p(np.array([0.3]), np.array([0.5, 1.0]))


def test_the_exact_chance_purity_is_the_mean_over_permutations_of_the_labels():
    rng = np.random.default_rng(6)
    relations = np.array(["capital", "colour", "animal", "food"] * 6)
    entities = np.repeat(np.arange(6), 4)
    acts = np.where(rng.random((24, 30)) < 0.15, rng.random((24, 30)), 0.0)
    exact = monosemantic.chance_purity(acts, relations, entities)
    drawn = monosemantic.shuffled_purity(acts, relations, entities, 4000, seed=1)
    error = drawn.std(0) / np.sqrt(len(drawn))
    assert (abs(drawn.mean(0) - exact) < 4 * error).all()


def test_the_chance_share_of_two_draws_from_two_classes_of_two_is_two_thirds():
    """Of the 6 pairs from {a, a, b, b}, 2 share a label (share 1), 4 do not (share 1/2)."""
    acts = np.array([[1.0], [2.0], [0.0], [0.0]])  # one direction, active on two prompts
    labels = np.array(["a", "a", "b", "b"])
    assert monosemantic.chance_purity(acts, labels, labels) == pytest.approx([2 / 3, 2 / 3])


def test_the_shuffled_purity_is_the_purity_of_the_permuted_labels():
    rng = np.random.default_rng(7)
    relations, entities = np.array(list("abcd") * 5), np.repeat(np.arange(5), 4)
    acts = np.where(rng.random((20, 12)) < 0.3, rng.random((20, 12)), 0.0)
    drawn = monosemantic.shuffled_purity(acts, relations, entities, 3, seed=2)
    orders = np.random.default_rng(2)
    for row in drawn:
        order = orders.permutation(20)
        found = monosemantic.purity(acts, relations[order], entities[order])
        assert row == pytest.approx([found.relation, found.entity])


def test_an_entity_pure_top_four_is_a_quarter_pure_in_relation():
    """Each entity has one fact per relation, so the two purities move together: one effect."""
    relations = np.array(["capital", "colour", "animal", "food"] * 2)
    entities = np.array(["velor"] * 4 + ["brask"] * 4)
    acts = np.zeros((8, 1))
    acts[:4, 0] = [4.0, 3.0, 2.0, 1.0]  # fires on velor's four facts only
    assert monosemantic.top_purity(acts, entities)[0] == 1.0
    assert monosemantic.top_purity(acts, relations)[0] == 0.25


def _contexts(x: torch.Tensor, y: torch.Tensor, held: np.ndarray) -> grammar.Contexts:
    n = len(x)
    rows = fact_dictionaries.LayerRows(x, x, y, torch.full((n,), 1 / n), torch.zeros(1, 1))
    every = np.ones(n, dtype=bool)
    return grammar.Contexts(rows, every, every, held, torch.zeros(1, 1, dtype=torch.int64))


def test_the_lookups_errors_sum_to_its_fvu_and_are_0_where_a_context_is_a_training_copy():
    rng = torch.Generator().manual_seed(1)
    x = torch.randn(40, 3, generator=rng, dtype=torch.float64)
    x[35] = x[0]  # a held-out context that is also a training one
    held = np.arange(40) >= 30
    contexts = _contexts(x, x, held)
    errors = dictionary_split.nearest_input_errors(contexts, "grammar")
    target = x[held]
    assert errors.shape == (10,) and errors[5] == 0 and (errors[np.arange(10) != 5] > 0).all()
    assert errors.sum() / float(((target - target.mean(0)) ** 2).sum()) == pytest.approx(
        dictionary_split.nearest_input_fvu(contexts, "grammar")
    )


def test_the_linear_map_fits_an_affine_target_exactly_and_misses_a_nonlinear_one():
    rng = torch.Generator().manual_seed(0)
    x = torch.randn(60, 4, generator=rng, dtype=torch.float64)
    held = np.arange(60) >= 45
    affine = _contexts(x, x @ torch.randn(4, 3, generator=rng, dtype=torch.float64) + 2.0, held)
    train, new = dictionary_split.linear_map_fvu(affine)
    assert train == pytest.approx(0.0, abs=1e-12) and new == pytest.approx(0.0, abs=1e-12)
    squared = _contexts(x, x**2, held)  # no affine map of x gives x², so both FVUs stay high
    train, new = dictionary_split.linear_map_fvu(squared)
    assert train > 0.5 and new > 0.5
    with pytest.raises(ValueError, match="trained_on"):
        dictionary_split.linear_map_fvu(affine, "everything")


def test_the_lookup_verdict_cannot_tell_within_a_tenth_of_the_bar():
    verdict = dictionary_split.verdict
    assert [verdict(r) for r in (0.5, 0.79, 0.81, 0.9, 0.99, 1.01, 1.3)] == [
        "better", "better", "could not tell", "could not tell", "could not tell", "no better",
        "no better"]  # fmt: skip
    assert verdict(1.05, bar=1.0) == "could not tell" and verdict(0.85, bar=1.0) == "better"


def test_the_linear_maps_errors_sum_to_its_held_out_fvu_and_vanish_for_an_affine_target():
    rng = torch.Generator().manual_seed(0)
    x = torch.randn(60, 4, generator=rng, dtype=torch.float64)
    held = np.arange(60) >= 45
    squared = _contexts(x, x**2, held)
    errors = dictionary_split.linear_map_errors(squared)
    target = (x**2)[held]
    assert errors.shape == (15,) and (errors > 0).all()
    assert errors.sum() / float(((target - target.mean(0)) ** 2).sum()) == pytest.approx(
        dictionary_split.linear_map_fvu(squared)[1]
    )
    affine = _contexts(x, x @ torch.randn(4, 3, generator=rng, dtype=torch.float64) + 2.0, held)
    assert dictionary_split.linear_map_errors(affine) == pytest.approx(np.zeros(15), abs=1e-20)


def test_a_ratios_interval_resamples_numerator_and_denominator_together():
    rng = np.random.default_rng(0)
    copy = rng.exponential(size=301) ** 3  # a few contexts carry most of the error
    interval = dictionary_split.ratio_interval
    low, high = interval(2 * copy, copy, resamples=2000)  # paired: every resample gives 2
    assert low == pytest.approx(2.0) and high == pytest.approx(2.0)
    other = rng.exponential(size=301)
    low, high = interval(other, copy, resamples=2000)
    assert low < other.sum() / copy.sum() < high and high - low > 0.1
    both = interval(np.stack([2 * copy, other]), copy, resamples=2000)
    assert both.shape == (2, 2) and both[1] == pytest.approx([low, high])
    with pytest.raises(ValueError, match="same contexts"):
        interval(other[:300], copy)
    with pytest.raises(ValueError, match="resamples must be an integer of at least 100"):
        interval(other, copy, resamples=10)


def test_the_interval_verdict_takes_a_side_only_when_the_whole_interval_is_past_the_band():
    verdict = dictionary_split.interval_verdict
    assert [verdict(*pair) for pair in ((0.3, 0.79), (0.3, 0.81), (0.85, 0.95), (0.95, 1.2),
                                        (1.01, 2.0), (0.5, 1.5))] == [
        "better", "could not tell", "could not tell", "could not tell", "no better",
        "could not tell"]  # fmt: skip
    assert verdict(1.05, 1.2, bar=1.0) == "could not tell" and verdict(1.15, 1.2, bar=1.0) == (
        "no better"
    )
    with pytest.raises(ValueError, match="low must not exceed high"):
        verdict(0.9, 0.5)
