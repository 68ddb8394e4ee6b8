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
    first_suspect,
    require_close,
    require_return,
    require_shape,
    run_check,
    shape_of,
)
from course_lib.core.experiments import DTYPE
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import first_order_scores
from course_lib.core.i18n import N_, tr
from course_lib.core.model.language_model import LanguageModel, LanguageModelConfig


def ablation_drops(
    model: LanguageModel, prompt: torch.Tensor, answer: int, every_position: bool = False,
    logit: bool = False,
) -> torch.Tensor:  # fmt: skip
    """p(answer) as trained minus p(answer) with one FFN unit zeroed at the prompt's last word,
    for every unit: (layers, d_ff). ``prompt``: (seq_len,) token ids. One batch per layer, row i
    with unit i zeroed at the hook point ``layers.{layer}.ffn.hook_hidden``. The two usual
    misreadings, for the checker: ``every_position`` zeroes the unit at every word, ``logit``
    measures the answer's logit instead of p."""
    d_ff = model.d_ff
    batch = prompt.reshape(1, -1).expand(d_ff, -1)  # row i: unit i is zeroed
    where = slice(None) if every_position else -1

    def zero_own_unit(h: torch.Tensor, _hook) -> torch.Tensor:
        h = h.clone()
        h[torch.arange(d_ff), where, torch.arange(d_ff)] = 0.0
        return h

    def read(logits: torch.Tensor) -> torch.Tensor:
        return logits[..., answer] if logit else logits.softmax(-1)[..., answer]

    with torch.no_grad():
        before = read(model(prompt.reshape(1, -1))[0, -1])
        drops = [
            before
            - read(
                model.run_with_hooks(
                    batch, fwd_hooks=[(f"layers.{layer}.ffn.hook_hidden", zero_own_unit)]
                )[:, -1]
            )
            for layer in range(len(model.layers))
        ]
    return torch.stack(drops)


def _as_unit(got, layers: int, d_ff: int) -> tuple[int, int]:
    """The learner's (layer, unit), or a Hint naming what is wrong with its form."""
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
    return layer, unit


def _unit_suspects(model: LanguageModel, corpus: Corpus, fact: int) -> dict[str, object]:
    """The units the usual wrong searches return for ``fact``, each keyed by the hint that names
    the mistake."""
    d_ff = model.d_ff
    prompts, answers = corpus.prompts()
    prompt, answer = prompts[fact], int(answers[fact])

    def best(scores: torch.Tensor) -> torch.Tensor:
        return torch.tensor(divmod(int(scores.flatten().argmax()), d_ff), dtype=DTYPE)

    names = [f"layers.{i}.ffn.hook_hidden" for i in range(len(model.layers))]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompt.reshape(1, -1), names_filter=names)
    acts = torch.stack([cache[name][0, -1] for name in names])  # (layers, d_ff)
    return {
        tr(
            "your search zeroes the unit at every word of the prompt; the task zeroes it at the "
            "last word only, h[:, -1, unit]"
        ): best(ablation_drops(model, prompt, answer, every_position=True)),
        tr(
            "that unit lowers the answer's logit most; the task asks for p(answer), which the "
            "softmax also moves through the other words' logits: compare p"
        ): best(ablation_drops(model, prompt, answer, logit=True)),
        tr(
            "that is the unit that fires most; firing is not mattering: zero each unit and measure"
        ): best(acts),
        tr(
            "that is the largest gradient x activation, a first-order estimate at the trained "
            "point: zero each unit in turn and measure"
        ): best(first_order_scores(model, corpus)[fact]),
    }


# Facts 5 and 34 tell every usual wrong search from the right one and from each other: on them
# zeroing at every word, the logit, the most active unit and gradient x activation each name
# another unit than the costliest, and no two of them the same pair (a test holds this).
FACTS = (5, 34)


def check_costliest_unit(
    fn: Callable, model: LanguageModel, corpus: Corpus, facts: tuple[int, ...] = FACTS
) -> CheckResult:
    """``fn(model, prompt, answer)`` returns (layer, unit): the unit whose zeroing alone at the
    prompt's last word lowers p(answer) the most (a tie within 1e-12 accepted), for each of the
    corpus' ``facts``. A wrong answer is named by the usual wrong search it equals on every fact."""

    def check() -> str:
        prompts, answers = corpus.prompts()
        cases = [(prompts[f], int(answers[f])) for f in facts]
        got = [require_return(fn(model, *case), "return layer, unit") for case in cases]
        drops = [ablation_drops(model, *case) for case in cases]
        units = [_as_unit(g, *d.shape) for g, d in zip(got, drops, strict=True)]
        costs = [(d[unit].item(), d.max().item()) for unit, d in zip(units, drops, strict=True)]
        wrong = [i for i, (drop, most) in enumerate(costs) if drop < most - 1e-12]
        if wrong:
            suspects = [_unit_suspects(model, corpus, fact) for fact in facts]
            answer = torch.tensor(units, dtype=DTYPE)  # (facts, 2)
            named = first_suspect(
                answer, {hint: torch.stack([s[hint] for s in suspects]) for hint in suspects[0]},
                atol=0.0,
            )  # fmt: skip
            drop, most = costs[wrong[0]]
            if named is None and drop <= 0:
                named = tr(
                    "zeroing your unit does not lower p(answer): take the largest drop, not the "
                    "smallest"
                )
            raise Hint(
                named
                or tr(
                    "for fact {fact}, zeroing your unit lowers p(answer) by {drop:.3f}; the "
                    "costliest unit lowers it by {most:.3f}: zero each unit in turn and measure",
                    fact=facts[wrong[0]],
                    drop=drop,
                    most=most,
                )
            )
        (layer, unit), (drop, _) = units[0], costs[0]
        with torch.no_grad():
            p = model(cases[0][0].reshape(1, -1))[0, -1].softmax(-1)[cases[0][1]].item()
        return tr(
            "zeroing L{layer} unit {unit} lowers p(answer) of fact {fact} from {p:.2f} by "
            "{drop:.2f}: the costliest single unit, on each of the {n} facts tried.",
            layer=layer,
            unit=unit,
            fact=facts[0],
            p=p,
            drop=drop,
            n=len(facts),
        )

    return run_check(N_("the costliest single unit"), check)


def _projection_case(seed: int) -> tuple[LanguageModel, int]:
    """A random small language model (random vocabulary, width and d_ff) and a layer of it."""
    g = torch.Generator().manual_seed(seed)
    vocab, d_model, d_ff = 20 + seed * 7, (8, 12, 16)[seed % 3], (16, 24, 32)[seed % 3]
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        shape = LanguageModelConfig(vocab_size=vocab, d_model=d_model, num_heads=2, d_ff=d_ff)
        model = LanguageModel(shape).double()
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
            "that reads W1 (the keys, linear1.weight): the values are the columns of linear2.weight, "
            "linear2.weight[:, i] (row i of W2 in the formula), since nn.Linear computes h @ weight.T"
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
