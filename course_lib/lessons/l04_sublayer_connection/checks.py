"""Checkers for lesson 4: LayerNorm from scratch, both sublayer connections, a prediction of the
output scale, and a pre-norm encoder layer equal to PyTorch's."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import torch
from torch import nn

from course_lib.core._validate import flag
from course_lib.core.checks import (
    CheckResult,
    Hint,
    require_close,
    require_return,
    require_shape,
    run_check,
)
from course_lib.core.i18n import N_, tr
from course_lib.core.model.sublayer import EncoderLayer, LayerNorm, SublayerConnection, layer_norm
from course_lib.core.model.transformer import MultiHeadAttention

EPS = 0.5  # large on purpose: where eps goes then changes the answer visibly


def _layer_norm_suspects(x, gain, bias, eps) -> dict[str, torch.Tensor]:
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
    batch_mean, batch_var = x.mean(dim=0, keepdim=True), x.var(dim=0, keepdim=True, unbiased=False)
    over_batch = gain * (x - batch_mean) / torch.sqrt(batch_var + eps) + bias
    return dict(
        [
            (
                tr(
                    "eps is outside the square root: divide by sqrt(var + eps), not sqrt(var) + eps"
                ),
                eps_outside,
            ),
            (
                tr(
                    "the variance is unbiased (divides by n - 1): LayerNorm uses mean((x - mean)^2)"
                ),
                unbiased_var,
            ),
            (
                tr(
                    "that is the unbiased std + eps variant (x.std() divides by n - 1, eps outside "
                    "the sqrt); nn.LayerNorm computes sqrt(biased var + eps)"
                ),
                unbiased_std,
            ),
            (tr("eps is missing: divide by sqrt(var + eps)"), no_eps),
            (tr("gain and bias are swapped: multiply by gain, then add bias"), swapped),
            (
                tr("gain and bias are not applied: after normalising, multiply by gain, add bias"),
                no_affine,
            ),
            (
                tr(
                    "the statistics are taken over the whole tensor: LayerNorm normalises each "
                    "position over its last dimension (dim=-1, keepdim=True)"
                ),
                over_all,
            ),
            (
                tr(
                    "the statistics are taken over dim 0, across the batch: that is BatchNorm's "
                    "direction; LayerNorm normalises each position over its own features (dim=-1)"
                ),
                over_batch,
            ),
        ]
    )


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
            require_shape(
                got,
                expected,
                N_(
                    "the output has shape {got}, expected {expected}: keep the last "
                    "dimension (keepdim=True when you take the mean and variance)"
                ),
            )
            require_close(
                got,
                expected,
                partial(_layer_norm_suspects, x, gain, bias, EPS),
                tr("the values differ from gain * (x - mean) / sqrt(var + eps) + bias"),
            )
        return tr(
            "matches gain * (x - mean) / sqrt(var + eps) + bias, the formula of nn.LayerNorm."
        )

    return run_check(N_("layer_norm"), check)


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
    if norm_first:
        wrong_side = tr(
            "the norm is on the wrong side of the residual: that is the post-norm formula"
        )
        swapped, no_residual = norm(x + sub(x)), sub(norm(x))
    else:
        wrong_side = tr(
            "the norm is on the wrong side of the residual: that is the pre-norm formula"
        )
        swapped, no_residual = x + sub(norm(x)), norm(sub(x))
    return {
        wrong_side: swapped,
        tr("the residual is missing: add x back (x + ...)"): no_residual,
        tr("the residual adds norm(x); it must add the raw x"): norm(x) + sub(norm(x)),
        tr(
            "the norm wraps only the sublayer's output; post-norm normalises the sum "
            "x + sublayer(x)"
        ): x + norm(sub(x)),
        tr(
            "the sum is normalised again at the end: pre-norm returns x + sublayer(norm(x)) as "
            "it is"
        ): norm(x + sub(norm(x))),
    }


def check_sublayer_connection(fn: Callable, norm_first: bool = False) -> CheckResult:
    """``fn(x, sublayer, norm)`` must return post-norm norm(x + sublayer(x)) or, with
    ``norm_first``, pre-norm x + sublayer(norm(x)) (dropout left out: eval mode)."""
    flag("norm_first", norm_first)
    formula = "x + sublayer(norm(x))" if norm_first else "norm(x + sublayer(x))"

    def check() -> str:
        for seed in range(3):
            x, sub, norm = _connection_case(seed)
            with torch.no_grad():
                got = fn(x, sub, norm)
                require_return(got)
                expected = x + sub(norm(x)) if norm_first else norm(x + sub(x))
                require_close(
                    got,
                    expected,
                    partial(_connection_suspects, x, sub, norm, norm_first),
                    tr("the values differ from {formula}", formula=formula),
                    atol=1e-5,
                )
        return tr("matches {formula}.", formula=formula)

    name = N_("pre-norm connection") if norm_first else N_("post-norm connection")
    return run_check(name, check)


INPUT_STD = 3.0  # the prediction exercise's input scale


def connection_output_std(norm_first: bool, input_std: float = INPUT_STD, seed: int = 0) -> float:
    """Mean std per position of a fresh sublayer connection around 8-head self-attention (d_model
    512), for an input of standard deviation ``input_std``: (batch 2, seq 4, d_model 512)."""
    with torch.random.fork_rng(), torch.no_grad():
        torch.manual_seed(seed)
        x = torch.randn(2, 4, 512, dtype=torch.float64) * input_std
        attention = MultiHeadAttention(512, 8, 0.0).double()
        connection = SublayerConnection(512, 0.0, norm_first).double()
        out = connection(x, lambda h: attention(h, h, h))
    return out.std(dim=-1, unbiased=False).mean().item()


def check_std_prediction(fn: Callable) -> CheckResult:
    """``fn()`` returns the predicted (post-norm std, pre-norm std) of a sublayer connection's
    output for an input of std 3; the checker measures both and names the likely reasoning slip."""

    def check() -> str:
        got = require_return(fn(), "return post_std, pre_std")
        if not (isinstance(got, tuple) and len(got) == 2):
            raise Hint(tr("return two numbers: (post-norm std, pre-norm std)"))
        post, pre = (float(v) for v in got)
        post_measured, pre_measured = connection_output_std(False), connection_output_std(True)
        if abs(post - INPUT_STD) < 0.5:
            raise Hint(
                tr("post-norm ends with LayerNorm: whatever the input's scale, it leaves at std 1")
            )
        if abs(post - post_measured) > 0.2:
            raise Hint(tr("post-norm's last step is LayerNorm (gain 1, bias 0 at initialisation)"))
        if abs(pre - 1.0) < 0.3:
            raise Hint(
                tr(
                    "pre-norm normalises only the copy the sublayer reads; the residual adds the "
                    "raw x (std 3) back, so the output keeps x's scale"
                )
            )
        if abs(pre - INPUT_STD**2) < 1.0:
            raise Hint(tr("9 is the variance of x; the question asks for the standard deviation"))
        if abs(pre - pre_measured) > 0.15 * pre_measured:
            raise Hint(
                tr(
                    "pre-norm returns x + sublayer(norm(x)): x has std 3, and the sublayer reads "
                    "a std-1 copy, so it adds comparatively little"
                )
            )
        return tr(
            "measured: post-norm {post:.1f}, pre-norm {pre:.1f}. The norm's place decides "
            "whether the input's scale survives.",
            post=post_measured,
            pre=pre_measured,
        )

    return run_check(N_("output std prediction"), check)


def _encoder_case(seed: int):
    """A PyTorch pre-norm layer with random shape and weights (eval mode), our copy's parts, x."""
    g = torch.Generator().manual_seed(seed)
    d_model, heads = (8, 12, 16)[seed % 3], 2 + 2 * (seed % 2)
    batch, length = (int(v) for v in torch.randint(1, 4, (2,), generator=g) + torch.tensor([0, 2]))
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        theirs = nn.TransformerEncoderLayer(
            d_model, heads, 2 * d_model, dropout=0.1, batch_first=True, norm_first=True
        )
        for norm in (theirs.norm1, theirs.norm2):  # distinct gains and biases, so a swap shows
            nn.init.uniform_(norm.weight, 0.5, 1.5)
            nn.init.normal_(norm.bias)
    theirs.eval()
    ours = EncoderLayer.from_torch(theirs).eval()
    x = torch.randn(batch, length, d_model, generator=g) * 2

    def attention(h: torch.Tensor) -> torch.Tensor:
        return ours.self_attn(h, h, h)

    parts = (attention, ours.ffn, ours.sublayers[0].norm, ours.sublayers[1].norm)
    return theirs, parts, x


