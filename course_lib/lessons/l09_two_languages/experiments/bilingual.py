"""Lesson 5's 48 facts stated in English and in Chinese: one corpus, one vocabulary, two languages.

English is tokenised by word, as in lesson 5; Chinese by character, as Chinese text is by most
tokenizers built for it. Every invented name gets a two-character Chinese form (a transliteration,
``ENTITIES`` and ``CAPITALS``, none a real place or word), every relation the word a Chinese text
would use of a country (首都, 代表色, 国兽, 特产) and every shared answer its Chinese word
(``ANSWERS``). A Chinese fact reads "图蒙的代表色是红色。" (<bos> 图 蒙 的 代 表 色 是 | 红 ...): the
subject comes first, where English puts it fourth. Its answer token is the first character of the
Chinese word; the first characters differ within each relation, so that one token tells the
answers apart, as one English word does. A Chinese prompt is 6 or 7 characters long (代表色 has
three), so Chinese prompts are read in groups of one length (``prompt_groups``).

``bilingual_corpus`` holds lesson 5's English lines (each fact 4 times, as much filler) and as many
Chinese lines made the same way, shuffled together. ``split_corpus`` teaches each fact in one of
four ways (``TAUGHT``): in both languages, in English only, in Chinese only, or in neither; which
way rotates with the seed, so that over four seeds every fact is taught each way once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import torch

from course_lib.core._validate import choice as one_of
from course_lib.core.experiments.facts import (
    ADJECTIVES,
    ANIMALS,
    COLOURS,
    FOODS,
    MAX_LEN,
    RELATIONS,
    SEASONS,
    Corpus,
    Fact,
    make_corpus,
)

LANGUAGES = ("en", "zh")
# The invented entities and capitals of lesson 5's corpus (seed 0), transliterated
ENTITIES = {
    "tumen": "图蒙", "babex": "巴贝", "quoumum": "阔穆", "runom": "鲁诺", "gaequar": "盖夸",
    "tobaeth": "托贝", "tebrou": "泰布", "nakor": "纳科", "kraba": "喀巴", "riloux": "里卢",
    "tuquim": "涂奎", "duraesk": "杜雷",
}  # fmt: skip
CAPITALS = {
    "kriloth": "克洛", "vavon": "瓦冯", "quugith": "屈吉", "pokaer": "波凯", "kougeth": "寇格",
    "pabrix": "帕布", "kraekex": "柯雷", "tabun": "塔本", "netom": "奈托", "sudrae": "索黎",
    "nizem": "尼曾", "brunoun": "博隆",
}  # fmt: skip
# what a Chinese text says of a country: its capital, its colour, its animal, its specialty
ZH_RELATIONS = {"capital": "首都", "colour": "代表色", "animal": "国兽", "food": "特产"}
ANSWERS = dict(
    zip(COLOURS, ("红色", "蓝色", "绿色", "青色", "琥珀色", "灰色", "白色", "黑色"), strict=True)
) | dict(
    zip(ANIMALS, ("狐狸", "猫头鹰", "熊", "狼", "野兔", "乌鸦", "鹿", "猞猁"), strict=True)
) | dict(
    zip(FOODS, ("面包", "大米", "鱼", "李子", "奶酪", "豆子", "无花果", "蜂蜜"), strict=True)
)  # fmt: skip
WORDS = {**ENTITIES, **CAPITALS, **ZH_RELATIONS, **ANSWERS}  # every English name -> Chinese
ZH_ADJECTIVES = dict(
    zip(ADJECTIVES, ("狭小", "辽阔", "安静", "古老", "寒冷", "温暖", "热闹", "遥远"), strict=True)
)
ZH_SEASONS = dict(zip(SEASONS, ("春天", "夏天", "秋天", "冬天"), strict=True))
# Lesson 5's six filler templates, in Chinese: a filler line states no fact
ZH_FILLER_TEMPLATES = (
    "我们{season}去了{entity}。",
    "{entity}是个{adjective}的地方。",
    "{entity}人爱吃{food}。",
    "{animal}在河边吃{food}。",
    "{season}有{colour}的{animal}。",
    "去{entity}的路很{adjective}。",
)
FULL_STOP = {"en": ".", "zh": "。"}
# How each fact is taught: in both languages, in one only, or in neither (the control)
TAUGHT = ("both", "en", "zh", "none")
SPLIT_SEEDS = (0, 1, 2, 3)  # the four rotations: every fact is taught each way once


def zh_prompt(entity: str, relation: str) -> tuple[str, ...]:
    """The Chinese prompt's characters, "图蒙的代表色是": the subject first, the answer next."""
    return (*entity, "的", *relation, "是")


