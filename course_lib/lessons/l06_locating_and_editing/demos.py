"""Lesson 6's live demo: rewrite a fact to another answer of its relation by one of six edits at
one of six strengths, and see its probabilities after both phrasings and which other facts change
with it. Every frame is read from the stored sweep (``experiments.edit_sweep``): no edit is made
on a move."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from course_lib.core._validate import choice as one_of
from course_lib.core.experiments.edit_measures import METRICS
from course_lib.core.experiments.edit_sweep import BY_NAME, STRENGTHS
from course_lib.core.experiments.fact_edits import new_answer
from course_lib.core.experiments.facts import RELATIONS
from course_lib.core.i18n import N_, language, tr
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l06_locating_and_editing.experiments import edit_sweep
from course_lib.lessons.l06_locating_and_editing.experiments.editing import paraphrased_model
from course_lib.lessons.l06_locating_and_editing.figures import RewriteData, RewriteView

CHOICES = (1, 2, 3)  # the n-th other answer of the relation (fact_edits.new_answer's shift + 1)
LEVELS = tuple(range(1, STRENGTHS + 1))  # the k-th weakest strength of the method's knob


def prompts() -> tuple[str, ...]:
    """The facts' prompts as text, in the corpus' order: the dropdown's values."""
    return tuple(" ".join(f.prompt) for f in paraphrased_model()[1].facts)


def strength_label(method: str, level: int) -> str:
    """The method's knob at ``level`` as the learner reads it: "λ 0.2", "Adam steps 5"."""
    m = BY_NAME[method]
    return tr("{knob} {value:g}", knob=tr(m.knob), value=m.strengths[level - 1])


def rewrite_data(prompt: str, choice: int, method: str, strength: int) -> RewriteData:
    """The fact of ``prompt`` rewritten by ``method`` at its ``strength``-th weakest strength to
    the ``choice``-th other answer of its relation, as the stored sweep measured it. The values
    are checked before the cache is asked: True hashes as 1 and would find 1's entry."""
    one_of("prompt", prompt, prompts())
    for name, value, accepted in (("choice", choice, CHOICES), ("strength", strength, LEVELS)):
        if isinstance(value, bool) or value not in accepted:
            raise ValueError(f"{name} must be one of {list(accepted)}, got {value!r}")
    one_of("method", method, tuple(BY_NAME))
    return _rewrite_data(prompt, choice, method, strength, language())


@lru_cache(maxsize=512)
def _rewrite_data(prompt: str, choice: int, method: str, strength: int, _: str) -> RewriteData:
    """``rewrite_data`` in one language (its strength label is in the learner's words)."""
    _, corpus = paraphrased_model()
    fact = prompts().index(prompt)
    sweep = edit_sweep.stored_sweep()
    edit = sweep.edits.index((fact, new_answer(corpus, fact, choice - 1)))
    row = sweep.results[method][edit, strength - 1]
    value = {name: row[METRICS.index(name)] for name in METRICS}
    codes = sweep.changed[method][edit, strength - 1].astype(int)
    codes[fact] = 2 if value["top-1"] else 3
    p_new, p_old, p_new2, p_old2 = sweep.before[edit]
    relations = sorted({f.relation for f in corpus.facts}, key=RELATIONS.index)
    entities = tuple(dict.fromkeys(f.entity for f in corpus.facts))
    return RewriteData(
        prompt=prompt,
        paraphrase=" ".join(corpus.facts[fact].paraphrase),
        old=corpus.facts[fact].answer,
        new=sweep.edits[edit][1],
        method=method,
        strength=strength_label(method, strength),
        p_old=np.array([[p_old, value["p(old)"]], [p_old2, value["p(old), other phrasing"]]]),
        p_new=np.array([[p_new, value["p(new)"]], [p_new2, value["p(new), other phrasing"]]]),
        codes=codes.reshape(len(entities), len(relations)),
        entities=entities,
        relations=tuple(relations),
        filler_loss_change=value["filler loss change"],
    )


def demos() -> list[Demo]:
    methods = tuple(BY_NAME)
    return [
        Demo(
            "fact rewriting",
            (
                Control("prompt", prompts(), prompts()[0], kind="dropdown", label=N_("prompt")),
                Control("choice", CHOICES, 1, label=N_("new answer")),
                Control(
                    "method",
                    methods,
                    methods[0],
                    kind="dropdown",
                    labels=methods,
                    label=N_("method"),
                ),
                Control("strength", LEVELS, 4, label=N_("strength")),
            ),
            data=rewrite_data,
            view=RewriteView,
        ),
    ]
