"""Checkers for lesson 1: the parameter formula, a FeedForward module,
attention weights for a few queries, and a prediction of GPT-2 small's FFN size."""

from __future__ import annotations

from collections.abc import Callable

import torch

from course_lib.core.checks import (
    CheckResult,
    Hint,
    close,
    first_suspect,
    require_return,
    require_shape,
    run_check,
    shape_of,
)
from course_lib.core.i18n import N_, tr
from course_lib.core.model.ffn import (
    ACTIVATIONS,
    FeedForward,
    count_parameters,
)
from course_lib.core.model.transformer import (
    scaled_dot_product_attention,
    transformer_layer_parameters,
)


def check_parameter_formula(fn: Callable[[int, int], int]) -> CheckResult:
    """``fn(d_model, d_ff)`` must count the weights and biases of both layers."""

    def check() -> str:
        for d_model, d_ff in ((512, 2048), (3, 7), (64, 256), (1, 1)):
            got, expected = fn(d_model, d_ff), count_parameters(d_model, d_ff)
            if got == expected:
                continue
            call = f"fn({d_model}, {d_ff}) = {got}"
            if got == 2 * d_model * d_ff:
                raise Hint(
                    tr(
                        "{call}: you counted the weights but not the biases b1 (d_ff) and b2 (d_model)",
                        call=call,
                    )
                )
            if got == 2 * d_model * d_ff + d_ff or got == 2 * d_model * d_ff + d_model:
                raise Hint(
                    tr(
                        "{call}: one of the two biases is missing (b1 has d_ff entries, b2 has d_model)",
                        call=call,
                    )
                )
            if got in (d_model * d_ff + d_ff, d_model * d_ff):
                raise Hint(
                    tr("{call}: that is only the first layer; W2 and b2 count too", call=call)
                )
            if got == 2 * d_model * d_ff + 2 * d_ff or got == 2 * d_model * d_ff + 2 * d_model:
                raise Hint(
                    tr(
                        "{call}: the biases have different sizes: b1 has d_ff entries, b2 has d_model",
                        call=call,
                    )
                )
            raise Hint(tr("{call}, expected {expected}", call=call, expected=expected))
        return tr(
            "for d_model=512, d_ff=2048 that is {count:,} parameters.", count=count_parameters()
        )

    return run_check(N_("parameter formula"), check)


def check_feed_forward(cls: type) -> CheckResult:
    """``cls(d_model, d_ff, dropout)`` must build linear1 and linear2 and compute the FFN."""

    def check() -> str:
        with torch.random.fork_rng(devices=[]):  # the learner's global RNG is left as it was
            torch.manual_seed(0)
            module = cls(8, 32, 0.5)
            reference = FeedForward(8, 32, dropout=0.5)  # its weights become the module's below
            x = torch.randn(2, 5, 8)
        layers = {name: getattr(module, name, None) for name in ("linear1", "linear2")}
        for name, layer in layers.items():
            if not isinstance(layer, torch.nn.Linear):
                raise Hint(
                    tr("your module needs an attribute `{name}` that is an nn.Linear", name=name)
                )
        if layers["linear1"].weight.shape != (32, 8):
            raise Hint(
                tr(
                    "linear1.weight has shape {shape}; nn.Linear(d_model, d_ff) stores "
                    "(d_ff, d_model) = (32, 8): are d_model and d_ff swapped?",
                    shape=tuple(layers["linear1"].weight.shape),
                )
            )
        if layers["linear2"].weight.shape != (8, 32):
            raise Hint(
                tr(
                    "linear2.weight has shape {shape}; nn.Linear(d_ff, d_model) stores "
                    "(d_model, d_ff) = (8, 32): linear2 maps d_ff back to d_model",
                    shape=tuple(layers["linear2"].weight.shape),
                )
            )
        if layers["linear1"].bias is None or layers["linear2"].bias is None:
            raise Hint(
                tr("a linear layer has no bias: the formula has b1 and b2 (leave bias=True)")
            )
        reference.load_state_dict(
            {k: v for k, v in module.state_dict().items() if k.startswith(("linear1", "linear2"))}
        )
        module.eval(), reference.eval()
        with torch.no_grad():
            got, expected = module(x), reference(x)
            got_again = module(x)
        if not close(got, got_again):
            raise Hint(
                tr(
                    "two calls in eval mode gave different outputs: is dropout applied with "
                    "F.dropout(training=True) instead of an nn.Dropout module?"
                )
            )
        if close(got, expected, atol=1e-5):
            return _check_dropout_in_training(module, x)
        raise Hint(_diagnose_module(got, x, layers["linear1"], layers["linear2"]))

    return run_check(N_("FeedForward"), check)


