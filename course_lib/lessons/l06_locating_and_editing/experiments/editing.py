"""Locating and rewriting a fact (lesson 6's editing part; Meng et al. 2022, "ROME").

The model is lesson 5's recipe trained on a corpus that states every fact two ways ("the capital
of velor is quen ." and "in velor the capital is quen ."), so that an edit made with one phrasing
can be asked with the other.

Causal tracing: run each fact's prompt clean; run it again with the subject's input embedding
corrupted by Gaussian noise (3 times the embeddings' standard deviation, as the paper does), so
that p(answer) collapses; then restore one hidden state from the clean run (the stream entering
the first block or leaving any block, an attention output or an FFN output, at one position) and
measure how much of p(answer) comes back.

Four edits, each with a strength (``edit_sweep`` sweeps them):

- the rank-one update of one FFN's W2 (``rank_one_edit``): the key k* is the FFN's hidden units
  at one position, the value v* is found by a few Adam steps on the FFN's output there, and W2
  changes by the one rank-one update that maps k* to v* while moving the output on the corpus'
  keys as little as possible (least squares over the keys, whose uncentred covariance is C; a
  ridge of 1e-6 on C's diagonal, since units that never fire make C singular). ROME's own recipe
  at the subject (``ROME``) adds its safeguards: k* averaged over the subject's contexts, and a KL
  term that keeps the entity's other prompts' predictions;
- knowledge neurons (Dai et al. 2022): the fact's top units by attribution get
  strength x (e(new) - e(old)) added to their value vectors;
- fine-tuning one layer's W2 with Adam on the new fact alone, and ROME's constrained baseline
  FT+L, whose weights stay within +-eps of the trained ones (an L-infinity bound).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import torch

from course_lib.core._validate import int_at_least, positive_int
from course_lib.core.experiments.fact_edits import (
    PLAIN,
    SUBJECT,
    Recipe,
    key_covariance,
    keys,
    rank_one_update,
    target_value,
    with_change,
)
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import SETTINGS, attributions, corpus_of, load_model
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.experiments.training import Adam
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads

NOISE = 3.0  # the corruption's scale, in standard deviations of the embedded inputs
SITES = ("stream", "attention", "ffn")  # a block's output, its attention's output, its FFN's

PARAPHRASED = replace(SETTINGS, paraphrases=True)  # lesson 5's recipe, both phrasings
# python -m course_lib.lessons.l06_locating_and_editing.experiments.editing retrains it (about 3 minutes)
PARAPHRASED_FILE = DATA / "fact_lm_paraphrased.npz"


@lru_cache(maxsize=1)
def paraphrased_model() -> tuple[LanguageModel, Corpus]:
    """The stored model trained on every fact in both phrasings, and its corpus, loaded once;
    callers must not train or edit it."""
    model, settings, _ = load_model(PARAPHRASED_FILE)
    return model, corpus_of(settings)


def _site(site: str, row: int) -> str:
    """The hook point that holds the state ``row`` of ``site``: the stream's row 0 is what
    enters the first block (embeddings plus positions), row i + 1 what leaves block i."""
    if site not in SITES:
        raise ValueError(f"site must be one of {list(SITES)}, got {site!r}")
    if site == "stream":
        return "layers.0.hook_resid_pre" if row == 0 else f"layers.{row - 1}.hook_resid_post"
    return f"layers.{row}.{'self_attn' if site == 'attention' else 'ffn'}.hook_out"


def rows(model: LanguageModel, site: str) -> int:
    """How many states a site has: one per block, and the stream one more (its input)."""
    return len(model.layers) + (site == "stream")


def states(model: LanguageModel, prompts: torch.Tensor, site: str) -> list[torch.Tensor]:
    """Every row of ``site`` for ``prompts``: (batch, seq_len, d_model) each."""
    names = [_site(site, row) for row in range(rows(model, site))]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=names)
    return [cache[name] for name in names]


def _answer_p(model: LanguageModel, prompts: torch.Tensor, answers: torch.Tensor) -> torch.Tensor:
    probabilities = model(prompts)[:, -1].softmax(dim=-1)
    return probabilities[torch.arange(len(answers)), answers]


@dataclass(frozen=True)
class Trace:
    """p(answer) of each fact: clean (facts,), with the subject corrupted (facts,), and with one
    state restored from the clean run (facts, rows, positions); each a mean over the noise
    samples. The stream's row 0 is its input (embeddings plus positions)."""

    site: str
    clean: np.ndarray
    corrupted: np.ndarray
    restored: np.ndarray

    def effect(self, fact: int | None = None) -> np.ndarray:
        """The restored share of what the corruption took, of one ``fact`` or averaged over the
        facts: (rows, positions), 1 where restoring brings p(answer) all the way back."""
        lost = (self.clean - self.corrupted)[:, None, None]
        shares = (self.restored - self.corrupted[:, None, None]) / lost
        return shares.mean(axis=0) if fact is None else shares[fact]


