"""Locating and rewriting a fact in lesson 5's model (Meng et al. 2022, "ROME").

Causal tracing: run each fact's prompt clean; run it again with the subject's input embedding
corrupted by Gaussian noise (3 times the embeddings' standard deviation, as the paper does), so
that p(answer) collapses; then restore one hidden state, one layer's residual stream or FFN
output at one position, from the clean run, and measure how much of p(answer) comes back.

A rank-one edit: at one layer's FFN, the key k* is its hidden units at one position of the
prompt (ROME's is the subject's last token; the lesson's, where tracing points, the last word),
the value it should produce is found by a few gradient steps on the FFN's output there, and W2
changes by the rank-one update that makes W2 k* that value while moving the keys of the corpus
as little as possible (least squares over the keys, whose uncentred covariance is C; a ridge of
1e-6 on C's diagonal, since units that never fire make C singular):

    W2' = W2 + (v* - W2 k*) (C^-1 k*)^T / (k*^T C^-1 k*)
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import astuple, dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib._validate import int_at_least, positive_int
from course_lib.experiments.facts import Corpus
from course_lib.experiments.memory import (
    SETTINGS,
    attributions,
    corpus_of,
    fact_predictions,
    load_model,
    next_token_loss,
    save_model,
    stored_model,
    train_language_model,
)
from course_lib.experiments.stored_file import load_npz, save_npz
from course_lib.experiments.training import Adam
from course_lib.i18n import N_
from course_lib.model.language_model import LanguageModel
from course_lib.model.rank_one import rank_one_update
from course_lib.threads import torch_threads

SUBJECT = 4  # the entity's position in every prompt: <bos> the <relation> of <entity> is
NOISE = 3.0  # the corruption's scale, in standard deviations of the embedded inputs
SITES = ("stream", "ffn")  # a block's output (the residual stream), or its FFN's output


@contextmanager
def _output_hook(module: torch.nn.Module, hook) -> Iterator[None]:
    handle = module.register_forward_hook(lambda _m, _a, out: hook(out))
    try:
        yield
    finally:
        handle.remove()


def _site(model: LanguageModel, site: str, layer: int) -> torch.nn.Module:
    if site not in SITES:
        raise ValueError(f"site must be one of {list(SITES)}, got {site!r}")
    return model.layers[layer] if site == "stream" else model.layers[layer].ffn


def states(model: LanguageModel, prompts: torch.Tensor, site: str) -> list[torch.Tensor]:
    """Every layer's ``site`` for ``prompts``: (batch, seq_len, d_model) per layer."""
    found: list[torch.Tensor] = []
    with torch.no_grad(), ExitStack() as hooks:
        for layer in range(len(model.layers)):
            hooks.enter_context(_output_hook(_site(model, site, layer), found.append))
        model(prompts)
    return found


def _answer_p(model: LanguageModel, prompts: torch.Tensor, answers: torch.Tensor) -> torch.Tensor:
    probabilities = model(prompts)[:, -1].softmax(dim=-1)
    return probabilities[torch.arange(len(answers)), answers]


@dataclass(frozen=True)
class Trace:
    """p(answer) of each fact: clean (facts,), with the subject corrupted (facts,), and with one
    site restored from the clean run (facts, layers, positions); each a mean over the noise
    samples."""

    site: str
    clean: np.ndarray
    corrupted: np.ndarray
    restored: np.ndarray

    def effect(self, fact: int | None = None) -> np.ndarray:
        """The restored share of what the corruption took, of one ``fact`` or averaged over the
        facts: (layers, positions), 1 where restoring brings p(answer) all the way back."""
        lost = (self.clean - self.corrupted)[:, None, None]
        shares = (self.restored - self.corrupted[:, None, None]) / lost
        return shares.mean(axis=0) if fact is None else shares[fact]