def _diagnose_module(got, x, linear1: torch.nn.Linear, linear2: torch.nn.Linear) -> str:
    """Name the likely mistake by comparing with the usual wrong modules (eval mode)."""
    with torch.no_grad():
        pre = linear1(x)
        if close(got, linear2(pre), atol=1e-5):
            return tr("the output is linear in x: the ReLU between the two layers is missing")
        if close(got, torch.relu(linear2(pre)), atol=1e-5):
            return tr("the ReLU comes after linear2; it belongs between linear1 and linear2")
        for name, act in {**ACTIVATIONS, "sigmoid": torch.sigmoid}.items():
            if name not in ("relu", "identity") and close(got, linear2(act(pre)), atol=1e-5):
                return tr(
                    "the activation between the layers is {name}; this FFN uses ReLU", name=name
                )
    return tr(
        "the output differs from linear2(dropout(relu(linear1(x)))): check the order of the steps"
    )


def _check_dropout_in_training(module: torch.nn.Module, x: torch.Tensor) -> str:
    module.train()
    with torch.random.fork_rng(devices=[]), torch.no_grad():  # dropout's masks, seeded locally
        torch.manual_seed(1)
        first = module(x)
        hidden_zeros = (first != module(x)).any()
    module.eval()
    if not hidden_zeros:
        raise Hint(
            tr("in training mode the output never changes: is the dropout layer used in forward()?")
        )
    if (first == 0).float().mean() > 0.2:  # dropout on the hidden layer leaves no exact zeros
        raise Hint(
            tr(
                "in training mode whole outputs are zeroed: dropout belongs on the hidden layer, "
                "between the ReLU and linear2, not after linear2"
            )
        )
    return tr("matches the reference in eval mode, and dropout is active only in training mode.")


def _attention_suspects(q: torch.Tensor, k: torch.Tensor, mask: torch.Tensor) -> dict:
    """The usual wrong attention weights, each under the hint that names its mistake."""
    scores = q @ k.T
    d_k = k.shape[-1]

    def masked(z):
        return z.masked_fill(~mask, float("-inf"))

    scaled = scores / d_k**0.5
    return {
        tr("the scores are not divided by sqrt(d_k)"): masked(scores).softmax(-1),
        tr("the scores are divided by d_k; the scale is sqrt(d_k)"): masked(scores / d_k).softmax(
            -1
        ),
        tr(
            "the softmax runs over the queries (dim 0); "
            "each query's weights over the keys must sum to 1"
        ): masked(scaled).softmax(0),
        tr("the mask is ignored: a query puts weight on keys it may not see"): scaled.softmax(-1),
        tr("the mask is inverted: True means a query may attend to that key"): (
            scaled.masked_fill(mask, float("-inf")).softmax(-1)
        ),
        tr(
            "the masked weights are zeroed after the softmax, so the rows no longer sum to 1: "
            "mask the scores before it"
        ): scaled.softmax(-1) * mask,
        tr("there is no softmax: the weights must be positive and sum to 1 for each query"): (
            masked(scaled).nan_to_num(neginf=0.0)
        ),
    }


