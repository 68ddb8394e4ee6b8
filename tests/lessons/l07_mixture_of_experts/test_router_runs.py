"""Lesson 7's stored language-model runs: the routers' loads over training (load_history) and the
shared-expert model (fact_experts). Each stored file
starts as a fresh run of its rebuild command does, and reads back into what the lesson uses."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from course_lib.core.experiments.memory import corpus_of, load_model
from course_lib.lessons.l07_mixture_of_experts.experiments import (
    fact_experts,
    load_history,
)
from devtools.spread.record import check_fresh_run


def test_a_stored_shared_expert_model_starts_as_a_fresh_run_of_its_rebuild_does():
    """The warm-up's learning rate does not depend on the number of steps, so a fresh run's first
    8 steps are the stored run's first 8. Tolerance: 10 × the spread make spread measured
    (at most 1.6e-08, docs/spread.md)."""
    assert load_model(fact_experts.model_file("shared expert", 0))[1] == fact_experts.settings_of(
        "shared expert", 0
    )
    check_fresh_run("experts, shared expert: first 8 losses")


def test_the_stored_load_histories_start_as_a_fresh_run_of_their_rebuild_does():
    """Both alphas, seed 0, 8 steps trained again: each step's first-choice and assignment shares
    (counts: within their own spread) and losses. Tolerance: 10 × the spread make spread
    measured (at most 9.4e-09; the shares moved under no variant, docs/spread.md)."""
    fresh, _ = check_fresh_run("load history: first 8 steps")
    assert set(fresh) == {
        f"alpha {a} | {n}" for a in load_history.ALPHAS for n in ("first", "assigned", "losses")
    }


def test_the_load_histories_hold_every_step_of_every_run_and_each_load_sums_to_one():
    runs = load_history.stored_histories()
    steps = load_history.BASE.steps
    assert runs.alphas == load_history.ALPHAS and runs.seeds == load_history.SEEDS
    assert runs.first.shape == (2, 3, steps, 2, 4) == runs.assigned.shape
    assert np.allclose(runs.first.sum(axis=-1), 1) and np.allclose(runs.assigned.sum(axis=-1), 1)
    assert runs.losses.shape == (2, 3, steps) and runs.facts == len(
        corpus_of(load_history.BASE).facts
    )
    assert np.array_equal(runs.busiest(), runs.first.max(axis=-1))
    # top 2 of 4: no expert takes more than half of all assignments
    assert (runs.assigned <= 0.5 + 1e-12).all() and not (runs.first <= 0.5).all()


def test_the_alpha_001_histories_train_the_stored_equal_total_models_settings():
    for seed in load_history.SEEDS:
        assert load_history.settings_of(0.01, seed) == fact_experts.settings_of("equal total", seed)
        assert load_history.settings_of(0.0, seed) == replace(
            fact_experts.settings_of("equal total", seed), alpha=0.0
        )


def test_a_missing_file_names_its_rebuild_command(tmp_path):
    with pytest.raises(
        FileNotFoundError,
        match="python -m course_lib.lessons.l07_mixture_of_experts.experiments.load_history",
    ):
        load_history.stored_histories.__wrapped__(tmp_path / "none.npz")
