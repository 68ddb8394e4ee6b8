"""checks (lesson 8): each checker passes the reference, says "not attempted" for a stub, and
names the typical mistakes: TopK activations taken over the batch, kept negative, kept by
absolute value, the smallest kept, a mask or the unscattered values (a ReLU before the TopK is
the same, and passes); an L1 step that leaves the decoder unnormalised (the planted bug: the
penalty is beaten by scaling), normalises the encoder, the wrong dim, by the squared norm or
before the step; a dense toy model's features counted from 1, all five, the least important or
the wrong number; a dead-feature share too low, too high or not a share."""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pytest
import torch

from course_lib.core.checks import close
from course_lib.core.i18n import MissingTranslation, set_language
from course_lib.lessons.l08_superposition.checks import (
    REFERENCE,
    _step,
    _topk_suspects,
    check_dead_prediction,
    check_decoder_norm,
    check_dense_toy_prediction,
    check_topk_encoder,
    dense_kept,
    dense_norms,
    l1_problem,
    scaling_run,
    topk_case,
    topk_reference,
    trajectory,
)
from course_lib.lessons.l08_superposition.experiments.dictionary import (
    SparseDictionary,
    dictionary_loss,
)

TRIALS = (0, 1, 2)


def _stub(*args):
    raise NotImplementedError


def _failed_with(result, hint):
    return result.status == "failed" and hint in result.message


# ---- TopK


def _kept(pre, indices, values):
    return torch.zeros_like(pre).scatter(-1, indices, values)


def _relu_first(pre, k):
    top = torch.relu(pre).topk(k, dim=-1)
    return _kept(pre, top.indices, top.values)


def test_the_reference_is_the_dictionarys_topk_rule():
    for seed in TRIALS:
        pre, k = topk_case(seed)
        n = pre.shape[-1]
        sae = SparseDictionary(n, n, n, k=k).double()
        with torch.no_grad():
            sae.W_enc.copy_(torch.eye(n))  # pre-activations = the input (the biases are 0)
        assert torch.equal(topk_reference(pre, k), sae.encode(pre))


def test_the_topk_checker_passes_the_reference_and_reports_a_stub():
    assert check_topk_encoder(topk_reference).status == "passed"
    assert check_topk_encoder(_stub).status == "not attempted"


def test_a_relu_before_the_topk_gives_the_same_activations_and_passes():
    for seed in TRIALS:
        pre, k = topk_case(seed)
        assert torch.equal(_relu_first(pre, k), topk_reference(pre, k))
    assert check_topk_encoder(_relu_first).status == "passed"


def test_the_trials_draw_different_shapes_and_k_and_some_top_k_values_below_zero():
    cases = [topk_case(seed) for seed in TRIALS]
    assert len({(tuple(pre.shape), k) for pre, k in cases}) == len(TRIALS)
    assert len({pre.dim() for pre, _ in cases}) == 2, "rows and (batch, seq) inputs"
    for pre, k in cases:  # else forgetting the ReLU would pass
        assert (pre.topk(k, dim=-1).values < 0).any()


def test_every_topk_suspect_differs_from_the_reference_in_every_trial():
    for seed in TRIALS:
        pre, k = topk_case(seed)
        for hint, wrong in _topk_suspects(pre, k).items():
            assert not close(wrong, topk_reference(pre, k)), (seed, hint)


def _over_dim_0(pre, k):
    top = pre.topk(k, dim=0)
    return torch.zeros_like(pre).scatter(0, top.indices, torch.relu(top.values))


def _by_size(pre, k):
    kept = pre.abs().topk(k, dim=-1).indices
    return _kept(pre, kept, torch.relu(pre.gather(-1, kept)))


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_over_dim_0, "over dim 0, across rows"),
        (lambda pre, k: _kept(pre, *reversed(pre.topk(k, dim=-1))), "negative values are kept"),
        (lambda pre, k: torch.relu(pre), "every positive pre-activation is kept"),
        (_by_size, "in absolute value"),
        (lambda pre, k: 2 * topk_reference(pre, k), "ReLU(TopK(pre))"),
        (
            lambda pre, k: _kept(
                pre, pre.topk(k, largest=False).indices, torch.relu(pre.topk(k, largest=False)[0])
            ),
            "the k smallest pre-activations are kept",
        ),
        (lambda pre, k: torch.zeros_like(pre).scatter(-1, pre.topk(k).indices, 1.0), "mask"),
        (lambda pre, k: (topk_reference(pre, k) > 0).double(), "mask"),
        (lambda pre, k: torch.relu(pre.topk(k, dim=-1).values), "scatter the k kept values"),
        (lambda pre, k: None, "None"),
    ],
)
def test_the_topk_checker_names_each_typical_mistake(wrong, hint):
    result = check_topk_encoder(wrong)
    assert _failed_with(result, hint), result.message


