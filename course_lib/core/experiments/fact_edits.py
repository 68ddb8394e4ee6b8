"""Rewriting one fact stored in an FFN (Meng et al. 2022, "ROME"), the parts two lessons share.

The rank-one update of a linear map: the W' closest to W, over the keys whose uncentred covariance
is C, that maps the key k to the value v,

    W' = W + (v - W k) u^T / (u^T k),   u = C^-1 k

For an FFN's W2 the keys are its hidden units at each position (``keys``), C their covariance over
a corpus (``key_covariance``), and v* the output the FFN should give so that the model answers the
new word (``target_value``: a few Adam steps on a change of the FFN's output at one position;
``target_values`` searches many edits' at once, to a stopping rule, as lesson 6's sweep does).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core._validate import int_at_least
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.training import Adam
from course_lib.core.model.language_model import LanguageModel

SUBJECT = 4  # lesson 5's subject position (Fact.subject_positions): <bos> the relation of <entity>


def rank_one_update(
    W: torch.Tensor, k: torch.Tensor, v: torch.Tensor, C: torch.Tensor, ridge: float = 1e-6
) -> torch.Tensor:
    """W' for W (d_out, d_in), k (d_in,), v (d_out,), C (d_in, d_in); ``ridge`` is added to C's
    diagonal (keys of units that never fire make C singular)."""
    u = torch.linalg.solve(C + ridge * torch.eye(len(C), dtype=C.dtype), k)
    return W + torch.outer(v - W @ k, u) / (u @ k)


def keys(model: LanguageModel, tokens: torch.Tensor, layer: int) -> torch.Tensor:
    """The hidden units (keys) of ``layer``'s FFN at every position of ``tokens``:
    (batch, seq_len, d_ff)."""
    return model.ffn_hidden(tokens)[layer]


def fact_free_lines(corpus: Corpus) -> list[int]:
    """The corpus' lines that state no fact (filler), by index."""
    sentences = {s for fact in corpus.facts for s in (fact.sentence, fact.paraphrased_sentence)}
    return [i for i, line in enumerate(corpus.lines) if line not in sentences]


def key_covariance(
    model: LanguageModel, corpus: Corpus, layer: int, facts: bool = True
) -> torch.Tensor:
    """C = mean of k k^T over every key the corpus makes, each word of each line (padding left
    out), or with ``facts=False`` over the lines that state no fact only: (d_ff, d_ff)."""
    tokens = corpus.tokens() if facts else corpus.tokens()[fact_free_lines(corpus)]
    with torch.no_grad():
        k = keys(model, tokens, layer)[tokens != 0]  # (positions, d_ff)
    return k.T @ k / len(k)


@dataclass(frozen=True)
class Recipe:
    """How v* is found: ``steps`` Adam steps at ``lr`` on -log p(new) after the edited prompt,
    plus, for ROME (its code's values, gpt2-xl.json), ``kl`` x KL(edited || as trained) of the
    entity's other prompts and a decay ``decay`` x |delta| / |v|^2, with |delta| clamped to
    ``clamp`` x |v|; and whether k* is averaged over the subject's contexts. A stopping rule,
    if set: ``steps`` is then the cap, the search stops once its loss is below ``stop_below``
    (ROME's code stops at 0.05), and ``keep_best`` returns the v* of the lowest loss it met
    rather than the last (Adam at this rate oscillates around a minimum)."""

    steps: int = 30
    lr: float = 0.5
    kl: float = 0.0
    decay: float = 0.0
    clamp: float | None = None
    averaged_key: bool = False
    stop_below: float | None = None
    keep_best: bool = False


PLAIN = Recipe()
# the same search to one stopping rule (lesson 6): below ROME's 0.05, or the best of 1000 steps
CONVERGED = Recipe(steps=1000, stop_below=0.05, keep_best=True)


def ffn_output(model: LanguageModel, tokens: torch.Tensor, layer: int) -> torch.Tensor:
    """What ``layer``'s FFN gives at every position of ``tokens``: (batch, seq_len, d_model)."""
    name = f"layers.{layer}.ffn.hook_out"
    with torch.no_grad():
        _, cache = model.run_with_cache(tokens, names_filter=[name])
    return cache[name]


def _shifted(model: LanguageModel, layer: int, position: int, delta: torch.Tensor):
    """A hook context adding ``delta`` (d_model,) to ``layer``'s FFN output at ``position``."""

    def shift(out: torch.Tensor, _hook) -> torch.Tensor:
        out = out.clone()
        out[:, position] = out[:, position] + delta
        return out

    return model.hooks([(f"layers.{layer}.ffn.hook_out", shift)])


