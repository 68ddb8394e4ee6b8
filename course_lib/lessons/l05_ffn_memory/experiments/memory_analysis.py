"""Lesson 5's readings of the trained FFNs' values beyond ``experiments.memory``: Geva et al.'s
agreement rate, whether the units that fire on a prompt promote its answer (against each relation's
own control), the controls for erasing a fact's units, the ReLU units a hair from switching, and
one prompt's next-token distribution under an edit (the demo's data). The keys are read in
``keys``."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import _answer_log_probs, scale_units
from course_lib.core.experiments.statistics import holm_rejects
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l05_ffn_memory.experiments.keys import prefix_activations


@dataclass(frozen=True)
class ValueAgreement:
    """Geva et al. 2021's agreement rate, per layer: the fraction of units whose value's top token
    (read through the output embedding) is the next word after the unit's top trigger prefix in
    the corpus, against chance (a random top token: the trigger's next words over the
    vocabulary, averaged over units)."""

    rate: np.ndarray  # (layers,)
    chance: np.ndarray  # (layers,)
    units: int  # per layer
    null: np.ndarray  # (layers,): each unit's value against every other unit's top trigger

    def rise(self) -> tuple[float, float, float]:
        """The rate's change from the first layer to the last and its 95 % interval (normal
        approximation for two proportions of ``units`` each): (change, low, high)."""
        a, b = self.rate[0], self.rate[-1]
        half = 1.96 * np.sqrt((a * (1 - a) + b * (1 - b)) / self.units)
        return float(b - a), float(b - a - half), float(b - a + half)

    def rise_power(self, effect: float) -> float:
        """The probability that the interval of ``rise`` excludes 0 when the true change is
        ``effect`` (a fraction, e.g. 0.035 for 3.5 points), with the standard error ``rise``
        uses: the test's power against a change of that size (two-sided, 5 %)."""
        if not -1 <= effect <= 1:
            raise ValueError(f"effect must be a change of a rate, in [-1, 1], got {effect!r}")
        _, low, high = self.rise()
        error = (high - low) / (2 * 1.96)
        normal = statistics.NormalDist()
        return normal.cdf(effect / error - 1.96) + normal.cdf(-effect / error - 1.96)


@torch_threads(1)
def value_agreement(model: LanguageModel, corpus: Corpus) -> ValueAgreement:
    """For every unit of every layer: its top trigger among the prefixes that a word follows, and
    whether its value's top token is one of the words that follow that prefix in the corpus.
    ``null``: the same test with each unit's value paired with another unit's trigger, averaged
    over every such pair (a shuffle, exact), which keeps the words' frequencies that uniform
    ``chance`` ignores."""
    acts = prefix_activations(model, corpus)
    following: dict[tuple[str, ...], set[str]] = {}
    for line in torch.unique(corpus.tokens(), dim=0):
        words = corpus.decode(line[1 : int((line != 0).sum())])  # <bos> and padding left out
        for end in range(1, len(words)):
            following.setdefault(tuple(words[:end]), set()).add(words[end])
    has_next = np.array([prefix in following for prefix in acts.prefixes])
    values = np.where(has_next[None, :, None], acts.values, -np.inf)  # (layers, prefixes, d_ff)
    top = values.argmax(axis=1)  # (layers, d_ff): each unit's top trigger
    rate, chance, null = [], [], []
    for layer in range(values.shape[0]):
        with torch.no_grad():
            predicted = corpus.decode(model.value_logits(layer).argmax(dim=-1))
        nexts = [following[acts.prefixes[i]] for i in top[layer]]
        agree = np.array([[w in n for n in nexts] for w in predicted])  # value i, trigger j
        rate.append(float(np.trace(agree)) / len(agree))
        null.append((agree.sum() - np.trace(agree)) / (agree.size - len(agree)))
        chance.append(np.mean([len(n) for n in nexts]) / model.vocab_size)
    return ValueAgreement(np.array(rate), np.array(chance), values.shape[2], np.array(null))


@dataclass(frozen=True)
class Promotion:
    """Facts whose answer is among the ``top_tokens`` tokens promoted by at least one of the
    ``firing`` units that fire most on the prompt, against the count expected by chance."""

    layer: int
    firing: int
    top_tokens: int
    hits: int
    facts: int
    chance: float  # random value vectors: top_tokens of the whole vocabulary
    control: float  # expected hits of the units firing on another entity's prompt, same relation
    by_relation: dict[str, tuple[int, int]]  # relation -> (hits, facts)
    control_by_relation: dict[str, float]  # relation -> its facts' control, summed


