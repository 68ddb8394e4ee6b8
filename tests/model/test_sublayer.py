"""Our LayerNorm, sublayer connections and encoder/decoder layers against PyTorch's own."""

from __future__ import annotations

import itertools

import pytest
import torch
from torch import nn

from course_lib.core.model.sublayer import (
    DecoderLayer,
    EncoderLayer,
    LayerNorm,
    RMSNorm,
    SublayerConnection,
    mask_from_torch,
    rms_norm,
    unbiased_std_layer_norm,
)

ATOL = 1e-5  # torch's fused eval fast path differs from the plain formula by ~5e-7
CASES = list(itertools.product([False, True], ["relu", "gelu"], [False, True]))


def _masks(batch: int, length: int):
    causal = torch.ones(length, length).triu(1).bool()  # torch: True = blocked
    padding = torch.zeros(batch, length, dtype=torch.bool)
    padding[1, length - 2 :] = True  # the second sequence ends with two pads
    return causal, padding


def test_layer_norm_equals_torch_layer_norm_with_random_gain_and_bias():
    torch.manual_seed(0)
    ours, theirs = LayerNorm(8, eps=1e-3), nn.LayerNorm(8, eps=1e-3)
    with torch.no_grad():
        theirs.weight.uniform_(0.5, 1.5), theirs.bias.normal_()
    ours.load_state_dict(theirs.state_dict())
    x = torch.randn(3, 5, 8) * 3 + 1
    torch.testing.assert_close(ours(x), theirs(x), atol=1e-6, rtol=1e-5)


def test_layer_norm_gives_mean_zero_variance_one_per_position():
    y = LayerNorm(16)(torch.randn(4, 6, 16) * 5 + 2)
    torch.testing.assert_close(y.mean(-1), torch.zeros(4, 6), atol=1e-5, rtol=0)
    torch.testing.assert_close(y.var(-1, unbiased=False), torch.ones(4, 6), atol=1e-3, rtol=0)


def test_unbiased_std_variant_differs_from_layer_norm_by_the_n_minus_1_factor():
    x = torch.randn(2, 3, 4)
    ones, zeros = torch.ones(4), torch.zeros(4)
    ratio = LayerNorm(4, eps=1e-12)(x) / unbiased_std_layer_norm(x, ones, zeros, eps=0.0)
    torch.testing.assert_close(ratio, torch.full_like(ratio, (4 / 3) ** 0.5), atol=1e-4, rtol=0)


@pytest.mark.parametrize(
    "d_model, eps, error", [(0, 1e-5, ValueError), (4, 0.0, ValueError), (4, "x", TypeError)]
)
def test_layer_norm_rejects_bad_arguments(d_model, eps, error):
    with pytest.raises(error):
        LayerNorm(d_model, eps)


def test_layer_norm_rejects_wrong_last_dimension():
    with pytest.raises(ValueError, match="last dimension 4"):
        LayerNorm(4)(torch.randn(2, 5))


def test_post_norm_connection_is_norm_of_x_plus_sublayer():
    conn = SublayerConnection(6, dropout=0.0)
    x = torch.randn(2, 3, 6)
    torch.testing.assert_close(conn(x, torch.tanh), conn.norm(x + torch.tanh(x)))


def test_pre_norm_connection_is_x_plus_sublayer_of_norm():
    conn = SublayerConnection(6, dropout=0.0, norm_first=True)
    x = torch.randn(2, 3, 6)
    torch.testing.assert_close(conn(x, torch.tanh), x + torch.tanh(conn.norm(x)))


def test_connection_dropout_acts_only_in_training():
    conn = SublayerConnection(6, dropout=0.5)
    x = torch.randn(4, 5, 6)
    torch.manual_seed(0)
    assert not torch.allclose(conn(x, torch.tanh), conn(x, torch.tanh))
    conn.eval()
    torch.testing.assert_close(conn(x, torch.tanh), conn(x, torch.tanh))


def test_connection_rejects_bad_arguments():
    with pytest.raises(TypeError, match="norm_first"):
        SublayerConnection(4, 0.1, norm_first="pre")
    with pytest.raises(ValueError, match="dropout"):
        SublayerConnection(4, 1.5)
    with pytest.raises(TypeError, match="sublayer must be callable"):
        SublayerConnection(4)(torch.randn(1, 2, 4), "ffn")


@pytest.mark.parametrize("norm_first, activation, masked", CASES)
def test_encoder_layer_equals_torch(norm_first, activation, masked):
    torch.manual_seed(0)
    theirs = nn.TransformerEncoderLayer(
        16, 4, 32, 0.1, activation, batch_first=True, norm_first=norm_first
    ).eval()
    ours = EncoderLayer.from_torch(theirs).eval()
    assert ours.sublayers[0].norm_first is norm_first and ours.ffn.activation == activation
    x = torch.randn(3, 5, 16)
    causal, padding = _masks(3, 5) if masked else (None, None)
    with torch.no_grad():
        expected = theirs(x, src_mask=causal, src_key_padding_mask=padding)
        got = ours(x, mask_from_torch(causal, padding))
    torch.testing.assert_close(got, expected, atol=ATOL, rtol=0)


