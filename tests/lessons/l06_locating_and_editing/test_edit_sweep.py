"""experiments.edit_sweep: an edit is measured the way CounterFact measures it (and with the
course's top-1 measures), the scores combine as Meng et al.'s code combines them, and the stored
sweep is what sweeping now gives. (The sweep itself is the core's: tests/experiments/
test_edit_sweep.py.)"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments import edit_measures, edit_methods, edit_sweep, fact_edits
from course_lib.core.experiments.memory import next_token_loss
from course_lib.lessons.l06_locating_and_editing.experiments import editing
from course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep import stored_sweep
from devtools.spread.record import check_fresh_run


@pytest.fixture(scope="module")
def two():
    return editing.paraphrased_model()


def test_one_forward_pass_reads_every_prompt_and_the_filler_loss(two):
    """The prompts padded after their last word predict what they predict alone (the model is
    causal), and the filler loss is next_token_loss on the filler lines."""
    model, corpus = two
    p, top, loss = edit_measures.read(model, corpus)
    prompts = torch.cat([corpus.prompts(x)[0] for x in (False, True)])
    with torch.no_grad():
        alone = model(prompts)[:, -1].softmax(-1)
        filler = float(next_token_loss(model, edit_measures.filler_tokens(corpus)))
    torch.testing.assert_close(p, alone)
    assert (
        loss == pytest.approx(filler, abs=1e-12) and len(edit_measures.filler_tokens(corpus)) == 64
    )
    np.testing.assert_array_equal(top, alone[:48].argmax(-1).numpy())


def test_an_unedited_copy_measures_as_nothing_changed(two):
    model, corpus = two
    new = fact_edits.new_answer(corpus, 5)
    metrics, changed = edit_measures.measure(
        model, fact_edits.with_change(model, 1, torch.zeros(64, 256)), corpus, 5, new
    )
    row = dict(zip(edit_measures.METRICS, metrics, strict=True))
    p, _, _ = edit_measures.read(model, corpus)
    old_id, new_id = corpus.encode([corpus.facts[5].answer, new])
    assert row["p(new)"] == pytest.approx(float(p[5, new_id])) and row["p(old)"] > 0.9
    assert row["efficacy"] == row["top-1"] == row["paraphrase"] == row["paraphrase top-1"] == 0
    assert row["neighbourhood"] == row["other entities kept"] == row["same entity kept"] == 1
    assert row["filler loss change"] == 0 and not changed.any()


def test_neighbours_share_the_relation_and_the_true_answer_and_no_capital_has_one(two):
    _, corpus = two
    for fact in range(48):
        near = edit_measures.neighbours(corpus, fact)
        f = corpus.facts[fact]
        assert all(corpus.facts[i].relation == f.relation and corpus.facts[i].answer == f.answer
                   and i != fact for i in near)  # fmt: skip
        if f.relation == "capital":
            assert near == []
    with_neighbours = [f for i, f in enumerate(corpus.facts) if edit_measures.neighbours(corpus, i)]
    assert len(with_neighbours) == 30  # 6 facts' answers no other entity shares
    assert {f.relation for f in with_neighbours} == {"colour", "food", "animal"}


def test_a_rewrite_that_takes_is_measured_as_taking(two):
    model, corpus = two
    new = fact_edits.new_answer(corpus, 5)
    edited = edit_methods.rank_one_edit(model, corpus, 5, new, 1, 5)
    metrics, changed = edit_measures.measure(model, edited, corpus, 5, new)
    row = dict(zip(edit_measures.METRICS, metrics, strict=True))
    assert row["efficacy"] == row["top-1"] == 1 and row["p(new)"] > 0.5 and changed[5]
    assert 0 <= row["neighbourhood"] <= 1 and row["other entities kept"] > 0.5


def _rows(**columns) -> np.ndarray:
    rows = np.zeros((len(next(iter(columns.values()))), len(edit_measures.METRICS)))
    for name, values in columns.items():
        rows[:, edit_measures.METRICS.index(name.replace("_", " "))] = values
    return rows


def test_counterfact_scores_are_shares_in_percent_and_their_harmonic_mean():
    rows = _rows(efficacy=[1, 1, 1, 0], paraphrase=[1, 0, 1, 0],
                 neighbourhood=[0.5, np.nan, 1.0, 0.0])  # fmt: skip
    scores = edit_measures.counterfact(rows)
    assert scores["ES"] == 75 and scores["PS"] == 50 and scores["NS"] == pytest.approx(50)
    assert scores["S"] == pytest.approx(3 / (1 / 75 + 1 / 50 + 1 / 50))
    assert (
        edit_measures.counterfact(_rows(efficacy=[0], paraphrase=[1], neighbourhood=[1]))["S"] == 0
    )


def test_the_stored_sweep_covers_every_edit_of_every_method():
    sweep = stored_sweep()
    assert len(sweep.edits) == 144 and sweep.before.shape == (144, 4)
    for method in edit_sweep.METHODS:
        assert sweep.results[method.name].shape == (
            144,
            edit_sweep.STRENGTHS,
            len(edit_measures.METRICS),
        )
        assert sweep.changed[method.name].shape == (144, edit_sweep.STRENGTHS, 48)
    _, corpus = editing.paraphrased_model()
    assert sweep.edits[:3] == tuple((0, fact_edits.new_answer(corpus, 0, s)) for s in range(3))


def test_the_stored_sweep_is_what_sweeping_one_edit_now_gives():
    """Fact 17 rewritten to its first new answer by every method at every strength: the file's
    measurements (rebuilt by python -m course_lib.lessons.l06_locating_and_editing.experiments.edit_sweep). Tolerance: 10 × the
    spread make spread measured (at most 6.5e-07, docs/spread.md); counts exactly their
    spread."""
    check_fresh_run("edit sweep: fact 17, first answer")


def test_c_from_filler_is_taken_over_the_lines_that_state_no_fact_only():
    model, corpus = editing.paraphrased_model()
    lines = fact_edits.fact_free_lines(corpus)
    sentences = {f.sentence for f in corpus.facts} | {f.paraphrased_sentence for f in corpus.facts}
    assert lines and all(corpus.lines[i] not in sentences for i in lines)
    stating = [i for i, line in enumerate(corpus.lines) if line in sentences]
    assert stating and sorted(lines + stating) == list(range(len(corpus.lines)))
    tokens = corpus.tokens()[lines]
    with torch.no_grad():
        k = fact_edits.keys(model, tokens, 1)[tokens != 0]
    expected = k.T @ k / len(k)
    C = fact_edits.key_covariance(model, corpus, 1, facts=False)
    assert torch.allclose(C, expected)
    assert not torch.allclose(C, fact_edits.key_covariance(model, corpus, 1), atol=1e-3)
