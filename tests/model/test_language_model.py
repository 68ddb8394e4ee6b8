"""The small language model: shapes, causality, tied output embedding, FFNs that are the course's
FeedForward inside the course's EncoderLayer, and the one config that shapes it."""

from __future__ import annotations

import dataclasses

import pytest
import torch
import torch.nn.functional as F

from course_lib.core.model.ffn import (
    FeedForward,
    GatedFeedForward,
    equal_budget_gated_d_ff,
    module_parameters,
)
from course_lib.core.model.language_model import (
    LanguageModel,
    LanguageModelConfig,
)
from course_lib.core.model.moe import MixtureOfExperts, moe_parameters
from course_lib.core.model.sublayer import EncoderLayer
from course_lib.core.model.transformer import create_sequence_mask

VOCAB = 30
HIDDEN = "layers.1.ffn.hook_hidden"  # the last block's FFN hidden units


def ZERO(h: torch.Tensor, _hook) -> torch.Tensor:  # noqa: N802 (a hook, named as a constant)
    return h * 0


def small_model(seed: int = 0, **kwargs) -> LanguageModel:
    options = {"d_model": 16, "num_layers": 2, "num_heads": 2, "d_ff": 24} | kwargs
    with torch.random.fork_rng():  # the global RNG is left as it was
        torch.manual_seed(seed)
        return LanguageModel(LanguageModelConfig(vocab_size=VOCAB, **options)).double().eval()


def random_tokens(batch: int, length: int, seed: int = 1) -> torch.Tensor:
    return torch.randint(0, VOCAB, (batch, length), generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize(("batch", "length"), [(1, 1), (3, 7), (2, 12)])
def test_logits_and_hidden_units_have_the_documented_shapes(batch, length):
    model, tokens = small_model(), random_tokens(batch, length)
    assert model(tokens).shape == (batch, length, VOCAB)
    assert model.ffn_hidden(tokens).shape == (2, batch, length, 24)
    assert model.value_logits(1).shape == (24, VOCAB)


def test_a_later_token_never_changes_an_earlier_positions_logits():
    model, tokens = small_model(), random_tokens(2, 10)
    changed = tokens.clone()
    changed[:, 6:] = (changed[:, 6:] + 1) % VOCAB
    with torch.no_grad():
        before, after = model(tokens), model(changed)
    torch.testing.assert_close(before[:, :6], after[:, :6], atol=0, rtol=0)
    assert (before[:, 6:] - after[:, 6:]).abs().max() > 1e-3  # the later positions do change


def test_the_blocks_compute_the_course_encoder_layer_under_a_causal_mask():
    model, tokens = small_model(), random_tokens(3, 9)
    with torch.no_grad():
        x = model.position(model.embed(tokens))
        for layer in model.layers:
            x = layer(x, create_sequence_mask(9))
        expected = model.norm(x) @ model.embed.lut.weight.T
        torch.testing.assert_close(model(tokens), expected, atol=1e-12, rtol=0)


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_the_ffn_inside_is_feedforward_and_its_hidden_units_are_readable(activation):
    model, tokens = small_model(activation=activation), random_tokens(2, 5)
    ffn = model.layers[0].ffn
    assert isinstance(ffn, FeedForward) and ffn.activation == activation
    x = torch.randn(2, 5, 16, dtype=torch.float64, generator=torch.Generator().manual_seed(2))
    with torch.no_grad(), model.hooks([("layers.0.ffn.hook_hidden", lambda h, _hook: h)]):
        torch.testing.assert_close(ffn(x), ffn.linear2(ffn.hidden(x)), atol=0, rtol=0)
    assert not ffn.hook_hidden._forward_hooks  # the hook is gone once the block ends
    with torch.no_grad():
        first = model.layers[0]
        h = model.position(model.embed(tokens))
        h = first.sublayers[0](h, lambda a: first.self_attn(a, a, a, create_sequence_mask(5)))
        expected = ffn.hidden(first.sublayers[1].norm(h))  # pre-norm: the FFN reads LN(x)
        hidden = model.ffn_hidden(tokens)
    torch.testing.assert_close(hidden[0], expected, atol=1e-12, rtol=0)
    if activation == "relu":
        assert bool((hidden >= 0).all()) and bool((hidden == 0).any())


def test_an_edit_of_the_hidden_units_changes_the_output_and_identity_does_not():
    model, tokens = small_model(), random_tokens(2, 6)
    with torch.no_grad():
        plain = model(tokens)
        same = model.run_with_hooks(tokens, fwd_hooks=[(HIDDEN, lambda h, _hook: h)])
        zeroed = model.run_with_hooks(tokens, fwd_hooks=[(HIDDEN, ZERO)])
        without_ffn = model.norm(_residual_without_last_ffn(model, tokens)) @ model.unembedding.T
    torch.testing.assert_close(same, plain, atol=0, rtol=0)
    # zero hidden units leave only W2's bias b2 of the last FFN
    torch.testing.assert_close(zeroed, without_ffn, atol=1e-12, rtol=0)
    assert (zeroed - plain).abs().max() > 1e-3


def _residual_without_last_ffn(model: LanguageModel, tokens: torch.Tensor) -> torch.Tensor:
    mask = create_sequence_mask(tokens.shape[1])
    x = model.position(model.embed(tokens))
    x = model.layers[0](x, mask)
    last = model.layers[1]
    x = last.sublayers[0](x, lambda a: last.self_attn(a, a, a, mask))
    return x + last.ffn.linear2.bias


def test_the_output_embedding_is_the_input_embedding():
    model = small_model()
    assert model.unembedding is model.embed.lut.weight
    names = [name for name, _ in model.named_parameters()]
    assert sum("lut" in name for name in names) == 1  # one matrix, used twice
    values = model.layers[0].ffn.linear2.weight.T
    torch.testing.assert_close(model.value_logits(0)[3], model.embed.lut.weight @ values[3])


def test_the_embeddings_start_small_so_the_first_logits_are_moderate():
    with torch.random.fork_rng():
        model = LanguageModel(LanguageModelConfig(vocab_size=VOCAB, d_model=64))
    std = model.embed.lut.weight.std().item()
    assert 0.1 < std < 0.15  # 1/sqrt(64) = 0.125, not nn.Embedding's 1


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"vocab_size": 0}, ValueError, "vocab_size must be a positive int, got 0"),
        ({"activation": "silu"}, ValueError, "activation must be one of \\['gelu', 'relu'\\]"),
        ({"num_layers": 0}, ValueError, "num_layers must be a positive int, got 0"),
        ({"max_len": 2.5}, TypeError, "max_len must be a positive int, got 2.5 \\(float\\)"),
        ({"d_model": 10, "num_heads": 4}, ValueError, "d_model must be divisible by num_heads"),
        ({"dropout": 1.0}, ValueError, "dropout must be a float in \\[0, 1\\), got 1.0"),
        ({"num_experts": -1}, ValueError, "num_experts must be a positive int, got -1"),
        ({"k": 0}, ValueError, "k must be an int >= 1, got 0"),
        ({"k": 5}, ValueError, "k must be at most num_experts=4, got 5"),
        ({"shared_experts": -1}, ValueError, "shared_experts must be an int >= 0, got -1"),
        ({"renormalise": "yes"}, TypeError, "renormalise must be a bool, got 'yes'"),
    ],
)
def test_bad_config_fields_are_named_with_their_value_and_what_is_accepted(fields, error, message):
    fields = {"vocab_size": VOCAB, "d_model": 16, "num_heads": 2} | fields
    with pytest.raises(error, match=message):
        LanguageModelConfig(**fields)