def causal_trace(
    model: LanguageModel, corpus: Corpus, site: str = "stream", samples: int = 10, seed: int = 0
) -> Trace:
    """Causal tracing of every fact of ``corpus`` at every layer's ``site`` and position."""
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
        layers, positions = len(model.layers), prompts.shape[1]
        corrupted = torch.zeros(len(answers), dtype=embedded.dtype)
        restored = torch.zeros(len(answers), layers, positions, dtype=embedded.dtype)
        for noise in noises:

            def corrupt(out: torch.Tensor, noise=noise) -> torch.Tensor:
                out = out.clone()
                out[:, SUBJECT] += scale * noise
                return out

            with _output_hook(model.embed, corrupt):
                corrupted += _answer_p(model, prompts, answers) / samples
                for layer in range(layers):
                    for position in range(positions):

                        def restore(out, layer=layer, position=position):
                            out = out.clone()
                            out[:, position] = kept[layer][:, position]
                            return out

                        with _output_hook(_site(model, site, layer), restore):
                            p = _answer_p(model, prompts, answers)
                        restored[:, layer, position] += p / samples
    return Trace(site, clean.numpy(), corrupted.numpy(), restored.numpy())


# ---- a rank-one edit of one FFN's W2


def keys(model: LanguageModel, tokens: torch.Tensor, layer: int) -> torch.Tensor:
    """The hidden units (keys) of ``layer``'s FFN at every position of ``tokens``:
    (batch, seq_len, d_ff)."""
    return model.ffn_hidden(tokens)[layer]


def key_covariance(model: LanguageModel, corpus: Corpus, layer: int) -> torch.Tensor:
    """C = mean of k k^T over every key the corpus makes, each word of each line (padding left
    out): (d_ff, d_ff)."""
    tokens = corpus.tokens()
    with torch.no_grad():
        k = keys(model, tokens, layer)[tokens != 0]  # (positions, d_ff)
    return k.T @ k / len(k)


def value_loss(
    model: LanguageModel,
    prompt: torch.Tensor,
    new_answer: int,
    layer: int,
    delta: torch.Tensor,
    position: int = SUBJECT,
) -> torch.Tensor:
    """-log p(new_answer) after ``prompt`` (1, L) with ``delta`` (d_model,) added to the output of
    ``layer``'s FFN at ``position``: what ``target_value`` minimises."""

    def shifted(out: torch.Tensor) -> torch.Tensor:
        out = out.clone()
        out[:, position] = out[:, position] + delta
        return out

    with _output_hook(model.layers[layer].ffn, shifted):
        return -model(prompt)[0, -1].log_softmax(-1)[new_answer]


def target_value(
    model: LanguageModel,
    prompt: torch.Tensor,
    new_answer: int,
    layer: int,
    steps: int = 30,
    lr: float = 0.5,
    position: int = SUBJECT,
) -> torch.Tensor:
    """The output the FFN of ``layer`` should give at ``position`` so that the model answers
    ``new_answer`` to ``prompt`` (1, L): its own output plus a change found by ``steps`` Adam
    steps on ``value_loss``. (d_model,)"""
    with torch.no_grad():
        own = states(model, prompt, "ffn")[layer][0, position]
    delta = torch.zeros_like(own, requires_grad=True)
    optimizer = Adam([delta], lr=lr)
    for _ in range(int_at_least("steps", steps, 0)):
        loss = value_loss(model, prompt, new_answer, layer, delta, position)
        (delta.grad,) = torch.autograd.grad(loss, [delta])  # the model's weights get no .grad
        optimizer.step()
    return (own + delta).detach()


def rank_one_edit(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    layer: int,
    position: int = SUBJECT,
    C: torch.Tensor | None = None,
) -> LanguageModel:
    """A copy of ``model`` whose ``layer`` FFN's W2 has the rank-one update that makes the key at
    ``position`` of the fact's prompt give the value that answers ``new_answer``; ``C``, the keys'
    covariance (``key_covariance``), is computed here unless given."""
    prompts, _ = corpus.prompts()
    prompt = prompts[fact : fact + 1]
    new_id = corpus.encode([new_answer])[0]
    with torch.no_grad():
        k = keys(model, prompt, layer)[0, position]
    v = target_value(model, prompt, new_id, layer, position=position)
    edited = copy.deepcopy(model)
    linear = edited.layers[layer].ffn.linear2
    with torch.no_grad():
        linear.weight.copy_(
            rank_one_update(
                linear.weight,
                k,
                v - linear.bias,
                key_covariance(model, corpus, layer) if C is None else C,
            )
        )
    return edited


