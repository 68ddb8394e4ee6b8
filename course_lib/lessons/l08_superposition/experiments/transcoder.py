"""Lesson 8's transcoder in place of layer 0's FFN: how many of its features carry each fact's
answer, scored as lesson 5 scores units (Dai et al.'s attribution, exact): p(answer) with the
transcoder in place, minus p(answer) with one feature zeroed at the prompt's last word.
"""

from __future__ import annotations

import numpy as np
import torch

from course_lib.core.experiments.facts import Corpus
from course_lib.core.model.language_model import LanguageModel
from course_lib.lessons.l08_superposition.experiments.dictionary import SparseDictionary
from course_lib.lessons.l08_superposition.experiments.fact_dictionaries import (
    LAYER,
    transcoder_hooks,
)


def feature_attributions(
    model: LanguageModel, corpus: Corpus, transcoder: SparseDictionary, layer: int = LAYER
) -> tuple[np.ndarray, np.ndarray]:
    """(scores, active), each (facts, n_features): each transcoder feature's attribution to each
    fact's answer, and whether it fires at the prompt's last word. Zeroing feature i there takes
    f_i d_i out of the FFN's output at that word and changes nothing else, so only the later
    blocks run again, as ``memory.attributions`` does for units."""
    prompts, answers = corpus.prompts()
    rows = torch.arange(len(answers))
    name = f"layers.{layer}.hook_resid_mid"
    with torch.no_grad(), model.hooks(transcoder_hooks(model, transcoder, layer)):
        _, cache = model.run_with_cache(prompts, names_filter=[name])
        before = model(prompts)[:, -1].softmax(-1)[rows, answers]
        stream = model.residual_stream(prompts, stop_at_layer=layer + 1)  # (facts, L, d_model)
    norm = model.layers[layer].sublayers[1].norm
    with torch.no_grad():
        f = transcoder.encode(norm(cache[name][:, -1]).float()).double()  # (facts, n_features)
        fact, feature = f.nonzero(as_tuple=True)  # the features that fire: the others score 0
        changed = stream[fact]  # (n, L, d_model)
        changed[:, -1] -= f[fact, feature, None] * transcoder.W_dec[feature].double()
        p = model.logits(model.run_blocks(changed, layer + 1)[:, -1]).softmax(-1)
        scores = torch.zeros_like(f)
        scores[fact, feature] = before[fact] - p[torch.arange(len(fact)), answers[fact]]
    return scores.numpy(), (f > 0).numpy()
