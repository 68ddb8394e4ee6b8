"""Lesson 9's fresh-run quantities: the bilingual fact models' first steps, their edits and their random units, each what a test computes again against what
its stored file holds (``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from course_lib.core.experiments.spread import Arrays, Quantity


def _first_losses(train: Callable, file_of: Callable, steps: int) -> tuple[Callable, Callable]:
    """A stored model's rebuild, its first ``steps`` steps: ``train(settings, corpus)`` fresh, the
    loss curve ``file_of()`` holds stored."""

    def fresh() -> Arrays:
        return {"losses": train(steps)}

    def stored() -> Arrays:
        with np.load(file_of()) as data:
            return {"losses": data["losses"][:steps]}

    return fresh, stored


def _bilingual_losses(dictionary: bool, steps: int) -> tuple[Callable, Callable]:
    def train(n: int) -> np.ndarray:
        from course_lib.core.experiments.memory import train_language_model
        from course_lib.lessons.l09_two_languages.experiments import bilingual, bilingual_model

        settings = replace(bilingual_model.settings_of(0), steps=n)
        corpus = bilingual.split_corpus(0, dictionary)
        return train_language_model(settings, corpus=corpus)[1]

    def file_of():
        from course_lib.lessons.l09_two_languages.experiments import bilingual_model

        return bilingual_model.model_file(0, dictionary)

    return _first_losses(train, file_of, steps)


def _phrasings_losses(steps: int) -> tuple[Callable, Callable]:
    def train(n: int) -> np.ndarray:
        from course_lib.core.experiments.memory import train_language_model
        from course_lib.lessons.l09_two_languages.experiments import bilingual_model, transfer

        settings = replace(bilingual_model.settings_of(0), steps=n)
        return train_language_model(settings, corpus=transfer.phrasing_corpus(0))[1]

    def file_of():
        from course_lib.lessons.l09_two_languages.experiments import transfer

        return transfer.phrasing_file(0)

    return _first_losses(train, file_of, steps)


def _bilingual_experts_losses(steps: int) -> tuple[Callable, Callable]:
    def train(n: int) -> np.ndarray:
        from course_lib.core.experiments.memory import train_language_model
        from course_lib.lessons.l09_two_languages.experiments import bilingual, experts

        settings = replace(experts.settings_of(0), steps=n)
        return train_language_model(settings, corpus=bilingual.split_corpus(0))[1]

    def file_of():
        from course_lib.lessons.l09_two_languages.experiments import experts

        return experts.model_file(0)

    return _first_losses(train, file_of, steps)


def _cross_edit(fact: int) -> tuple[Callable, Callable]:
    """Lesson 9's stored edits across languages: ``fact`` of seed 0's model (taught in both
    languages) rewritten with its English prompt and with its Chinese one, by every method at
    every strength, and the model's reading before the edit."""

    def arrays(language: str, rows: dict[str, np.ndarray]) -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments.cross_edits import MEASURES

        return {f"{language} | {key} | {name}": values[..., j]
                for key, values in rows.items() for j, name in enumerate(MEASURES)}  # fmt: skip

    def fresh() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import bilingual_model, cross_edits

        model, out = bilingual_model.stored_model(0), {}
        for language in ("en", "zh"):
            out |= arrays(language, cross_edits.sweep_fact(model, 0, fact, language))
        return out

    def stored() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import cross_edits

        row = list(cross_edits.edited_facts(0)).index(fact)
        out = {}
        for language in ("en", "zh"):
            rows = {m: cross_edits.results(m, language)[0, row] for m in cross_edits.METHODS}
            rows["before"] = cross_edits.before(language)[0, row]
            out |= arrays(language, rows)
        return out

    return fresh, stored


def _random_units(seed: int, language: str, draws: int) -> tuple[Callable, Callable]:
    """Lesson 9's stored baseline for Tang et al.'s test: each language's loss rise when as many
    random units as ``language``'s selection holds are zeroed, its first ``draws`` draws (a draw
    is the same whether more follow: one local generator, ten draws per forward pass)."""

    def selection():
        from course_lib.lessons.l09_two_languages.experiments import bilingual, bilingual_model
        from course_lib.lessons.l09_two_languages.experiments import one_memory as M

        model, corpus = bilingual_model.stored_model(seed), bilingual.split_corpus(seed)
        units = M.language_specific(M.activation_probability(model, corpus))[language]
        return M, model, corpus, units

    def fresh() -> Arrays:
        M, model, corpus, units = selection()
        return {
            f"rise, {asked}": M.random_units_rise(model, corpus, len(units), asked, draws)
            for asked in ("en", "zh")
        }

    def stored() -> Arrays:
        M, _, _, units = selection()
        return {
            f"rise, {asked}": M.stored_random_rise(seed, language, len(units), asked)[:draws]
            for asked in ("en", "zh")
        }

    return fresh, stored


QUANTITIES = (
    Quantity("bilingual edits: seed 0, fact 0, both languages", *_cross_edit(0)),
    Quantity(
        "bilingual random units: seed 0, Chinese selection, first 10 draws",
        *_random_units(0, "zh", 10),
    ),
    Quantity("bilingual experts: first 8 losses", *_bilingual_experts_losses(8)),
    Quantity("bilingual model: first 8 losses", *_bilingual_losses(False, 8)),
    Quantity("bilingual model, dictionary: first 8 losses", *_bilingual_losses(True, 8)),
    Quantity("two phrasings: first 8 losses", *_phrasings_losses(8)),
)
