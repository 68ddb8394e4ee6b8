"""Lesson 8's grammar: every line lesson 5's generator can make, read by the stored model. Its
contexts include every context of the corpus, exactly, each weighted once; the held-out share is
seeded; the fact-only contexts lie on fact lines."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments.facts import FILLER_TEMPLATES
from course_lib.core.experiments.memory import stored_model
from course_lib.lessons.l08_superposition.experiments import fact_dictionaries, grammar


@pytest.fixture(scope="module")
def contexts():
    return grammar.grammar_contexts(*stored_model())


def test_the_grammar_holds_every_filler_line_once_and_every_fact_line():
    _, corpus = stored_model()
    lines = grammar.grammar_lines(corpus)
    assert len(lines) == len(set(lines)) == 656 + len(corpus.facts)
    assert set(corpus.lines) <= set(lines)  # the corpus drew from it
    assert {f.sentence for f in corpus.facts} <= set(lines)
    assert len({line[:2] for line in lines[:656]}) >= len(FILLER_TEMPLATES)


def test_the_corpus_contexts_are_the_grammars_rows_marked_in_corpus(contexts):
    rows = fact_dictionaries.layer_rows(*stored_model())
    ours = contexts.rows.ffn_in[torch.as_tensor(contexts.in_corpus)]
    assert len(ours) == len(rows.ffn_in) == 661
    assert torch.equal(torch.unique(ours, dim=0), torch.unique(rows.ffn_in, dim=0))


def test_every_context_is_weighted_once_and_rows_are_distinct(contexts):
    rows = contexts.rows
    assert len(rows.hidden) == 1506
    assert torch.allclose(rows.weight, torch.full_like(rows.weight, 1 / 1506))
    assert len(torch.unique(rows.ffn_in, dim=0)) == len(rows.ffn_in)
    assert torch.allclose(rows.ffn_out, stored_model()[0].layers[0].ffn.linear2(rows.hidden))


def test_row_of_points_each_scored_position_at_its_own_input(contexts):
    model, _ = stored_model()
    tokens, row_of = contexts.tokens, contexts.rows.row_of
    assert ((row_of >= 0) == (tokens[:, 1:] != 0)).all()
    name = "layers.0.hook_resid_mid"
    with torch.no_grad():
        _, cache = model.run_with_cache(tokens[:5, :-1], names_filter=[name])
        x = model.layers[0].sublayers[1].norm(cache[name])
    at = row_of[:5] >= 0
    assert torch.allclose(x[at], contexts.rows.ffn_in[row_of[:5][at]])


def test_a_fifth_of_the_contexts_is_held_out_by_a_seed(contexts):
    held = contexts.held_out
    assert held.sum() == round(0.2 * len(held)) == 301
    assert (grammar.held_out_contexts(len(held)) == held).all()
    assert not (grammar.held_out_contexts(len(held), seed=1) == held).all()


def test_fact_only_contexts_are_the_fact_lines_own(contexts):
    assert contexts.fact.sum() == 152  # 4 relations x 2 + 48 x 3: the fact lines' own prefixes
    assert (contexts.in_corpus[contexts.fact]).all()  # the corpus states every fact
    assert not np.array_equal(contexts.fact, contexts.in_corpus)
