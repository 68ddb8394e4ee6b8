"""course_lib.core.model.ffn: the FeedForward module, its NumPy twin, parameter/FLOP counts, the views
lesson 1 uses (shape trace, parameter table, Conv1d form) and the gated variants."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from course_lib.core.model.ffn import (
    ACTIVATIONS,
    GATED_VARIANTS,
    NUMPY_ACTIVATIONS,
    FeedForward,
    GatedFeedForward,
    activation_fn,
    as_conv1d,
    count_gated_parameters,
    count_parameters,
    equal_budget_gated_d_ff,
    ffn_weights_numpy,
    flops_per_token,
    load_numpy_weights,
    module_parameters,
    numpy_ffn,
    parameter_table,
    trace_shapes,
)

ALL_ACTIVATIONS = ["relu", "gelu", "gelu_tanh", "silu", "tanh", "identity"]


def small_ffn(activation: str = "relu", dropout: float = 0.0, seed: int = 0) -> FeedForward:
    torch.manual_seed(seed)
    return FeedForward(d_model=6, d_ff=10, dropout=dropout, activation=activation).eval()


# --- FeedForward: shapes and activations -------------------------------------------------------


def test_feed_forward_keeps_the_shape_of_the_seed_input():
    ffn = FeedForward().eval()
    x = torch.randn(2, 4, 512)
    assert ffn(x).shape == (2, 4, 512)
    assert ffn.hidden(x).shape == (2, 4, 2048)


def test_feed_forward_defaults_are_the_papers_512_2048_relu():
    ffn = FeedForward()
    assert (ffn.d_model, ffn.d_ff, ffn.activation) == (512, 2048, "relu")
    assert ffn.linear1.weight.shape == (2048, 512)
    assert ffn.linear2.weight.shape == (512, 2048)
    assert ffn.dropout.p == pytest.approx(0.1)
    assert "activation='relu'" in repr(ffn)


def test_every_activation_the_lessons_name_is_available():
    assert sorted(ACTIVATIONS) == sorted(ALL_ACTIVATIONS)
    assert sorted(NUMPY_ACTIVATIONS) == sorted(ALL_ACTIVATIONS)


@pytest.mark.parametrize(
    "name, formula",
    [
        ("relu", lambda z: torch.clamp(z, min=0.0)),
        ("gelu", lambda z: 0.5 * z * (1.0 + torch.erf(z / math.sqrt(2.0)))),
        (
            "gelu_tanh",
            lambda z: 0.5 * z * (1 + torch.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z**3))),
        ),
        ("silu", lambda z: z * torch.sigmoid(z)),
        ("tanh", lambda z: (torch.exp(z) - torch.exp(-z)) / (torch.exp(z) + torch.exp(-z))),
        ("identity", lambda z: z),
    ],
)
def test_activation_fn_computes_its_formula(name, formula):
    z = torch.linspace(-4, 4, 101, dtype=torch.float64)
    torch.testing.assert_close(activation_fn(name)(z), formula(z))


def test_gelu_is_the_exact_erf_form_and_differs_from_the_tanh_approximation():
    z = torch.linspace(-3, 3, 601, dtype=torch.float64)
    torch.testing.assert_close(activation_fn("gelu")(z), F.gelu(z), rtol=0, atol=0)
    gap = (activation_fn("gelu")(z) - activation_fn("gelu_tanh")(z)).abs().max().item()
    assert 1e-4 < gap < 1e-3


@pytest.mark.parametrize("activation", ALL_ACTIVATIONS)
def test_feed_forward_hidden_layer_applies_its_activation(activation):
    ffn = small_ffn(activation)
    x = torch.randn(3, 6)
    with torch.no_grad():
        pre = ffn.linear1(x)
        torch.testing.assert_close(ffn.hidden(x), ACTIVATIONS[activation](pre))
        torch.testing.assert_close(ffn(x), ffn.linear2(ACTIVATIONS[activation](pre)))


def test_activation_fn_rejects_an_unknown_name_listing_the_accepted_ones():
    with pytest.raises(ValueError, match=r"activation must be one of \[.*'relu'.*\], got 'rleu'"):
        activation_fn("rleu")


# --- FeedForward: validation ------------------------------------------------------------------


@pytest.mark.parametrize("d_ff", [0, -1])
def test_feed_forward_rejects_a_non_positive_d_ff(d_ff):
    with pytest.raises(ValueError, match=rf"d_ff must be a positive int, got {d_ff}"):
        FeedForward(d_ff=d_ff)


@pytest.mark.parametrize("d_ff, shown", [(2048.0, "2048.0"), ("2048", "'2048'"), (True, "True")])
def test_feed_forward_rejects_a_d_ff_that_is_not_an_int(d_ff, shown):
    with pytest.raises(TypeError, match=rf"d_ff must be a positive int, got {shown}"):
        FeedForward(d_ff=d_ff)


def test_feed_forward_rejects_a_bad_d_model():
    with pytest.raises(ValueError, match=r"d_model must be a positive int, got 0"):
        FeedForward(d_model=0)


def test_feed_forward_rejects_an_unknown_activation_listing_the_accepted_names():
    with pytest.raises(ValueError) as error:
        FeedForward(activation="rleu")
    message = str(error.value)
    assert "activation" in message and "'rleu'" in message
    for name in ALL_ACTIVATIONS:
        assert repr(name) in message


def test_feed_forward_rejects_an_activation_that_is_not_a_string():
    with pytest.raises(TypeError, match=r"activation must be one of .*got <built-in"):
        FeedForward(activation=torch.relu)


@pytest.mark.parametrize("dropout", [-0.1, 1.0, 1.5])
def test_feed_forward_rejects_a_dropout_outside_0_1(dropout):
    with pytest.raises(ValueError, match=rf"dropout must be a float in \[0, 1\), got {dropout}"):
        FeedForward(dropout=dropout)


@pytest.mark.parametrize("dropout", ["0.1", None, True])
def test_feed_forward_rejects_a_dropout_that_is_not_a_number(dropout):
    with pytest.raises(TypeError, match=r"dropout must be a float in \[0, 1\)"):
        FeedForward(dropout=dropout)


def test_feed_forward_rejects_an_input_with_the_wrong_last_dimension():
    with pytest.raises(ValueError, match=r"x must have last dimension 6 .*got shape \(2, 4, 5\)"):
        small_ffn()(torch.randn(2, 4, 5))


def test_feed_forward_rejects_an_input_that_is_not_a_tensor():
    with pytest.raises(TypeError, match=r"x must be a torch.Tensor, got ndarray"):
        small_ffn()(np.zeros((2, 6)))


# --- NumPy reference --------------------------------------------------------------------------


@pytest.mark.parametrize("activation", ALL_ACTIVATIONS)
def test_numpy_ffn_equals_feed_forward_in_eval_mode(activation):
    ffn = small_ffn(activation, dropout=0.5)
    x = torch.randn(2, 3, 6)
    with torch.no_grad():
        expected = ffn(x).double().numpy()
    got = numpy_ffn(x.double().numpy(), **ffn_weights_numpy(ffn), activation=activation)
    np.testing.assert_allclose(got, expected, atol=1e-5, rtol=1e-5)


def test_ffn_weights_numpy_uses_the_formulas_in_out_layout():
    ffn = small_ffn()
    weights = ffn_weights_numpy(ffn)
    assert {k: v.shape for k, v in weights.items()} == {
        "W1": (6, 10),
        "b1": (10,),
        "W2": (10, 6),
        "b2": (6,),
    }
    np.testing.assert_array_equal(weights["W1"], ffn.linear1.weight.detach().numpy().T)
    np.testing.assert_array_equal(weights["W2"], ffn.linear2.weight.detach().numpy().T)


def test_ffn_weights_numpy_returns_copies_not_views_of_the_parameters():
    ffn = small_ffn()
    weights = ffn_weights_numpy(ffn)
    weights["W1"][:] = 0.0
    assert ffn.linear1.weight.abs().sum().item() > 0


def test_ffn_weights_numpy_rejects_other_modules():
    with pytest.raises(TypeError, match=r"ffn must be a FeedForward, got Linear"):
        ffn_weights_numpy(torch.nn.Linear(2, 2))


def test_load_numpy_weights_round_trips_with_ffn_weights_numpy():
    rng = np.random.default_rng(0)
    W1, b1 = rng.normal(size=(6, 10)), rng.normal(size=10)
    W2, b2 = rng.normal(size=(10, 6)), rng.normal(size=6)
    ffn = load_numpy_weights(small_ffn(), W1, b1, W2, b2)
    back = ffn_weights_numpy(ffn)
    for name, array in {"W1": W1, "b1": b1, "W2": W2, "b2": b2}.items():
        np.testing.assert_allclose(back[name], array, atol=1e-6)
    x = rng.normal(size=(4, 6))
    with torch.no_grad():
        torch_out = ffn(torch.as_tensor(x, dtype=torch.float32)).double().numpy()
    np.testing.assert_allclose(torch_out, numpy_ffn(x, W1, b1, W2, b2), atol=1e-5)


def test_torch_weights_round_trip_through_the_formulas_layout():
    source, target = small_ffn(seed=1), small_ffn(seed=2)
    load_numpy_weights(target, **ffn_weights_numpy(source))
    for a, b in zip(source.parameters(), target.parameters(), strict=True):
        torch.testing.assert_close(a, b)


@pytest.mark.parametrize(
    "shapes, pattern",
    [
        (((10, 6), (10,), (10, 6), (6,)), r"W1 must have shape \(6, 10\), got \(10, 6\)"),
        (((6, 10), (10,), (6, 10), (6,)), r"W2 must have shape \(10, 6\), got \(6, 10\)"),
        (((6, 10), (1,), (10, 6), (6,)), r"b1 must have 10 entries, got shape \(1,\)"),
        (((6, 10), (10,), (10, 6), (10,)), r"b2 must have 6 entries, got shape \(10,\)"),
    ],
)
def test_load_numpy_weights_rejects_wrong_shapes(shapes, pattern):
    arrays = [np.ones(shape) for shape in shapes]
    with pytest.raises(ValueError, match=pattern):
        load_numpy_weights(small_ffn(), *arrays)


def test_load_numpy_weights_rejects_other_modules():
    with pytest.raises(TypeError, match=r"ffn must be a FeedForward, got Linear"):
        load_numpy_weights(torch.nn.Linear(6, 10), *(np.ones(1),) * 4)


def test_numpy_ffn_computes_relu_x_w1_plus_b1_w2_plus_b2_by_hand():
    x = np.array([[1.0, -2.0]])
    W1 = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 1.0]])  # hidden pre-activation: [1, -2, -3]
    b1 = np.array([0.5, 0.0, 4.0])  # -> [1.5, -2, 1] -> relu [1.5, 0, 1]
    W2 = np.array([[2.0, 0.0], [5.0, 5.0], [0.0, -1.0]])
    b2 = np.array([0.0, 1.0])
    np.testing.assert_allclose(numpy_ffn(x, W1, b1, W2, b2), [[3.0, 0.0]])


def test_numpy_ffn_accepts_column_and_row_bias_vectors():
    rng = np.random.default_rng(1)
    x, W1, W2 = rng.normal(size=(3, 4)), rng.normal(size=(4, 5)), rng.normal(size=(5, 4))
    b1, b2 = rng.normal(size=5), rng.normal(size=4)
    flat = numpy_ffn(x, W1, b1, W2, b2)
    np.testing.assert_allclose(numpy_ffn(x, W1, b1[None, :], W2, b2[:, None]), flat)


@pytest.mark.parametrize(
    "shapes, pattern",
    [
        (((2, 4), (4, 5, 1), (5,), (5, 4), (4,)), r"W1 and W2 must be 2-D"),
        (((2, 4), (4, 5), (5,), (4, 5), (4,)), r"W2 must have shape \(d_ff, d_model\) = \(5, 4\)"),
        (((2, 4), (4, 5), (4,), (5, 4), (4,)), r"b1 must have 5 entries and b2 4"),
        (((2, 4), (4, 5), (5,), (5, 4), (5,)), r"b1 must have 5 entries and b2 4"),
        (((2, 3), (4, 5), (5,), (5, 4), (4,)), r"x must have last dimension 4"),
    ],
)
def test_numpy_ffn_rejects_mismatched_shapes(shapes, pattern):
    arrays = [np.ones(shape) for shape in shapes]
    with pytest.raises(ValueError, match=pattern):
        numpy_ffn(*arrays)


def test_numpy_ffn_rejects_an_unknown_activation():
    arrays = [np.ones(s) for s in ((2, 4), (4, 5), (5,), (5, 4), (4,))]
    with pytest.raises(ValueError, match=r"activation must be one of .* got 'rleu'"):
        numpy_ffn(*arrays, activation="rleu")


# --- parameters and FLOPs ---------------------------------------------------------------------


def test_count_parameters_of_the_papers_ffn_is_2_099_712():
    # weights 512 * 2048 + 2048 * 512, biases 2048 + 512
    assert count_parameters(512, 2048) == 2_099_712
    assert count_parameters() == 2_099_712


@pytest.mark.parametrize("d_model, d_ff", [(1, 1), (3, 7), (64, 256), (512, 2048), (100, 30)])
def test_count_parameters_equals_a_real_feed_forwards_parameters(d_model, d_ff):
    assert count_parameters(d_model, d_ff) == module_parameters(FeedForward(d_model, d_ff))


def test_module_parameters_skips_frozen_parameters():
    ffn = small_ffn()
    ffn.linear1.requires_grad_(False)
    assert module_parameters(ffn) == 10 * 6 + 6


@pytest.mark.parametrize("d_model, d_ff", [(1, 1), (512, 2048), (768, 3072)])
def test_flops_per_token_counts_two_matmuls_of_two_flops_per_multiply_add(d_model, d_ff):
    multiply_adds = d_model * d_ff + d_ff * d_model
    assert flops_per_token(d_model, d_ff) == 2 * multiply_adds


@pytest.mark.parametrize("function", [count_parameters, flops_per_token, count_gated_parameters])
@pytest.mark.parametrize(
    "kwargs, error", [({"d_model": 0}, ValueError), ({"d_ff": 1.5}, TypeError)]
)
def test_counts_reject_bad_sizes_naming_the_argument(function, kwargs, error):
    (name,) = kwargs
    with pytest.raises(error, match=rf"{name} must be a positive int, got {kwargs[name]}"):
        function(**kwargs)


# --- position-wise ----------------------------------------------------------------------------


def test_feed_forward_is_position_wise():
    ffn = small_ffn("gelu")
    x = torch.randn(2, 7, 6)
    with torch.no_grad():
        whole = ffn(x)
        alone = torch.stack([ffn(x[:, t]) for t in range(x.shape[1])], dim=1)
    torch.testing.assert_close(alone, whole)


def test_shuffling_positions_shuffles_the_outputs_the_same_way():
    ffn = small_ffn()
    x = torch.randn(2, 7, 6)
    order = torch.randperm(7, generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        torch.testing.assert_close(ffn(x[:, order]), ffn(x)[:, order])


@pytest.mark.parametrize("activation", ["relu", "gelu", "tanh"])
def test_as_conv1d_equals_the_ffn(activation):
    ffn = small_ffn(activation)
    x = torch.randn(3, 7, 6)
    with torch.no_grad():
        torch.testing.assert_close(as_conv1d(ffn)(x), ffn(x), atol=1e-6, rtol=1e-6)


def test_as_conv1d_is_two_kernel_size_one_convolutions_with_the_ffns_weights():
    ffn = small_ffn()
    conv = as_conv1d(ffn)
    convs = [m for m in conv.modules() if isinstance(m, nn.Conv1d)]
    assert [(c.in_channels, c.out_channels, c.kernel_size) for c in convs] == [
        (6, 10, (1,)),
        (10, 6, (1,)),
    ]
    torch.testing.assert_close(convs[0].weight[:, :, 0], ffn.linear1.weight, rtol=0, atol=0)
    torch.testing.assert_close(convs[1].weight[:, :, 0], ffn.linear2.weight, rtol=0, atol=0)
    with torch.no_grad():
        convs[0].weight.zero_()
    assert ffn.linear1.weight.abs().sum().item() > 0, "the Conv1d form holds copies"


def test_as_conv1d_eval_switches_off_its_dropout_even_if_the_ffn_trains():
    torch.manual_seed(0)
    ffn = FeedForward(d_model=6, d_ff=200, dropout=0.5)  # left in training mode
    conv = as_conv1d(ffn).eval()
    x = torch.randn(2, 5, 6)
    with torch.no_grad():
        torch.testing.assert_close(conv(x), ffn.linear2(ffn.hidden(x)), atol=1e-6, rtol=1e-6)
    assert ffn.training, "switching the Conv1d form leaves the FFN it came from alone"


def test_as_conv1d_holds_its_dropout_so_train_switches_it_on():
    ffn = FeedForward(d_model=6, d_ff=200, dropout=0.5).eval()
    conv = as_conv1d(ffn)
    assert not conv.training, "it starts in the mode of the FFN it came from"
    assert [m.p for m in conv.modules() if isinstance(m, nn.Dropout)] == [0.5]
    conv.train()
    x = torch.randn(2, 5, 6)
    with torch.no_grad():
        assert not torch.equal(conv(x), conv(x))


def test_as_conv1d_keeps_a_float64_ffn_in_float64():
    ffn = small_ffn("gelu").double()
    x = torch.randn(2, 5, 6, dtype=torch.float64)
    with torch.no_grad():
        out = as_conv1d(ffn)(x)
        assert out.dtype == torch.float64
        torch.testing.assert_close(out, ffn(x), atol=1e-12, rtol=1e-12)


def test_as_conv1d_rejects_other_modules():
    with pytest.raises(TypeError, match=r"ffn must be a FeedForward, got Linear"):
        as_conv1d(torch.nn.Linear(6, 10))


@pytest.mark.parametrize(
    "shape, pattern",
    [
        ((2, 5, 7), r"x must have last dimension 6"),
        ((5, 6), r"x must be \(batch, seq_len, d_model\)"),
    ],
)
def test_as_conv1d_rejects_an_input_of_the_wrong_shape(shape, pattern):
    with pytest.raises(ValueError, match=pattern):
        as_conv1d(small_ffn())(torch.randn(*shape))


# --- the shape trace and the parameter table ------------------------------------------------


def test_trace_shapes_follows_512_2048_512():
    shapes = trace_shapes(FeedForward(512, 2048), torch.randn(2, 4, 512))
    assert shapes == [
        ("input", (2, 4, 512)),
        ("linear1", (2, 4, 2048)),
        ("relu", (2, 4, 2048)),
        ("dropout", (2, 4, 2048)),
        ("linear2", (2, 4, 512)),
    ]


def test_trace_shapes_names_the_ffns_own_activation():
    assert trace_shapes(small_ffn("gelu"), torch.randn(3, 6))[2] == ("gelu", (3, 10))


def test_trace_shapes_rejects_wrong_width():
    with pytest.raises(ValueError, match="last dimension 8"):
        trace_shapes(FeedForward(8, 16), torch.randn(2, 4, 9))


def test_parameter_table_uses_the_formula_layout_and_sums_to_the_count():
    rows = parameter_table(FeedForward(6, 10))
    assert rows == [("W1", (6, 10), 60), ("b1", (10,), 10), ("W2", (10, 6), 60), ("b2", (6,), 6)]
    assert sum(count for *_, count in rows) == count_parameters(6, 10)


# --- dropout ----------------------------------------------------------------------------------


def test_dropout_zeroes_about_p_of_the_hidden_units_and_scales_the_rest_in_training():
    p = 0.25
    ffn = FeedForward(d_model=8, d_ff=4000, dropout=p)
    x = torch.randn(4, 8)
    torch.manual_seed(0)
    with torch.no_grad():
        hidden = ffn.hidden(x)
        dropped = ffn.dropout(hidden)
    alive = hidden != 0
    zeroed = (dropped[alive] == 0).float().mean().item()
    assert abs(zeroed - p) < 0.02
    kept = dropped[alive] != 0
    torch.testing.assert_close(dropped[alive][kept], hidden[alive][kept] / (1 - p))


def test_dropout_makes_training_outputs_vary_and_eval_outputs_repeat():
    ffn = FeedForward(d_model=8, d_ff=64, dropout=0.5)
    x = torch.randn(3, 8)
    with torch.no_grad():
        ffn.train()
        assert not torch.equal(ffn(x), ffn(x))
        ffn.eval()
        first = ffn(x)
        torch.testing.assert_close(ffn(x), first, rtol=0, atol=0)
        torch.testing.assert_close(first, ffn.linear2(ffn.hidden(x)), rtol=0, atol=0)


# --- gated variants (Shazeer 2020) ------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, act",
    [
        ("reglu", lambda z: torch.clamp(z, min=0)),
        ("geglu", lambda z: 0.5 * z * (1 + torch.erf(z / math.sqrt(2)))),
        ("swiglu", lambda z: z * torch.sigmoid(z)),
    ],
)
def test_gated_feed_forward_computes_act_xw_times_xv_then_w2(variant, act):
    torch.manual_seed(0)
    gated = GatedFeedForward(d_model=6, d_ff=9, variant=variant).eval()
    x = torch.randn(2, 3, 6)
    W, V, W2 = gated.gate.weight.T, gated.up.weight.T, gated.down.weight.T
    with torch.no_grad():
        torch.testing.assert_close(gated(x), (act(x @ W) * (x @ V)) @ W2)
        assert gated(x).shape == (2, 3, 6)


def test_gated_feed_forward_has_no_biases_as_in_the_paper():
    gated = GatedFeedForward(8, 12)
    assert all(layer.bias is None for layer in (gated.gate, gated.up, gated.down))


@pytest.mark.parametrize("d_model, d_ff", [(1, 1), (8, 12), (512, 1365), (768, 2048)])
def test_count_gated_parameters_equals_a_real_gated_modules_parameters(d_model, d_ff):
    for variant in GATED_VARIANTS:
        gated = GatedFeedForward(d_model, d_ff, variant)
        assert count_gated_parameters(d_model, d_ff) == module_parameters(gated)


def test_equal_budget_gated_d_ff_turns_t5_base_3072_into_2048():
    assert equal_budget_gated_d_ff(3072) == 2048


@pytest.mark.parametrize("d_model, d_ff", [(512, 2048), (768, 3072), (64, 100), (16, 7)])
def test_equal_budget_gated_ffn_matches_a_bias_free_plain_ffn_within_rounding(d_model, d_ff):
    plain = 2 * d_model * d_ff  # W1 and W2, no biases
    gated = count_gated_parameters(d_model, equal_budget_gated_d_ff(d_ff))
    assert abs(gated - plain) <= 3 * d_model / 2  # d_ff' is off by at most half a unit


def test_equal_budget_gated_d_ff_is_at_least_one():
    assert equal_budget_gated_d_ff(1) == 1


@pytest.mark.parametrize("d_ff, error", [(0, ValueError), (2.0, TypeError)])
def test_equal_budget_gated_d_ff_rejects_bad_sizes(d_ff, error):
    with pytest.raises(error, match=r"d_ff must be a positive int"):
        equal_budget_gated_d_ff(d_ff)


def test_gated_feed_forward_rejects_an_unknown_variant_listing_the_accepted_ones():
    with pytest.raises(ValueError, match=r"variant must be one of \['geglu', 'reglu', 'swiglu'\]"):
        GatedFeedForward(variant="glu")


@pytest.mark.parametrize(
    "kwargs, error, pattern",
    [
        ({"d_model": -2}, ValueError, r"d_model must be a positive int, got -2"),
        ({"d_ff": 0}, ValueError, r"d_ff must be a positive int, got 0"),
        ({"dropout": 1.0}, ValueError, r"dropout must be a float in \[0, 1\), got 1.0"),
    ],
)
def test_gated_feed_forward_rejects_bad_arguments(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        GatedFeedForward(**kwargs)


def test_gated_feed_forward_rejects_an_input_with_the_wrong_last_dimension():
    with pytest.raises(ValueError, match=r"x must have last dimension 8"):
        GatedFeedForward(8, 12)(torch.randn(2, 7))


def test_gated_feed_forward_drops_hidden_units_only_in_training():
    torch.manual_seed(0)
    gated = GatedFeedForward(8, 64, "swiglu", dropout=0.5)
    x = torch.randn(3, 8)
    with torch.no_grad():
        gated.train()
        assert not torch.equal(gated(x), gated(x))
        gated.eval()
        hidden = F.silu(gated.gate(x)) * gated.up(x)
        torch.testing.assert_close(gated(x), gated.down(hidden), rtol=0, atol=0)


def test_count_parameters_without_biases_counts_the_two_weight_matrices():
    assert count_parameters(768, 3072, bias=False) == 2 * 768 * 3072
    assert count_parameters(768, 3072) - count_parameters(768, 3072, bias=False) == 3072 + 768
    with pytest.raises(TypeError, match="bias must be a bool, got 'no'"):
        count_parameters(768, 3072, bias="no")
