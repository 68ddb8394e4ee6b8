"""Lesson 8's sparse dictionaries on lesson 5's fact model: what its FFN of layer 0 sees and does
at every position of its corpus, and the dictionaries trained on it.

The corpus has 2,709 positions whose next word the model is scored on, but far fewer distinct
prefixes: lines repeat, and a position's activations depend only on its prefix. So the rows are
the distinct FFN inputs, each weighted by how often it occurs: every mean below is the mean over
the corpus' positions, computed once per distinct row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import fact_predictions, next_token_loss, training_tokens
from course_lib.core.experiments.training import Adam
from course_lib.core.model.language_model import LanguageModel
from course_lib.lessons.l08_superposition.experiments.dictionary import (
    SparseDictionary,
    dictionary_loss,
)

LAYER = 0  # lesson 5: most of a fact's top units sit in layer 0's FFN
STEPS, LR = 2000, 3e-3  # full-batch Adam over the distinct rows


@dataclass(frozen=True)
class LayerRows:
    """The distinct positions of the corpus for one FFN: its input LN(x) (rows, d_model), its
    hidden units (rows, d_ff), its output (rows, d_model), each row's share of the corpus'
    scored positions (rows,), summing to 1, and each input position's row, -1 where the position
    is not scored (lines, L). float64, as the model computes them."""

    ffn_in: torch.Tensor
    hidden: torch.Tensor
    ffn_out: torch.Tensor
    weight: torch.Tensor
    row_of: torch.Tensor


def scored_positions(corpus: Corpus) -> tuple[torch.Tensor, torch.Tensor]:
    """The model's input (lines, L) and the mask of the positions whose next word is a word, not
    padding: the positions the next-word loss counts."""
    tokens = training_tokens(corpus)
    return tokens[:, :-1], tokens[:, 1:] != 0


def layer_rows(model: LanguageModel, corpus: Corpus, layer: int = LAYER) -> LayerRows:
    """The FFN of ``layer`` at every scored position, one row per distinct input."""
    inputs, scored = scored_positions(corpus)
    ffn = model.layers[layer].ffn
    with torch.no_grad():
        _, cache = model.run_with_cache(inputs, names_filter=[f"layers.{layer}.hook_resid_mid"])
        x = model.layers[layer].sublayers[1].norm(cache[f"layers.{layer}.hook_resid_mid"])
        rows, inverse, counts = torch.unique(
            x[scored], dim=0, return_inverse=True, return_counts=True
        )
        row_of = torch.full(scored.shape, -1, dtype=torch.int64)
        row_of[scored] = inverse
        hidden = ffn.hidden(rows)
        return LayerRows(rows, hidden, ffn.linear2(hidden), counts / counts.sum(), row_of)


def train_dictionary(
    inputs: torch.Tensor,
    targets: torch.Tensor,
    weight: torch.Tensor,
    n_features: int,
    k: int | None = None,
    l1: float = 0.0,
    seed: int = 0,
    steps: int = STEPS,
) -> tuple[SparseDictionary, np.ndarray]:
    """A dictionary trained to map ``inputs`` to ``targets`` (rows, d) in float32, each row
    weighted by ``weight``: an SAE when they are the same tensor, else a transcoder; and its
    training loss at every step (steps,). The decoder's bias starts at the targets' mean; with
    the L1 rule the decoder's columns go back to norm 1 after every step."""
    x, y, w = inputs.float(), targets.float(), weight.float()
    g = torch.Generator().manual_seed(seed)
    dictionary = SparseDictionary(x.shape[1], y.shape[1], n_features, k, inputs is targets, g)
    with torch.no_grad():
        dictionary.b_dec.copy_(w @ y)
    optimizer = Adam(list(dictionary.parameters()), lr=LR)
    losses = np.empty(steps)
    for step in range(steps):
        optimizer.zero_grad()
        loss = dictionary_loss(dictionary, x, y, l1, w)
        loss.backward()
        optimizer.step()
        losses[step] = loss.item()
        if k is None:
            dictionary.normalise_decoder()
    return dictionary.eval(), losses


@dataclass(frozen=True)
class DictionaryMeasures:
    """The papers' measures of one dictionary over the corpus' scored positions."""

    fvu: float  # fraction of variance unexplained: Σ‖y − ŷ‖² / Σ‖y − ȳ‖²
    l0: float  # mean number of active features per position
    dead: int  # features active at no position
    alive: int


def measures(dictionary: SparseDictionary, inputs: torch.Tensor, targets: torch.Tensor,
             weight: torch.Tensor) -> DictionaryMeasures:  # fmt: skip
    """FVU, L0 and dead features of ``dictionary`` on the rows (weighted by ``weight``)."""
    with torch.no_grad():
        reconstruction, f = dictionary(inputs.float())
        y, w = targets.float(), weight.float()
        error = w @ ((reconstruction - y) ** 2).sum(-1)
        spread = w @ ((y - w @ y) ** 2).sum(-1)
        fires = (f > 0).sum(0) > 0
        return DictionaryMeasures(
            float(error / spread), float(w @ (f > 0).sum(-1).float()), int((~fires).sum()),
            int(fires.sum()),
        )  # fmt: skip


def spliced_loss(model: LanguageModel, corpus: Corpus, fwd_hooks=()) -> float:
    """The next-word loss over the corpus with ``fwd_hooks`` attached (none: as trained)."""
    with torch.no_grad(), model.hooks(list(fwd_hooks)):
        return float(next_token_loss(model, training_tokens(corpus)))


def spliced_facts(model: LanguageModel, corpus: Corpus, fwd_hooks=()) -> np.ndarray:
    """Which of the facts the model still answers (top-1) with ``fwd_hooks`` attached: (facts,)."""
    with torch.no_grad(), model.hooks(list(fwd_hooks)):
        return fact_predictions(model, corpus)[1]


def ablation_hooks(layer: int = LAYER) -> list:
    """The FFN's hidden units of ``layer`` zeroed at every position: Bricken et al.'s baseline."""
    return [(f"layers.{layer}.ffn.hook_hidden", lambda h, _: torch.zeros_like(h))]


def sae_hooks(dictionary: SparseDictionary, layer: int = LAYER) -> list:
    """The FFN's hidden units of ``layer`` replaced by the SAE's reconstruction of them."""
    return [(f"layers.{layer}.ffn.hook_hidden", lambda h, _: dictionary(h.float())[0].to(h.dtype))]


def transcoder_hooks(
    model: LanguageModel, transcoder: SparseDictionary, layer: int = LAYER
) -> list:
    """The FFN of ``layer`` replaced by the transcoder: its output computed from the FFN's input,
    LN(x) of the stream entering the FFN's sublayer, at every position."""
    seen: dict[str, torch.Tensor] = {}
    norm = model.layers[layer].sublayers[1].norm

    def keep(stream: torch.Tensor, _hook) -> None:
        seen["x"] = norm(stream)

    def replace(out: torch.Tensor, _hook) -> torch.Tensor:
        return transcoder(seen["x"].float())[0].to(out.dtype)

    return [(f"layers.{layer}.hook_resid_mid", keep), (f"layers.{layer}.ffn.hook_out", replace)]


def loss_recovered(clean: float, spliced: float, ablated: float) -> float:
    """Bricken et al.'s share of the layer's loss reduction the splice keeps:
    (L_ablated − L_spliced) / (L_ablated − L_clean), the layer zero-ablated as the baseline."""
    return (ablated - spliced) / (ablated - clean)
