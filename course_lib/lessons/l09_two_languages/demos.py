"""Lesson 9's live demo: rewrite a fact with its English or its Chinese prompt by one of lesson 6's
edits, at the weakest of its strengths that makes p(new) reach 0.9 after that prompt, and see
both languages' answers before and after. Every frame is read from the stored sweep
(``experiments.cross_edits``, seed 0, no dictionary): no edit is made on a move."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from course_lib.core._validate import choice as one_of
from course_lib.core.experiments.edit_measures import METRICS, weakest_reaching
from course_lib.core.experiments.edit_sweep import BY_NAME
from course_lib.core.experiments.fact_edits import new_answer
from course_lib.core.i18n import N_, language, tr
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    LANGUAGES,
    bilingual_corpus,
    in_language,
)
from course_lib.lessons.l09_two_languages.experiments.cross_edits import edits_file, stored
from course_lib.lessons.l09_two_languages.figures import CrossEdit, CrossEditView

SHOWN_FACTS = 8  # the first two entities' four facts: the dropdown's and the site's frames
TARGET = 0.9  # matched strength: the weakest reaching p(new) 0.9 after the edited prompt
LANGUAGE_LABELS = (N_("English"), N_("Chinese"))


def prompts() -> tuple[str, ...]:
    """The shown facts' English prompts, in the corpus' order: the dropdown's values."""
    return tuple(" ".join(f.prompt) for f in bilingual_corpus().facts[:SHOWN_FACTS])


def cross_edit_data(prompt: str, edited_in: str, method: str) -> CrossEdit:
    """The fact of ``prompt`` rewritten with its ``edited_in`` prompt by ``method`` at matched
    strength, as the stored sweep measured it (seed 0). Checked before the cache is asked."""
    one_of("prompt", prompt, prompts())
    one_of("edited_in", edited_in, LANGUAGES)
    one_of("method", method, tuple(BY_NAME))
    return _cross_edit_data(prompt, edited_in, method, language())


@lru_cache(maxsize=256)
def _cross_edit_data(prompt: str, edited_in: str, method: str, _: str) -> CrossEdit:
    fact = prompts().index(prompt)
    views = {lang: in_language(bilingual_corpus(), lang) for lang in LANGUAGES}
    data = stored(edits_file(False))
    rows = data[f"plain|0|{edited_in}|{method}"][fact]  # (strengths, METRICS)
    level = int(weakest_reaching(rows[None, :, METRICS.index("p(new)")], TARGET)[0])
    value = dict(zip(METRICS, rows[level], strict=True))
    p_new, p_old, p_new2, p_old2 = data[f"before|plain|0|{edited_in}|"][fact]
    after = np.array(
        [
            [value["p(new)"], value["p(old)"]],
            [value["p(new), other phrasing"], value["p(old), other phrasing"]],
        ]
    )
    before = np.array([[p_new, p_old], [p_new2, p_old2]])  # rows: edited language, other
    order = [0, 1] if edited_in == "en" else [1, 0]  # rows as English, Chinese
    chosen = new_answer(views[edited_in], fact)  # the sweep's new answer, in the edited language
    source = next(i for i, f in enumerate(views[edited_in].facts) if f.answer == chosen)
    new = {lang: views[lang].facts[source].answer for lang in LANGUAGES}  # and its translation
    knob = BY_NAME[method]
    return CrossEdit(
        prompts=tuple(
            {"en": " ", "zh": ""}[lang].join(views[lang].facts[fact].prompt) for lang in LANGUAGES
        ),  # fmt: skip
        old=tuple(views[lang].facts[fact].answer for lang in LANGUAGES),
        new=tuple(new[lang] for lang in LANGUAGES),
        edited_in=edited_in,
        method=method,
        strength=tr("{knob} {value:g}", knob=tr(knob.knob), value=knob.strengths[level]),
        p_old=np.stack([before[order, 1], after[order, 1]], axis=1),
        p_new=np.stack([before[order, 0], after[order, 0]], axis=1),
    )


def demos() -> list[Demo]:
    methods = tuple(BY_NAME)
    return [
        Demo(
            "edit across languages",
            (
                Control("prompt", prompts(), prompts()[0], kind="dropdown"),
                Control("edited_in", LANGUAGES, "en", kind="toggle", labels=LANGUAGE_LABELS),
                Control("method", methods, methods[0], kind="dropdown", labels=methods),
            ),
            data=cross_edit_data,
            view=CrossEditView,
        )
    ]