def _encoder_suspects(x, attn, ffn, n1, n2) -> dict[str, torch.Tensor]:
    """The usual wrong pre-norm layers, each keyed by the hint that names its mistake."""
    h = n1(x + attn(x))
    post = n2(h + ffn(h))
    h = x + attn(n1(x))
    no_final_residual = ffn(n2(h))
    g = attn(n1(x))
    no_first_residual = g + ffn(n2(g))
    h = n1(x + attn(n1(x)))
    normalised_after = n2(h + ffn(n2(h)))
    h = n1(x) + attn(n1(x))
    adds_normed = n2(h) + ffn(n2(h))
    h = x + attn(n2(x))
    swapped = h + ffn(n1(h))
    h = x + attn(n1(x))
    one_norm = h + ffn(n1(h))
    h = x + attn(n1(x))
    final_norm = n2(h + ffn(n2(h)))
    return {
        tr(
            "that is post-norm placement, norm(x + sublayer(x)); pre-norm normalises the "
            "sublayer's input: x + sublayer(norm(x))"
        ): post,
        tr("the final residual is missing: the layer returns h + ffn(norm2(h))"): no_final_residual,
        tr("the first residual is missing: h = x + attention(norm1(x))"): no_first_residual,
        tr(
            "the sums are normalised after the residual as well: pre-norm adds the sublayer's "
            "output to the raw stream and normalises nothing after it"
        ): normalised_after,
        tr("the residual adds the normalised x; it must add the raw x"): adds_normed,
        tr(
            "norm1 and norm2 are swapped: norm1 goes before attention, norm2 before the FFN"
        ): swapped,
        tr("one norm is used twice: norm1 before attention, norm2 before the FFN"): one_norm,
        tr(
            "the output is normalised again at the end: a pre-norm layer returns the sum as it "
            "is (the stack's final LayerNorm comes after the last layer)"
        ): final_norm,
    }


def check_pre_norm_encoder_layer(fn: Callable) -> CheckResult:
    """``fn(x, attention, ffn, norm1, norm2)`` must equal ``nn.TransformerEncoderLayer(
    norm_first=True)`` in eval mode within 1e-5, for layers of random shapes and weights."""

    def check() -> str:
        for seed in range(3):
            theirs, parts, x = _encoder_case(seed)
            with torch.no_grad():
                got = require_return(fn(x, *parts))
                expected = theirs(x)
                require_shape(
                    got,
                    expected,
                    N_("the output has shape {got}, expected {expected}"),
                )
                require_close(
                    got,
                    expected,
                    partial(_encoder_suspects, x, *parts),
                    tr("the values differ from h = x + attention(norm1(x)); h + ffn(norm2(h))"),
                    atol=1e-5,
                )
        return tr(
            "equals nn.TransformerEncoderLayer(norm_first=True) within 1e-5, 3 random layers."
        )

    return run_check(N_("pre-norm encoder layer"), check)
