"""How an edit of one fact is measured: as CounterFact measures (Meng et al. 2022, their evaluation
code), with stricter top-1 measures beside them.

For an edit of a fact's first phrasing to a new answer: p(new) and p(old) after the edited prompt;
CounterFact's **efficacy** (p(new) > p(old) there), **paraphrase** (the same after the other
phrasing, never edited) and **neighbourhood** (the share of the prompts about other entities with
the same relation and the same true answer, both phrasings, where p(old) > p(new): a capital has
no such neighbour, so its edits have none); and the course's top-1 measures: the new answer is the
top word, after either phrasing; the other entities' facts of the relation and the entity's other
facts keep their top word; the change of the filler lines' next-word loss. A paraphrase in another
language (lesson 9) is read with that language's words for the old and the new answer.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core.experiments.fact_edits import changed_w2, fact_free_lines
from course_lib.core.experiments.facts import Corpus
from course_lib.core.model.language_model import LanguageModel

METRICS = (
    "p(new)", "p(old)", "p(new), other phrasing", "p(old), other phrasing", "efficacy", "top-1",
    "paraphrase", "paraphrase top-1", "neighbourhood", "other entities kept", "same entity kept",
    "filler loss change",
)  # fmt: skip


FILLER_LINES = 64  # the filler lines whose loss measures fluency


@lru_cache(maxsize=8)
def filler_tokens(corpus: Corpus) -> torch.Tensor:
    """The corpus' first ``FILLER_LINES`` filler lines, as tokens (lines, L): sentences that state
    no fact. Made once per corpus; callers read it, never write it."""
    tokens = corpus.tokens()[fact_free_lines(corpus)[:FILLER_LINES]]
    return tokens[:, : int((tokens != 0).sum(dim=1).max())]


def _reading_batch(corpus: Corpus) -> tuple[torch.Tensor, list[int], torch.Tensor]:
    """What ``read`` runs: the prompts of both phrasings, padded after their last word, beside
    the filler lines (lines, width); each phrasing's last position; the filler lines."""
    phrasings = [corpus.prompts(paraphrased)[0] for paraphrased in (False, True)]  # may differ
    n, filler = len(corpus.facts), filler_tokens(corpus)  # in length (another language's)
    width = max(*(p.shape[1] for p in phrasings), filler.shape[1] - 1)
    batch = torch.zeros(2 * n + len(filler), width, dtype=filler.dtype)
    for i, prompts in enumerate(phrasings):
        batch[i * n : (i + 1) * n, : prompts.shape[1]] = prompts
    batch[2 * n :, : filler.shape[1] - 1] = filler[:, :-1]
    return batch, [prompts.shape[1] - 1 for prompts in phrasings], filler


def read(model: LanguageModel, corpus: Corpus) -> tuple[torch.Tensor, np.ndarray, float]:
    """Next-word probabilities after every prompt, first phrasing then the other (2 x facts,
    vocab); every fact's top word (first phrasing); the filler lines' next-word loss. One forward
    pass: the prompts, padded after their last word (the model is causal, so padding after a
    word never changes what it predicts there), beside the filler lines."""
    batch, ends, filler = _reading_batch(corpus)
    n = len(corpus.facts)
    with torch.no_grad():
        logits = model(batch)
        p = torch.cat([logits[i * n : (i + 1) * n, end] for i, end in enumerate(ends)]).softmax(-1)
        lines = logits[2 * n :, : filler.shape[1] - 1]
        loss = F.cross_entropy(lines.transpose(1, 2), filler[:, 1:], ignore_index=0)
    return p, p[: len(corpus.facts)].argmax(-1).numpy(), float(loss)


unedited_reading = lru_cache(maxsize=4)(read)  # the model an edit starts from, read once


def neighbours(corpus: Corpus, fact: int) -> list[int]:
    """The facts of other entities with the same relation and the same answer (CounterFact's
    neighbourhood): none for a capital, whose answer no other entity shares."""
    target = corpus.facts[fact]
    return [i for i, f in enumerate(corpus.facts) if i != fact and f.relation == target.relation
            and f.answer == target.answer]  # fmt: skip


