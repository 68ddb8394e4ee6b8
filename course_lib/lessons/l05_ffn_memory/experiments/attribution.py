"""Dai et al.'s attribution as their code computes it (lesson 5, section 4). The paper's equation
moves one unit alone from 0 to its activation, the others kept: integrated, that is exactly the
fall of p(answer) when the unit is zeroed (``memory.attributions``). Their code
(Hunter-DDM/knowledge-neurons, ``1_analyze_mlm.py``: ``scaled_input`` and the model's
``tmp_score``) scales the whole layer's activations at the position together, alpha h for every
unit, and sums the gradient at the left points alpha = j / 20, j = 0 … 19. The two rank the units
differently; the paper's numbers come from the code's path."""

from __future__ import annotations

import torch

from course_lib.core._validate import positive_int
from course_lib.core.experiments import DTYPE
from course_lib.core.experiments.facts import Corpus
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads


@torch_threads(1)
def layer_path_attributions(model: LanguageModel, corpus: Corpus, steps: int = 20) -> torch.Tensor:
    """Every FFN unit's attribution at each prompt's last word along the layer-wide path: for each
    layer in turn, its hidden units there set to alpha h (all together; the other layers as they
    compute), h times the mean of dp(answer)/dh over alpha = j / ``steps``, j = 0 … steps - 1:
    (facts, layers, d_ff)."""
    prompts, answers = corpus.prompts()
    m, facts = positive_int("steps", steps), len(answers)
    names = [f"layers.{i}.ffn.hook_hidden" for i in range(len(model.layers))]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=names)
    alphas = torch.arange(m, dtype=DTYPE) / m  # the left points, as the authors' code takes them
    scores = torch.zeros(facts, len(names), model.d_ff, dtype=DTYPE)
    for layer, name in enumerate(names):
        h = cache[name][:, -1]  # (facts, d_ff)
        point = (alphas[:, None, None] * h).reshape(m * facts, -1).requires_grad_(True)

        def along(hidden: torch.Tensor, _hook, point=point) -> torch.Tensor:
            return torch.cat([hidden[:, :-1], point[:, None]], dim=1)  # the last word: alpha h

        logits = model.run_with_hooks(prompts.repeat(m, 1), fwd_hooks=[(name, along)])[:, -1]
        p = logits.softmax(-1)[torch.arange(m * facts), answers.repeat(m)]
        (grad,) = torch.autograd.grad(p.sum(), [point])  # the weights' .grad are left untouched
        scores[:, layer] = h * grad.reshape(m, facts, -1).mean(dim=0)
    return scores
