"""Lesson 8's stored files against fresh runs of their rebuilds, within the spread make spread
measured (docs/spread.md), and what the files must hold for the lesson to read them."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.lessons.l08_superposition.experiments import (
    dictionary_runs,
    dictionary_split,
    toy_grid,
    toy_seeds,
)
from devtools.spread.record import check_fresh_run


def test_the_stored_toy_grids_start_as_a_fresh_run_of_their_rebuild_does():
    """Every setting of both grids, from the seed the file kept, trained again for 101 steps: the
    loss at steps 0 and 100, as the stored curves keep every 100th step. Tolerance: 10 × the
    spread make spread measured (at most 6.7e-16, docs/spread.md)."""
    fresh, stored = check_fresh_run("toy grids: losses at steps 0 and 100")
    assert set(fresh) == {"superposition", "phase"}
    assert fresh["superposition"].shape == (40, 2) and fresh["phase"].shape == (121, 2)
    assert (fresh["superposition"][:, 1] < fresh["superposition"][:, 0]).all()  # it trains


@pytest.mark.parametrize(
    "quantity",
    ["SAE, 256 features, L1: first 20 losses", "transcoder, 256 features, L1: first 20 losses"],
)
def test_a_stored_1x_dictionary_starts_as_a_fresh_run_of_its_rebuild_does(quantity):
    """The 1× L1 SAE and transcoder trained again for 20 steps: their training losses, against the
    first 20 the stored runs kept (in full, 2,000 steps, the runs move L0 by up to 0.2 under
    another CPU). Tolerance: 10 × the spread make spread measured (at most 1.4e-04 for the SAE,
    3.1e-05 for the transcoder, docs/spread.md)."""
    fresh, _ = check_fresh_run(quantity)
    assert fresh["losses"].shape == (20,) and fresh["losses"][-1] < fresh["losses"][0]


def test_each_stored_grid_kept_its_best_seed():
    for kind in ("superposition", "phase"):
        grid = toy_grid.stored_grid(kind)
        assert np.allclose(grid.loss, grid.seed_losses.min(-1))


def test_every_stored_dictionary_keeps_only_live_features_and_topk_matches_the_l1_l0():
    for kind in dictionary_runs.KINDS:
        for size in dictionary_runs.SIZES:
            l1 = dictionary_runs.stored_dictionary(kind, "l1", size)
            topk = dictionary_runs.stored_dictionary(kind, "topk", size)
            for run in (l1, topk):
                kept = len(run.dictionary.W_dec)
                assert kept == run.measures["alive"] == run.size - run.measures["dead"]
            assert topk.measures["k"] == max(1, round(l1.measures["l0"]))
            assert topk.dictionary.k == topk.measures["k"] and l1.dictionary.k is None


def test_the_stored_toy_seeds_start_as_a_fresh_run_of_their_rebuild_does():
    """Every seed and variant of the default toy trained again for 20 steps: the losses, against
    the first 20 the stored runs kept. Tolerance: 10 × the spread make spread measured
    (at most 2.8e-17, docs/spread.md)."""
    fresh, _ = check_fresh_run("toy seeds: first 20 losses")
    assert len(fresh) == 24 and all(len(v) == 20 for v in fresh.values())


@pytest.mark.parametrize(
    "quantity",
    [
        "split SAE, 256 features, L1, grammar: first 20 losses",
        "split SAE, 256 features, L1, corpus: first 20 losses",
    ],
)
def test_a_stored_split_sae_starts_as_a_fresh_run_of_its_rebuild_does(quantity):
    """The 1× L1 SAE trained without the held-out contexts, again for 20 steps, against the first
    20 losses its stored run kept. Tolerance: 10 × the spread make spread measured
    (at most 1.5e-05 trained on the grammar's contexts, 9.2e-05 on the corpus', docs/spread.md)."""
    fresh, _ = check_fresh_run(quantity)
    assert fresh["losses"].shape == (20,) and fresh["losses"][-1] < fresh["losses"][0]


def test_the_toy_seeds_variants_are_named_and_an_unknown_one_is_refused():
    with pytest.raises(ValueError, match=r"variant must be one of \['relu', 'b0', 'linear'\]"):
        toy_seeds.train_seed(0, "tanh", steps=1)
    seeds = toy_seeds.stored_seeds()
    assert seeds.W.shape == (3, 8, 2, 5) and seeds.loss.shape == (3, 8)
    assert (seeds.b[1] == 0).all()  # the bias held at 0


def test_every_split_dictionary_is_stored_with_its_training_set_and_held_out_measures():
    split = dictionary_split.stored_split()
    expected = {("grammar", kind, rule, size) for kind in dictionary_runs.KINDS
                for rule in dictionary_runs.RULES for size in dictionary_runs.SIZES}  # fmt: skip
    expected |= {("corpus", "sae", rule, size) for rule in dictionary_runs.RULES
                 for size in dictionary_runs.SIZES}  # fmt: skip
    assert set(split) == expected
    for (on, *_), m in split.items():
        assert m["contexts"] == (1205 if on == "grammar" else 517)
        assert m["loss ablated"] > m["loss clean"]  # zeroing the layer costs at the held-out words