def answer_ids(corpus: Corpus, fact: int, new: str) -> tuple[int, int, int, int]:
    """The ids of the old and the new answer of an edit of ``fact`` to ``new``: after the first
    phrasing, then after the paraphrase, in the paraphrase's words (another language's, lesson 9)."""
    in_other = {f.answer: f.paraphrase_answer for f in corpus.facts}  # its word after a paraphrase
    old = corpus.facts[fact].answer
    old_id, new_id, old_2, new_2 = corpus.encode([old, new, in_other[old], in_other[new]])
    return old_id, new_id, old_2, new_2


def measure(
    model: LanguageModel, edited: LanguageModel, corpus: Corpus, fact: int, new: str
) -> tuple[np.ndarray, np.ndarray]:
    """One edit, measured: ``METRICS`` (len(METRICS),), neighbourhood NaN without neighbours; and
    which facts' top word (first phrasing) it changed, (facts,)."""
    return measured(read(edited, corpus), unedited_reading(model, corpus), corpus, fact, new)


def measured(reading: tuple, before: tuple, corpus: Corpus, fact: int, new: str):
    """``measure`` from an edited model's ``read`` and the unedited model's."""
    (p, top, loss), (_, top_before, loss_before) = reading, before
    n, (old_id, new_id, old_2, new_2) = len(corpus.facts), answer_ids(corpus, fact, new)
    target = corpus.facts[fact]
    others = [i for i, f in enumerate(corpus.facts) if f.relation == target.relation and i != fact]
    siblings = [i for i, f in enumerate(corpus.facts) if f.entity == target.entity and i != fact]
    near, far = neighbours(corpus, fact), [n + i for i in neighbours(corpus, fact)]
    kept_by_phrasing = (p[near, old_id] > p[near, new_id], p[far, old_2] > p[far, new_2])
    kept = torch.cat(kept_by_phrasing).double().mean().item() if near else float("nan")
    metrics = np.array([
        p[fact, new_id], p[fact, old_id], p[n + fact, new_2], p[n + fact, old_2],
        p[fact, new_id] > p[fact, old_id], top[fact] == new_id,
        p[n + fact, new_2] > p[n + fact, old_2], p[n + fact].argmax() == new_2, kept,
        (top[others] == top_before[others]).mean(), (top[siblings] == top_before[siblings]).mean(),
        loss - loss_before,
    ], dtype=float)  # fmt: skip
    return metrics, top != top_before


# ---- many edited copies of one model read at once (lesson 6's sweep)


def read_changed(
    model: LanguageModel, corpus: Corpus, changes: dict[int, torch.Tensor], filler: bool = True
) -> list[tuple[torch.Tensor, np.ndarray, float]]:
    """``read`` of every copy of ``model`` whose layer l's W2 is W2 + ``changes[l][r]``
    (copies, d_model, d_ff), in one forward pass through the hook points: one reading each.
    ``filler=False`` leaves the filler lines out (their loss NaN): the prompts alone, at a
    fraction of the cost, where fluency is not asked."""
    batch, ends, lines_of_filler = _reading_batch(corpus)
    n = len(corpus.facts)
    if not filler:
        batch = batch[: 2 * n, : max(ends) + 1]
    copies, lines = len(next(iter(changes.values()))), len(batch)
    with torch.no_grad(), changed_w2(model, changes, lines):
        logits = model(batch.repeat(copies, 1)).view(copies, lines, *batch.shape[1:], -1)
    p = torch.cat([logits[:, i * n : (i + 1) * n, end] for i, end in enumerate(ends)], dim=1)
    p = p.softmax(-1)  # (copies, 2 n, vocab)
    loss = torch.full((copies,), float("nan"), dtype=p.dtype)
    if filler:
        targets = lines_of_filler[:, 1:]
        tokens = F.cross_entropy(
            logits[:, 2 * n :, : targets.shape[1]].flatten(0, 1).transpose(1, 2),
            targets.repeat(copies, 1), ignore_index=0, reduction="none",
        )  # fmt: skip
        loss = tokens.view(copies, -1).sum(dim=1) / (targets != 0).sum()
    return [(p[r], p[r, :n].argmax(-1).numpy(), float(loss[r])) for r in range(copies)]


