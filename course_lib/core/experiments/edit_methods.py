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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core._validate import int_at_least, positive_int
from course_lib.core.experiments.fact_edits import (
    PLAIN,
    Recipe,
    changed_w2,
    key_covariance,
    keys,
    rank_one_update,
    target_value,
    with_change,
)
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions, knowledge_neurons
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
    others = other_prompts(corpus, fact) if recipe.kl else None
    v = target_value(model, prompt, new_id, layer, position, recipe, others)
    return rank_one_change(model, corpus, fact, layer, position, v, C, recipe.averaged_key)


def other_prompts(corpus: Corpus, fact: int) -> torch.Tensor:
    """The entity's prompts other than the fact's own (ROME's KL term keeps them): (n, L)."""
    contexts = subject_contexts(corpus, fact)
    return contexts[(contexts != corpus.prompts()[0][fact]).any(dim=1)]


def rank_one_change(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    layer: int,
    position: int,
    v: torch.Tensor,
    C: torch.Tensor | None = None,
    averaged_key: bool = False,
) -> torch.Tensor:
    """The change of ``layer``'s W2 that writes the value ``v`` (d_model,), W2's bias included,
    at ``fact``'s key k* at ``position`` (or k* averaged over the subject's contexts): the
    rank-one update for C (computed here unless given), less W2."""
    prompt = corpus.prompts()[0][fact : fact + 1]
    contexts = subject_contexts(corpus, fact) if averaged_key else prompt
    with torch.no_grad():
        k = keys(model, contexts, layer)[:, position].mean(dim=0)
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


@dataclass(frozen=True)
class NeuronEdit:
    """A knowledge-neuron edit as a paper's code makes it, each chosen unit's value vector
    changed by new x s_new e(new) - old x s_old e(old), e(old) the embedding of the model's top
    word after the prompt; s = |v_i| / |e| with ``value_norm`` (each embedding scaled to the
    value's norm, as Dai et al.'s code does), else 1. Units: the ``top`` of highest attribution,
    or with ``top=None`` every unit above ``memory.KNOWLEDGE_THRESHOLD`` x the fact's largest."""

    old: float = 1.0
    new: float = 1.0
    value_norm: bool = False
    top: int | None = 5


# the course's edit (neuron_change): lambda x (e(new) - e(old)) on the 5 top units
COURSE_NEURONS = NeuronEdit()
# Meng et al.'s KN baseline (rome: baselines/kn, hparams/KN/gpt2-xl.json, and its copy of
# EleutherAI's knowledge-neurons, modify_weights): every unit above 0.2 x the prompt's largest
# attribution, not refined over prompts; v_i -= 2 e(top word), v_i += e(new) (each token of the
# new answer once: its target embedding is two-dimensional, so the "* 2" branch is not taken)
MENG_NEURONS = NeuronEdit(old=2.0, new=1.0, top=None)
# Dai et al.'s own edit (Hunter-DDM/knowledge-neurons, src/6_edit_knowledge_sampled.py, run with
# 6_run_edit.sh 1 8): v_i -= 1 x |v_i|/|e(old)| e(old), v_i += 8 x |v_i|/|e(new)| e(new); their
# units are refined over the fact's prompts and filtered against the relation's other facts
DAI_NEURONS = NeuronEdit(old=1.0, new=8.0, value_norm=True, top=None)


def neuron_units(scores: torch.Tensor, fact: int, top: int | None) -> list[tuple[int, int]]:
    """The (layer, unit) pairs an edit changes for ``fact``: the ``top`` by attribution
    (``scores`` (facts, layers, d_ff)), or every unit above the threshold with ``top=None``."""
    if top is not None:
        d_ff = scores.shape[2]
        return [divmod(int(i), d_ff) for i in scores[fact].flatten().topk(top).indices]
    chosen = knowledge_neurons(scores[fact : fact + 1].numpy())[0]
    return [(int(layer), int(unit)) for layer, unit in zip(*chosen.nonzero(), strict=True)]


def neuron_form_change(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    form: NeuronEdit,
    scores: torch.Tensor | None = None,
) -> dict[int, torch.Tensor]:
    """Each layer's change of W2 by the knowledge-neuron edit ``form``: {layer: (d_model, d_ff)}
    (``scores``: the attributions, computed here unless given)."""
    scores = attributions(model, corpus) if scores is None else scores
    prompt = corpus.prompts()[0][fact : fact + 1]
    with torch.no_grad():
        old_id = int(model(prompt)[0, -1].argmax())  # the model's top word, as both codes take
    (new_id,) = corpus.encode([new_answer])
    E = model.unembedding.detach()
    change = {i: torch.zeros_like(layer.ffn.linear2.weight) for i, layer in enumerate(model.layers)}
    for layer, unit in neuron_units(scores, fact, form.top):
        norm = model.layers[layer].ffn.linear2.weight[:, unit].detach().norm()  # |v_unit|
        new_scale, old_scale = (
            norm / E[i].norm() if form.value_norm else 1.0 for i in (new_id, old_id)
        )
        change[layer][:, unit] += (
            form.new * new_scale * E[new_id] - form.old * old_scale * E[old_id]
        )
    return change


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


def fine_tune_changes(
    model: LanguageModel,
    prompts: torch.Tensor,
    new_answers: torch.Tensor,
    layer: int,
    steps: int,
    lr: float = 1e-2,
    bounds: Sequence[float] | None = None,
) -> Iterator[tuple[int, torch.Tensor, np.ndarray]]:
    """``fine_tune_steps`` for n edits at once: row i of ``prompts`` (n, L) fine-tuned toward
    ``new_answers[i]`` on its own copy of ``layer``'s W2, whose change from the trained W2 is row
    i of one tensor run through the hook points (``fact_edits.changed_w2``), clamped to within
    +-``bounds[i]`` for FT+L. Yields (steps taken, the changes (n, d_model, d_ff), p(new) after
    each prompt (n,)) after 0, 1, ..., ``steps`` steps: the same tensor each time (clone it to
    keep one)."""
    W2 = model.layers[layer].ffn.linear2.weight
    change = torch.zeros(len(prompts), *W2.shape, dtype=W2.dtype, requires_grad=True)
    optimizer, rows = Adam([change], lr=lr), torch.arange(len(prompts))
    if bounds is not None:
        bound = torch.as_tensor(np.asarray(bounds, dtype=float), dtype=W2.dtype)[:, None, None]
    for step in range(int_at_least("steps", steps, 0) + 1):
        with changed_w2(model, {layer: change}):
            log_p = model(prompts)[:, -1].log_softmax(-1)[rows, new_answers]
        yield step, change.detach(), log_p.detach().exp().numpy()
        if step == steps:
            return
        (change.grad,) = torch.autograd.grad(-log_p.sum(), [change])  # the model's get none
        optimizer.step()
        if bounds is not None:
            with torch.no_grad():
                change.copy_(torch.maximum(torch.minimum(change, bound), -bound))
