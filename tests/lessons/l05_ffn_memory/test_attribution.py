"""The authors' code's attribution: along its path every unit of a layer moves together, so the
layer's scores sum to p as trained minus p with the whole layer zeroed at the last word (the
integral's completeness, a finite-difference check of the gradients it sums), within the error of
the left-point sum; its ranking differs from the single-unit equation's."""

from __future__ import annotations

from dataclasses import replace

import torch

from course_lib.core.experiments.memory import scale_units, stored_attributions, stored_model
from course_lib.lessons.l05_ffn_memory.experiments.attribution import layer_path_attributions


def _layer_drops(model, corpus) -> torch.Tensor:
    """p(answer) as trained minus p(answer) with each layer's units all zeroed at the last word:
    (facts, layers)."""
    prompts, answers = corpus.prompts()
    rows = torch.arange(len(answers))
    with torch.no_grad():
        before = model(prompts)[:, -1].softmax(-1)[rows, answers]
        return torch.stack(
            [before - model.run_with_hooks(prompts, fwd_hooks=scale_units([(layer, u) for u in range(model.d_ff)], 0.0))[
                :, -1].softmax(-1)[rows, answers] for layer in range(len(model.layers))], 1,
        )  # fmt: skip


def test_a_layers_scores_sum_to_zeroing_the_whole_layer():
    model, corpus = stored_model()
    corpus = replace(corpus, facts=corpus.facts[:12])  # the first 12 facts: each is its own sum
    drops = _layer_drops(model, corpus)
    # the left-point sum's error falls as 1/steps (over all 48 facts 0.062, 0.012, 0.0061, 0.0030
    # of the largest drop at 20, 100, 200, 400 steps; over these 12, 0.055 and 0.0055 at 20 and
    # 200): 200 lie within the bound by 1.8 times
    fine = layer_path_attributions(model, corpus, steps=200).sum(-1)  # (facts, layers)
    assert (fine - drops).abs().max() < 0.01 * drops.abs().max()
    coarse = layer_path_attributions(model, corpus).sum(-1)  # the code's 20 left points
    assert (coarse - drops).abs().max() > (fine - drops).abs().max()  # coarser, further off


def test_the_code_path_ranks_units_otherwise_than_the_equation():
    model, corpus = stored_model()
    code, equation = layer_path_attributions(model, corpus), stored_attributions()
    assert code.shape == equation.shape
    same = (code.flatten(1).argmax(1) == equation.flatten(1).argmax(1)).sum()
    assert 0 < same < len(corpus.facts)