def causal_trace(
    model: LanguageModel, corpus: Corpus, site: str = "stream", samples: int = 10, seed: int = 0
) -> Trace:
    """Causal tracing of every fact of ``corpus`` at every row of ``site`` and every position."""
    prompts, answers = corpus.prompts()
    positive_int("samples", samples)
    with torch.no_grad(), torch_threads(1):
        clean = _answer_p(model, prompts, answers)
        kept = states(model, prompts, site)
        embedded = model.embed(prompts)
        scale = NOISE * float(embedded.std())
        g = torch.Generator().manual_seed(seed)
        noises = [torch.randn(embedded[:, SUBJECT].shape, generator=g, dtype=embedded.dtype)
                  for _ in range(samples)]  # fmt: skip
        positions = prompts.shape[1]
        corrupted = torch.zeros(len(answers), dtype=embedded.dtype)
        restored = torch.zeros(len(answers), rows(model, site), positions, dtype=embedded.dtype)
        for noise in noises:

            def corrupt(out: torch.Tensor, _hook, noise=noise) -> torch.Tensor:
                out = out.clone()
                out[:, SUBJECT] += scale * noise
                return out

            with model.hooks([("hook_embed", corrupt)]):
                corrupted += _answer_p(model, prompts, answers) / samples
                for row in range(rows(model, site)):
                    for position in range(positions):

                        def restore(out, _hook, row=row, position=position):
                            out = out.clone()
                            out[:, position] = kept[row][:, position]
                            return out

                        with model.hooks([(_site(site, row), restore)]):
                            p = _answer_p(model, prompts, answers)
                        restored[:, row, position] += p / samples
    return Trace(site, clean.numpy(), corrupted.numpy(), restored.numpy())


# ---- a rank-one edit of one FFN's W2 (its parts in the core: fact_edits)


def subject_contexts(corpus: Corpus, fact: int) -> torch.Tensor:
    """The first phrasing's prompts of every fact about the entity of ``fact``: (relations, L),
    the entity at ``SUBJECT`` in each, read after different words ("the capital of", "the colour
    of", ...). ROME averages its key over texts that end with the subject, for the same reason."""
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
    position: int = SUBJECT,
    C: torch.Tensor | None = None,
    recipe: Recipe = PLAIN,
) -> LanguageModel:
    """A copy of ``model`` with the rank-one update of ``rank_one_update_for`` applied."""
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


if (
    __name__ == "__main__"
):  # python -m course_lib.lessons.l06_locating_and_editing.experiments.editing: retrain the model
    import time

    from course_lib.core.experiments.memory import save_model, train_language_model

    start = time.perf_counter()
    trained, curve = train_language_model(PARAPHRASED)
    size = save_model(trained, PARAPHRASED, curve, PARAPHRASED_FILE)
    print(
        f"trained in {time.perf_counter() - start:.0f} s; {size / 1e3:.0f} kB in {PARAPHRASED_FILE}"
    )
