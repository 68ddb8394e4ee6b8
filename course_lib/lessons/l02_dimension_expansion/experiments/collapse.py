"""Dimension expansion (升维) in numbers: what is lost without an activation, and what d_ff keeps.

- Two linear layers with nothing between them are one matrix W1 W2 of rank <= min(d_model, d_ff).
- A ReLU FFN with W1 = [I, -I], W2 = [I; -I] passes x through untouched once d_ff >= 2 d_model,
  because x = relu(x) - relu(-x).
- How well x can be read back linearly from the hidden layer as d_ff shrinks.
"""

from __future__ import annotations

import numpy as np

from course_lib.core._validate import positive_int
from course_lib.core.i18n import N_
from course_lib.core.model.ffn import NUMPY_ACTIVATIONS
from course_lib.core.progress import progress as progress_bar


def collapsed_matrix(*weights: np.ndarray) -> np.ndarray:
    """The single matrix equal to a stack of linear layers x W1 W2 ... Wk (no activations)."""
    if not weights:
        raise ValueError("weights must hold at least one matrix, got none")
    product = np.asarray(weights[0], dtype=float)
    for index, W in enumerate(weights[1:], start=2):
        W = np.asarray(W, dtype=float)
        if W.ndim != 2 or W.shape[0] != product.shape[1]:
            raise ValueError(
                f"weight {index} must have {product.shape[1]} rows to follow the previous one, got shape {W.shape}"
            )
        product = product @ W
    return product


def collapsed_rank_bound(*dims: int) -> int:
    """Rank bound of a stack of linear layers with widths d0 -> d1 -> ... -> dk: min(dims)."""
    if len(dims) < 2:
        raise ValueError(f"dims must name at least 2 widths (input and output), got {dims}")
    return min(positive_int("dims", d) for d in dims)


def identity_ffn_weights(d_model: int, d_ff: int | None = None) -> dict[str, np.ndarray]:
    """ReLU-FFN weights (formula layout) with FFN(x) = x: W1 = [I, -I] (d_model, 2 d_model), W2 = [I; -I].

    With ``d_ff`` < 2 d_model only the first d_ff of those units are kept (the FFN then loses
    information); with more, the extra units have zero weights.
    """
    d_model = positive_int("d_model", d_model)
    d_ff = 2 * d_model if d_ff is None else positive_int("d_ff", d_ff)
    eye = np.eye(d_model)
    W1 = np.zeros((d_model, max(d_ff, 2 * d_model)))
    W1[:, : 2 * d_model] = np.concatenate([eye, -eye], axis=1)
    W2 = W1.T.copy()
    return {"W1": W1[:, :d_ff], "b1": np.zeros(d_ff), "W2": W2[:d_ff], "b2": np.zeros(d_model)}


def reconstruction_error(
    x: np.ndarray, W1: np.ndarray, b1: np.ndarray, activation: str = "relu"
) -> float:
    """Relative error of the best linear read-out of x from h = act(x W1 + b1): x (N, d), W1 (d, d_ff).

    min over (A, c) of ||h A + c - x||^2 / ||x - mean(x)||^2, solved by least squares.
    """
    x, W1 = np.asarray(x, dtype=float), np.asarray(W1, dtype=float)
    hidden = NUMPY_ACTIVATIONS[activation](x @ W1 + np.asarray(b1, dtype=float).reshape(-1))
    design = np.concatenate([hidden, np.ones((len(x), 1))], axis=1)
    coef, *_ = np.linalg.lstsq(design, x, rcond=None)
    residual = ((design @ coef - x) ** 2).sum()
    return float(residual / ((x - x.mean(axis=0)) ** 2).sum())


def reconstruction_curve(
    d_model: int,
    widths: tuple[int, ...],
    n_points: int = 2000,
    seed: int = 0,
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """Read-back error of x (N, d_model) from a ReLU hidden layer of each width, two ways.

    "identity": the first d_ff units of [I, -I]; "random": a random Gaussian W1 (d_model, d_ff).
    With ``progress`` a bar counts the widths (course_lib.core.progress).
    """
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(positive_int("n_points", n_points), positive_int("d_model", d_model)))
    built, random = [], []
    for d_ff in progress_bar(widths, N_("reading x back: widths d_ff"), show=progress):
        weights = identity_ffn_weights(d_model, d_ff)
        built.append(reconstruction_error(x, weights["W1"], weights["b1"]))
        W1 = rng.normal(size=(d_model, positive_int("d_ff", d_ff))) / np.sqrt(d_model)
        random.append(reconstruction_error(x, W1, np.zeros(d_ff)))
    return {"d_ff": np.array(widths), "identity": np.array(built), "random": np.array(random)}
