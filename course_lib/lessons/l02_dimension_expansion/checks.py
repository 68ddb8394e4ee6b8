"""Checkers for lesson 2: the collapsed rank, the identity FFN, the ring's width, the gated FFN."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core.checks import (
    CheckResult,
    Hint,
    close,
    first_suspect,
    require_return,
    require_shape,
    run_check,
)
from course_lib.core.i18n import N_, tr
from course_lib.core.model.ffn import (
    count_gated_parameters,
    equal_budget_gated_d_ff,
    gated_ffn,
    numpy_ffn,
)
from course_lib.core.model.geometry import TRIANGLE_F, TRIANGLE_G

TRIANGLE_EDGES = len(TRIANGLE_F) + len(TRIANGLE_G)  # three edges per triangle


def check_gated_budget(fn: Callable[[int, int], int]) -> CheckResult:
    """``fn(d_model, d_ff)``: parameters of the bias-free gated FFN as big as a plain one of width d_ff."""

    def check() -> str:
        for d_model, d_ff in ((512, 3072), (768, 3072), (64, 256), (10, 7)):
            got = fn(d_model, d_ff)
            d_equal = equal_budget_gated_d_ff(d_ff)
            expected = count_gated_parameters(d_model, d_equal)
            if got != expected:
                raise Hint(_diagnose_gated_budget(got, d_model, d_ff, d_equal))
        return tr(
            "e.g. d_model=768, d_ff=3072 -> d_ff'={d_equal}, {parameters:,} parameters, as many as the plain FFN's weights.",
            d_equal=equal_budget_gated_d_ff(3072),
            parameters=count_gated_parameters(768, 2048),
        )

    return run_check(N_("gated budget"), check)


def _diagnose_gated_budget(got: int, d_model: int, d_ff: int, d_equal: int) -> str:
    call = f"fn({d_model}, {d_ff}) = {got}"
    if got == 3 * d_model * d_ff:
        return tr(
            "{call}: that is the gated FFN at the same d_ff; shrink it to d_ff' = round(2/3 * d_ff) = {d_equal} first",
            call=call,
            d_equal=d_equal,
        )
    if got == 2 * d_model * d_equal:
        return tr("{call}: a gated FFN has three matrices (W, V, W2), not two", call=call)
    if got == 2 * d_model * d_ff:
        return tr(
            "{call}: that is the plain FFN's weights; the question is the gated one with d_ff' = {d_equal}",
            call=call,
            d_equal=d_equal,
        )
    if got == 3 * d_model * d_equal + 2 * d_equal + d_model:
        return tr("{call}: Shazeer's gated layers have no biases", call=call)
    return tr(
        "{call}, expected 3 * d_model * d_ff' with d_ff' = round(2 * d_ff / 3) = {d_equal}",
        call=call,
        d_equal=d_equal,
    )


def _diagnose_swiglu(got, x, W, V, W2) -> str:
    suspects = {
        tr("that is ReGLU: the gate's activation should be SiLU (x * sigmoid(x)), not ReLU"): (
            F.relu(x @ W) * (x @ V)
        )
        @ W2,
        tr("that is GEGLU: the gate's activation should be SiLU, not GELU"): (
            F.gelu(x @ W) * (x @ V)
        )
        @ W2,
        tr(
            "that is the original GLU: sigmoid(x W) gates; SwiGLU uses silu(x W) = x W * sigmoid(x W)"
        ): (torch.sigmoid(x @ W) * (x @ V)) @ W2,
        tr("the activation is on the wrong branch: silu(x W) * (x V), not (x W) * silu(x V)"): (
            (x @ W) * F.silu(x @ V)
        )
        @ W2,
        tr("the linear branch x V is missing: the gate multiplies it"): F.silu(x @ W) @ W2,
        tr("the SiLU is applied after the product; it acts on x W alone"): F.silu((x @ W) * (x @ V))
        @ W2,
    }
    return first_suspect(got, suspects, atol=1e-5) or tr(
        "the values differ from (silu(x W) * (x V)) W2: check each step"
    )


def check_swiglu(fn: Callable) -> CheckResult:
    """``fn(x, W, V, W2)`` must return (silu(x W) * (x V)) W2."""

    def check() -> str:
        g = torch.Generator().manual_seed(0)
        x = torch.randn(2, 3, 6, generator=g)
        W, V = torch.randn(6, 10, generator=g), torch.randn(6, 10, generator=g)
        W2 = torch.randn(10, 6, generator=g)
        got = fn(x, W, V, W2)
        require_return(got)
        expected = gated_ffn(x, W, V, W2, "swiglu")
        require_shape(
            got,
            expected,
            N_(
                "the output has shape {got}, expected {expected}: did you apply W2 (d_ff -> d_model)?"
            ),
        )
        if not close(got, expected, atol=1e-5):
            raise Hint(_diagnose_swiglu(got, x, W, V, W2))
        return tr("matches (silu(x W) * (x V)) W2.")

    return run_check(N_("SwiGLU"), check)


def check_collapsed_rank(fn: Callable[[int, int], int]) -> CheckResult:
    """``fn(d_model, d_ff)``: the largest possible rank of W1 W2, W1 (d_model, d_ff), W2 (d_ff, d_model)."""

    def check() -> str:
        for d_model, d_ff in ((512, 2048), (8, 3), (4, 4), (64, 16)):
            got, expected = fn(d_model, d_ff), min(d_model, d_ff)
            if got != expected:
                raise Hint(_diagnose_rank(got, expected, d_model, d_ff))
        return tr(
            "rank(W1 W2) <= min(d_model, d_ff): expanding to 2048 and back gives nothing a single 512 × 512 matrix could not."
        )

    return run_check(N_("collapsed rank"), check)


def _diagnose_rank(got: int, expected: int, d_model: int, d_ff: int) -> str:
    call = f"fn({d_model}, {d_ff}) = {got}"
    if got == d_ff:
        return tr(
            "{call}: W1 W2 is a (d_model, d_model) matrix; its rank cannot exceed d_model",
            call=call,
        )
    if got == d_model:
        return tr(
            "{call}: everything passes through the d_ff hidden numbers; a narrow d_ff caps the rank",
            call=call,
        )
    if got == max(d_model, d_ff):
        return tr("{call}: the rank of a product is at most the smaller of the ranks", call=call)
    return tr(
        "fn({d_model}, {d_ff}) = {got}, expected {expected}",
        d_model=d_model,
        d_ff=d_ff,
        got=got,
        expected=expected,
    )


def _identity_weights(fn: Callable[[int], dict], d_model: int) -> dict[str, np.ndarray]:
    weights = require_return(fn(d_model))
    if not isinstance(weights, dict) or set(weights) != {"W1", "b1", "W2", "b2"}:
        raise Hint(tr("return a dict with exactly the keys 'W1', 'b1', 'W2', 'b2'"))
    weights = {k: np.asarray(v, dtype=float) for k, v in weights.items()}
    W1, W2 = weights["W1"], weights["W2"]
    if W1.ndim != 2 or W1.shape[0] != d_model:
        raise Hint(
            tr(
                "W1 must have shape (d_model, d_ff) = ({d_model}, d_ff), got {shape}",
                d_model=d_model,
                shape=W1.shape,
            )
        )
    if W2.shape != W1.shape[::-1]:
        raise Hint(
            tr(
                "W2 has shape {W2}, W1 {W1}: W2 maps back, shape (d_ff, d_model);"
                " in the formula's layout it is W1's transpose, not a copy",
                W2=W2.shape,
                W1=W1.shape,
            )
        )
    return weights


def _diagnose_identity(out: np.ndarray, x: np.ndarray, d_ff: int, d_model: int) -> str:
    relu = np.maximum(x, 0)
    if close(out, relu):
        return tr("only the positive half comes through: add units for -x (W1 = [I, -I])")
    if close(out, np.abs(x)):
        return tr(
            "FFN(x) = |x|: relu(x) + relu(-x); the -x units must be subtracted (W2 = [I; -I])"
        )
    if close(out, -x):
        return tr("FFN(x) = -x: the signs of W2's two blocks are swapped")
    if d_ff < 2 * d_model:
        return tr(
            "d_ff = {d_ff} < 2 * d_model = {twice}: too few units to keep both halves",
            d_ff=d_ff,
            twice=2 * d_model,
        )
    return tr("FFN(x) differs from x: check W1 = [I, -I], W2 = [I; -I] and zero biases")


def check_identity_ffn(fn: Callable[[int], dict]) -> CheckResult:
    """``fn(d_model)``: ReLU-FFN weights W1 (d_model, d_ff), b1, W2 (d_ff, d_model), b2 with FFN(x) = x."""

    def check() -> str:
        rng = np.random.default_rng(0)
        for d_model in (2, *rng.integers(3, 9, size=3).tolist()):
            weights = _identity_weights(fn, d_model)
            x = rng.normal(size=(int(rng.integers(3, 8)), d_model))
            out = numpy_ffn(x, **weights)  # the model's own FFN, relu
            if not close(out, x, atol=1e-9):
                raise Hint(
                    f"d_model={d_model}: " + _diagnose_identity(out, x, len(weights["b1"]), d_model)
                )
        return tr("relu(x) - relu(-x) = x: 2 * d_model units pass every input through unchanged.")

    return run_check(N_("identity FFN"), check)


def check_ring_width(fn: Callable[[], int], sweeps: dict, threshold: float = 0.97) -> CheckResult:
    """``fn()``: the smallest d_ff of the stored sweep whose median ReLU accuracy on the ring
    reaches ``threshold``. ``sweeps``: task -> the stored WidthSweep (ring, xor, triangles)."""

    def check() -> str:
        ring = sweeps["ring"]
        expected = ring.smallest_solving_width("relu", threshold)
        medians = dict(
            zip(
                ring.widths,
                np.median(ring.accuracy[ring.activations.index("relu")], axis=1),
                strict=True,
            )
        )
        got = require_return(fn())
        if got == expected:
            return tr(
                "d_ff={got} is the first width whose median reaches {threshold} ({median:.3f}).",
                got=got,
                threshold=threshold,
                median=medians[got],
            )
        raise Hint(_diagnose_ring_width(got, expected, sweeps, threshold, medians))

    return run_check(N_("ring width"), check)


def _diagnose_ring_width(got, expected: int, sweeps: dict, threshold: float, medians: dict) -> str:
    """Why ``got`` is not the ring's smallest ReLU width ``expected``: which other number it is."""
    if got == sweeps["xor"].smallest_solving_width("relu", threshold):
        return tr(
            "{got} is xor's width: xor's boundary is two straight lines, the ring's a curve",
            got=got,
        )
    if got == TRIANGLE_EDGES:
        return tr(
            "{got} is the triangles' edge count: the ring's boundary is two circles, polygons only approximate them",
            got=got,
        )
    if got == sweeps["triangles"].smallest_solving_width("relu", threshold):
        return tr("{got} is the triangles' width; read the ring row", got=got)
    if got == sweeps["ring"].smallest_solving_width("tanh", threshold):
        return tr("{got} is tanh's width on the ring; the question asks about ReLU", got=got)
    if got not in medians:
        return tr(
            "the sweep has the widths {widths}: the answer is one of them",
            widths=sweeps["ring"].widths,
        )
    if got < expected:
        return tr(
            "at d_ff={got} the median is {median:.3f}, below {threshold}",
            got=got,
            median=medians[got],
            threshold=threshold,
        )
    return tr(
        "a smaller width already reaches {threshold}: look left of d_ff={got}",
        threshold=threshold,
        got=got,
    )