def test_the_config_is_frozen_named_and_passed_down_whole():
    config = LanguageModelConfig(vocab_size=VOCAB, d_model=16, num_heads=2, d_ff=24, ffn="swiglu")
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.d_ff = 48
    assert config.hidden_width == equal_budget_gated_d_ff(24) == 16
    with pytest.raises(TypeError, match="positional"):
        LanguageModelConfig(VOCAB, 16)  # every field is named
    assert LanguageModel(config).config is config
    for fields in ((VOCAB,), (VOCAB, 16)):  # no model from loose fields: one config, passed down
        with pytest.raises(TypeError):
            LanguageModel(*fields)
    with pytest.raises(TypeError, match="config must be a LanguageModelConfig, .* got int 40"):
        LanguageModel(40)


def test_blocks_and_mixtures_are_built_from_the_config():
    config = LanguageModelConfig(
        vocab_size=VOCAB, d_model=16, num_heads=2, d_ff=24, dropout=0.25, activation="gelu",
        ffn="moe", num_experts=3, k=1, shared_experts=1, renormalise=False,
    )  # fmt: skip
    block = EncoderLayer.from_config(config)
    assert block.self_attn.num_heads == 2 and block.ffn.linear1.out_features == 24
    assert block.sublayers[0].norm_first and block.sublayers[0].dropout.p == 0.25
    moe = MixtureOfExperts.from_config(config)
    assert (moe.num_experts, moe.k, moe.renormalise, len(moe.shared)) == (3, 1, False, 1)
    assert moe.experts[0].linear1.out_features == 24 and moe.experts[0].activation == "gelu"
    model = LanguageModel(config)
    assert all(isinstance(layer.ffn, MixtureOfExperts) for layer in model.layers)
    assert model.layers[1].ffn.extra_repr() == moe.extra_repr()


def test_too_long_a_sequence_and_a_bad_layer_are_named():
    model = small_model(max_len=8)
    with pytest.raises(ValueError, match="1 <= seq_len <= 8, got shape \\(1, 9\\)"):
        model(random_tokens(1, 9))
    with pytest.raises(ValueError, match="layer must be in \\[0, 2\\), got 2"):
        model.value_logits(2)


# ---- the gated FFN option: SwiGLU at the plain FFN's parameter budget


