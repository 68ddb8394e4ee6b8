"""The bilingual fact models: lesson 5's recipe (``memory.SETTINGS``: size, steps, schedule)
trained on ``bilingual.split_corpus``, one model per seed (its split of the facts and its initial
weights), without and with the bilingual dictionary.

``python -m course_lib.lessons.l09_two_languages.experiments.bilingual_model [dictionary] [SEED
...]`` retrains the stored models (about 3 minutes each, one thread); a test retrains the first
steps of one and compares.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments.facts import BOS, Corpus
from course_lib.core.experiments.memory import (
    SETTINGS,
    Settings,
    build_model,
    save_model,
    stored_weights,
    train_language_model,
)
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.model.language_model import LanguageModel
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    LANGUAGES,
    SPLIT_SEEDS,
    WORDS,
    answer_ids,
    in_language,
    next_token,
    split_corpus,
)

SEEDS = SPLIT_SEEDS  # a model's seed draws its initial weights and names its split of the facts


def settings_of(seed: int) -> Settings:
    """Lesson 5's settings, the initial weights drawn from ``seed``."""
    if seed not in SEEDS:
        raise ValueError(f"seed must be one of {list(SEEDS)}, got {seed!r}")
    return replace(SETTINGS, seed=seed)


def model_file(seed: int, dictionary: bool = False) -> Path:
    return DATA / f"bilingual_lm{'_dictionary' if dictionary else ''}_{seed}.npz"


def train(seed: int, dictionary: bool = False) -> tuple[LanguageModel, np.ndarray]:
    """The bilingual model of ``seed`` (with the dictionary's lines if ``dictionary``) and its loss
    curve (steps,), trained as lesson 5's on the split of ``seed``."""
    return train_language_model(settings_of(seed), corpus=split_corpus(seed, dictionary))


@lru_cache(maxsize=2 * len(SEEDS))
def stored_model(seed: int = 0, dictionary: bool = False) -> LanguageModel:
    """The stored bilingual model of ``seed`` (float64, eval mode), loaded once; callers must not
    train or edit it."""
    if not isinstance(dictionary, bool):
        raise TypeError(f"dictionary must be True or False, got {dictionary!r}")
    path = model_file(settings_of(seed).seed, dictionary)
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing; rebuild it with python -m "
            "course_lib.lessons.l09_two_languages.experiments.bilingual_model"
        )
    vocabulary = split_corpus(seed, dictionary).vocabulary
    model = build_model(settings_of(seed), len(vocabulary))
    model.load_state_dict({k: torch.from_numpy(v) for k, v in stored_weights(path).items()})
    return model.eval()


def known(model: LanguageModel, corpus: Corpus) -> dict[str, np.ndarray]:
    """Which facts the model answers right (top-1) in each language: {language: (facts,) bool}."""
    out = {}
    for lang in LANGUAGES:
        view = in_language(corpus, lang)
        out[lang] = next_token(model, view).argmax(-1).numpy() == answer_ids(view)
    return out


def translates(model: LanguageModel, corpus: Corpus) -> dict[str, float]:
    """How many of the dictionary's words the model translates (top-1 next token after
    "tumen =" is 图, after "图 蒙 =" is tumen), each direction: {"en->zh": share, "zh->en": share}."""
    out = {}
    for direction, (source, target) in {"en->zh": (0, 1), "zh->en": (1, 0)}.items():
        right = 0
        for pair in WORDS.items():
            words = [(pair[0],), tuple(pair[1])]
            prompt = torch.tensor([corpus.encode((BOS, *words[source], "="))])
            with torch.no_grad():
                top = int(model(prompt)[0, -1].argmax())
            right += top == corpus.encode(words[target][:1])[0]
        out[direction] = right / len(WORDS)
    return out


if __name__ == "__main__":
    with_dictionary = "dictionary" in sys.argv[1:]
    for seed in [int(s) for s in sys.argv[1:] if s != "dictionary"] or SEEDS:
        start = time.perf_counter()
        model, curve = train(seed, with_dictionary)
        size = save_model(model, settings_of(seed), curve, model_file(seed, with_dictionary))
        corpus = split_corpus(seed, with_dictionary)
        right = {lang: int(r.sum()) for lang, r in known(model, corpus).items()}
        print(
            f"seed {seed}: {time.perf_counter() - start:.0f} s, loss {curve[-1]:.3f}, "
            f"facts right {right}, {size / 1e3:.0f} kB",
            flush=True,
        )
