"""Lesson 9's live demo: rewrite a fact with its English or its Chinese prompt by one of lesson 6's
edits, at the weakest of its strengths that makes p(new) reach 0.9 after that prompt, and see
both languages' answers before and after. Every frame is read from the stored sweep
(``experiments.cross_edits``, seed 0): no edit is made on a move."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from course_lib.core._validate import choice as one_of
from course_lib.core.experiments.edit_measures import weakest_reaching
from course_lib.core.experiments.edit_sweep import BY_NAME
from course_lib.core.i18n import N_, language, tr
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    LANGUAGES,
    WORDS,
    in_language,
    split_corpus,
)
from course_lib.lessons.l09_two_languages.experiments.cross_edits import (
    METHODS,
    before,
    column,
    edited_facts,
    new_answer,
    results,
)
from course_lib.lessons.l09_two_languages.figures import (
    METHOD_NAMES,
    CrossEdit,
    CrossEditView,
    knob_name,
)

SHOWN_FACTS = 8  # of seed 0's facts taught in both languages: the dropdown's and the site's frames
TARGET = 0.9  # matched strength: the weakest reaching p(new) 0.9 after the edited prompt
LANGUAGE_LABELS = (N_("English"), N_("Chinese"))


def prompts() -> tuple[str, ...]:
    """The shown facts' English prompts, in the corpus' order: the dropdown's values."""
    facts = split_corpus(0).facts
    return tuple(" ".join(facts[i].prompt) for i in edited_facts(0)[:SHOWN_FACTS])


def cross_edit_data(prompt: str, edited_in: str, method: str) -> CrossEdit:
    """The fact of ``prompt`` rewritten with its ``edited_in`` prompt by ``method`` at matched
    strength, as the stored sweep measured it (seed 0). Checked before the cache is asked."""
    one_of("prompt", prompt, prompts())
    one_of("edited_in", edited_in, LANGUAGES)
    one_of("method", method, METHODS)
    return _cross_edit_data(prompt, edited_in, method, language())


@lru_cache(maxsize=256)
def _cross_edit_data(prompt: str, edited_in: str, method: str, _: str) -> CrossEdit:
    shown = prompts().index(prompt)
    fact = int(edited_facts(0)[shown])
    rows = results(method, edited_in)[0, shown]  # (strengths, MEASURES)
    level = int(weakest_reaching(column(rows, "p(new)")[None], TARGET)[0])
    trained = before(edited_in)[0, shown]
    order = [0, 1] if edited_in == "en" else [1, 0]  # rows as English, Chinese

    def pair(values: np.ndarray, first: str, second: str) -> np.ndarray:
        return np.array([column(values, first), column(values, second)])[order]

    english = split_corpus(0).facts[fact].english
    old, new = english.answer, new_answer(0, fact)
    views = {lang: in_language(split_corpus(0), lang).facts[fact] for lang in LANGUAGES}
    knob = BY_NAME[method]
    return CrossEdit(
        prompts=tuple({"en": " ", "zh": ""}[lang].join(views[lang].prompt) for lang in LANGUAGES),
        old=(old, WORDS[old]),
        new=(new, WORDS[new]),
        edited_in=edited_in,
        method=method,
        strength=tr("{knob} {value:g}", knob=knob_name(knob.knob), value=knob.strengths[level]),
        p_old=np.stack([pair(trained, "p(old)", "p(old), other language"),
                        pair(rows[level], "p(old)", "p(old), other language")], axis=1),
        p_new=np.stack([pair(trained, "p(new)", "p(new), other language"),
                        pair(rows[level], "p(new)", "p(new), other language")], axis=1),
    )  # fmt: skip


def demos() -> list[Demo]:
    return [
        Demo(
            "edit across languages",
            (
                Control("prompt", prompts(), prompts()[0], kind="dropdown", label=N_("prompt")),
                Control(
                    "edited_in",
                    LANGUAGES,
                    "en",
                    kind="toggle",
                    labels=LANGUAGE_LABELS,
                    label=N_("edit made in"),
                ),
                Control(
                    "method",
                    METHODS,
                    METHODS[0],
                    kind="dropdown",
                    labels=tuple(METHOD_NAMES.get(m, m) for m in METHODS),
                    label=N_("method"),
                ),
            ),  # fmt: skip
            data=cross_edit_data,
            view=CrossEditView,
        )
    ]
