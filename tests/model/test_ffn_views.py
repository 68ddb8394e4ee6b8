"""The views of an FFN lesson 1 uses: shape trace, parameter table, Conv1d form, NumPy weights."""

from __future__ import annotations

import pytest
import torch

from course_lib.model.ffn import (
    FeedForward,
    as_conv1d,
    count_parameters,
    ffn_weights_numpy,
    load_numpy_weights,
    parameter_table,
    trace_shapes,
)


def test_trace_shapes_follows_512_2048_512():
    shapes = trace_shapes(FeedForward(512, 2048), torch.randn(2, 4, 512))
    assert [s for _, s in shapes] == [
        (2, 4, 512),
        (2, 4, 2048),
        (2, 4, 2048),
        (2, 4, 2048),
        (2, 4, 512),
    ]
    assert shapes[2][0] == "relu"


def test_trace_shapes_rejects_wrong_width():
    with pytest.raises(ValueError, match="last dimension 8"):
        trace_shapes(FeedForward(8, 16), torch.randn(2, 4, 9))


def test_parameter_table_uses_the_formula_layout_and_sums_to_the_count():
    rows = parameter_table(FeedForward(6, 10))
    assert [(name, shape) for name, shape, _ in rows] == [
        ("W1", (6, 10)),
        ("b1", (10,)),
        ("W2", (10, 6)),
        ("b2", (6,)),
    ]
    assert sum(count for *_, count in rows) == count_parameters(6, 10)


@pytest.mark.parametrize("activation", ["relu", "gelu", "tanh"])
def test_conv1d_view_equals_the_ffn(activation):
    torch.manual_seed(0)
    ffn = FeedForward(12, 20, activation=activation).eval()
    x = torch.randn(3, 7, 12)
    with torch.no_grad():
        torch.testing.assert_close(as_conv1d(ffn).eval()(x), ffn(x), atol=1e-5, rtol=1e-5)


def test_numpy_weights_round_trip_through_torch_layout():
    source, target = FeedForward(5, 9), FeedForward(5, 9)
    load_numpy_weights(target, **ffn_weights_numpy(source))
    for a, b in zip(source.parameters(), target.parameters(), strict=True):
        torch.testing.assert_close(a, b)


def test_load_numpy_weights_rejects_torch_layout():
    ffn = FeedForward(5, 9)
    weights = ffn_weights_numpy(ffn)
    with pytest.raises(ValueError, match=r"W1 must have shape \(5, 9\)"):
        load_numpy_weights(ffn, weights["W1"].T, weights["b1"], weights["W2"], weights["b2"])