def test_a_gated_model_holds_gated_ffns_of_the_equal_budget_width():
    plain, gated = small_model(), small_model(ffn="swiglu")
    assert plain.ffn_kind == "plain" and gated.ffn_kind == "swiglu"
    assert gated.d_ff == equal_budget_gated_d_ff(24) == 16 and plain.d_ff == 24
    for layer in gated.layers:
        assert isinstance(layer.ffn, GatedFeedForward) and layer.ffn.variant == "swiglu"
    ffn_counts = [module_parameters(m.layers[0].ffn) for m in (plain, gated)]
    assert ffn_counts == [2 * 16 * 24 + 24 + 16, 3 * 16 * 16]  # equal but for the plain biases
    counts = [module_parameters(m) for m in (plain, gated)]
    assert abs(counts[0] - counts[1]) == 2 * (24 + 16)  # two layers' biases


def test_the_default_ffn_is_the_plain_one_with_the_same_weights():
    default, explicit = small_model(), small_model(ffn="plain")
    for a, b in zip(default.state_dict().values(), explicit.state_dict().values(), strict=True):
        assert torch.equal(a, b)


def test_a_gated_models_hidden_units_are_the_gate_times_the_linear_branch():
    model, tokens = small_model(ffn="swiglu"), random_tokens(2, 5)
    first = model.layers[0]
    with torch.no_grad():
        h = model.position(model.embed(tokens))
        h = first.sublayers[0](h, lambda a: first.self_attn(a, a, a, create_sequence_mask(5)))
        x = first.sublayers[1].norm(h)  # pre-norm: the FFN reads LN(x)
        expected = F.silu(x @ first.ffn.gate.weight.T) * (x @ first.ffn.up.weight.T)
        hidden = model.ffn_hidden(tokens)
        with model.hooks([("layers.0.ffn.hook_hidden", lambda h, _hook: 2 * h)]):  # same hook
            torch.testing.assert_close(first.ffn(x), first.ffn.down(2 * first.ffn.hidden(x)))
    assert hidden.shape == (2, 2, 5, 16)
    torch.testing.assert_close(hidden[0], expected, atol=1e-12, rtol=0)
    values = first.ffn.down.weight.T  # (d_ff, d_model): W2's rows
    torch.testing.assert_close(model.value_logits(0), values @ model.unembedding.T)
    with pytest.raises(ValueError, match="unit must be in \\[0, 16\\), got 16"):
        model.check_unit(0, 16)


def test_a_gated_model_is_causal_and_its_blocks_are_encoder_layers():
    model, tokens = small_model(ffn="swiglu"), random_tokens(3, 9)
    with torch.no_grad():
        x = model.position(model.embed(tokens))
        for layer in model.layers:
            x = layer(x, create_sequence_mask(9))
        torch.testing.assert_close(model(tokens), model.norm(x) @ model.unembedding.T)
        changed = tokens.clone()
        changed[:, 6:] = (changed[:, 6:] + 1) % VOCAB
        before, after = model(tokens), model(changed)
        zeroed = model.run_with_hooks(tokens, fwd_hooks=[(HIDDEN, ZERO)])
    torch.testing.assert_close(before[:, :6], after[:, :6], atol=0, rtol=0)
    assert (zeroed - before).abs().max() > 1e-3  # the edit reaches the gated FFN's output


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"ffn": "glu"},
            "ffn must be one of \\['geglu', 'moe', 'plain', 'reglu', 'swiglu'\\], got 'glu'",
        ),
        ({"ffn": "swiglu", "activation": "gelu"}, "activation must be 'relu' \\(unused\\)"),
    ],
)
def test_a_bad_ffn_option_is_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LanguageModelConfig(vocab_size=VOCAB, d_model=16, num_heads=2, **kwargs)


# ---- the mixture-of-experts option (lesson 7)


def test_a_moe_model_holds_a_mixture_of_its_experts_in_every_block():
    model = small_model(ffn="moe", d_ff=6, num_experts=4, k=2)
    for layer in model.layers:
        assert isinstance(layer.ffn, MixtureOfExperts)
        assert (layer.ffn.num_experts, layer.ffn.k, layer.ffn.experts[0].d_ff) == (4, 2, 6)
    assert module_parameters(model.layers[0].ffn) == moe_parameters(16, 6, 4, 2)["total"]
    tokens = random_tokens(3, 9)
    with torch.no_grad():
        x = model.position(model.embed(tokens))
        for layer in model.layers:
            x = layer(x, create_sequence_mask(9))
        torch.testing.assert_close(model(tokens), model.norm(x) @ model.unembedding.T)


def test_a_moe_models_hidden_units_cannot_be_edited_or_read_as_one_layer():
    model = small_model(ffn="moe", d_ff=6)
    # its hidden units have hook points per expert only: a hook on the FFN's is refused by name
    with pytest.raises(ValueError, match="must name hook points of the module, got 'layers.1.ffn"):
        model.run_with_hooks(random_tokens(1, 4), fwd_hooks=[(HIDDEN, ZERO)])
    with pytest.raises(ValueError, match="ffn_hidden: a mixture of experts has no single hidden"):
        model.ffn_hidden(random_tokens(1, 4))