# ---- three ways to rewrite a fact, measured like CounterFact on the invented facts


def neuron_edit(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    top: int = 5,
    scores: torch.Tensor | None = None,
) -> LanguageModel:
    """Dai et al. 2022's edit of a fact's knowledge neurons: the ``top`` units by attribution at
    the prompt's last word (lesson 5's score) get the old answer's embedding taken out of their
    value vectors and the new one's put in: v_i <- v_i - e(old) + e(new)."""
    if scores is None:  # (facts, layers, d_ff): lesson 5's attribution of every unit
        scores = attributions(model, corpus)
    chosen = scores[fact].flatten().topk(positive_int("top", top)).indices
    units = [divmod(int(u), model.d_ff) for u in chosen]
    old_id, new_id = corpus.encode([corpus.facts[fact].answer, new_answer])
    edited = copy.deepcopy(model)
    E = edited.unembedding.detach()
    with torch.no_grad():
        for layer, unit in units:
            W2 = edited.layers[layer].ffn.linear2.weight  # (d_model, d_ff): column i is v_i
            W2[:, unit] += E[new_id] - E[old_id]
    return edited


def fine_tune_edit(
    model: LanguageModel,
    corpus: Corpus,
    fact: int,
    new_answer: str,
    layer: int,
    steps: int = 30,
    lr: float = 1e-2,
) -> LanguageModel:
    """The plain way: Adam on ``layer``'s W2 alone, on the new fact's prompt alone."""
    prompts, _ = corpus.prompts()
    prompt, new_id = prompts[fact : fact + 1], corpus.encode([new_answer])[0]
    edited = copy.deepcopy(model)
    W2 = edited.layers[layer].ffn.linear2.weight
    optimizer = Adam([W2], lr=lr)
    for _ in range(int_at_least("steps", steps, 0)):
        loss = -edited(prompt)[0, -1].log_softmax(-1)[new_id]
        (W2.grad,) = torch.autograd.grad(loss, [W2])
        optimizer.step()
    W2.grad = None
    return edited


@dataclass(frozen=True)
class EditScores:
    """One edit, measured: the new answer is now the top word (efficacy); the facts of the same
    relation about other entities, and the entity's other facts, keep their top word
    (specificity, shares); and the next-word loss on the filler lines, after minus before
    (fluency: 0 is untouched)."""

    efficacy: bool
    other_entities: float
    same_entity: float
    filler_loss_change: float


@lru_cache(maxsize=8)
def filler_tokens(corpus: Corpus) -> torch.Tensor:
    """The corpus' filler lines, as tokens (lines, L): sentences that state no fact. Made once per
    corpus; callers read it, never write it."""
    sentences = {s for fact in corpus.facts for s in (fact.sentence, fact.paraphrased_sentence)}
    rows = [i for i, line in enumerate(corpus.lines) if line not in sentences]
    return corpus.tokens()[rows]


def _measured(model: LanguageModel, corpus: Corpus) -> tuple[np.ndarray, float]:
    """Every fact's top word (ids, (facts,)) and the next-word loss on the filler lines."""
    with torch.no_grad():
        loss = float(next_token_loss(model, filler_tokens(corpus)))
    return fact_predictions(model, corpus)[0], loss


# the model an edit starts from, measured once: every edit works on a copy, never in place
_unedited = lru_cache(maxsize=4)(_measured)


def score_edit(
    model: LanguageModel, edited: LanguageModel, corpus: Corpus, fact: int, new_answer: str
) -> EditScores:
    (before, loss_before), (after, loss_after) = _unedited(model, corpus), _measured(edited, corpus)
    target = corpus.facts[fact]
    others = [i for i, f in enumerate(corpus.facts) if f.relation == target.relation and i != fact]
    siblings = [i for i, f in enumerate(corpus.facts) if f.entity == target.entity and i != fact]
    return EditScores(
        bool(corpus.decode([after[fact]]) == [new_answer]),
        float((after[others] == before[others]).mean()),
        float((after[siblings] == before[siblings]).mean()),
        loss_after - loss_before,
    )


