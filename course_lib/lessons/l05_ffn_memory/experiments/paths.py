"""The paths by which an edit of FFN units at the prompt's last word reaches the answer (lesson 5),
each held fixed in turn: the final LayerNorm's scale (its sqrt(var + eps), held at the unedited
run's) and what the later layers read (the edit's change of output added to the final stream
only, so that no later layer sees it). Every edit and reading goes through the model's hook points
(``layers.i.ffn.hook_hidden``, ``layers.i.hook_resid_post``). ``layer_contributions`` splits
zeroing a whole layer's units; ``doubling`` splits doubling a fact's top units."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import log_odds
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads


def held_scale_logits(model: LanguageModel, stream: torch.Tensor, scale: torch.Tensor):
    """The final LayerNorm with its scale held: gain * (x - mean) / ``scale`` + bias, read by
    the output embedding. ``stream`` (facts, d_model), ``scale`` (facts, 1)."""
    centred = stream - stream.mean(-1, keepdim=True)
    return (model.norm.weight * centred / scale + model.norm.bias) @ model.unembedding.T


def norm_scale(model: LanguageModel, stream: torch.Tensor) -> torch.Tensor:
    """What the final LayerNorm divides ``stream`` (facts, d_model) by: sqrt(var + eps), (facts, 1)."""
    return (stream.var(-1, unbiased=False, keepdim=True) + model.norm.eps).sqrt()


def edited_streams(model: LanguageModel, corpus: Corpus, chosen: torch.Tensor, factor: float,
                   later_layers: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:  # fmt: skip
    """The next-word logits as trained, (facts, vocab), and the stream the final LayerNorm reads
    at the last word, unedited and with the ``chosen`` units (facts, layers, d_ff) scaled by
    ``factor``, (facts, d_model) each. ``later_layers=False``: the later layers read the unedited
    stream; the units' change of output, (factor - 1) h_i v_i, reaches the final stream only."""
    prompts, count = corpus.prompts()[0], len(model.layers)
    hidden = [f"layers.{i}.ffn.hook_hidden" for i in range(count)]
    final = f"layers.{count - 1}.hook_resid_post"

    def scaled(h: torch.Tensor, hook) -> torch.Tensor:
        h = h.clone()
        h[:, -1] = torch.where(chosen[:, hidden.index(hook.name)], factor * h[:, -1], h[:, -1])
        return h

    with torch.no_grad():
        logits, cache = model.run_with_cache(prompts, names_filter=[*hidden, final])
        if later_layers:
            with model.hooks([(name, scaled) for name in hidden]):
                _, edited = model.run_with_cache(prompts, names_filter=[final])
            stream = edited[final][:, -1]
        else:
            extra = sum(((factor - 1) * cache[name][:, -1] * chosen[:, i]) @ model.values(i)
                        for i, name in enumerate(hidden))  # fmt: skip
            stream = cache[final][:, -1] + extra
    return logits[:, -1], cache[final][:, -1], stream


@dataclass(frozen=True)
class LayerContributions:
    """How each layer's FFN units (their values, h W2, at the prompt's last word) raise the
    answer's log-odds, log(p / (1 - p)), (facts, layers) each: their drop when all of the layer's
    units are zeroed there, along every path (``total``), with the final LayerNorm's scale held
    (``held``), with the later layers blind to the zeroing (``blind``), and with both held
    (``direct``: read straight by the final LayerNorm and E). ``scale``: the final LayerNorm's
    scale with the layer zeroed, over the unedited one, (facts, layers)."""

    direct: np.ndarray
    total: np.ndarray
    held: np.ndarray
    blind: np.ndarray
    scale: np.ndarray

    def split(self, layer: int, held_first: bool = True) -> dict[str, np.ndarray]:
        """``layer``'s total, (facts,), cut into its direct part, what goes through the later
        layers and what the final LayerNorm's rescaling adds; the two last depend on which path
        is held first (``held_first``: the scale, else the later layers), so both are shown."""
        direct, total = self.direct[:, layer], self.total[:, layer]
        other = self.held[:, layer] if held_first else self.blind[:, layer]
        later = other - direct if held_first else total - other
        return {"direct": direct, "later layers": later, "rescaling": total - direct - later}


@torch_threads(1)
def layer_contributions(model: LanguageModel, corpus: Corpus) -> LayerContributions:
    """Each layer's FFN contribution to the answer's log-odds, split by path (lesson 4: in a
    pre-norm stack every FFN writes into the residual stream the output reads). Log-odds, not
    the raw logit: the softmax ignores a shift of every logit, which a rescaling makes."""
    answers = corpus.prompts()[1]
    rows, layers = torch.arange(len(answers)), len(model.layers)
    drops = {key: [] for key in ("total", "held", "blind", "direct", "scale")}
    for layer in range(layers):
        chosen = torch.zeros(len(answers), layers, model.d_ff, dtype=torch.bool)
        chosen[:, layer] = True
        for later in (True, False):
            before, clean, stream = edited_streams(model, corpus, chosen, 0.0, later)
            with torch.no_grad():
                scale = norm_scale(model, clean)
                run, held = model.logits(stream), held_scale_logits(model, stream, scale)
                odds = [log_odds(z.log_softmax(-1)[rows, answers]) for z in (before, run, held)]
            for key, after in zip(("total", "held") if later else ("blind", "direct"),
                                  odds[1:], strict=True):  # fmt: skip
                drops[key].append((odds[0] - after).numpy())
            if later:
                drops["scale"].append((norm_scale(model, stream) / scale).squeeze(-1).numpy())
    return LayerContributions(**{key: np.stack(v, axis=1) for key, v in drops.items()})
