"""What dimension expansion keeps and loses: collapse without activation, the identity FFN,
linear read-back of the input from the hidden layer."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.model.ffn import numpy_ffn
from course_lib.lessons.l02_dimension_expansion.experiments.collapse import (
    collapsed_matrix,
    collapsed_rank_bound,
    identity_ffn_weights,
    reconstruction_curve,
    reconstruction_error,
)


def test_two_linear_layers_equal_their_product_matrix():
    rng = np.random.default_rng(0)
    x, W1, W2 = rng.normal(size=(4, 6)), rng.normal(size=(6, 20)), rng.normal(size=(20, 6))
    np.testing.assert_allclose((x @ W1) @ W2, x @ collapsed_matrix(W1, W2), atol=1e-10)


@pytest.mark.parametrize(("d_model", "d_ff"), [(8, 32), (8, 3), (5, 5)])
def test_collapsed_rank_never_exceeds_the_narrowest_width(d_model, d_ff):
    rng = np.random.default_rng(1)
    product = collapsed_matrix(rng.normal(size=(d_model, d_ff)), rng.normal(size=(d_ff, d_model)))
    assert (
        np.linalg.matrix_rank(product) == collapsed_rank_bound(d_model, d_ff) == min(d_model, d_ff)
    )


def test_collapsed_rank_bound_of_a_deep_stack_is_its_narrowest_layer():
    assert collapsed_rank_bound(512, 2048, 64, 512) == 64


def test_identity_ffn_passes_its_input_through():
    weights = identity_ffn_weights(5)
    x = np.random.default_rng(2).normal(size=(3, 7, 5))
    np.testing.assert_allclose(numpy_ffn(x, **weights), x, atol=1e-12)
    assert weights["W1"].shape == (5, 10) and weights["W2"].shape == (10, 5)


def test_identity_ffn_with_extra_width_still_passes_input_through():
    weights = identity_ffn_weights(3, d_ff=9)
    x = np.random.default_rng(3).normal(size=(4, 3))
    np.testing.assert_allclose(numpy_ffn(x, **weights), x, atol=1e-12)


def test_narrow_identity_ffn_loses_the_negative_halves():
    weights = identity_ffn_weights(3, d_ff=3)  # only relu(x), not relu(-x)
    x = np.array([[1.0, -2.0, 3.0]])
    np.testing.assert_allclose(numpy_ffn(x, **weights), [[1.0, 0.0, 3.0]])


def test_reconstruction_error_is_zero_from_a_full_identity_layer_and_one_from_nothing_useful():
    x = np.random.default_rng(4).normal(size=(500, 4))
    weights = identity_ffn_weights(4)
    assert reconstruction_error(x, weights["W1"], weights["b1"]) < 1e-20
    assert reconstruction_error(x, np.zeros((4, 3)), np.zeros(3)) == pytest.approx(1.0)


def test_reconstruction_curve_falls_to_zero_at_twice_d_model():
    curve = reconstruction_curve(4, (1, 4, 8), n_points=400)
    assert curve["identity"][0] > curve["identity"][1] > curve["identity"][2]
    assert curve["identity"][2] < 1e-20
    assert curve["random"][0] > curve["random"][2]


@pytest.mark.parametrize(
    ("call", "error", "text"),
    [
        (lambda: collapsed_matrix(), ValueError, "at least one matrix"),
        (
            lambda: collapsed_matrix(np.ones((2, 3)), np.ones((4, 2))),
            ValueError,
            "weight 2 must have 3 rows",
        ),
        (lambda: collapsed_rank_bound(4), ValueError, "at least 2 widths"),
        (lambda: collapsed_rank_bound(4, 0), ValueError, "dims must be a positive int"),
        (lambda: identity_ffn_weights(0), ValueError, "d_model must be a positive int"),
        (lambda: identity_ffn_weights(2, d_ff=-1), ValueError, "d_ff must be a positive int"),
    ],
)
def test_bad_arguments_raise_errors_naming_them(call, error, text):
    with pytest.raises(error, match=__import__("re").escape(text)):
        call()