EDITS_FILE = Path(__file__).parent.parent / "data" / "edit_scores.npz"
TARGETS = 3  # new answers tried per fact in the stored comparisons
# each method as the lesson runs it: the rank-one update at the site causal tracing points to
# (layer 1, the last word) and at ROME's own site (layer 0, the subject), and the two others
EDITS = (
    N_("rank-one, layer 1, last word"),
    N_("rank-one, layer 0, subject"),
    N_("knowledge neurons"),
    N_("fine-tuning W2"),
)


def new_answer(corpus: Corpus, fact: int, shift: int = 0) -> str:
    """The answer fact ``fact`` is rewritten to: another entity's answer of the same relation (the
    n-th other one, in sorted order, for the n-th fact; ``shift`` later ones for other choices)."""
    target = corpus.facts[fact]
    answers = sorted(
        {f.answer for f in corpus.facts if f.relation == target.relation} - {target.answer}
    )
    return answers[(fact + int_at_least("shift", shift, 0)) % len(answers)]


def edit_methods(model: LanguageModel, corpus: Corpus) -> dict[str, Callable]:
    """Each edit of ``EDITS`` as the lesson makes it, {method: edit(fact, new_answer) -> edited
    copy}: what it needs of the whole corpus (C, attributions) computed once, here."""
    scores = attributions(model, corpus)
    C = {layer: key_covariance(model, corpus, layer) for layer in range(len(model.layers))}
    last = corpus.prompts()[0].shape[1] - 1  # the prompt's last word, where tracing points
    return {
        EDITS[0]: lambda i, new: rank_one_edit(model, corpus, i, new, 1, last, C[1]),
        EDITS[1]: lambda i, new: rank_one_edit(model, corpus, i, new, 0, SUBJECT, C[0]),
        EDITS[2]: lambda i, new: neuron_edit(model, corpus, i, new, scores=scores),
        EDITS[3]: lambda i, new: fine_tune_edit(model, corpus, i, new, 1),
    }


@dataclass(frozen=True)
class Rewrite:
    """One fact rewritten by one method: every fact's top word before and after (facts,) as
    words; p(old answer) and p(new answer) after the edited prompt and after the fact's other
    phrasing (never edited), (2 phrasings, before / after) each; and the filler lines' next-word
    loss, after minus before."""

    fact: int
    old: str
    new: str
    method: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    p_old: np.ndarray
    p_new: np.ndarray
    filler_loss_change: float

    @property
    def changed(self) -> np.ndarray:
        """(facts,) bool: whose top word the edit changed."""
        return np.array(self.before) != np.array(self.after)


def rewrite(
    model: LanguageModel, corpus: Corpus, edit: Callable, fact: int, new: str, method: str
) -> Rewrite:
    """``edit`` (one of ``edit_methods``) applied to ``fact`` with the answer ``new``, measured."""
    edited = edit(fact, new)
    ids = corpus.encode([corpus.facts[fact].answer, new])
    prompts = [corpus.prompts(paraphrased)[0][fact : fact + 1] for paraphrased in (False, True)]
    with torch.no_grad():
        p = [[m(prompt)[0, -1].softmax(-1)[ids].numpy() for prompt in prompts]
             for m in (model, edited)]  # fmt: skip
    p_old, p_new = np.array(p).transpose(2, 1, 0)  # (word, phrasing, model)
    (before, loss_before), (after, loss_after) = _unedited(model, corpus), _measured(edited, corpus)
    words = (tuple(corpus.decode(before)), tuple(corpus.decode(after)))
    return Rewrite(fact, corpus.facts[fact].answer, new, method, *words, p_old, p_new,
                   loss_after - loss_before)  # fmt: skip


