"""Checkers for lesson 5: find the single unit whose erasure costs a fact the most, and read a
unit's value vector through the output embedding."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import torch

from course_lib.core.checks import (
    CheckResult,
    Hint,
    close,
    require_close,
    require_return,
    require_shape,
    run_check,
    shape_of,
)
from course_lib.core.i18n import N_, tr
from course_lib.core.model.language_model import LanguageModel


def ablation_drops(model: LanguageModel, prompt: torch.Tensor, answer: int) -> torch.Tensor:
    """p(answer) as trained minus p(answer) with one FFN unit zeroed at the prompt's last word,
    for every unit: (layers, d_ff). ``prompt``: (seq_len,) token ids. One batch per layer, row i
    with unit i zeroed at the hook point ``layers.{layer}.ffn.hook_hidden``."""
    d_ff = model.d_ff
    batch = prompt.reshape(1, -1).expand(d_ff, -1)  # row i: unit i is zeroed

    def zero_own_unit(h: torch.Tensor, _hook) -> torch.Tensor:
        h = h.clone()
        h[torch.arange(d_ff), -1, torch.arange(d_ff)] = 0.0
        return h

    with torch.no_grad():
        before = model(prompt.reshape(1, -1))[0, -1].softmax(-1)[answer]
        drops = [
            before
            - model.run_with_hooks(
                batch, fwd_hooks=[(f"layers.{layer}.ffn.hook_hidden", zero_own_unit)]
            )[:, -1].softmax(-1)[:, answer]
            for layer in range(len(model.layers))
        ]
    return torch.stack(drops)


def check_costliest_unit(
    fn: Callable, model: LanguageModel, prompt: torch.Tensor, answer: int, top: int = 3
) -> CheckResult:
    """``fn(model, prompt, answer)`` returns (layer, unit): a unit whose zeroing alone at the
    prompt's last word lowers p(answer) as much as one of the ``top`` units that lower it most."""

    def check() -> str:
        got = require_return(fn(model, prompt, answer), "return layer, unit")
        drops = ablation_drops(model, prompt, answer)
        layers, d_ff = drops.shape
        if isinstance(got, int) or (isinstance(got, torch.Tensor) and got.numel() == 1):
            raise Hint(
                tr(
                    "return a pair (layer, unit); a single index over both layers is "
                    "divmod(index, d_ff) = (layer, unit), with d_ff = {d_ff}",
                    d_ff=d_ff,
                )
            )
        if not (isinstance(got, tuple | list) and len(got) == 2):
            raise Hint(tr("return two ints: (layer, unit)"))
        layer, unit = (int(v) for v in got)
        if not (0 <= layer < layers and 0 <= unit < d_ff):
            if 0 <= unit < layers and 0 <= layer < d_ff:
                raise Hint(tr("layer and unit look swapped: return (layer, unit)"))
            raise Hint(
                tr(
                    "(layer, unit) must lie in [0, {layers}) x [0, {d_ff}), got {got}",
                    layers=layers,
                    d_ff=d_ff,
                    got=got,
                )
            )
        drop, best = drops[layer, unit].item(), drops.flatten().topk(top).values
        if drop <= 0:
            raise Hint(
                tr(
                    "zeroing your unit does not lower p(answer): its score has the wrong sign; "
                    "take the largest gradient x activation (or the largest drop), not the smallest"
                )
            )
        if drop < best[-1].item():
            names = [f"layers.{i}.ffn.hook_hidden" for i in range(layers)]
            with torch.no_grad():
                _, cache = model.run_with_cache(prompt.reshape(1, -1), names_filter=names)
            acts = torch.stack([cache[name][0, -1] for name in names])  # (layers, d_ff)
            if (layer, unit) == divmod(int(acts.flatten().argmax()), d_ff):
                raise Hint(
                    tr(
                        "that is the unit that fires most; firing is not mattering: weigh each "
                        "activation by its effect on log p(answer) (gradient x activation), or "
                        "zero each unit and measure"
                    )
                )
            raise Hint(
                tr(
                    "zeroing your unit lowers p(answer) by {drop:.3f}; the top {top} units lower "
                    "it by at least {least:.3f}. Gradient x activation only estimates "
                    "the effect to first order: zero each unit in turn and measure",
                    drop=drop,
                    top=top,
                    least=best[-1].item(),
                )
            )
        with torch.no_grad():
            p = model(prompt.reshape(1, -1))[0, -1].softmax(-1)[answer].item()
        return tr(
            "zeroing L{layer} unit {unit} lowers p(answer) from {p:.2f} by {drop:.2f}, the "
            "costliest single unit by {best:.2f}: one of the {top} costliest units for this fact.",
            layer=layer,
            unit=unit,
            p=p,
            drop=drop,
            best=best[0].item(),
            top=top,
        )

    return run_check(N_("the costliest single unit"), check)


