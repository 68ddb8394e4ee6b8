"""experiments.editing: the two-phrasing model is what its rebuild trains and knows every fact
both ways; Meng et al.'s score is the harmonic mean of the scores they quote. (Tracing and the
edits are the core's: tests/experiments/test_tracing.py, test_edit_methods.py.)"""

from __future__ import annotations

import pytest

from course_lib.core.experiments.memory import fact_predictions
from course_lib.lessons.l06_locating_and_editing.experiments import editing


def test_the_two_phrasing_model_is_what_its_rebuild_trains_and_knows_both_phrasings():
    """The stored model's first 8 loss values against a fresh 8-step run (the warm-up makes the
    first 50 steps' rates independent of the run's length), within 10 × the spread make spread
    measured (at most 2.6e-08, docs/spread.md); every fact right both ways."""
    from course_lib.core.experiments.memory import load_model
    from devtools.spread.record import check_fresh_run

    _, settings, curve = load_model(editing.PARAPHRASED_FILE)
    assert settings == editing.PARAPHRASED and settings.paraphrases and len(curve) == settings.steps
    check_fresh_run("two-phrasing model: first 8 losses")
    model, corpus = editing.paraphrased_model()
    for paraphrased in (False, True):
        assert fact_predictions(model, corpus, paraphrased)[1].all()


def test_meng_et_al_s_score_is_the_harmonic_mean_of_the_three_scores_quoted():
    """Table 4's score is the harmonic mean of efficacy, paraphrase and neighbourhood scores:
    recomputed from the three quoted, it gives the quoted score to its rounding."""
    from course_lib.lessons.l06_locating_and_editing.papers import MENG_2022

    for method in ("rome", "ft", "ft+l", "kn", "unedited"):
        score, *parts = MENG_2022[method]
        assert 3 / sum(1 / p for p in parts) == pytest.approx(score, abs=0.15), method