def compare_edits(
    model: LanguageModel,
    corpus: Corpus,
    facts: Sequence[int] | None = None,
    paraphrased: bool = False,
    answers: int = TARGETS,
) -> dict[str, np.ndarray]:
    """Every method of ``EDITS`` on each fact (all by default), rewritten with the fact's first
    phrasing to each of ``answers`` other answers (``new_answer``'s shifts 0, 1, ...): {method:
    (facts × answers, 4) of EditScores' fields}, a fact's answers in consecutive rows;
    ``paraphrased`` (a model that knows both phrasings): (facts × answers, 5) of
    ``PARAPHRASE_COLUMNS``, ``generalises`` second."""
    facts = range(len(corpus.facts)) if facts is None else facts
    edits = edit_methods(model, corpus)
    table = {method: [] for method in EDITS}
    with torch_threads(1):
        for i in facts:
            for shift in range(positive_int("answers", answers)):
                new = new_answer(corpus, i, shift)
                for method, edit in edits.items():
                    edited = edit(i, new)
                    row = astuple(score_edit(model, edited, corpus, i, new))
                    if paraphrased:
                        row = (row[0], generalises(edited, corpus, i, new), *row[1:])
                    table[method].append(row)
    return {method: np.array(rows, dtype=float) for method, rows in table.items()}


def save_edit_scores(path: Path = EDITS_FILE) -> int:
    model, corpus = stored_model()
    return save_npz(path, compare_edits(model, corpus), {"methods": EDITS})


def stored_edit_scores(path: Path = EDITS_FILE) -> dict[str, np.ndarray]:
    """``compare_edits`` over all 48 facts of lesson 5's model, as stored (or the file named)."""
    arrays, _ = load_npz(path, "set of edit scores", "course_lib.experiments.editing")
    return {method: arrays[method] for method in EDITS}


# ---- generalisation: a model that knows each fact in two phrasings

PARAPHRASED = replace(SETTINGS, paraphrases=True)  # lesson 5's model, trained on both phrasings
PARAPHRASED_FILE = Path(__file__).parent.parent / "data" / "fact_lm_paraphrased.npz"
PARAPHRASE_SCORES_FILE = Path(__file__).parent.parent / "data" / "paraphrase_scores.npz"
PARAPHRASE_COLUMNS = ("efficacy", "generalisation", "other entities", "same entity", "filler")


@lru_cache(maxsize=1)
def paraphrased_model() -> tuple[LanguageModel, Corpus]:
    """The stored model trained on every fact in both phrasings, and its corpus, loaded once."""
    model, settings, _ = load_model(PARAPHRASED_FILE)
    return model, corpus_of(settings)


def generalises(edited: LanguageModel, corpus: Corpus, fact: int, new_answer: str) -> bool:
    """Whether the fact's other phrasing ("in velor the capital is"), never edited, now gives
    ``new_answer`` as its top word."""
    top = fact_predictions(edited, corpus, paraphrased=True)[0][fact]
    return corpus.decode([top]) == [new_answer]


def stored_paraphrase_scores() -> dict[str, np.ndarray]:
    """``compare_edits(..., paraphrased=True)`` over all 48 facts of ``paraphrased_model``, as
    stored."""
    return stored_edit_scores(PARAPHRASE_SCORES_FILE)


def rebuild(retrain: bool) -> None:
    """Both stored comparisons, after training the two-phrasing model if ``retrain`` or if it is
    missing (about 3 minutes on one thread)."""
    if retrain or not PARAPHRASED_FILE.exists():
        trained, curve = train_language_model(PARAPHRASED)
        save_model(trained, PARAPHRASED, curve, PARAPHRASED_FILE)
        paraphrased_model.cache_clear()
    print(f"{save_edit_scores() / 1024:.0f} KiB in {EDITS_FILE}")
    model, corpus = paraphrased_model()
    scores = compare_edits(model, corpus, paraphrased=True)
    size = save_npz(PARAPHRASE_SCORES_FILE, scores, {"methods": EDITS})
    print(f"{size / 1024:.0f} KiB in {PARAPHRASE_SCORES_FILE}")


if __name__ == "__main__":  # python -m course_lib.experiments.editing [--retrain]
    rebuild(retrain="--retrain" in sys.argv[1:])
