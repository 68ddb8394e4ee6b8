"""Lesson 10's fresh-run quantities: slices of the real model's stored pass, dictionary and
retrieval, run again, each against what its stored file holds
(``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable

from course_lib.core.experiments.spread import Arrays, Quantity


def _real_pass_slice() -> tuple[Callable, Callable]:
    """Lesson 10's pass over the corpus: the first paragraphs of each language run again, each
    one's share of GELU outputs above zero in every layer."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"active share": activations.slice_shares(stored_corpus())}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        rows = activations.slice_rows(len(stored_corpus().english))
        return {"active share": activations.stored()["text_share"][rows]}

    return fresh, stored


def _real_dictionary_first_losses(steps: int) -> tuple[Callable, Callable]:
    """Lesson 10's dictionary trained again for ``steps`` steps on the slice's layer-6 units."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import dictionary
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"losses": dictionary.slice_losses(stored_corpus(), steps)}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import dictionary

        return {"losses": dictionary.stored()[0]["slice_losses"][:steps]}

    return fresh, stored


def _real_retrieval(pairs: int) -> tuple[Callable, Callable]:
    """Lesson 10's retrieval, nothing zeroed: the similarities of its first ``pairs`` pairs."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import language_units as L
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"cos": L.similarities(stored_corpus(), L.stored()["pairs"][:pairs])}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import language_units as L

        return {"cos": L.stored()["base"][:pairs, :pairs]}

    return fresh, stored


def _real_controls_slice() -> tuple[Callable, Callable]:
    """Lesson 10's second pass (the controls): the first paragraphs of each language run again,
    how often each unit fires on their Latin-script and Han tokens."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"fires": controls.slice_fires(stored_corpus()).astype(float)}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls

        return {"fires": controls.stored()["slice_fires_by_script"].astype(float)}

    return fresh, stored


QUANTITIES = (
    Quantity("real model pass: first 6 paragraphs of each language", *_real_pass_slice()),
    Quantity("real model controls: first 6 paragraphs of each language", *_real_controls_slice()),
    Quantity(
        "real model dictionary: first 8 losses on the slice", *_real_dictionary_first_losses(8)
    ),
    Quantity("real model retrieval: first 10 pairs", *_real_retrieval(10)),
)
