"""Lesson 10's stored files against a fresh run of a slice: the pass over the corpus, the
dictionary's training and the retrieval test."""

from __future__ import annotations

import numpy as np

from devtools.spread.record import check_fresh_run


def test_the_pass_run_again_on_the_first_paragraphs_gives_the_stored_shares():
    """The first 6 paragraphs of each language through the model again: each one's share of GELU
    outputs above zero per layer. Tolerance: 10 × the spread make spread measured (at most
    1.3e-05, docs/spread.md)."""
    fresh, _ = check_fresh_run("real model pass: first 6 paragraphs of each language")
    shares = fresh["active share"]
    assert shares.shape == (12, 12) and (shares[:, -1] > shares[:, :-1].max(1)).all()


def test_the_dictionary_trained_again_on_the_slice_starts_as_the_stored_one():
    """The dictionary's first 8 steps on the slice's layer-6 units, run again. Tolerance: 10 ×
    the spread make spread measured (at most 4.1e-04, docs/spread.md)."""
    fresh, _ = check_fresh_run("real model dictionary: first 8 losses on the slice")
    assert fresh["losses"][-1] < fresh["losses"][0]


def test_retrieval_run_again_on_the_first_pairs_gives_the_stored_similarities():
    """The first 10 retrieval pairs embedded again, nothing zeroed. Tolerance: 10 × the spread
    make spread measured (at most 2.4e-07, docs/spread.md)."""
    fresh, _ = check_fresh_run("real model retrieval: first 10 pairs")
    cos = fresh["cos"]
    assert (np.diag(cos) > 0.8).all() and (cos.argmax(1) == np.arange(10)).sum() >= 9


def test_the_controls_pass_run_again_on_the_first_paragraphs_gives_the_stored_counts():
    """The second pass's firing counts by script on the first 6 paragraphs of each language, run
    again. Tolerance: 10 × the spread make spread measured (1.0e+00: a count moves by one under
    MKL's generic path, docs/spread.md)."""
    fresh, _ = check_fresh_run("real model controls: first 6 paragraphs of each language")
    fires = fresh["fires"]
    assert fires.shape == (12, 1536, 2) and (fires >= 0).all() and fires.sum() > 0
