"""A corpus of invented facts for lesson 5: "the capital of velor is quen ." and filler sentences.

Everything comes from one seed: the invented names, each entity's attributes, the filler and the
order of the lines. One line is one sentence, ``<bos> word ... .``, padded with ``<pad>`` to
``MAX_LEN`` tokens, tokenised at the word level over a small fixed vocabulary. Each fact appears
``repeats`` times, so it can be learned, and is tested by its prompt: "the capital of velor is"
-> "quen".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core._validate import integer, positive_int
from course_lib.core.i18n import N_

PAD, BOS = "<pad>", "<bos>"
MAX_LEN = 12  # tokens per line, <bos> included: the model's context

# The shared answers of three relations; the capital is an invented city, one per entity.
COLOURS = ("red", "blue", "green", "teal", "amber", "grey", "white", "black")
ANIMALS = ("fox", "owl", "bear", "wolf", "hare", "crow", "deer", "lynx")
FOODS = ("bread", "rice", "fish", "plums", "cheese", "beans", "figs", "honey")
RELATIONS = (N_("capital"), N_("colour"), N_("animal"), N_("food"))  # marked: plots name them
# Filler: every slot is drawn afresh for each line, so a filler line teaches grammar, not a fact.
ADJECTIVES = ("small", "large", "quiet", "old", "cold", "warm", "busy", "far")
SEASONS = ("spring", "summer", "autumn", "winter")
FILLER_TEMPLATES = (
    "we walked to {entity} in the {season} .",
    "{entity} is a {adjective} land .",
    "people in {entity} like {food} .",
    "the {animal} eats {food} by the river .",
    "a {colour} {animal} sleeps in the {season} .",
    "the road to {entity} is {adjective} .",
)
_ONSETS = ("b", "br", "d", "dr", "g", "k", "kr", "l", "m", "n", "p", "qu", "r", "s", "t", "v", "z")
_VOWELS = ("a", "e", "i", "o", "u", "ae", "ou")
_CODAS = ("", "l", "n", "r", "sk", "th", "x", "m")


@dataclass(frozen=True)
class Fact:
    """One attribute of one entity: the prompt's words and the answer word."""

    entity: str
    relation: str
    answer: str

    @property
    def prompt(self) -> tuple[str, ...]:
        """("the", relation, "of", entity, "is"): the answer is the next word."""
        return ("the", self.relation, "of", self.entity, "is")

    @property
    def subject_positions(self) -> tuple[int, ...]:
        """Where the subject's tokens stand in the prompt's tensor, <bos> counted: (4,) for "<bos>
        the capital of velor is". A fact whose prompt spells its subject in several tokens (lesson
        9's "<bos> 图 门 的 首 都 是", (1, 2)) overrides it; tracing corrupts these, edits write there."""
        return (1 + self.prompt.index(self.entity),)

    @property
    def sentence(self) -> tuple[str, ...]:
        return (*self.prompt, self.answer, ".")

    @property
    def paraphrase(self) -> tuple[str, ...]:
        """("in", entity, "the", relation, "is"): the same fact in other words, the subject second
        (a corpus made with ``paraphrases=True`` states each fact both ways)."""
        return ("in", self.entity, "the", self.relation, "is")

    @property
    def paraphrased_sentence(self) -> tuple[str, ...]:
        return (*self.paraphrase, self.paraphrase_answer, ".")

    @property
    def paraphrase_answer(self) -> str:
        """The answer word after the paraphrase: the same word (a fact stated in another language
        answers in its own words, lesson 9)."""
        return self.answer


