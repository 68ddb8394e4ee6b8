"""experiments.cross_edits: the stored sweeps of edits across languages are what a fresh sweep
gives, and an edit's "paraphrase" is the other language's prompt."""

from __future__ import annotations

import numpy as np

from course_lib.core.experiments.edit_measures import METRICS
from course_lib.core.experiments.edit_sweep import METHODS, RANK_ONE
from course_lib.lessons.l09_two_languages.experiments import cross_edits
from devtools.spread.record import check_fresh_run


def test_one_facts_edits_made_again_are_the_stored_ones():
    """Fact 5 of seed 0's model, edited in each language by every method at every strength.
    Tolerance: 10 × the spread make spread measured (at most 7.3e-06), a count's spread itself
    (0 for every count, docs/spread.md)."""
    fresh, stored = check_fresh_run("bilingual edits: seed 0, fact 5, both languages")
    assert len(fresh) == 2 * (len(METHODS) * len(METRICS) + 1)
    for language in ("en", "zh"):  # one value per strength, weakest first
        row = {m: fresh[f"{language} | {RANK_ONE} | {m}"] for m in METRICS}
        assert (np.diff(row["p(old)"]) < 0).all() and (np.diff(row["filler loss change"]) > 0).all()
        assert row["top-1"][-1] == 1  # the edited prompt gives the new answer


def test_the_stored_edits_read_the_other_language_as_their_paraphrase():
    before = {lang: cross_edits.before(lang) for lang in ("en", "zh")}  # (seeds, 48, 4)
    # p(old) of the edited prompt in one direction is the other direction's paraphrase p(old)
    assert np.allclose(before["en"][..., 1], before["zh"][..., 3])
    assert np.allclose(before["zh"][..., 1], before["en"][..., 3])
    assert (before["en"][..., 1] > 0.5).all()  # the model knows every fact before the edit


def test_one_facts_control_made_again_is_the_stored_one():
    """Fact 27 of seed 0's model (a knowledge-neuron edit that crosses at λ = 1), edited in
    English, measured on the other facts. Tolerance: 10 × the spread make spread measured (at most
    1.4e-04, fine-tuning's), a count's spread itself (docs/spread.md)."""
    fresh, _ = check_fresh_run("bilingual edits' control: seed 0, fact 27, English")
    crossing = fresh["knowledge neurons | relation's other facts answering the new word, other "
                     "language"]  # fmt: skip
    assert crossing[-1] > 0 and (crossing[:-1] == 0).all()  # unedited facts too, at λ = 1 only
    fallen = fresh[f"{RANK_ONE} | other facts' p(answer), other language"]
    assert (fallen <= 0).all() and fallen[0] > -0.01  # the weakest rank-one edit: hardly any loss
