"""Four ways to rewrite one fact, each with a strength (``edit_sweep`` sweeps them), the parts two
lessons share:

- the rank-one update of one FFN's W2 (``rank_one_edit``): the key k* is the FFN's hidden units
  at one position, the value v* is found by a few Adam steps on the FFN's output there, and W2
  changes by the one rank-one update that maps k* to v* while moving the output on the corpus'
  keys as little as possible (least squares over the keys, whose uncentred covariance is C; a
  ridge of 1e-6 on C's diagonal, since units that never fire make C singular). ROME's own recipe
  at the subject (``ROME``; Meng et al. 2022) adds its safeguards: k* averaged over the subject's
  contexts, and a KL term that keeps the entity's other prompts' predictions;
- knowledge neurons (Dai et al. 2022): the fact's top units by attribution get
  strength x (e(new) - e(old)) added to their value vectors;
- fine-tuning one layer's W2 with Adam on the new fact alone, and ROME's constrained baseline
  FT+L, whose weights stay within +-eps of the trained ones (an L-infinity bound).

The subject is where the fact says (``Fact.subject_positions``); an edit at the subject writes at
its last token, as ROME does.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import torch

from course_lib.core._validate import int_at_least, positive_int
from course_lib.core.experiments.fact_edits import (
    PLAIN,
    Recipe,
    key_covariance,
    keys,
    rank_one_update,
    target_value,
    with_change,
)
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions
from course_lib.core.experiments.training import Adam
from course_lib.core.model.language_model import LanguageModel

# ---- a rank-one edit of one FFN's W2 (its parts: fact_edits)


def subject_contexts(corpus: Corpus, fact: int) -> torch.Tensor:
    """The first phrasing's prompts of every fact about the entity of ``fact``: (relations, L),
    the entity at its ``subject_positions`` in each, read after different words ("the capital
    of", "the colour of", ...). ROME averages its key over texts that end with the subject, for
    the same reason."""
    prompts, _ = corpus.prompts()
    entity = corpus.facts[fact].entity
    return prompts[[i for i, f in enumerate(corpus.facts) if f.entity == entity]]


ROME = Recipe(steps=20, lr=0.5, kl=0.0625, decay=0.5, clamp=4.0, averaged_key=True)


def rank_one_update_for(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    layer: int,
    position: int,
    C: torch.Tensor | None = None,
    recipe: Recipe = PLAIN,
) -> torch.Tensor:
    """The change of ``layer``'s W2 (``linear2.weight``, (d_model, d_ff)) that rewrites ``fact``
    to ``new_answer`` at ``position``: k* from the fact's prompt (or averaged over the subject's
    contexts), v* as ``recipe`` finds it, C the keys' covariance (computed here unless given)."""
    prompts, _ = corpus.prompts()
    prompt, new_id = prompts[fact : fact + 1], corpus.encode([new_answer])[0]
    contexts = subject_contexts(corpus, fact) if recipe.averaged_key else prompt
    with torch.no_grad():
        k = keys(model, contexts, layer)[:, position].mean(dim=0)
    others = None
    if recipe.kl:
        others = subject_contexts(corpus, fact)
        others = others[(others != prompt).any(dim=1)]  # the entity's other prompts
    v = target_value(model, prompt, new_id, layer, position, recipe, others)
    W2 = model.layers[layer].ffn.linear2
    C = key_covariance(model, corpus, layer) if C is None else C
    with torch.no_grad():
        return rank_one_update(W2.weight, k, v - W2.bias, C) - W2.weight


def rank_one_edit(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    layer: int,
    position: int | None = None,
    C: torch.Tensor | None = None,
    recipe: Recipe = PLAIN,
) -> LanguageModel:
    """A copy of ``model`` with the rank-one update of ``rank_one_update_for`` applied, at
    ``position`` or by default the subject's last token (``Fact.subject_positions``)."""
    if position is None:
        position = corpus.facts[fact].subject_positions[-1]
    change = rank_one_update_for(model, corpus, fact, new_answer, layer, position, C, recipe)
    return with_change(model, layer, change)


# ---- knowledge neurons and fine-tuning


def neuron_change(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    top: int = 5,
    scores: torch.Tensor | None = None,
) -> dict[int, torch.Tensor]:
    """Each layer's change of W2 by Dai et al.'s edit at strength 1: the ``top`` units by
    attribution (``scores``, computed here unless given) get e(new) - e(old) added to their value
    vectors. {layer: (d_model, d_ff)}."""
    scores = attributions(model, corpus) if scores is None else scores
    chosen = scores[fact].flatten().topk(top).indices
    old_id, new_id = corpus.encode([corpus.facts[fact].answer, new_answer])
    E = model.unembedding.detach()
    change = {i: torch.zeros_like(layer.ffn.linear2.weight) for i, layer in enumerate(model.layers)}
    for index in chosen.tolist():
        layer, unit = divmod(index, model.d_ff)
        change[layer][:, unit] += E[new_id] - E[old_id]  # column `unit` of W2 is v_unit
    return change


def neuron_edit(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    top: int = 5,
    scores: torch.Tensor | None = None,
    strength: float = 1.0,
) -> LanguageModel:
    """A copy of ``model`` with the knowledge-neuron edit at ``strength`` (v_i += strength x
    (e(new) - e(old)) for the ``top`` units)."""
    positive_int("top", top)
    edited = copy.deepcopy(model)
    with torch.no_grad():
        for layer, change in neuron_change(model, corpus, fact, new_answer, top, scores).items():
            edited.layers[layer].ffn.linear2.weight.add_(strength * change)
    return edited


def fine_tune_steps(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    layer: int,
    steps: int = 30,
    lr: float = 1e-2,
    bound: float | None = None,
) -> Iterator[tuple[int, LanguageModel]]:
    """Adam on ``layer``'s W2 alone, on -log p(new_answer) after the fact's prompt alone: yields
    (steps taken, the model) after every step, the same copy each time (``copy.deepcopy`` it to
    keep one). ``bound``: ROME's FT+L, each weight clamped to within +-bound of the trained one
    after every step."""
    prompts, _ = corpus.prompts()
    prompt, new_id = prompts[fact : fact + 1], corpus.encode([new_answer])[0]
    edited = copy.deepcopy(model)
    W2 = edited.layers[layer].ffn.linear2.weight
    start = W2.detach().clone()
    optimizer = Adam([W2], lr=lr)
    for step in range(1, steps + 1):
        loss = -edited(prompt)[0, -1].log_softmax(-1)[new_id]
        (W2.grad,) = torch.autograd.grad(loss, [W2])
        optimizer.step()
        if bound is not None:
            with torch.no_grad():
                W2.copy_(torch.clamp(W2, start - bound, start + bound))
        W2.grad = None
        yield step, edited


def fine_tune_edit(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    layer: int,
    steps: int = 30,
    lr: float = 1e-2,
    bound: float | None = None,
) -> LanguageModel:
    """``model`` fine-tuned by ``fine_tune_steps`` for ``steps`` steps (a copy)."""
    int_at_least("steps", steps, 0)
    edited = copy.deepcopy(model)  # what zero steps give
    for _, tuned in fine_tune_steps(model, corpus, fact, new_answer, layer, steps, lr, bound):
        edited = tuned
    return edited
