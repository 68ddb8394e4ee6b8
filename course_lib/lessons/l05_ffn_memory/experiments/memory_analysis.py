"""Lesson 5's readings of the trained FFNs beyond ``experiments.memory``: every unit's trigger
prefixes at once, a rule that sorts keys into shallow (a token) and semantic (a relation or an
entity) patterns, whether the units that fire on a prompt promote its answer, a random-unit
control for erasing, and one prompt's next-token distribution under an edit (the demo's data).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np
import torch

from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import RELATIONS, Corpus
from course_lib.core.experiments.memory import Settings, _answer_log_probs, build_model, scale_units
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads

PATTERNS = ("token", "relation", "entity", "mixed")  # token: shallow; relation, entity: semantic


@dataclass(frozen=True)
class PrefixActivations:
    """Every distinct corpus prefix (<bos> left out) and each FFN unit's activation at its last
    word: ``values`` (layers, prefixes, d_ff)."""

    prefixes: tuple[tuple[str, ...], ...]
    values: np.ndarray

    def triggers(self, layer: int, unit: int, k: int = 5) -> list[tuple[str, ...]]:
        """The ``k`` prefixes that fire ``unit`` of ``layer`` most, strongest first."""
        order = np.argsort(-self.values[layer, :, unit], kind="stable")[: positive_int("k", k)]
        return [self.prefixes[i] for i in order]


@torch_threads(1)  # a tiny model: waking other threads costs more than it saves
def prefix_activations(model: LanguageModel, corpus: Corpus) -> PrefixActivations:
    """One forward pass over the distinct lines; a causal model's activation at a word depends on
    its prefix only, so each distinct prefix is read once."""
    tokens = torch.unique(corpus.tokens(), dim=0)  # (lines, L)
    with torch.no_grad():
        hidden = model.ffn_hidden(tokens)  # (layers, lines, L, d_ff)
    where: dict[tuple[str, ...], tuple[int, int]] = {}
    for line in range(tokens.shape[0]):
        for position in range(1, int((tokens[line] != 0).sum())):
            where.setdefault(tuple(corpus.decode(tokens[line, 1 : position + 1])), (line, position))
    lines, positions = (torch.tensor(v) for v in zip(*where.values(), strict=True))
    return PrefixActivations(tuple(where), hidden[:, lines, positions].numpy())


def pattern_of(triggers: list[tuple[str, ...]], entities: set[str], share: float = 0.6) -> str:
    """The rule: "relation" if at least ``share`` of the triggers state the same relation (the
    word after "the" in "the capital of ..."); else "entity" if as many name the same entity
    before their last word; else "token" (shallow) if as many end in the same word; else "mixed"."""

    def commonest_share(labels: list[str | None]) -> float:
        label, count = Counter(labels).most_common(1)[0]
        return 0.0 if label is None else count / len(labels)

    relation = [next((w for w in t if w in RELATIONS), None) for t in triggers]
    entity = [next((w for w in t[:-1] if w in entities), None) for t in triggers]
    for name, labels in (("relation", relation), ("entity", entity)):
        if commonest_share(labels) >= share:
            return name
    return "token" if commonest_share([t[-1] for t in triggers]) >= share else "mixed"


def classify_units(
    model: LanguageModel, corpus: Corpus, k: int = 5, share: float = 0.6
) -> np.ndarray:
    """Each unit's pattern (one of ``PATTERNS``) from its top-``k`` trigger prefixes:
    (layers, d_ff) of str."""
    acts = prefix_activations(model, corpus)
    entities = {f.entity for f in corpus.facts}
    layers, d_ff = acts.values.shape[0], acts.values.shape[2]
    return np.array(
        [
            [pattern_of(acts.triggers(i, u, k), entities, share) for u in range(d_ff)]
            for i in range(layers)
        ]
    )


def pattern_counts(patterns: np.ndarray) -> np.ndarray:
    """How many units of each layer have each pattern of ``PATTERNS``: (layers, 4), from
    ``classify_units``' (layers, d_ff)."""
    return np.array([[int((row == p).sum()) for p in PATTERNS] for row in patterns])


def untrained_pattern_counts(
    settings: Settings, corpus: Corpus, seeds: tuple[int, ...], k: int = 5, share: float = 0.6
) -> np.ndarray:
    """The rule's counts on the same corpus for untrained models, the initial weights drawn from
    each of ``seeds`` (``settings.seed`` is the trained model's own starting point): (seeds,
    layers, 4). What the rule finds in random weights is what training cannot take credit for."""
    return np.array(
        [
            pattern_counts(
                classify_units(
                    build_model(replace(settings, seed=seed), len(corpus.vocabulary)),
                    corpus,
                    k,
                    share,
                )  # fmt: skip
            )
            for seed in seeds
        ]
    )


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
        after = model(prompt, scale_units(units, scale))[0, -1].softmax(-1)
    return before.numpy(), after.numpy()