@pytest.mark.parametrize("norm_first, activation, masked", CASES)
def test_decoder_layer_equals_torch(norm_first, activation, masked):
    torch.manual_seed(1)
    theirs = nn.TransformerDecoderLayer(
        16, 4, 32, 0.1, activation, batch_first=True, norm_first=norm_first
    ).eval()
    ours = DecoderLayer.from_torch(theirs).eval()
    x, memory = torch.randn(3, 5, 16), torch.randn(3, 7, 16)
    causal, padding = _masks(3, 5) if masked else (None, None)
    memory_padding = _masks(3, 7)[1] if masked else None
    with torch.no_grad():
        expected = theirs(
            x,
            memory,
            tgt_mask=causal,
            tgt_key_padding_mask=padding,
            memory_key_padding_mask=memory_padding,
        )
        got = ours(
            x, memory, mask_from_torch(causal, padding), mask_from_torch(None, memory_padding)
        )
    torch.testing.assert_close(got, expected, atol=ATOL, rtol=0)


def test_encoder_layer_equals_torch_with_an_additive_float_mask():
    torch.manual_seed(2)
    theirs = nn.TransformerEncoderLayer(16, 4, 32, batch_first=True).eval()
    ours = EncoderLayer.from_torch(theirs).eval()
    causal = nn.Transformer.generate_square_subsequent_mask(5)  # float: 0 allowed, -inf blocked
    x = torch.randn(2, 5, 16)
    with torch.no_grad():
        torch.testing.assert_close(
            ours(x, mask_from_torch(causal)), theirs(x, src_mask=causal), atol=ATOL, rtol=0
        )


def test_copied_layer_is_not_equal_before_copying():
    """Guards the equality tests: two independently initialised layers do differ."""
    torch.manual_seed(0)
    theirs = nn.TransformerEncoderLayer(16, 4, 32, 0.0, batch_first=True).eval()
    fresh = EncoderLayer(16, 4, 32, 0.0).eval()
    x = torch.randn(2, 4, 16)
    with torch.no_grad():
        assert (fresh(x) - theirs(x)).abs().max() > 1e-2


def test_mask_from_torch_flips_bool_and_float_conventions():
    blocked = torch.tensor([[False, True], [False, False]])
    torch.testing.assert_close(mask_from_torch(blocked), ~blocked)
    additive = torch.tensor([[0.0, float("-inf")], [0.0, 0.0]])
    torch.testing.assert_close(mask_from_torch(additive), ~blocked)
    padding = torch.tensor([[False, True]])
    assert mask_from_torch(None, padding).shape == (1, 1, 2)
    assert mask_from_torch(blocked, padding).tolist() == [[[True, False], [True, False]]]
    assert mask_from_torch() is None


def test_mask_from_torch_rejects_soft_float_masks_and_int_masks():
    with pytest.raises(ValueError, match="0 and -inf"):
        mask_from_torch(torch.tensor([[0.0, -2.0]]))
    with pytest.raises(TypeError, match="dtype"):
        mask_from_torch(torch.tensor([[0, 1]]))
    with pytest.raises(ValueError, match="key_padding_mask"):
        mask_from_torch(None, torch.zeros(2, 3, 4, dtype=torch.bool))


def test_from_torch_rejects_unsupported_layers():
    with pytest.raises(ValueError, match="batch_first"):
        EncoderLayer.from_torch(nn.TransformerEncoderLayer(8, 2, 16))
    with pytest.raises(ValueError, match="activation"):
        EncoderLayer.from_torch(
            nn.TransformerEncoderLayer(8, 2, 16, activation=torch.tanh, batch_first=True)
        )
    with pytest.raises(ValueError, match="bias"):
        DecoderLayer.from_torch(nn.TransformerDecoderLayer(8, 2, 16, batch_first=True, bias=False))
    with pytest.raises(TypeError, match="TransformerEncoderLayer"):
        EncoderLayer.from_torch(nn.Linear(2, 2))


def test_layers_reject_unknown_activation():
    with pytest.raises(ValueError, match="activation"):
        EncoderLayer(8, 2, 16, activation="silu")
    with pytest.raises(ValueError, match="activation"):
        DecoderLayer(8, 2, 16, activation="tanh")


@pytest.mark.parametrize("shape", [(5,), (2, 7), (2, 3, 16)])
@pytest.mark.parametrize("eps", [1e-6, 1e-3, 0.5])
def test_rms_norm_equals_torch_rmsnorm(shape, eps):
    g = torch.Generator().manual_seed(len(shape))
    x = torch.randn(*shape, generator=g) * 2 + 0.5
    ours, theirs = RMSNorm(shape[-1], eps=eps), nn.RMSNorm(shape[-1], eps=eps)
    with torch.no_grad():
        theirs.weight.copy_(torch.rand(shape[-1], generator=g) + 0.5)
    ours.load_state_dict(theirs.state_dict())
    torch.testing.assert_close(ours(x), theirs(x), atol=1e-6, rtol=1e-5)


def test_rms_norm_differs_from_layer_norm_when_the_mean_is_not_zero():
    x = torch.randn(2, 3, 8, generator=torch.Generator().manual_seed(0)) + 2.0
    gap = (RMSNorm(8)(x) - LayerNorm(8)(x)).abs().max().item()
    assert gap > 0.1  # RMSNorm keeps the mean; LayerNorm removes it


def test_rms_norm_gives_root_mean_square_one():
    x = torch.randn(4, 32, generator=torch.Generator().manual_seed(1)) * 5
    rms = rms_norm(x, torch.ones(32), eps=1e-12).pow(2).mean(dim=-1).sqrt()
    torch.testing.assert_close(rms, torch.ones(4))


@pytest.mark.parametrize(
    "d_model, eps, error",
    [(0, 1e-6, ValueError), (4, 0.0, ValueError), (4, -1.0, ValueError), (4, True, TypeError)],
)
def test_rms_norm_rejects_bad_arguments(d_model, eps, error):
    with pytest.raises(error, match="d_model|eps"):
        RMSNorm(d_model, eps)