# ---- the decoder's normalisation


def _plain(sae, x, optimiser, l1):
    """The notebook's planted bug: the L1 step with no normalisation."""
    optimiser.zero_grad()
    loss = dictionary_loss(sae, x, x, l1)
    loss.backward()
    optimiser.step()
    return loss.item()


def _then(fix):
    def step(sae, x, optimiser, l1):
        loss = _plain(sae, x, optimiser, l1)
        with torch.no_grad():
            fix(sae)
        return loss

    return step


def _unit_rows(sae):
    sae.W_dec /= sae.W_dec.norm(dim=1, keepdim=True)


def _around(sae, x, optimiser, l1):  # normalised before and after: harmless, it passes
    with torch.no_grad():
        _unit_rows(sae)
    return _then(_unit_rows)(sae, x, optimiser, l1)


def _outside_no_grad(sae, x, optimiser, l1):
    _plain(sae, x, optimiser, l1)
    sae.W_dec /= sae.W_dec.norm(dim=1, keepdim=True)


def _replaced(sae, x, optimiser, l1):
    _plain(sae, x, optimiser, l1)
    sae.W_dec = torch.nn.Parameter(sae.W_dec / sae.W_dec.norm(dim=1, keepdim=True))


@pytest.mark.parametrize(
    "right",
    [
        REFERENCE,
        _then(_unit_rows),
        _then(lambda sae: sae.W_dec.copy_(torch.nn.functional.normalize(sae.W_dec, dim=1))),
        _around,
    ],
)
def test_the_decoder_checker_passes_a_step_then_unit_rows(right):
    assert check_decoder_norm(right).status == "passed"


def test_the_decoder_checker_reports_a_stub():
    assert check_decoder_norm(_stub).status == "not attempted"


def test_the_problems_draw_different_sizes_and_the_plain_step_moves_the_norms():
    sizes = {
        tuple(l1_problem(seed)[0].W_dec.shape) + (len(l1_problem(seed)[2]),) for seed in TRIALS
    }
    assert len(sizes) == len(TRIALS)
    for seed in TRIALS:
        norms = trajectory(_step, seed)[-1]["W_dec"].norm(dim=1)
        assert (norms - 1).abs().max() > 1e-3, "else a missing normalisation would pass"


def test_without_the_normalisation_the_l1_penalty_is_beaten_by_scaling():
    norms, activations = scaling_run(_plain)
    held_norms, held_activations = scaling_run(REFERENCE)
    assert np.allclose(held_norms, 1.0)
    assert norms[-1] > 1.3 and activations[-1] < 0.8 * held_activations[-1]


def test_the_planted_bug_is_named_with_the_scaling_it_allows_not_as_a_difference():
    result = check_decoder_norm(_plain)
    assert _failed_with(result, "are not normalised: in 300 steps"), result.message
    assert "differ" not in result.message and "raised" not in result.message


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_then(lambda sae: sae.W_dec.div_(sae.W_dec.norm(dim=0, keepdim=True))), "over dim 0"),
        (_then(lambda sae: sae.W_enc.div_(sae.W_enc.norm(dim=0))), "the encoder was normalised"),
        (
            _then(lambda sae: sae.W_enc.div_(sae.W_enc.norm(dim=1, keepdim=True))),
            "the encoder was normalised",
        ),
        (_then(lambda sae: sae.W_dec.div_(sae.W_dec.norm(dim=1, keepdim=True) ** 2)), "squared"),
        (partial(_step, before=_unit_rows), "before optimiser.step()"),
        (_outside_no_grad, "with torch.no_grad()"),
        (_replaced, "replaced by a new tensor"),
        (_then(lambda sae: sae.W_dec.mul_(2 / sae.W_dec.norm(dim=1, keepdim=True))), "2.000"),
        (_then(lambda sae: (_unit_rows(sae), sae.b_enc.add_(0.01))), "plain step"),
    ],
)
def test_the_decoder_checker_names_each_typical_mistake(wrong, hint):
    result = check_decoder_norm(wrong)
    assert _failed_with(result, hint), result.message


# ---- the dense toy model's features


def test_the_stored_dense_toy_model_keeps_its_two_most_important_features():
    assert dense_kept() == {0, 1}
    norms = dense_norms()
    assert norms.shape == (5,) and (norms[:2] > 0.9).all() and (norms[2:] < 0.1).all()


@pytest.mark.parametrize("right", [{0, 1}, [1, 0], (0, 1), frozenset({np.int64(0), 1})])
def test_the_dense_checker_passes_the_two_most_important_in_any_container(right):
    assert check_dense_toy_prediction(lambda: right).status == "passed"