def check_attention_weights(fn: Callable) -> CheckResult:
    """``fn(q, k, mask)`` with q (L, d_k), k (S, d_k), mask (L, S) True = may attend -> (L, S)."""

    def check() -> str:
        g = torch.Generator().manual_seed(0)
        for length, keys, d_k in ((3, 5, 4), (4, 4, 8), (1, 6, 2)):
            q = torch.randn(length, d_k, generator=g, dtype=torch.float64)
            k = torch.randn(keys, d_k, generator=g, dtype=torch.float64)
            mask = torch.rand(length, keys, generator=g) < 0.6
            mask[:, 0] = True  # every query may see at least one key
            _, expected = scaled_dot_product_attention(q, k, k, mask)
            got = require_return(fn(q.clone(), k.clone(), mask.clone()))
            if shape_of(got) == (keys, length) and keys != length:
                raise Hint(
                    tr(
                        "the weights have shape {shape}: one row per query, (L, S)",
                        shape=shape_of(got),
                    )
                )
            require_shape(
                got,
                expected,
                N_("the weights have shape {got}, expected (L, S) = {expected}"),
            )
            if not close(got, expected):
                if bool(torch.isnan(torch.as_tensor(got)).any()):
                    raise Hint(
                        tr(
                            "some weights are NaN: a query had every key masked out; "
                            "is the mask inverted? True means a query may attend to that key"
                        )
                    )
                raise Hint(
                    first_suspect(got, _attention_suspects(q, k, mask))
                    or tr(
                        "the weights differ from softmax(q k^T / sqrt(d_k)) "
                        "with the mask applied first"
                    )
                )
        return tr(
            "softmax(q k^T / sqrt(d_k)) with the masked scores set to -inf: every row sums to 1."
        )

    return run_check(N_("attention weights"), check)


GPT2_D_MODEL, GPT2_D_FF = 768, 3072  # GPT-2 small (Radford et al. 2019)


def _gpt2_parameters_hint(got: int) -> str | None:
    d, d_ff = GPT2_D_MODEL, GPT2_D_FF
    sizes = tr("the biases have different sizes: b1 has d_ff entries, b2 has d_model")
    suspects = {
        2 * d * d_ff: tr(
            "you counted the two weight matrices but forgot the biases b1 (d_ff) and b2 (d_model)"
        ),
        d * d_ff: tr("that is one weight matrix; the FFN has two (W1 and W2), plus their biases"),
        d * d_ff + d_ff: tr("that is only the first layer (W1, b1); W2 and b2 count too"),
        2 * d * d_ff + d_ff: tr("b2 is missing: it has d_model entries"),
        2 * d * d_ff + d: tr("b1 is missing: it has d_ff entries"),
        2 * d * d_ff + 2 * d_ff: sizes,
        2 * d * d_ff + 2 * d: sizes,
        count_parameters(): tr(
            "that is the original 512 -> 2048 FFN; GPT-2 small has d_model 768, d_ff 3072"
        ),
    }
    return suspects.get(got)


def _gpt2_share_hint(share: float, parts: dict[str, int]) -> str | None:
    total = parts["total"]
    if share > 1:
        return tr(
            "the share is {share}: give a fraction between 0 and 1, not a percentage", share=share
        )
    if abs(share - parts["attention"] / total) < 0.01:
        return tr("that is attention's share; the question asks for the FFN's")
    if abs(share - 0.5) < 0.01:
        return tr("not half: the FFN has 2 * d_model * d_ff = 8 d^2 weights, attention 4 d^2")
    return None


def check_gpt2_ffn(fn: Callable[[], tuple[int, float]]) -> CheckResult:
    """``fn()`` returns the prediction (FFN parameters, FFN share of one layer) for GPT-2 small."""

    def check() -> str:
        prediction = require_return(fn())
        if not isinstance(prediction, tuple) or len(prediction) != 2:
            raise Hint(
                tr(
                    "return two numbers, (ffn_parameters, ffn_share); got {prediction}",
                    prediction=repr(prediction),
                )
            )
        got_count, got_share = prediction
        parts = transformer_layer_parameters(GPT2_D_MODEL, GPT2_D_FF)
        expected = count_parameters(GPT2_D_MODEL, GPT2_D_FF)
        if got_count != expected:
            hint = _gpt2_parameters_hint(int(got_count)) or tr(
                "count W1, b1, W2 and b2 at d_model={d_model}, d_ff={d_ff}",
                d_model=GPT2_D_MODEL,
                d_ff=GPT2_D_FF,
            )
            raise Hint(tr("{count:,} parameters: {hint}", count=int(got_count), hint=hint))
        share = parts["ffn"] / parts["total"]
        if abs(float(got_share) - share) > 0.005:
            hint = _gpt2_share_hint(float(got_share), parts)
            raise Hint(
                hint
                or tr(
                    "the share is the FFN's parameters over the layer's {total:,} "
                    "(attention, FFN and two LayerNorms)",
                    total=parts["total"],
                )
            )
        return tr(
            "{count:,} FFN parameters, {share:.1%} of the layer's {total:,}.",
            count=expected,
            share=share,
            total=parts["total"],
        )

    return run_check(N_("GPT-2 small's FFN"), check)