def value_loss(
    model: LanguageModel,
    prompt: torch.Tensor,
    new_answer: int,
    layer: int,
    delta: torch.Tensor,
    position: int = SUBJECT,
) -> torch.Tensor:
    """-log p(new_answer) after ``prompt`` (1, L) with ``delta`` (d_model,) added to the output of
    ``layer``'s FFN at ``position``."""
    with _shifted(model, layer, position, delta):
        return -model(prompt)[0, -1].log_softmax(-1)[new_answer]


def _kl_loss(model, others, layer, position, delta, before) -> torch.Tensor:
    """KL(edited || as trained) of the next word after each of ``others`` (n, L), averaged."""
    with _shifted(model, layer, position, delta):
        after = model(others)[:, -1].log_softmax(-1)
    return (after.exp() * (after - before)).sum(-1).mean()


def target_value(
    model: LanguageModel,
    prompt: torch.Tensor,
    new_answer: int,
    layer: int,
    position: int = SUBJECT,
    recipe: Recipe = PLAIN,
    others: torch.Tensor | None = None,
) -> torch.Tensor:
    """The output the FFN of ``layer`` should give at ``position`` so that the model answers
    ``new_answer`` to ``prompt`` (1, L): its own output plus a change found as ``recipe`` says;
    ``others`` (n, L) are the prompts its KL term keeps. (d_model,)"""
    if recipe.stop_below is not None or recipe.keep_best:  # a stopping rule: target_values'
        more = None if others is None else others[None]
        return target_values(model, prompt, torch.tensor([new_answer]), layer, position, recipe,
                             more).values[0]  # fmt: skip
    with torch.no_grad():
        own = ffn_output(model, prompt, layer)[0, position]
        before = None if others is None else model(others)[:, -1].log_softmax(-1)
    delta = torch.zeros_like(own, requires_grad=True)
    optimizer = Adam([delta], lr=recipe.lr)
    for _ in range(int_at_least("steps", recipe.steps, 0)):
        loss = value_loss(model, prompt, new_answer, layer, delta, position)
        if recipe.kl and others is not None:
            loss = loss + recipe.kl * _kl_loss(model, others, layer, position, delta, before)
        if recipe.decay:
            loss = loss + recipe.decay * delta.norm() / own.norm() ** 2
        (delta.grad,) = torch.autograd.grad(loss, [delta])  # the model's weights get no .grad
        optimizer.step()
        if recipe.clamp is not None:
            with torch.no_grad():
                delta.mul_(min(1.0, recipe.clamp * float(own.norm()) / float(delta.norm())))
    return (own + delta).detach()


def with_change(
    model: LanguageModel, layer: int, change: torch.Tensor, scale: float = 1.0
) -> LanguageModel:
    """A copy of ``model`` whose ``layer`` W2 is W2 + scale x ``change``."""
    edited = copy.deepcopy(model)
    with torch.no_grad():
        edited.layers[layer].ffn.linear2.weight.add_(scale * change)
    return edited


def changed_w2(model: LanguageModel, changes: dict[int, torch.Tensor], lines: int = 1):
    """Hooks that make row r of a batch (copies x ``lines``, ...) run with each layer l's W2
    changed by ``changes[l][r]`` (copies, d_model, d_ff): the FFN's output gets the change's
    share, (its hidden units) x change^T, added; its hidden units are the model's own, since a
    layer's W2 acts after them."""
    hidden: dict[int, torch.Tensor] = {}

    def keep(layer):
        def hook(h: torch.Tensor, _hook) -> torch.Tensor:
            hidden[layer] = h
            return h

        return hook

    def add(layer):
        def hook(out: torch.Tensor, _hook) -> torch.Tensor:
            h = hidden[layer].view(len(changes[layer]), lines, *hidden[layer].shape[1:])
            extra = torch.einsum("rbld,rod->rblo", h, changes[layer])
            return out + extra.reshape(out.shape)

        return hook

    points = [(f"layers.{layer}.ffn.hook_hidden", keep(layer)) for layer in changes]
    return model.hooks(points + [(f"layers.{layer}.ffn.hook_out", add(layer)) for layer in changes])


def new_answer(corpus: Corpus, fact: int, shift: int = 0) -> str:
    """The answer fact ``fact`` is rewritten to: another entity's answer of the same relation (the
    n-th other one, in sorted order, for the n-th fact; ``shift`` later ones for other choices)."""
    target = corpus.facts[fact]
    answers = sorted(
        {f.answer for f in corpus.facts if f.relation == target.relation} - {target.answer}
    )
    return answers[(fact + int_at_least("shift", shift, 0)) % len(answers)]


# ---- many edits' v* at once, to a stopping rule (lesson 6's sweep)


@dataclass(frozen=True)
class ValueSearch:
    """What ``target_values`` found for n edits: each v* (n, d_model); the step it is from (0:
    the FFN's own output), its loss and whether the search stopped below ``stop_below`` (n,)
    each; and at each checkpoint step, what a search capped there returns, {step: (n, d_model)},
    with its loss {step: (n,)}."""

    values: torch.Tensor
    steps: np.ndarray
    loss: np.ndarray
    stopped: np.ndarray
    checkpoints: dict[int, torch.Tensor]
    checkpoint_loss: dict[int, np.ndarray]


