"""Lesson 1's measurement: the hidden activity of a freshly initialised FFN on the fixed batch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.model.ffn import NUMPY_ACTIVATIONS
from course_lib.lessons.l01_feed_forward.experiments import (
    D_MODEL,
    SEED,
    TOKENS,
    WIDEST_D_FF,
    _pre_activations,
    fixed_batch,
    hidden_activity,
)


def test_fixed_batch_is_two_sequences_of_four_512_wide_tokens():
    assert fixed_batch().shape == (2, 4, 512)
    assert fixed_batch().reshape(-1, D_MODEL).shape[0] == TOKENS


@pytest.mark.parametrize("d_ff", [1, 64, 256, WIDEST_D_FF])
def test_hidden_activity_has_one_row_per_token_and_one_column_per_unit(d_ff):
    assert hidden_activity(d_ff, "relu").shape == (TOKENS, d_ff)


def test_hidden_activity_applies_the_activation_to_the_same_pre_activations():
    pre = hidden_activity(512, "identity").astype(float)
    for name in ("relu", "gelu", "silu", "tanh"):
        np.testing.assert_allclose(
            hidden_activity(512, name), NUMPY_ACTIVATIONS[name](pre), atol=1e-6, rtol=1e-5
        )


def test_hidden_activity_is_the_same_whatever_ran_before():
    first = hidden_activity(256, "relu")
    _pre_activations.cache_clear()
    fixed_batch.cache_clear()
    torch.manual_seed(1234)
    torch.randn(10)
    np.testing.assert_array_equal(hidden_activity(256, "relu"), first)


def test_hidden_activity_leaves_the_global_random_state_alone():
    _pre_activations.cache_clear()
    torch.manual_seed(7)
    expected = torch.rand(3)
    torch.manual_seed(7)
    hidden_activity(64, "relu")
    torch.testing.assert_close(torch.rand(3), expected, rtol=0, atol=0)


def test_hidden_activity_returns_a_copy_the_caller_may_change():
    first = hidden_activity(64, "identity")
    first[:] = 0.0
    assert np.abs(hidden_activity(64, "identity")).sum() > 0


def test_a_narrow_layer_is_the_first_units_of_the_wide_one():
    narrow, wide = hidden_activity(64, "silu"), hidden_activity(WIDEST_D_FF, "silu")
    np.testing.assert_array_equal(narrow, wide[:, :64])


def test_hidden_activity_units_have_nn_linear_init_bounds():
    # nn.Linear: |w|, |b| <= 1/sqrt(512), so |x w + b| <= (sum |x| + 1) / sqrt(512) for every unit
    pre = hidden_activity(WIDEST_D_FF, "identity")
    x = fixed_batch().reshape(TOKENS, D_MODEL).abs().sum(dim=1, keepdim=True).numpy()
    bound = (x + 1) / D_MODEL**0.5
    assert (np.abs(pre) <= bound).all()
    # and they are spread like U(-a, a) weights, a = 1/sqrt(512): var = a^2/3 (sum x^2 + 1)
    sum_sq = (fixed_batch().reshape(TOKENS, D_MODEL) ** 2).sum(dim=1).numpy()
    predicted = np.sqrt((sum_sq + 1) / (3 * D_MODEL))
    np.testing.assert_allclose(pre.std(axis=1), predicted, rtol=0.1)


def test_relu_zeroes_about_half_and_gelu_none():
    relu, gelu = hidden_activity(2048, "relu"), hidden_activity(2048, "gelu")
    assert 0.4 < (relu == 0).mean() < 0.6
    assert (gelu == 0).mean() == 0
    np.testing.assert_array_equal(relu > 0, gelu > 0)  # GELU has ReLU's sign


@pytest.mark.parametrize(
    "d_ff, error, pattern",
    [
        (0, ValueError, r"d_ff must be a positive int, got 0"),
        (WIDEST_D_FF + 1, ValueError, rf"d_ff must be at most {WIDEST_D_FF}, got 4097"),
        (256.0, TypeError, r"d_ff must be a positive int, got 256.0"),
    ],
)
def test_hidden_activity_rejects_widths_it_cannot_serve(d_ff, error, pattern):
    with pytest.raises(error, match=pattern):
        hidden_activity(d_ff, "relu")


def test_hidden_activity_rejects_an_unknown_activation_listing_the_accepted_ones():
    with pytest.raises(ValueError, match=r"activation must be one of \[.*'relu'.*\], got 'rleu'"):
        hidden_activity(64, "rleu")


def test_the_pre_activations_are_those_of_a_whole_feed_forward_with_the_same_seed():
    import torch

    from course_lib.core.model.ffn import FeedForward

    torch.manual_seed(SEED)
    ffn = FeedForward(D_MODEL, WIDEST_D_FF, dropout=0.0)
    with torch.no_grad():
        expected = ffn.linear1(fixed_batch()).reshape(TOKENS, WIDEST_D_FF)
    assert torch.equal(_pre_activations(), expected)