def _projection_case(seed: int) -> tuple[LanguageModel, int]:
    """A random small language model (random vocabulary, width and d_ff) and a layer of it."""
    g = torch.Generator().manual_seed(seed)
    vocab, d_model, d_ff = 20 + seed * 7, (8, 12, 16)[seed % 3], (16, 24, 32)[seed % 3]
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        model = LanguageModel(vocab, d_model, num_layers=2, num_heads=2, d_ff=d_ff).double()
        for layer in model.layers:  # non-trivial biases and norms, so a wrong read shows
            torch.nn.init.normal_(layer.ffn.linear2.bias)
        torch.nn.init.uniform_(model.norm.weight, 0.5, 1.5)
        torch.nn.init.normal_(model.norm.bias)
    return model.eval(), int(torch.randint(0, 2, (1,), generator=g))


def _projection_suspects(model: LanguageModel, layer: int) -> dict[str, torch.Tensor]:
    """The usual wrong projections, each keyed by the hint that names its mistake."""
    ffn, E = model.layers[layer].ffn, model.unembedding
    values = ffn.linear2.weight.T  # (d_ff, d_model): row i is unit i's value vector
    return {
        tr(
            "that reads W1 (the keys, linear1.weight): the values are W2's columns, "
            "linear2.weight[:, i], since nn.Linear computes h @ weight.T"
        ): ffn.linear1.weight @ E.T,
        tr(
            "the final LayerNorm is applied to each value: LN acts on the whole residual stream "
            "and is not linear, so one unit's contribution is read as E v directly"
        ): model.norm(values) @ E.T,
        tr(
            "b2 is added to every value: the bias is shared by all units, not part of one unit's "
            "value"
        ): (values + ffn.linear2.bias) @ E.T,
        tr("those are probabilities (softmax): return the logit contributions E v"): (
            values @ E.T
        ).softmax(-1),
        tr("that is the other layer's W2: read model.layers[layer]"): model.value_logits(1 - layer),
    }


def check_value_projection(fn: Callable) -> CheckResult:
    """``fn(model, layer)`` returns every unit's value vector read through the output embedding,
    E v_i: (d_ff, vocab_size), on random small models (``LanguageModel.value_logits``)."""

    def check() -> str:
        for seed in range(3):
            model, layer = _projection_case(seed)
            with torch.no_grad():
                got = require_return(fn(model, layer))
                expected = model.value_logits(layer)
                if shape_of(got) == tuple(expected.T.shape) and close(got, expected.T):
                    raise Hint(tr("the result is transposed: one row per unit, (d_ff, vocab_size)"))
                require_shape(
                    got,
                    expected,
                    N_(
                        "the result has shape {got}, expected (d_ff, vocab_size) = "
                        "{expected}: values are linear2.weight.T, (d_ff, d_model)"
                    ),
                )
                require_close(
                    got,
                    expected,
                    partial(_projection_suspects, model, layer),
                    tr("the values differ from linear2.weight.T @ E.T (E = model.unembedding)"),
                    atol=1e-9,
                )
        return tr("equals E v_i for every unit, on 3 random models.")

    return run_check(N_("value projection"), check)