def test_the_dense_checker_reports_a_stub():
    assert check_dense_toy_prediction(_stub).status == "not attempted"


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        ({1, 2}, "indices count from 0"),
        ({0, 1, 2, 3, 4}, "the sparse regime"),
        ({3, 4}, "importance falls with the index"),
        ({0}, "m = 2 dimensions"),
        ({0, 1, 2}, "m = 2 dimensions"),
        ({0, 2}, "but which?"),
        ({1, 3}, "but which?"),
        ({4, 5}, "numbered 0 to 4"),
        (2, "a set of feature indices"),
        ({"0", "1"}, "a set of feature indices"),
        ({True, False}, "a set of feature indices"),
        (None, "None"),
    ],
)
def test_the_dense_checker_names_each_typical_mistake(wrong, hint):
    result = check_dense_toy_prediction(lambda: wrong)
    assert _failed_with(result, hint), result.message


# ---- dead features (a made-up measurement: 100 of 512, about 20 %)

MEASURED = {"measured_dead": 100, "n_features": 512}


@pytest.mark.parametrize("share", [0.2, 0.05, 0.34, np.float64(0.25)])
def test_the_dead_checker_passes_a_share_within_15_points(share):
    result = check_dead_prediction(lambda: share, **MEASURED)
    assert result.status == "passed" and "100 of 512 features (20%)" in result.message


def test_the_dead_checker_reports_a_stub():
    assert check_dead_prediction(_stub, **MEASURED).status == "not attempted"


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (0.0, "more than your 0%: a feature that fires on no input"),
        (0.03, "more than your 3%"),
        (0.36, "fewer than your 36%: most features still find inputs"),
        (1, "fewer than your 100%"),
        (100, "a number from 0 to 1"),
        (-0.1, "a number from 0 to 1"),
        ("20%", "a number from 0 to 1"),
        (True, "a number from 0 to 1"),
        (None, "None"),
    ],
)
def test_the_dead_checker_says_which_way_a_prediction_missed(wrong, hint):
    result = check_dead_prediction(lambda: wrong, **MEASURED)
    assert _failed_with(result, hint), result.message


@pytest.mark.parametrize(
    ("dead", "n", "error"),
    [(513, 512, "measured_dead must be at most"), (-1, 512, "measured_dead"), (0, 0, "n_features")],
)
def test_the_dead_checker_names_a_wrong_measurement(dead, n, error):
    with pytest.raises(ValueError, match=error):
        check_dead_prediction(lambda: 0.2, dead, n)


# ---- every line in Chinese


def test_every_checker_speaks_chinese_with_no_missing_entry(capsys):
    set_language("zh")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", MissingTranslation)
            results = [
                check_topk_encoder(topk_reference),
                check_topk_encoder(_by_size),
                check_decoder_norm(_plain),
                check_dense_toy_prediction(lambda: {1, 2}),
                check_dead_prediction(lambda: 0.6, **MEASURED),
            ]
    finally:
        set_language("en")
    assert [r.status for r in results] == ["passed"] + ["failed"] * 4
    assert "绝对值" in results[1].message and "解码器" in results[2].message
    assert "从 0 开始" in results[3].message and "比你预测的 60% 少" in results[4].message


# ---- the projected step (SAELens, EleutherAI's sparsify): also right


def _projected(sae, x, optimiser, l1):
    """SAELens's step: the gradient's component along each decoder row removed, the step, then
    the rows renormalised."""
    optimiser.zero_grad()
    loss = dictionary_loss(sae, x, x, l1)
    loss.backward()
    with torch.no_grad():
        W = sae.W_dec
        W.grad -= torch.einsum("fd,fd->f", W.grad, W)[:, None] * W
    optimiser.step()
    with torch.no_grad():
        _unit_rows(sae)
    return loss.item()


def _projected_only(sae, x, optimiser, l1):
    optimiser.zero_grad()
    loss = dictionary_loss(sae, x, x, l1)
    loss.backward()
    with torch.no_grad():
        W = sae.W_dec
        W.grad -= (W.grad * W).sum(1, keepdim=True) * W
    optimiser.step()
    return loss.item()


def test_the_projected_step_differs_from_the_plain_one_so_accepting_it_is_a_choice():
    for seed in TRIALS:
        plain, projected = trajectory(REFERENCE, seed), trajectory(_projected, seed)
        assert not all(close(a["W_dec"], b["W_dec"]) for a, b in zip(plain, projected, strict=True))


def test_the_decoder_checker_passes_the_projection_then_renormalisation():
    assert check_decoder_norm(_projected).status == "passed"


def test_the_decoder_checker_rejects_the_projection_without_renormalisation():
    result = check_decoder_norm(_projected_only)
    assert _failed_with(result, "a step of finite size along the sphere still leaves it")


def test_the_decoder_checker_still_rejects_the_unnormalised_step_with_or_without_projection():
    assert check_decoder_norm(_plain).status == "failed"
    assert check_decoder_norm(_projected_only).status == "failed"