def _shifted_rows(model: LanguageModel, layer: int, positions: torch.Tensor, delta: torch.Tensor):
    """A hook context adding ``delta`` (n, d_model) to ``layer``'s FFN output of row i at
    ``positions[i]`` (n,)."""
    rows = torch.arange(len(positions))

    def shift(out: torch.Tensor, _hook) -> torch.Tensor:
        out = out.clone()
        out[rows, positions] = out[rows, positions] + delta
        return out

    return model.hooks([(f"layers.{layer}.ffn.hook_out", shift)])


def _search_loss(model, prompts, new_ids, layer, positions, delta, own, recipe, others, before):
    """Each row's loss, as ``target_value`` computes it for one edit: (n,)."""
    with _shifted_rows(model, layer, positions, delta):
        loss = -model(prompts)[:, -1].log_softmax(-1)[torch.arange(len(prompts)), new_ids]
    if recipe.kl and others is not None:
        m = others.shape[1]
        shifted = _shifted_rows(
            model, layer, positions.repeat_interleave(m), delta.repeat_interleave(m, dim=0)
        )
        with shifted:
            after = model(others.flatten(0, 1))[:, -1].log_softmax(-1).view(len(prompts), m, -1)
        loss = loss + recipe.kl * (after.exp() * (after - before)).sum(-1).mean(-1)
    if recipe.decay:
        loss = loss + recipe.decay * delta.norm(dim=-1) / own.norm(dim=-1) ** 2
    return loss


def target_values(
    model: LanguageModel,
    prompts: torch.Tensor,
    new_answers: torch.Tensor,
    layer: int,
    positions: int | torch.Tensor = SUBJECT,
    recipe: Recipe = CONVERGED,
    others: torch.Tensor | None = None,
    checkpoints: tuple[int, ...] = (),
) -> ValueSearch:
    """``target_value`` for n edits at once: row i of ``prompts`` (n, L) rewritten to
    ``new_answers[i]`` at ``positions[i]`` (or one position for all), its KL term keeping
    ``others[i]`` (n, m, L). Each row's search is its own (its loss, its Adam state, its stop);
    they share the forward passes. ``checkpoints``: steps at which to keep what the search
    capped there would return."""
    n, steps = len(prompts), int_at_least("steps", recipe.steps, 0)
    positions = torch.as_tensor(positions).expand(n).clone()
    rows = torch.arange(n)
    with torch.no_grad():
        own = ffn_output(model, prompts, layer)[rows, positions]  # (n, d_model)
        before = None
        if recipe.kl and others is not None:
            flat = model(others.flatten(0, 1))[:, -1].log_softmax(-1)
            before = flat.view(n, others.shape[1], -1)
    delta = torch.zeros_like(own, requires_grad=True)
    optimizer = Adam([delta], lr=recipe.lr)
    best, best_loss = torch.zeros_like(own), np.full(n, np.inf)
    best_step, stopped, active = np.zeros(n, int), np.zeros(n, bool), np.ones(n, bool)
    kept, kept_loss = {}, {}
    for step in range(steps + 1):
        j = np.flatnonzero(active)  # the searches still running
        i = torch.from_numpy(j)
        more = None if before is None else others[i]
        loss = _search_loss(model, prompts[i], new_answers[i], layer, positions[i], delta[i],
                            own[i], recipe, more, None if before is None else before[i])  # fmt: skip
        value = loss.detach().numpy()
        better = value < best_loss[j] if recipe.keep_best else np.ones(len(j), bool)
        with torch.no_grad():
            best[i[torch.from_numpy(better)]] = delta[i[torch.from_numpy(better)]]
        best_loss[j[better]], best_step[j[better]] = value[better], step
        if recipe.stop_below is not None:
            done = j[value < recipe.stop_below]
            stopped[done], active[done] = True, False
        if step in checkpoints:
            kept[step], kept_loss[step] = (own + best).detach().clone(), best_loss.copy()
        if step == steps or not active.any():
            break
        (delta.grad,) = torch.autograd.grad(loss.sum(), [delta])  # the model's weights get none
        optimizer.step()
        if recipe.clamp is not None:
            with torch.no_grad():
                shrink = (recipe.clamp * own.norm(dim=-1) / delta.norm(dim=-1)).clamp(max=1.0)
                delta.mul_(shrink[:, None])
    values = (own + best).detach()
    for step in checkpoints:  # a search that ended before a checkpoint returns what it ended with
        kept.setdefault(step, values.clone())
        kept_loss.setdefault(step, best_loss.copy())
    return ValueSearch(values, best_step, best_loss, stopped, kept, kept_loss)
