"""experiments.fact_edits: the rank-one update is the least-squares edit it claims to be, the
value search follows the gradient it computes, and each fact is rewritten to another answer of its
relation."""

from __future__ import annotations

import pytest
import torch

from course_lib.core.experiments import fact_edits
from course_lib.core.experiments.fact_edits import rank_one_update
from course_lib.core.experiments.memory import stored_model


@pytest.fixture(scope="module")
def two():
    return stored_model()


def random_case(seed: int = 0, d_out: int = 5, d_ff: int = 7, n: int = 40):
    g = torch.Generator().manual_seed(seed)
    W = torch.randn(d_out, d_ff, generator=g, dtype=torch.float64)
    K = torch.randn(n, d_ff, generator=g, dtype=torch.float64)  # the corpus' keys
    k, v = torch.randn(d_ff, generator=g, dtype=torch.float64), torch.randn(d_out, generator=g)
    return W, K, K.T @ K / n, k, v.double()


def test_the_rank_one_update_stores_the_value_and_spares_keys_orthogonal_in_c_inverse():
    W, _, C, k, v = random_case()
    new = rank_one_update(W, k, v, C, ridge=0.0)
    assert torch.linalg.matrix_rank(new - W) == 1
    torch.testing.assert_close(new @ k, v)
    u = torch.linalg.solve(C, k)
    other = torch.randn(7, dtype=torch.float64, generator=torch.Generator().manual_seed(5))
    other = other - (other @ u) / (u @ u) * u  # other^T C^-1 k = 0
    torch.testing.assert_close(new @ other, W @ other)


def test_the_rank_one_update_is_the_least_squares_edit_that_stores_the_value():
    """Among all W' with W' k = v, it minimises sum over the keys of |W' k_i - W k_i|^2: checked
    against the constrained least squares solved directly (its KKT system)."""
    W, K, C, k, v = random_case(seed=2)
    d_out, d_ff = W.shape
    A = torch.kron(torch.eye(d_out, dtype=torch.float64), C)
    B = torch.kron(torch.eye(d_out, dtype=torch.float64), k[None, :])  # W' k = v
    top = torch.cat([A, B.T], dim=1)
    bottom = torch.cat([B, torch.zeros(d_out, d_out, dtype=torch.float64)], dim=1)
    rhs = torch.cat([(W @ C).reshape(-1), v])
    solution = torch.linalg.solve(torch.cat([top, bottom]), rhs)[: d_out * d_ff]
    torch.testing.assert_close(rank_one_update(W, k, v, C, ridge=0.0), solution.reshape(W.shape))


def test_the_value_search_follows_a_gradient_a_finite_difference_confirms(two):
    model, corpus = two
    prompts, _ = corpus.prompts()
    prompt, new = prompts[:1], corpus.encode([corpus.facts[4].answer])[0]
    delta = torch.zeros(model.d_model, dtype=torch.float64, requires_grad=True)
    loss = fact_edits.value_loss(model, prompt, new, 1, delta, position=5)
    (grad,) = torch.autograd.grad(loss, [delta])
    step = 1e-6
    with torch.no_grad():
        for i in (0, 7, 33):
            e = torch.zeros_like(delta)
            e[i] = step
            up = fact_edits.value_loss(model, prompt, new, 1, delta + e, position=5)
            down = fact_edits.value_loss(model, prompt, new, 1, delta - e, position=5)
            assert abs((up - down).item() / (2 * step) - grad[i].item()) < 1e-6
    assert all(p.grad is None for p in model.parameters())  # the model's weights untouched


def test_each_fact_is_rewritten_to_another_answer_of_its_relation(two):
    _, corpus = two
    for i, fact in enumerate(corpus.facts):
        new = fact_edits.new_answer(corpus, i)
        assert new != fact.answer
        assert new in {f.answer for f in corpus.facts if f.relation == fact.relation}
    shifted = [fact_edits.new_answer(corpus, 0, shift) for shift in range(3)]
    assert len(set(shifted)) == 3 and shifted[0] == fact_edits.new_answer(corpus, 0)
    with pytest.raises(ValueError, match="shift"):
        fact_edits.new_answer(corpus, 0, -1)


def test_many_value_searches_at_once_are_each_the_one_search_makes():
    """target_values: without a stopping rule each row is target_value's v*; with one, a single
    search (target_value delegates) and the batch agree, and a checkpoint is what a search
    capped there returns."""
    from dataclasses import replace

    from course_lib.core.experiments import edit_methods
    from course_lib.lessons.l06_locating_and_editing.experiments import editing

    model, corpus = editing.paraphrased_model()
    prompts, _ = corpus.prompts()
    facts = [0, 17, 30]
    ids = torch.tensor(corpus.encode([fact_edits.new_answer(corpus, f) for f in facts]))
    others = torch.stack([edit_methods.other_prompts(corpus, f) for f in facts])
    for recipe in (fact_edits.PLAIN, edit_methods.ROME):
        batch = fact_edits.target_values(model, prompts[facts], ids, 0, 4, recipe, others)
        for row, fact in enumerate(facts):
            alone = fact_edits.target_value(model, prompts[fact : fact + 1], int(ids[row]), 0, 4,
                                            recipe, others[row])  # fmt: skip
            torch.testing.assert_close(batch.values[row], alone, atol=1e-11, rtol=0)
    rule = replace(fact_edits.CONVERGED, steps=60)
    batch = fact_edits.target_values(model, prompts[facts], ids, 0, 4, rule, checkpoints=(20,))
    capped = fact_edits.target_values(model, prompts[facts], ids, 0, 4, replace(rule, steps=20))
    torch.testing.assert_close(batch.checkpoints[20], capped.values, atol=1e-11, rtol=0)
    for row, fact in enumerate(facts):
        alone = fact_edits.target_value(model, prompts[fact : fact + 1], int(ids[row]), 0, 4, rule)
        torch.testing.assert_close(batch.values[row], alone, atol=1e-11, rtol=0)
    assert ((batch.loss < 0.05) == batch.stopped).all() and (batch.steps <= 60).all()
    assert (batch.loss <= batch.checkpoint_loss[20] + 1e-15).all()  # the best, not the last


def test_a_search_stops_below_its_threshold_and_keeps_its_best_value():
    """The last word's v* passes loss 0.05 within a few steps and stops there; a search that
    keeps its best returns the v* whose loss is lowest of all it met."""
    from dataclasses import replace

    from course_lib.lessons.l06_locating_and_editing.experiments import editing

    model, corpus = editing.paraphrased_model()
    prompts, _ = corpus.prompts()
    ids = torch.tensor(corpus.encode([fact_edits.new_answer(corpus, 0)]))
    found = fact_edits.target_values(model, prompts[:1], ids, 1, 5, fact_edits.CONVERGED)
    assert found.stopped[0] and 0 < found.steps[0] < 20 and found.loss[0] < 0.05
    losses = []
    for steps in range(found.steps[0] + 1):
        plain = replace(fact_edits.PLAIN, steps=steps)
        v = fact_edits.target_value(model, prompts[:1], int(ids[0]), 1, 5, plain)
        delta = v - fact_edits.ffn_output(model, prompts[:1], 1)[0, 5]
        with torch.no_grad():
            losses.append(
                float(fact_edits.value_loss(model, prompts[:1], int(ids[0]), 1, delta, 5))
            )
    assert min(losses) == pytest.approx(found.loss[0], abs=1e-12) and losses[-1] < 0.05
    assert all(loss >= 0.05 for loss in losses[:-1])