@dataclass(frozen=True)
class StatedFact(Fact):
    """One fact stated in ``language`` (its entity, relation and answer in that language's words,
    the answer as its first token) and, as its paraphrase, in the other language."""

    language: str = "en"
    english: Fact | None = None  # the same fact, in lesson 5's English words

    def words(self, language: str) -> tuple[str, str, str]:
        """(entity, relation, answer word) in ``language``: Chinese forms are whole words."""
        f = self.english
        if language == "en":
            return f.entity, f.relation, f.answer
        return WORDS[f.entity], WORDS[f.relation], WORDS[f.answer]

    def _prompt(self, language: str) -> tuple[str, ...]:
        entity, relation, _ = self.words(language)
        return (
            ("the", relation, "of", entity, "is")
            if language == "en"
            else zh_prompt(entity, relation)
        )

    def _sentence(self, language: str) -> tuple[str, ...]:
        answer = self.words(language)[2]
        return (*self._prompt(language), *_tokens(answer, language), FULL_STOP[language])

    @property
    def other(self) -> str:
        return LANGUAGES[1 - LANGUAGES.index(self.language)]

    @property
    def prompt(self) -> tuple[str, ...]:
        return self._prompt(self.language)

    @property
    def sentence(self) -> tuple[str, ...]:
        return self._sentence(self.language)

    @property
    def subject_positions(self) -> tuple[int, ...]:
        """Where the subject's tokens sit in the prompt, <bos> counted: (4,) in English, (1, 2) in
        Chinese, where it comes first."""
        start = self.prompt.index(self.entity) if self.language == "en" else 0
        return tuple(
            range(1 + start, 1 + start + (1 if self.language == "en" else len(self.entity)))
        )

    @property
    def paraphrase(self) -> tuple[str, ...]:
        """The same fact asked in the other language."""
        return self._prompt(self.other)

    @property
    def paraphrased_sentence(self) -> tuple[str, ...]:
        return self._sentence(self.other)

    @property
    def paraphrase_answer(self) -> str:
        return _tokens(self.words(self.other)[2], self.other)[0]


def _tokens(words: str, language: str) -> tuple[str, ...]:
    """A word's tokens: itself in English, its characters in Chinese."""
    return (words,) if language == "en" else tuple(words)


def stated(fact: Fact, language: str) -> StatedFact:
    """``fact`` (lesson 5's, English) stated in ``language``."""
    one_of("language", language, LANGUAGES)
    english = Fact(fact.entity, fact.relation, fact.answer)
    entity, relation, answer = StatedFact("", "", "", "en", english).words(language)
    return StatedFact(entity, relation, _tokens(answer, language)[0], language, english)


def _zh_filler(rng: np.random.Generator, entities: list[str]) -> tuple[str, ...]:
    """One Chinese filler line, every slot drawn at random, as characters."""
    template = ZH_FILLER_TEMPLATES[rng.integers(len(ZH_FILLER_TEMPLATES))]
    slots = {"entity": entities, "season": list(ZH_SEASONS.values())}
    slots |= {"adjective": list(ZH_ADJECTIVES.values())}
    slots |= {name: [ANSWERS[w] for w in words] for name, words in
              (("food", FOODS), ("animal", ANIMALS), ("colour", COLOURS))}  # fmt: skip
    chosen = {name: values[rng.integers(len(values))] for name, values in slots.items()}
    return tuple(template.format(**chosen))


def dictionary_lines() -> list[tuple[str, ...]]:
    """A bilingual dictionary: every name, relation and answer with its Chinese form, both ways,
    twice ("tumen = 图 蒙 ." and "图 蒙 = tumen ."). It states no fact: it only links the words."""
    pairs = [((english,), tuple(chinese)) for english, chinese in WORDS.items()]
    return [
        (*a, "=", *b, ".") for en, zh in pairs for a, b in ((en, zh), (zh, en)) for _ in range(2)
    ]


