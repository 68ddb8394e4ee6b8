"""Where doubling a fact's top units acts (lesson 5, section 4): the change of each fact's answer
log-odds when its top units by attribution are scaled, restricted to one layer's units, with the
paths of ``paths`` held fixed one at a time: the final LayerNorm's scale and what the later
layers read."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import torch

from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import log_odds
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l05_ffn_memory.experiments.paths import (
    edited_streams,
    held_scale_logits,
    norm_scale,
)


def top_unit_layers(scores: torch.Tensor, top: int = 5) -> np.ndarray:
    """The layer of each fact's ``top`` units by attribution, highest first: (facts, top).
    ``scores``: ``attributions(model, corpus)``, (facts, layers, d_ff)."""
    flat = scores.flatten(1).topk(positive_int("top", top), dim=1).indices
    return (flat // scores.shape[-1]).numpy()


def _chosen(scores: torch.Tensor, top: int, layers: tuple[int, ...]) -> torch.Tensor:
    """(facts, layers, d_ff) bool: each fact's ``top`` units by attribution that sit in
    ``layers``."""
    flat = scores.flatten(1)
    mask = torch.zeros_like(flat, dtype=torch.bool)
    mask.scatter_(1, flat.topk(positive_int("top", top), dim=1).indices, True)
    mask = mask.reshape(scores.shape)
    for layer in range(scores.shape[1]):
        if layer not in layers:
            mask[:, layer] = False
    return mask


@torch_threads(1)
def scaled_log_odds(
    model: LanguageModel,
    corpus: Corpus,
    scores: torch.Tensor,
    layers: tuple[int, ...] = (0, 1),
    factor: float = 2.0,
    top: int = 5,
    later_layers: bool = True,
    held_scale: bool = False,
) -> np.ndarray:
    """Each fact's change of log(p / (1 - p)) of its answer when its ``top`` units by attribution
    that sit in ``layers`` are scaled by ``factor`` at the prompt's last word: (facts,), nan for
    a fact with no such unit. ``later_layers=False``: the later layers read the unedited stream,
    the units' extra output ((factor - 1) h_i v_i) reaches the final stream only; ``held_scale``:
    the final LayerNorm divides by the unedited run's scale."""
    for layer in layers:
        model.check_unit(layer)
    answers = corpus.prompts()[1]
    rows = torch.arange(len(answers))
    chosen = _chosen(scores, top, tuple(layers))  # (facts, layers, d_ff)
    before, clean, stream = edited_streams(model, corpus, chosen, factor, later_layers)
    with torch.no_grad():
        scale = norm_scale(model, clean)
        after = held_scale_logits(model, stream, scale) if held_scale else model.logits(stream)
        change = [log_odds(z.log_softmax(-1)[rows, answers]) for z in (after, before)]
    out = (change[0] - change[1]).numpy()
    return np.where(chosen.flatten(1).any(1).numpy(), out, np.nan)


@torch_threads(1)
def scale_ratio(
    model: LanguageModel, corpus: Corpus, scores: torch.Tensor, factor: float = 2.0, top: int = 5
) -> np.ndarray:
    """How much scaling each fact's ``top`` units by ``factor`` changes what the final LayerNorm
    divides by, sqrt(var + eps) of the stream at the last word, edited over unedited: (facts,)."""
    chosen = _chosen(scores, top, tuple(range(len(model.layers))))
    _, clean, stream = edited_streams(model, corpus, chosen, factor, later_layers=True)
    return (norm_scale(model, stream) / norm_scale(model, clean)).squeeze(-1).numpy()


PATHS = ("as run", "scale held", "later layers blind", "both held")  # DoublingPaths.paths' keys


@dataclass(frozen=True)
class DoublingPaths:
    """What doubling each fact's top units does to its answer's log-odds, (facts,) each: by the
    layer the units sit in (``only``, ``only_held``: that layer's top units alone, as run and with
    the final LayerNorm's scale held; nan for a fact with none there), and for all of them along
    the paths of ``PATHS`` (``paths``). ``layers``: each top unit's layer, (facts, top);
    ``scale``: the final LayerNorm's scale with all of them doubled, over the unedited one."""

    layers: np.ndarray
    only: dict[int, np.ndarray]
    only_held: dict[int, np.ndarray]
    paths: dict[str, np.ndarray]
    scale: np.ndarray

    def matched(self) -> tuple[int, np.ndarray, np.ndarray]:
        """Each layer's units doubled alone, on the same facts (those with top units in both
        layers): how many facts, the mean change of log-odds per layer (layers,), and the mean per
        unit doubled (each fact's change over its count of that layer's units), (layers,)."""
        both = ~np.isnan(self.only[0]) & ~np.isnan(self.only[1])
        alone = np.array([self.only[layer][both].mean() for layer in (0, 1)])
        counts = [(self.layers[both] == layer).sum(axis=1) for layer in (0, 1)]
        per_unit = np.array([(self.only[layer][both] / counts[layer]).mean() for layer in (0, 1)])
        return int(both.sum()), alone, per_unit

    def per_unit_ratio_interval(self, draws: int = 2000, seed: int = 0) -> tuple[float, float]:
        """A 95 % bootstrap interval, over the matched facts (those with top units in both
        layers), of the ratio of ``matched()``'s per-unit means, layer 0 over layer 1: the facts
        are resampled with replacement, ``draws`` times, from a local generator."""
        both = ~np.isnan(self.only[0]) & ~np.isnan(self.only[1])
        per_fact = [self.only[layer][both] / (self.layers[both] == layer).sum(axis=1)
                    for layer in (0, 1)]  # fmt: skip
        rng, count = np.random.default_rng(seed), int(both.sum())
        picks = rng.integers(0, count, size=(positive_int("draws", draws), count))
        ratios = per_fact[0][picks].mean(axis=1) / per_fact[1][picks].mean(axis=1)
        low, high = np.quantile(ratios, [0.025, 0.975])
        return float(low), float(high)

    def interaction(self) -> np.ndarray:
        """Per fact, how far the two paths fail to add: as run - scale held - layer 1 blind + both
        held, (facts,); 0 where holding both takes away what each takes alone, summed."""
        p = self.paths
        return p["as run"] - p["scale held"] - p["later layers blind"] + p["both held"]


def doubling_paths(
    model: LanguageModel, corpus: Corpus, scores: torch.Tensor, top: int = 5, factor: float = 2.0
) -> DoublingPaths:
    """Every reading of ``scaled_log_odds`` that lesson 5 shows, for each fact's ``top`` units
    scaled by ``factor``."""
    run = partial(scaled_log_odds, model, corpus, scores, factor=factor, top=top)
    every = tuple(range(len(model.layers)))
    return DoublingPaths(
        layers=top_unit_layers(scores, top),
        only={layer: run((layer,)) for layer in every},
        only_held={layer: run((layer,), held_scale=True) for layer in every},
        paths={
            name: run(every, later_layers=later, held_scale=held)
            for name, later, held in zip(
                PATHS, (True, True, False, False), (False, True, False, True), strict=True
            )
        },
        scale=scale_ratio(model, corpus, scores, factor, top),
    )