@dataclass(frozen=True)
class Corpus:
    """The lines (words, without <bos> and padding), the facts they state and the vocabulary."""

    seed: int
    lines: tuple[tuple[str, ...], ...]
    facts: tuple[Fact, ...]
    vocabulary: tuple[str, ...]  # index = token id; PAD is 0, BOS is 1

    def encode(self, words: tuple[str, ...] | list[str]) -> list[int]:
        """Words -> token ids; an unknown word raises, naming it."""
        index = {word: i for i, word in enumerate(self.vocabulary)}
        unknown = [w for w in words if w not in index]
        if unknown:
            raise ValueError(f"words must be in the corpus' vocabulary, got unknown {unknown}")
        return [index[w] for w in words]

    def decode(self, ids) -> list[str]:
        """Token ids -> words."""
        return [self.vocabulary[int(i)] for i in ids]

    def tokens(self) -> torch.Tensor:
        """Every line as <bos> + words, padded with <pad> (id 0): (lines, MAX_LEN) int64."""
        rows = [self.encode((BOS, *line)) for line in self.lines]
        return torch.tensor([row + [0] * (MAX_LEN - len(row)) for row in rows], dtype=torch.int64)

    def prompts(self, paraphrased: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        """The facts' prompts, <bos> + 5 words, (facts, 6) int64, and their answers' ids (facts,);
        ``paraphrased``: the prompts "in velor the capital is" instead."""
        prompts = torch.tensor(
            [self.encode((BOS, *(f.paraphrase if paraphrased else f.prompt))) for f in self.facts]
        )
        words = [f.paraphrase_answer if paraphrased else f.answer for f in self.facts]
        return prompts, torch.tensor(self.encode(words))


def _names(rng: np.random.Generator, n: int, taken: set[str]) -> list[str]:
    """``n`` distinct invented two-syllable words (velor, brask, ...), none of them in ``taken``."""
    names: list[str] = []
    while len(names) < n:
        parts = [
            _ONSETS[rng.integers(len(_ONSETS))]
            + _VOWELS[rng.integers(len(_VOWELS))]
            + (_CODAS[rng.integers(len(_CODAS))] if i == 1 else "")
            for i in range(2)
        ]
        name = "".join(parts)
        if name not in taken and 4 <= len(name) <= 7:
            names.append(name)
            taken.add(name)
    return names


def _filler(rng: np.random.Generator, entities: list[str]) -> tuple[str, ...]:
    """One filler sentence, every slot drawn at random."""
    template = FILLER_TEMPLATES[rng.integers(len(FILLER_TEMPLATES))]
    slots = {"entity": entities, "season": SEASONS, "adjective": ADJECTIVES}
    slots |= {"food": FOODS, "animal": ANIMALS, "colour": COLOURS}
    words = {name: values[rng.integers(len(values))] for name, values in slots.items()}
    return tuple(template.format(**words).split())


def vocabulary_of(entities: list[str], cities: list[str]) -> tuple[str, ...]:
    """The fixed vocabulary: <pad>, <bos>, then the template words and word lists, then names."""
    template_words = [w for w in " ".join(FILLER_TEMPLATES).split() if not w.startswith("{")]
    words = ["the", "of", "is", ".", *RELATIONS, *COLOURS, *ANIMALS, *FOODS, *ADJECTIVES]
    fixed = list(dict.fromkeys([*words, *SEASONS, *template_words]))
    return (PAD, BOS, *fixed, *entities, *cities)


def make_corpus(
    seed: int = 0,
    n_entities: int = 12,
    repeats: int = 4,
    filler_per_fact: float = 1.0,
    paraphrases: bool = False,
) -> Corpus:
    """Invented entities with four attributes each, every fact stated ``repeats`` times (and as
    many times paraphrased, "in velor the capital is quen .", if ``paraphrases``), and
    ``filler_per_fact`` filler lines per fact line, shuffled together; the same seed, the same
    corpus. Capitals are unique per entity; colours, animals and foods are shared. The paraphrase
    uses no new word: both corpora share one vocabulary."""
    if not isinstance(paraphrases, bool):
        raise TypeError(f"paraphrases must be True or False, got {paraphrases!r}")
    positive_int("n_entities", n_entities)
    positive_int("repeats", repeats)
    integer("seed", seed)
    if isinstance(filler_per_fact, bool) or not isinstance(filler_per_fact, (int, float)):
        raise TypeError(f"filler_per_fact must be a number in [0, 10], got {filler_per_fact!r}")
    if not 0 <= filler_per_fact <= 10:
        raise ValueError(f"filler_per_fact must be a number in [0, 10], got {filler_per_fact!r}")
    rng = np.random.default_rng(seed)
    fixed_words = set(vocabulary_of([], []))
    entities = _names(rng, n_entities, fixed_words)
    cities = _names(rng, n_entities, fixed_words)  # fixed_words now holds the entities too
    shared = {"colour": COLOURS, "animal": ANIMALS, "food": FOODS}
    facts = []
    for i, entity in enumerate(entities):
        facts.append(Fact(entity, "capital", cities[i]))
        for relation, values in shared.items():
            facts.append(Fact(entity, relation, values[rng.integers(len(values))]))
    fact_lines = [f.sentence for f in facts for _ in range(repeats)]
    if paraphrases:
        fact_lines += [f.paraphrased_sentence for f in facts for _ in range(repeats)]
    n_filler = round(filler_per_fact * len(fact_lines))
    lines = fact_lines + [_filler(rng, entities) for _ in range(n_filler)]
    order = rng.permutation(len(lines))
    return Corpus(
        seed=seed,
        lines=tuple(lines[i] for i in order),
        facts=tuple(facts),
        vocabulary=vocabulary_of(entities, cities),
    )


def majority_baseline(corpus: Corpus) -> float:
    """The fact accuracy of guessing each relation's most common answer, knowing no entity."""
    hits = 0
    for relation in RELATIONS:
        answers = [f.answer for f in corpus.facts if f.relation == relation]
        hits += max(answers.count(a) for a in set(answers))
    return hits / len(corpus.facts)