def measure_changed(
    model: LanguageModel, corpus: Corpus, fact: int, new: str, changes: dict[int, torch.Tensor]
) -> tuple[np.ndarray, np.ndarray]:
    """``measure`` of the edit of ``fact`` to ``new`` made as each copy of ``changes`` (see
    ``read_changed``): metrics (copies, len(METRICS)), top words changed (copies, facts)."""
    before = unedited_reading(model, corpus)
    rows = [measured(r, before, corpus, fact, new) for r in read_changed(model, corpus, changes)]
    return np.array([m for m, _ in rows]), np.array([c for _, c in rows])


def weakest_reaching(p_new: np.ndarray, target: float) -> np.ndarray:
    """For each edit, the index of the weakest strength whose p(new) reaches ``target``, or the
    strongest if none does: ``p_new`` (edits, strengths) -> (edits,)."""
    reached = p_new >= target
    return np.where(reached.any(axis=1), reached.argmax(axis=1), p_new.shape[1] - 1)


def first_reaching(results: np.ndarray, target: float) -> tuple[np.ndarray, np.ndarray]:
    """Each edit at the weakest strength whose p(new) reaches ``target``, from one method's
    measurements (edits, strengths, len(METRICS)): its measurements (edits, len(METRICS)) and
    whether it reached the target at all (edits,); an edit that never does is taken at the
    strongest."""
    p_new = results[..., METRICS.index("p(new)")]  # (edits, strengths)
    index = weakest_reaching(p_new, target)
    return results[np.arange(len(index)), index], (p_new >= target).any(axis=1)


def counterfact(rows: np.ndarray) -> dict[str, float]:
    """CounterFact's scores from edits' measurements (edits, len(METRICS)), in percent: efficacy
    ES, paraphrase PS, neighbourhood NS (over the edits that have neighbours) and their harmonic
    mean S, as Meng et al.'s evaluation code computes them."""
    column = {name: rows[:, METRICS.index(name)] for name in METRICS}
    es, ps = 100 * column["efficacy"].mean(), 100 * column["paraphrase"].mean()
    ns = 100 * np.nanmean(column["neighbourhood"])
    parts = (es, ps, ns)
    s = 0.0 if min(parts) == 0 else 3 / sum(1 / x for x in parts)
    return {"S": float(s), "ES": float(es), "PS": float(ps), "NS": float(ns)}


def interpolated(results: np.ndarray, target: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each edit read at p(new) = ``target`` along its own sweep, from one method's measurements
    (edits, strengths, len(METRICS)), weakest first: between the first two neighbouring
    strengths whose p(new) brackets the target, every measure interpolated linearly in p(new).
    Returns the rows (edits, len(METRICS)), NaN for an edit that never reaches the target;
    whether it does (edits,); and the bracket's width in p(new) (edits,), how far apart the two
    strengths read are (0 where the weakest already reaches it)."""
    p_new = results[..., METRICS.index("p(new)")]  # (edits, strengths)
    reached = (p_new >= target).any(axis=1)
    high = (p_new >= target).argmax(axis=1)  # the first strength at or past the target
    low = np.maximum(high - 1, 0)
    edits = np.arange(len(results))
    p_low, p_high = p_new[edits, low], p_new[edits, high]
    width = p_high - p_low
    t = np.divide(target - p_low, width, out=np.ones_like(width), where=width > 0)
    rows = results[edits, low] + t[:, None] * (results[edits, high] - results[edits, low])
    rows[~reached] = np.nan
    return rows, reached, np.where(reached, width, np.nan)


def p_after_changed(
    model: LanguageModel,
    prompts: torch.Tensor,
    answers: torch.Tensor,
    changes: dict[int, torch.Tensor],
) -> np.ndarray:
    """p(``answers[r]``) after ``prompts[r]`` (copies, L) in the copy of ``model`` whose layer
    l's W2 is W2 + ``changes[l][r]``: (copies,). A fraction of ``read_changed``'s work, where
    only the edited prompt's p(new) is asked (to find the strength that reaches a target)."""
    with torch.no_grad(), changed_w2(model, changes):
        p = model(prompts)[:, -1].softmax(-1)
    return p[torch.arange(len(prompts)), answers].numpy()
