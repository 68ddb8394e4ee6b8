"""The FFN variant race: equal parameter budgets, a shortened race that runs, the stored race and
the settings it claims, and the summary's ranking and spread logic on hand-made numbers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

from course_lib.core.experiments.facts import make_corpus
from course_lib.core.model.ffn import FeedForward, GatedFeedForward, module_parameters
from course_lib.lessons.l05_ffn_memory.experiments.variant_race import (
    RACE_FILE,
    SETTINGS,
    SHAZEER_2020,
    VARIANTS,
    build_variant,
    ffn_parameters,
    load_race,
    run_race,
    save_race,
    split_tokens,
    summarize,
    train_variant,
)
from devtools.spread.record import check_fresh_run

# A shortened race: 3 entities, a tiny model, 6 steps, 2 seeds (well under a second per model).
SHORT = replace(
    SETTINGS, n_entities=3, d_model=8, num_heads=2, d_ff=12, steps=6, warmup=2, seeds=(0, 1)
)


@pytest.fixture(scope="module")
def short_race():
    return run_race(SHORT)


def test_the_variants_have_equal_parameter_counts_within_one_percent():
    _, _, vocab = split_tokens(SETTINGS)
    models = {v: build_variant(SETTINGS, v, 0, vocab) for v in SETTINGS.variants}
    counts = {v: module_parameters(m) for v, m in models.items()}
    assert max(counts.values()) <= 1.01 * min(counts.values())
    # the FFNs' weights are equal, SwiGLU's 3 * 40 * 80 = 2 * 40 * 120; the plain FFNs add biases
    ffn = {v: ffn_parameters(m) for v, m in models.items()}
    assert ffn["swiglu"] == 2 * 3 * 40 * 80 and ffn["relu"] == ffn["gelu"] == 2 * (9600 + 160)
    assert counts["relu"] - counts["swiglu"] == 2 * (120 + 40)
    assert isinstance(models["swiglu"].layers[0].ffn, GatedFeedForward)
    assert isinstance(models["gelu"].layers[1].ffn, FeedForward)
    assert models["gelu"].layers[1].ffn.activation == "gelu"


def test_the_split_holds_out_a_quarter_of_the_filler_and_no_fact():
    train, val, vocab = split_tokens(SETTINGS)
    corpus = make_corpus(0, 12, 4, 1.5)
    assert vocab == len(corpus.vocabulary)
    # 48 facts x 4 lines + 288 filler lines; 72 filler lines held out
    assert val.shape[0] == 72 and train.shape[0] == 48 * 4 + 288 - 72
    assert train.shape[1] == val.shape[1] == 9  # the longest line: <bos> + 8 words
    facts = {tuple(corpus.encode(("<bos>", *f.sentence))) for f in corpus.facts}
    held = [tuple(row[row != 0].tolist()) for row in val]
    trained = {tuple(row[row != 0].tolist()) for row in train}
    assert not set(held) & facts and facts <= trained


def test_a_shortened_race_returns_finite_losses_of_the_documented_shapes(short_race):
    race = short_race
    assert race.val_loss.shape == (3, 2)
    assert race.val_curves.shape == race.train_curves.shape == (3, 2, 6)
    assert np.isfinite(race.val_loss).all() and np.isfinite(race.train_curves).all()
    assert (race.train_curves[:, :, -1] < race.train_curves[:, :, 0]).all()  # training trains
    assert not np.array_equal(race.val_loss[:, 0], race.val_loss[:, 1])  # seeds differ
    assert race.parameters.shape == race.ffn_parameters.shape == (3,)


def test_training_is_seeded_and_leaves_the_global_rng_alone():
    tiny = replace(SHORT, steps=2)
    state = torch.random.get_rng_state()
    first, again = train_variant(tiny, "swiglu", 0), train_variant(tiny, "swiglu", 0)
    assert torch.equal(torch.random.get_rng_state(), state)
    assert np.array_equal(first[1], again[1]) and np.array_equal(first[2], again[2])
    assert {p.dtype for p in first[0].parameters()} == {torch.float64}


def test_save_and_load_round_trip(tmp_path, short_race):
    path = tmp_path / "race.npz"
    save_race(short_race, path)
    loaded = load_race(path)
    assert loaded.settings == SHORT
    for name in ("val_loss", "val_curves", "train_curves", "parameters", "ffn_parameters"):
        assert np.array_equal(getattr(loaded, name), getattr(short_race, name)), name


def test_the_stored_race_matches_the_settings_it_claims():
    race = load_race()
    settings = race.settings
    assert settings == SETTINGS
    shape = (len(settings.variants), len(settings.seeds))
    assert race.val_loss.shape == shape and np.isfinite(race.val_loss).all()
    assert race.val_curves.shape == race.train_curves.shape == (*shape, settings.steps)
    _, _, vocab = split_tokens(settings)
    for i, variant in enumerate(settings.variants):
        model = build_variant(settings, variant, 0, vocab)
        assert race.parameters[i] == module_parameters(model)
        assert race.ffn_parameters[i] == ffn_parameters(model)
    assert RACE_FILE.stat().st_size < 200_000


def test_the_stored_curves_start_as_a_fresh_run_does():
    """The warm-up does not depend on the number of steps, so a fresh 3-step run is the stored
    run's first 3 steps, for every variant. Tolerance: 10 × the spread make spread measured (at
    most 2.8e-08, docs/spread.md)."""
    check_fresh_run("variant race: first 3 losses")


def test_the_summary_ranks_by_mean_and_compares_gaps_with_the_spread():
    losses = np.array([[2.0, 2.2, 2.1], [1.9, 2.05, 2.0], [1.5, 1.6, 1.55]])
    summary = summarize(("relu", "gelu", "swiglu"), losses)
    assert summary.ranking == ("swiglu", "gelu", "relu")
    assert summary.mean["relu"] == pytest.approx(2.1) and summary.low["gelu"] == 1.9
    assert summary.high["swiglu"] == 1.6
    # swiglu's worst (1.6) beats gelu's best (1.9); gelu's worst (2.05) is above relu's best (2.0)
    assert summary.separated == (True, False)
    assert summary.glu_ahead and summary.reproduces_paper


def test_the_summary_says_when_the_spread_swamps_the_difference():
    overlapping = summarize(("relu", "swiglu"), np.array([[2.0, 2.4], [1.9, 2.3]]))
    assert overlapping.ranking == ("swiglu", "relu") and overlapping.separated == (False,)
    assert overlapping.glu_ahead and not overlapping.reproduces_paper
    reversed_ = summarize(("relu", "swiglu"), np.array([[1.0, 1.1], [2.0, 2.1]]))
    assert reversed_.separated == (True,) and not reversed_.glu_ahead
    assert not reversed_.reproduces_paper


def test_the_papers_numbers_rank_glu_ahead():
    at_65k = np.array([[SHAZEER_2020[v][0]] for v in ("relu", "gelu", "swiglu")])
    assert summarize(("relu", "gelu", "swiglu"), at_65k).ranking[0] == "swiglu"
    assert set(SHAZEER_2020) == set(VARIANTS)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: build_variant(SHORT, "tanh", 0, 10), ValueError, "variant must be one of"),
        (lambda: split_tokens(replace(SHORT, held_out=1.0)), ValueError, "held_out must be"),
        (lambda: summarize(("relu",), np.zeros((2, 3))), ValueError, "val_loss must have shape"),
        (lambda: load_race(RACE_FILE.with_name("none.npz")), FileNotFoundError, "variant_race"),
    ],
)
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