@torch_threads(1)
def firing_units_promote_answers(
    model: LanguageModel, corpus: Corpus, layer: int, firing: int = 1, top_tokens: int = 10
) -> Promotion:
    """Keys chosen by activation alone (no gradient), values read through the output embedding:
    do the units that fire most on a fact's prompt promote its answer? Chance: the same test with
    random value vectors' top tokens, 1 - (1 - top_tokens / vocab) ** firing per fact. Control:
    the units firing most on another entity's prompt of the same relation (a colour unit's top
    tokens hold many colours), averaged over those prompts."""
    model.check_unit(layer)
    prompts, answers = corpus.prompts()
    with torch.no_grad():
        hidden = model.ffn_hidden(prompts)[layer, :, -1]  # (facts, d_ff)
        promoted = model.value_logits(layer).topk(positive_int("top_tokens", top_tokens)).indices
    units = hidden.topk(positive_int("firing", firing), dim=-1).indices  # (facts, firing)
    # holds[j, i]: the units firing most on prompt j promote fact i's answer
    holds = (promoted[units][:, None] == answers[None, :, None, None]).any(-1).any(-1)
    hits = holds.diagonal()
    facts = corpus.facts
    each = []  # per fact: its expected hits under the control
    for i, fact in enumerate(facts):
        others = [j for j, f in enumerate(facts) if f.relation == fact.relation and j != i]
        others = [j for j in others if facts[j].entity != fact.entity]
        each.append(float(holds[others, i].double().mean()))
    relations = dict.fromkeys(f.relation for f in facts)
    control_by_relation = {
        r: sum(c for c, f in zip(each, facts, strict=True) if f.relation == r) for r in relations
    }
    by_relation = {
        relation: (
            int(sum(bool(hits[i]) for i, f in enumerate(facts) if f.relation == relation)),
            sum(f.relation == relation for f in facts),
        )
        for relation in relations
    }
    chance = len(answers) * (1 - (1 - top_tokens / model.vocab_size) ** firing)
    return Promotion(layer, firing, top_tokens, int(hits.sum()), len(answers), chance, sum(each),
                     by_relation, control_by_relation)  # fmt: skip


def hits_needed(control: float, facts: int, alpha: float = 0.05) -> int:
    """The fewest hits of ``facts`` that a one-sided binomial test, at the control's rate
    (``control / facts`` a fact), calls above the control at level ``alpha``: how strong an effect
    the test can see."""
    rate = control / facts
    tail = 1.0  # P(X >= k)
    for k in range(facts + 1):
        if tail <= alpha:
            return k
        tail -= math.comb(facts, k) * rate**k * (1 - rate) ** (facts - k)
    return facts + 1


def binomial_tail(hits: int, control: float, facts: int) -> float:
    """The one-sided binomial p-value of ``hits`` of ``facts`` at the control's rate (``control /
    facts`` a fact): the probability of at least ``hits`` if only the control were at work."""
    rate = control / facts
    return sum(math.comb(facts, k) * rate**k * (1 - rate) ** (facts - k)
               for k in range(hits, facts + 1))  # fmt: skip


def holm(p_values, alpha: float = 0.05) -> np.ndarray:
    """Which of ``p_values`` pass Holm's correction at family level ``alpha``: (m,) booleans
    (the course's one definition, ``core.experiments.statistics``)."""
    return holm_rejects(p_values, alpha)


def detection_power(control: float, facts: int, rate: float, alpha: float = 0.05) -> float:
    """The probability that the test of ``hits_needed`` calls the hits above the control when each
    fact is hit with probability ``rate``: the test's power against that effect."""
    if not 0 <= rate <= 1:
        raise ValueError(f"rate must be a probability in [0, 1], got {rate!r}")
    needed = hits_needed(control, facts, alpha)
    return sum(
        math.comb(facts, k) * rate**k * (1 - rate) ** (facts - k) for k in range(needed, facts + 1)
    )


def relation_average(change: np.ndarray, p_before: np.ndarray, corpus: Corpus) -> float:
    """Dai et al.'s average of a relative change: per relation, the mean change of p over the mean
    p before (their code's ave_delta_ratio), then the mean over relations. ``change``: each fact's
    p_after / p_before - 1, ``p_before``: (facts,)."""
    relations = [f.relation for f in corpus.facts]
    delta, p = np.asarray(change) * np.asarray(p_before), np.asarray(p_before)
    ratios = []
    for relation in dict.fromkeys(relations):
        rows = [r == relation for r in relations]
        ratios.append(delta[rows].mean() / p[rows].mean())
    return float(np.mean(ratios))


