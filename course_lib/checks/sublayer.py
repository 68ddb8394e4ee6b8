"""Checkers for lesson 4: LayerNorm from scratch, and both sublayer connections."""

from __future__ import annotations

from collections.abc import Callable

import torch

from course_lib.checks import CheckResult, Hint, close, require_return, run_check, shape_of
from course_lib.model.sublayer import LayerNorm, layer_norm

EPS = 0.5  # large on purpose: where eps goes then changes the answer visibly


def _layer_norm_suspects(x, gain, bias, eps) -> list[tuple[str, torch.Tensor]]:
    """The usual wrong versions, each with the hint that names its mistake."""
    centred = x - x.mean(dim=-1, keepdim=True)
    var_b = x.var(dim=-1, keepdim=True, unbiased=False)
    var_u = x.var(dim=-1, keepdim=True, unbiased=True)
    eps_outside = gain * centred / (var_b.sqrt() + eps) + bias
    unbiased_var = gain * centred / torch.sqrt(var_u + eps) + bias
    unbiased_std = gain * centred / (var_u.sqrt() + eps) + bias
    no_eps = gain * centred / var_b.sqrt() + bias
    swapped = bias * centred / torch.sqrt(var_b + eps) + gain
    no_affine = centred / torch.sqrt(var_b + eps)
    over_all = gain * (x - x.mean()) / torch.sqrt(x.var(unbiased=False) + eps) + bias
    return [
        (
            "eps is outside the square root: divide by sqrt(var + eps), not sqrt(var) + eps",
            eps_outside,
        ),
        (
            "the variance is unbiased (divides by n - 1): LayerNorm uses mean((x - mean)^2)",
            unbiased_var,
        ),
        (
            "that is the unbiased std + eps variant (x.std() divides by n - 1, eps outside the "
            "sqrt); nn.LayerNorm computes sqrt(biased var + eps)",
            unbiased_std,
        ),
        ("eps is missing: divide by sqrt(var + eps)", no_eps),
        ("gain and bias are swapped: multiply by gain, then add bias", swapped),
        ("gain and bias are not applied: after normalising, multiply by gain, add bias", no_affine),
        (
            "the statistics are taken over the whole tensor: LayerNorm normalises each position "
            "over its last dimension (dim=-1, keepdim=True)",
            over_all,
        ),
    ]


def check_layer_norm(fn: Callable) -> CheckResult:
    """``fn(x, gain, bias, eps)`` must return gain * (x - mean) / sqrt(var + eps) + bias (dim -1)."""

    def check() -> str:
        for seed in range(3):
            g = torch.Generator().manual_seed(seed)
            x = torch.randn(2, 3, 4, generator=g) * 0.8 + 0.3
            gain, bias = torch.rand(4, generator=g) + 0.5, torch.randn(4, generator=g)
            got = fn(x, gain, bias, EPS)
            require_return(got)
            expected = layer_norm(x, gain, bias, EPS)
            if shape_of(got) != tuple(expected.shape):
                raise Hint(
                    f"the output has shape {shape_of(got)}, expected {tuple(expected.shape)}: "
                    "keep the last dimension (keepdim=True when you take the mean and variance)"
                )
            if close(got, expected):
                continue
            for hint, wrong in _layer_norm_suspects(x, gain, bias, EPS):
                if close(got, wrong):
                    raise Hint(hint)
            raise Hint("the values differ from gain * (x - mean) / sqrt(var + eps) + bias")
        return "matches gain * (x - mean) / sqrt(var + eps) + bias, the formula of nn.LayerNorm."

    return run_check("layer_norm", check)


def _connection_case(seed: int):
    """x (2, 3, 4), a fixed nonlinear sublayer, and a LayerNorm with non-trivial gain and bias."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(2, 3, 4, generator=g) * 2
    A, c = torch.randn(4, 4, generator=g), torch.randn(4, generator=g)
    norm = LayerNorm(4)
    with torch.no_grad():
        norm.weight.copy_(torch.rand(4, generator=g) + 0.5)
        norm.bias.copy_(torch.randn(4, generator=g))
    return x, (lambda h: torch.tanh(h @ A + c)), norm


def _connection_suspects(x, sub, norm, norm_first: bool) -> dict[str, torch.Tensor]:
    other = "pre" if not norm_first else "post"
    swapped = x + sub(norm(x)) if not norm_first else norm(x + sub(x))
    return {
        f"the norm is on the wrong side of the residual: that is the {other}-norm formula": swapped,
        "the residual is missing: add x back (x + ...)": norm(sub(x))
        if not norm_first
        else sub(norm(x)),
        "the residual adds norm(x); it must add the raw x": norm(x) + sub(norm(x)),
        "the norm wraps only the sublayer's output; post-norm normalises the sum x + sublayer(x)": x
        + norm(sub(x)),
        "the sum is normalised again at the end: pre-norm returns x + sublayer(norm(x)) as it is": norm(
            x + sub(norm(x))
        ),
    }


def check_sublayer_connection(fn: Callable, norm_first: bool = False) -> CheckResult:
    """``fn(x, sublayer, norm)`` must return post-norm norm(x + sublayer(x)) or, with
    ``norm_first``, pre-norm x + sublayer(norm(x)) (dropout left out: eval mode)."""
    if not isinstance(norm_first, bool):
        raise TypeError(f"norm_first must be a bool, got {norm_first!r}")
    formula = "x + sublayer(norm(x))" if norm_first else "norm(x + sublayer(x))"

    def check() -> str:
        for seed in range(3):
            x, sub, norm = _connection_case(seed)
            with torch.no_grad():
                got = fn(x, sub, norm)
                require_return(got)
                expected = x + sub(norm(x)) if norm_first else norm(x + sub(x))
                if close(got, expected, atol=1e-5):
                    continue
                for hint, wrong in _connection_suspects(x, sub, norm, norm_first).items():
                    if close(got, wrong, atol=1e-5):
                        raise Hint(hint)
            raise Hint(f"the values differ from {formula}")
        return f"matches {formula}."

    name = "pre-norm connection" if norm_first else "post-norm connection"
    return run_check(name, check)
