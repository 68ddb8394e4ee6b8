"""course_lib.core.model.transformer: embeddings, positional encoding, masks and attention equal PyTorch's."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from course_lib.core.model.transformer import (
    Embeddings,
    MultiHeadAttention,
    PositionalEncoding,
    create_sequence_mask,
    dropout_input_shapes,
    dropout_sites,
    scaled_dot_product_attention,
    sinusoidal_table,
    transformer_layer_parameters,
)

SEED_IDS = [[1999, 2, 99, 4, 5], [66, 2, 3, 22, 5], [66, 2, 3, 4, 5]]


# --- Embeddings -------------------------------------------------------------------------------


def test_embeddings_look_up_each_id_and_scale_by_sqrt_d_model():
    torch.manual_seed(0)
    embed = Embeddings(vocab_size=2000, d_model=512)
    ids = torch.tensor(SEED_IDS)
    out = embed(ids)
    assert out.shape == (3, 5, 512)
    torch.testing.assert_close(out[0, 0], embed.lut.weight[1999] * math.sqrt(512))
    torch.testing.assert_close(out[1, 1], out[2, 1])  # the same id gives the same vector


def test_embeddings_accept_int32_ids():
    embed = Embeddings(10, 4)
    ids = torch.tensor([[1, 2]])
    torch.testing.assert_close(embed(ids.int()), embed(ids))


@pytest.mark.parametrize("bad", [-1, 2000])
def test_embeddings_reject_ids_outside_the_vocabulary(bad):
    embed = Embeddings(2000, 8)
    with pytest.raises(ValueError, match=rf"token_ids must lie in \[0, 2000\), got values .*{bad}"):
        embed(torch.tensor([[1, bad]]))


def test_embeddings_reject_float_ids_naming_the_dtype():
    with pytest.raises(
        TypeError, match=r"token_ids must be an integer tensor, got dtype torch.float32"
    ):
        Embeddings(10, 4)(torch.tensor([[1.0, 2.0]]))


def test_embeddings_reject_ids_that_are_not_a_tensor():
    with pytest.raises(TypeError, match=r"token_ids must be an integer tensor, got list"):
        Embeddings(10, 4)([[1, 2]])


@pytest.mark.parametrize(
    "kwargs, error, pattern",
    [
        ({"vocab_size": 0}, ValueError, r"vocab_size must be a positive int, got 0"),
        ({"vocab_size": 10.0}, TypeError, r"vocab_size must be a positive int, got 10.0"),
        ({"vocab_size": 10, "d_model": -4}, ValueError, r"d_model must be a positive int, got -4"),
    ],
)
def test_embeddings_reject_bad_sizes(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        Embeddings(**kwargs)


# --- sinusoidal positional encoding -----------------------------------------------------------


@pytest.mark.parametrize("pos", [0, 1, 7, 49])
def test_sinusoidal_table_first_pair_is_sin_and_cos_of_the_position(pos):
    table = sinusoidal_table(50, 16)
    assert table[pos, 0].item() == pytest.approx(math.sin(pos), abs=1e-5)
    assert table[pos, 1].item() == pytest.approx(math.cos(pos), abs=1e-5)


def test_sinusoidal_table_follows_the_papers_formula_for_every_entry():
    max_len, d_model = 20, 10
    table = sinusoidal_table(max_len, d_model)
    assert table.shape == (max_len, d_model)
    for pos in range(max_len):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            assert table[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-5)
            assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-5)


def test_sinusoidal_table_with_odd_d_model_ends_with_a_sine_column():
    table = sinusoidal_table(12, 5)
    assert table.shape == (12, 5)
    positions = torch.arange(12, dtype=torch.float32)
    torch.testing.assert_close(table[:, 4], torch.sin(positions / 10000 ** (4 / 5)))
    torch.testing.assert_close(table[:, 3], torch.cos(positions / 10000 ** (2 / 5)))


@pytest.mark.parametrize("kwargs", [{"max_len": 0, "d_model": 4}, {"max_len": 4, "d_model": 0}])
def test_positional_encoding_rejects_non_positive_sizes(kwargs):
    name = next(k for k, v in kwargs.items() if v == 0)
    with pytest.raises(ValueError, match=rf"{name} must be a positive int, got 0"):
        PositionalEncoding(dropout=0.0, **kwargs)


def test_positional_encoding_adds_the_table_to_each_sequence():
    pe = PositionalEncoding(d_model=8, dropout=0.0, max_len=30)
    x = torch.randn(3, 5, 8)
    torch.testing.assert_close(pe(x), x + sinusoidal_table(30, 8)[:5])


def test_positional_encoding_applies_dropout_only_in_training():
    pe = PositionalEncoding(d_model=8, dropout=0.5, max_len=30)
    x = torch.randn(3, 5, 8)
    pe.train()
    assert (pe(x) == 0).any()
    pe.eval()
    torch.testing.assert_close(pe(x), x + sinusoidal_table(30, 8)[:5])


def test_positional_encoding_table_is_not_saved_in_the_state_dict():
    assert PositionalEncoding(8, 0.0, 10).state_dict() == {}


def test_positional_encoding_rejects_sequences_longer_than_max_len():
    pe = PositionalEncoding(d_model=8, dropout=0.0, max_len=4)
    with pytest.raises(ValueError, match=r"seq_len must be at most max_len=4, got 5"):
        pe(torch.randn(1, 5, 8))


def test_positional_encoding_rejects_the_wrong_last_dimension():
    with pytest.raises(ValueError, match=r"x must have last dimension 8"):
        PositionalEncoding(8, 0.0, 10)(torch.randn(1, 3, 6))


def test_positional_encoding_rejects_an_input_without_a_batch_dimension():
    with pytest.raises(
        ValueError, match=r"x must be \(batch, seq_len, d_model\), got shape \(8, 8\)"
    ):
        PositionalEncoding(8, 0.0, 10)(torch.randn(8, 8))


@pytest.mark.parametrize(
    "kwargs, error",
    [({"d_model": 0}, ValueError), ({"dropout": 1.0}, ValueError), ({"max_len": 2.5}, TypeError)],
)
def test_positional_encoding_rejects_bad_arguments(kwargs, error):
    (name,) = kwargs
    with pytest.raises(error, match=rf"{name} must be"):
        PositionalEncoding(**{"d_model": 8, **kwargs})


# --- masks and attention ----------------------------------------------------------------------


def test_create_sequence_mask_lets_each_position_see_itself_and_earlier_ones():
    mask = create_sequence_mask(4)
    assert mask.dtype == torch.bool
    expected = [[i >= j for j in range(4)] for i in range(4)]
    assert mask.tolist() == expected


@pytest.mark.parametrize("size, error", [(0, ValueError), (3.0, TypeError)])
def test_create_sequence_mask_rejects_bad_sizes(size, error):
    with pytest.raises(error, match=r"size must be a positive int"):
        create_sequence_mask(size)


@pytest.mark.parametrize("causal", [False, True])
def test_scaled_dot_product_attention_equals_torchs(causal):
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 3, 5, 4) for _ in range(3))
    mask = create_sequence_mask(5) if causal else None
    out, weights = scaled_dot_product_attention(q, k, v, mask)
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # bool: True = may attend
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-5)
    assert weights.shape == (2, 3, 5, 5)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 3, 5))
    if causal:
        assert (weights[..., ~mask] == 0).all()


def test_scaled_dot_product_attention_accepts_a_0_1_mask_and_applies_dropout_to_weights():
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 4, 8) for _ in range(3))
    mask = create_sequence_mask(4)
    out_bool, _ = scaled_dot_product_attention(q, k, v, mask)
    out_int, _ = scaled_dot_product_attention(q, k, v, mask.int())
    torch.testing.assert_close(out_int, out_bool)
    dropout = torch.nn.Dropout(0.5).train()
    _, dropped = scaled_dot_product_attention(q, k, v, None, dropout)
    assert (dropped == 0).any()


def copy_into_torch(ours: MultiHeadAttention) -> torch.nn.MultiheadAttention:
    theirs = torch.nn.MultiheadAttention(ours.d_model, ours.num_heads, batch_first=True)
    with torch.no_grad():
        theirs.in_proj_weight.copy_(
            torch.cat([ours.linear_q.weight, ours.linear_k.weight, ours.linear_v.weight])
        )
        theirs.in_proj_bias.copy_(
            torch.cat([ours.linear_q.bias, ours.linear_k.bias, ours.linear_v.bias])
        )
        theirs.out_proj.weight.copy_(ours.linear_out.weight)
        theirs.out_proj.bias.copy_(ours.linear_out.bias)
    return theirs.eval()


@pytest.mark.parametrize("causal", [False, True])
def test_multi_head_attention_equals_torchs_with_the_same_weights(causal):
    torch.manual_seed(0)
    ours = MultiHeadAttention(d_model=16, num_heads=4, dropout=0.1).eval()
    theirs = copy_into_torch(ours)
    x = torch.randn(3, 5, 16)
    mask = create_sequence_mask(5) if causal else None
    with torch.no_grad():
        got = ours(x, x, x, mask)
        expected, weights = theirs(x, x, x, attn_mask=None if mask is None else ~mask)
    torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(ours.attn.mean(dim=1), weights, atol=1e-5, rtol=1e-5)


def test_multi_head_attention_attends_from_a_query_to_a_longer_key_sequence_like_torch():
    torch.manual_seed(0)
    ours = MultiHeadAttention(d_model=12, num_heads=3, dropout=0.0).eval()
    query, memory = torch.randn(2, 3, 12), torch.randn(2, 7, 12)
    with torch.no_grad():
        expected, _ = copy_into_torch(ours)(query, memory, memory)
        torch.testing.assert_close(ours(query, memory, memory), expected, atol=1e-5, rtol=1e-5)
    assert ours.attn.shape == (2, 3, 3, 7)


def test_multi_head_attention_runs_the_seeds_pipeline_shapes():
    torch.manual_seed(0)
    ids = torch.tensor(SEED_IDS)
    x = PositionalEncoding(512, 0.0)(Embeddings(2000, 512)(ids))
    mha = MultiHeadAttention(512, 8).eval()
    out = mha(x, x, x, create_sequence_mask(5))
    assert x.shape == out.shape == (3, 5, 512)
    assert mha.attn.shape == (3, 8, 5, 5)


def test_multi_head_attention_uses_a_per_batch_mask_for_every_head():
    torch.manual_seed(0)
    mha = MultiHeadAttention(8, 2, 0.0).eval()
    x = torch.randn(2, 4, 8)
    mask = create_sequence_mask(4)
    with torch.no_grad():
        torch.testing.assert_close(mha(x, x, x, mask.expand(2, 4, 4)), mha(x, x, x, mask))


def test_multi_head_attention_with_a_causal_mask_ignores_later_positions():
    torch.manual_seed(0)
    mha = MultiHeadAttention(8, 2, 0.0).eval()
    x = torch.randn(1, 6, 8)
    changed = x.clone()
    changed[:, 4:] = torch.randn(1, 2, 8)
    mask = create_sequence_mask(6)
    with torch.no_grad():
        torch.testing.assert_close(
            mha(x, x, x, mask)[:, :4], mha(changed, changed, changed, mask)[:, :4]
        )


def test_multi_head_attention_rejects_d_model_not_divisible_by_num_heads():
    with pytest.raises(ValueError, match=r"d_model must be divisible by num_heads, got 10 and 4"):
        MultiHeadAttention(10, 4)


@pytest.mark.parametrize(
    "kwargs, error, pattern",
    [
        ({"num_heads": 0}, ValueError, r"num_heads must be a positive int, got 0"),
        ({"d_model": 8.0}, TypeError, r"d_model must be a positive int, got 8.0"),
        ({"dropout": -0.5}, ValueError, r"dropout must be a float in \[0, 1\), got -0.5"),
    ],
)
def test_multi_head_attention_rejects_bad_arguments(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        MultiHeadAttention(**{"d_model": 8, "num_heads": 2, **kwargs})


@pytest.mark.parametrize("which", ["query", "key", "value"])
def test_multi_head_attention_rejects_a_2d_input_naming_it(which):
    mha = MultiHeadAttention(8, 2)
    inputs = {
        "query": torch.randn(1, 3, 8),
        "key": torch.randn(1, 3, 8),
        "value": torch.randn(1, 3, 8),
    }
    inputs[which] = torch.randn(3, 8)
    with pytest.raises(
        ValueError, match=rf"{which} must be \(batch, seq_len, d_model\), got shape \(3, 8\)"
    ):
        mha(**inputs)


def test_multi_head_attention_rejects_the_wrong_last_dimension():
    with pytest.raises(ValueError, match=r"key must have last dimension 8 .*got shape \(1, 3, 6\)"):
        MultiHeadAttention(8, 2)(torch.randn(1, 3, 8), torch.randn(1, 3, 6), torch.randn(1, 3, 8))


# --- parameter counts -------------------------------------------------------------------------


@pytest.mark.parametrize("d_model, d_ff, heads", [(512, 2048, 8), (64, 256, 4), (6, 10, 2)])
def test_transformer_layer_parameters_equal_torchs_encoder_layer(d_model, d_ff, heads):
    layer = torch.nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=d_ff)
    parts = transformer_layer_parameters(d_model, d_ff)
    assert parts["total"] == sum(p.numel() for p in layer.parameters())
    assert parts["attention"] == sum(p.numel() for p in layer.self_attn.parameters())
    ffn = list(layer.linear1.parameters()) + list(layer.linear2.parameters())
    assert parts["ffn"] == sum(p.numel() for p in ffn)
    norms = list(layer.norm1.parameters()) + list(layer.norm2.parameters())
    assert parts["layer_norms"] == sum(p.numel() for p in norms)


def test_ffn_holds_about_two_thirds_of_a_layer_at_d_ff_four_times_d_model():
    parts = transformer_layer_parameters(512, 2048)
    assert 0.66 < parts["ffn"] / parts["total"] < 0.67


@pytest.mark.parametrize("kwargs", [{"d_model": 0}, {"d_ff": -1}])
def test_transformer_layer_parameters_reject_bad_sizes(kwargs):
    (name,) = kwargs
    with pytest.raises(ValueError, match=rf"{name} must be a positive int"):
        transformer_layer_parameters(**kwargs)


# --- where the dropouts sit ---------------------------------------------------------------------


def encoder_with_positions() -> nn.ModuleDict:
    from course_lib.core.model.sublayer import EncoderLayer

    return nn.ModuleDict(
        {"pe": PositionalEncoding(16, dropout=0.2), "layer": EncoderLayer(16, 2, 64, dropout=0.3)}
    )


def test_dropout_sites_names_every_dropout_with_its_owner_and_source():
    stack = encoder_with_positions()
    sites = {name: (p, owner, source) for name, p, owner, source in dropout_sites(stack)}
    every_dropout = {n for n, m in stack.named_modules() if isinstance(m, nn.Dropout)}
    assert set(sites) == every_dropout
    assert sites["pe.dropout"] == (0.2, "PositionalEncoding", "paper")
    for i in (0, 1):
        assert sites[f"layer.sublayers.{i}.dropout"] == (0.3, "SublayerConnection", "paper")
    assert sites["layer.ffn.dropout"] == (0.3, "FeedForward", "implementation")
    assert sites["layer.self_attn.dropout"] == (0.3, "MultiHeadAttention", "implementation")


def test_dropout_sites_marks_a_dropout_in_an_unknown_module_as_unknown():
    sites = dropout_sites(nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5)))
    assert sites == [("1", 0.5, "Sequential", "unknown")]


def test_dropout_sites_rejects_a_non_module():
    with pytest.raises(TypeError, match="model must be an nn.Module"):
        dropout_sites("encoder")


def test_dropout_input_shapes_records_what_each_dropout_receives_and_removes_its_hooks():
    stack = encoder_with_positions().eval()
    x = torch.zeros(3, 5, 16)
    with torch.no_grad():
        before = stack["layer"](stack["pe"](x))
        shapes = dropout_input_shapes(stack, lambda: stack["layer"](stack["pe"](x)))
        after = stack["layer"](stack["pe"](x))
    assert shapes == {
        "pe.dropout": (3, 5, 16),
        "layer.self_attn.dropout": (3, 2, 5, 5),
        "layer.ffn.dropout": (3, 5, 64),
        "layer.sublayers.0.dropout": (3, 5, 16),
        "layer.sublayers.1.dropout": (3, 5, 16),
    }
    assert torch.equal(before, after), "the hooks leave the outputs unchanged"
    assert all(not m._forward_hooks for m in stack.modules())


def test_attention_keeps_its_last_weights_detached_so_a_model_can_be_copied_after_backward():
    import copy

    torch.manual_seed(0)
    mha = MultiHeadAttention(d_model=8, num_heads=2, dropout=0.0)
    x = torch.randn(1, 3, 8, requires_grad=True)
    mha(x, x, x).sum().backward()
    assert mha.attn is not None and not mha.attn.requires_grad and mha.attn.shape == (1, 2, 3, 3)
    copied = copy.deepcopy(mha)  # a graph-holding cache would make this raise
    assert torch.equal(copied.attn, mha.attn)