@torch_threads(1)
def near_kinks(model: LanguageModel, corpus: Corpus, within: float = 1e-7) -> int:
    """How many FFN units, over both layers and every prompt, have their input x W1 + b1 within
    ``within`` of zero at the prompt's last word: units a change that small switches on or off.
    The input is read from the stream at ``layers.i.hook_resid_mid``, through the block's
    LayerNorm and W1."""
    prompts, _ = corpus.prompts()
    names = [f"layers.{i}.hook_resid_mid" for i in range(len(model.layers))]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=names)
        near = 0
        for layer, name in zip(model.layers, names, strict=True):
            inputs = layer.ffn.linear1(layer.sublayers[1].norm(cache[name][:, -1]))
            near += int((inputs.abs() < within).sum())
    return near


def _own_changes(model: LanguageModel, corpus: Corpus, chosen: list, factor: float) -> np.ndarray:
    """Each fact's relative change of p(answer) when its units ``chosen[fact]`` (flat indices over
    layers x d_ff) are scaled by ``factor`` at the last word: (facts,)."""
    before = _answer_log_probs(model, corpus).exp()
    changes = []
    for i, flat in enumerate(chosen):
        units = [divmod(int(u), model.d_ff) for u in flat]
        after = _answer_log_probs(model, corpus, scale_units(units, factor)).exp()
        changes.append(float(after[i] / before[i] - 1))
    return np.array(changes)


@torch_threads(1)
def random_unit_effects(
    model: LanguageModel, corpus: Corpus, count: int = 5, factor: float = 0.0, seed: int = 0
) -> np.ndarray:
    """The control for knowledge neurons: each fact's relative change of p(answer) when ``count``
    units drawn at random (seeded) among those that fire at its prompt's last word, over both
    layers, are scaled by ``factor``: (facts,). (A unit that does not fire there would change
    nothing: drawn from all units, about half the draw would be idle.)"""
    rng = np.random.default_rng(seed)
    prompts, _ = corpus.prompts()
    with torch.no_grad():
        active = model.ffn_hidden(prompts)[:, :, -1].permute(1, 0, 2).flatten(1)  # (facts, units)
        chosen = [rng.choice(np.flatnonzero(row.numpy() > 0), positive_int("count", count),
                             replace=False) for row in active]  # fmt: skip
        return _own_changes(model, corpus, chosen, factor)


@torch_threads(1)
def active_unit_effects(
    model: LanguageModel, corpus: Corpus, count: int = 5, factor: float = 0.0
) -> np.ndarray:
    """A baseline after Dai et al.'s: each fact's relative change of p(answer) when its ``count``
    most active units at the prompt's last word (over both layers) are scaled by ``factor``, units
    chosen by activation instead of attribution: (facts,)."""
    prompts, _ = corpus.prompts()
    with torch.no_grad():
        active = model.ffn_hidden(prompts)[:, :, -1]  # (layers, facts, d_ff)
        flat = active.permute(1, 0, 2).reshape(len(corpus.facts), -1)  # (facts, layers x d_ff)
        chosen = flat.topk(positive_int("count", count), dim=1).indices
        return _own_changes(model, corpus, chosen, factor)


def top_units(scores: torch.Tensor, fact: int, n: int) -> list[tuple[int, int]]:
    """The ``n`` (layer, unit) pairs with the highest attribution for ``fact``; ``scores`` is
    ``attributions(model, corpus)``, (facts, layers, d_ff)."""
    d_ff = scores.shape[-1]
    return [divmod(int(u), d_ff) for u in scores[fact].flatten().topk(positive_int("n", n)).indices]


@torch_threads(1)
def next_token_probabilities(
    model: LanguageModel, corpus: Corpus, fact: int, units: list[tuple[int, int]], scale: float
) -> tuple[np.ndarray, np.ndarray]:
    """p(next word | fact's prompt) as trained and with ``units`` scaled by ``scale`` at the last
    word: two (vocab,) arrays."""
    prompt = corpus.prompts()[0][fact : fact + 1]
    with torch.no_grad():
        before = model(prompt)[0, -1].softmax(-1)
        after = model.run_with_hooks(prompt, fwd_hooks=scale_units(units, scale))[0, -1].softmax(-1)
    return before.numpy(), after.numpy()