@lru_cache(maxsize=4)
def bilingual_corpus(language: str = "en", seed: int = 0, dictionary: bool = False) -> Corpus:
    """Lesson 5's corpus (``make_corpus(seed)``) and its Chinese twin, shuffled together; its
    ``facts`` are the 48 facts stated in ``language`` (their paraphrase: the other language).
    The same lines and vocabulary for both languages: only which statement is "the fact" differs.
    ``dictionary``: the lines of ``dictionary_lines`` too, the languages' only link."""
    english = make_corpus(seed)
    unknown = sorted({f.entity for f in english.facts} - set(ENTITIES))
    if unknown:
        raise ValueError(f"seed must give lesson 5's entities (seed 0), got {seed!r}: {unknown}")
    facts = tuple(stated(f, language) for f in english.facts)
    rng = np.random.default_rng(seed + 1)  # the Chinese filler's own draws
    fact_lines = [stated(f, "zh").sentence for f in english.facts for _ in range(4)]
    n_filler = len(english.lines) - len(english.facts) * 4
    entities = [ENTITIES[e] for e in dict.fromkeys(f.entity for f in english.facts)]
    zh_lines = fact_lines + [_zh_filler(rng, entities) for _ in range(n_filler)]
    lines = list(english.lines) + zh_lines + (dictionary_lines() if dictionary else [])
    order = rng.permutation(len(lines))
    characters = sorted({c for line in zh_lines for c in line} - set(english.vocabulary))
    characters += ["="] if dictionary else []
    if max(len(line) for line in lines) >= MAX_LEN:
        raise ValueError(f"every line must fit in {MAX_LEN - 1} tokens after <bos>")
    return replace(
        english,
        lines=tuple(lines[i] for i in order),
        facts=facts,
        vocabulary=(*english.vocabulary, *characters),
    )


def in_language(corpus: Corpus, language: str) -> Corpus:
    """The same corpus with its facts stated in ``language``."""
    return replace(corpus, facts=tuple(stated(f.english, language) for f in corpus.facts))


# ---- each fact taught in one of four ways


def taught(seed: int) -> np.ndarray:
    """How each of the 48 facts is taught in the split of ``seed``: one of ``TAUGHT`` per fact,
    (48,). Entity i's relation r (in lesson 5's order) is taught the (i + r + seed) mod 4-th way,
    a Latin square: each way holds 3 facts of every relation and 1 of every entity."""
    if isinstance(seed, bool) or seed not in SPLIT_SEEDS:
        raise ValueError(f"seed must be one of {list(SPLIT_SEEDS)}, got {seed!r}")
    facts = make_corpus(0).facts
    entities = list(dict.fromkeys(f.entity for f in facts))
    ways = [TAUGHT[(entities.index(f.entity) + RELATIONS.index(f.relation) + seed) % 4]
            for f in facts]  # fmt: skip
    return np.array(ways)


def taught_in(seed: int, language: str) -> np.ndarray:
    """Which facts the split of ``seed`` teaches in ``language``: (48,) bool."""
    return np.isin(taught(seed), ("both", one_of("language", language, LANGUAGES)))


@lru_cache(maxsize=8)
def split_corpus(seed: int, dictionary: bool = False) -> Corpus:
    """``bilingual_corpus`` (with the dictionary if ``dictionary``) without the statements the
    split of ``seed`` does not teach: a fact taught in English only keeps its four English lines
    and loses its Chinese ones. Filler and dictionary lines all stay; so do the vocabulary and the
    48 facts (asked in English), so that every fact can be asked in either language."""
    full = bilingual_corpus(dictionary=dictionary)
    kept = {lang: taught_in(seed, lang) for lang in LANGUAGES}
    dropped = {stated(f.english, lang).sentence for lang in LANGUAGES
               for f, keep in zip(full.facts, kept[lang], strict=True) if not keep}  # fmt: skip
    return replace(full, lines=tuple(line for line in full.lines if line not in dropped))


# ---- asking: every fact's next-token probabilities, prompts of any length


def prompt_groups(corpus: Corpus) -> list[tuple[np.ndarray, torch.Tensor, torch.Tensor]]:
    """The facts' prompts in groups of one length, as ``Corpus.prompts`` gives them for a
    corpus whose prompts all have one: [(fact indices (n,), prompts (n, L) int64, answer ids
    (n,))]."""
    lengths = np.array([len(f.prompt) for f in corpus.facts])
    out = []
    for length in np.unique(lengths):
        index = np.flatnonzero(lengths == length)
        part = replace(corpus, facts=tuple(corpus.facts[i] for i in index))
        out.append((index, *part.prompts()))
    return out


def next_token(model, corpus: Corpus) -> torch.Tensor:
    """p(next token) after each fact's prompt, prompts of any length: (facts, vocab)."""
    out = torch.zeros(len(corpus.facts), len(corpus.vocabulary), dtype=torch.float64)
    with torch.no_grad():
        for index, prompts, _ in prompt_groups(corpus):
            out[torch.from_numpy(index)] = model(prompts)[:, -1].softmax(-1).double()
    return out


def answer_ids(corpus: Corpus) -> np.ndarray:
    """Each fact's answer token id: (facts,)."""
    return np.array(corpus.encode([f.answer for f in corpus.facts]))
