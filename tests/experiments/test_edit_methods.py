"""experiments.edit_methods: the rank-one edit rewrites the fact where it is made and spares the
others, a scaled update is that fraction of it, ROME's safeguards do what they are for, the edit
at the subject writes at the fact's last subject token; knowledge neurons and fine-tuning (with and
without the L-infinity bound) change what they say and nothing else."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
import torch

from course_lib.core.experiments import edit_methods, fact_edits
from course_lib.core.experiments.facts import Fact
from course_lib.core.experiments.memory import attributions, fact_predictions
from course_lib.lessons.l06_locating_and_editing.experiments import editing


@pytest.fixture(scope="module")
def two():
    return editing.paraphrased_model()


def test_an_edit_where_the_trace_points_rewrites_the_fact_and_spares_the_others(two):
    model, corpus = two
    before = [p.detach().clone() for p in model.parameters()]
    top0, _ = fact_predictions(model, corpus)
    new = fact_edits.new_answer(corpus, 0)
    edited = edit_methods.rank_one_edit(model, corpus, 0, new, layer=1, position=5)
    top, _ = fact_predictions(edited, corpus)
    assert corpus.decode([top[0]]) == [new]
    assert (top[1:] != top0[1:]).sum() <= 2
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
    changed = edited.layers[1].ffn.linear2.weight - model.layers[1].ffn.linear2.weight
    assert torch.linalg.matrix_rank(changed) == 1


def test_a_scaled_update_is_that_fraction_of_the_update(two):
    model, corpus = two
    new = fact_edits.new_answer(corpus, 2)
    change = edit_methods.rank_one_update_for(model, corpus, 2, new, 1, 5)
    half = fact_edits.with_change(model, 1, change, 0.5)
    torch.testing.assert_close(
        half.layers[1].ffn.linear2.weight, model.layers[1].ffn.linear2.weight + 0.5 * change
    )


def test_romes_key_is_the_mean_over_the_subjects_contexts_and_its_kl_keeps_them(two):
    """ROME's recipe at the subject: k* averages the entity's four prompts' keys there; with the
    KL term, the entity's other prompts' next-word distributions move less than without it."""
    model, corpus = two
    contexts = edit_methods.subject_contexts(corpus, 0)
    entity = corpus.facts[0].entity
    assert len(contexts) == 4 and all(
        corpus.decode(c)[fact_edits.SUBJECT] == entity for c in contexts
    )
    new = fact_edits.new_answer(corpus, 0)
    others = contexts[1:] if torch.equal(contexts[0], corpus.prompts()[0][0]) else contexts

    def drift(recipe) -> float:
        edited = edit_methods.rank_one_edit(
            model, corpus, 0, new, 0, fact_edits.SUBJECT, recipe=recipe
        )
        with torch.no_grad():
            p, q = (m(others)[:, -1].log_softmax(-1) for m in (model, edited))
        return float((q.exp() * (q - p)).sum(-1).mean())

    assert drift(edit_methods.ROME) < drift(fact_edits.Recipe(averaged_key=True))


@dataclass(frozen=True)
class SubjectAtOf(Fact):
    """A fact whose subject is said to be "<relation> of" (positions 2 and 3), not the entity."""

    @property
    def subject_positions(self) -> tuple[int, ...]:
        return (2, 3)


def test_an_edit_at_the_subject_writes_at_the_facts_last_subject_token(two):
    """By default the rank-one edit writes where the fact's subject ends: at 4 for lesson 5's
    facts, at 3 for facts that say their subject ends there."""
    model, corpus = two
    moved = replace(corpus, facts=tuple(SubjectAtOf(f.entity, f.relation, f.answer)
                                        for f in corpus.facts))  # fmt: skip
    new = fact_edits.new_answer(corpus, 0)

    def W2(edited):
        return edited.layers[0].ffn.linear2.weight

    at_four = W2(edit_methods.rank_one_edit(model, corpus, 0, new, 0))
    at_three = W2(edit_methods.rank_one_edit(model, moved, 0, new, 0))
    torch.testing.assert_close(at_four, W2(edit_methods.rank_one_edit(model, corpus, 0, new, 0, 4)))
    torch.testing.assert_close(
        at_three, W2(edit_methods.rank_one_edit(model, corpus, 0, new, 0, 3))
    )
    assert not torch.allclose(at_three, at_four)


def test_a_neuron_edit_moves_the_top_units_values_by_the_strength(two):
    model, corpus = two
    new = fact_edits.new_answer(corpus, 0)
    scores = attributions(model, corpus)
    edited = edit_methods.neuron_edit(model, corpus, 0, new, top=3, scores=scores, strength=0.25)
    old_id, new_id = corpus.encode([corpus.facts[0].answer, new])
    top = scores[0].flatten().topk(3).indices.tolist()
    shift = 0.25 * (model.unembedding[new_id] - model.unembedding[old_id])
    for layer in range(2):
        change = edited.layers[layer].ffn.linear2.weight - model.layers[layer].ffn.linear2.weight
        for unit in range(model.d_ff):
            expected = shift if layer * model.d_ff + unit in top else torch.zeros_like(shift)
            torch.testing.assert_close(change[:, unit], expected.detach())


def test_fine_tuning_changes_that_layers_w2_alone_and_ft_l_stays_within_its_bound(two):
    model, corpus = two
    new = fact_edits.new_answer(corpus, 1)
    free = edit_methods.fine_tune_edit(model, corpus, 1, new, layer=1, steps=10)
    bound = edit_methods.fine_tune_edit(model, corpus, 1, new, layer=1, steps=10, bound=0.004)
    for edited in (free, bound):
        moved = [n for (n, a), b in zip(model.named_parameters(), edited.parameters(), strict=True)
                 if not torch.equal(a, b)]  # fmt: skip
        assert moved == ["layers.1.ffn.linear2.weight"]
    change = lambda m: m.layers[1].ffn.linear2.weight - model.layers[1].ffn.linear2.weight  # noqa: E731
    assert change(bound).abs().max() <= 0.004 + 1e-15 < change(free).abs().max()
    assert corpus.decode([fact_predictions(free, corpus)[0][1]]) == [new]
    steps = [step for step, _ in edit_methods.fine_tune_steps(model, corpus, 1, new, 1, steps=4)]
    assert steps == [1, 2, 3, 4]


def test_the_three_knowledge_neuron_edits_are_the_ones_their_codes_make(two):
    """The course's edit is neuron_change's; Meng et al.'s (rome's KN baseline) changes every
    unit above 0.2 x the largest attribution by e(new) - 2 e(top word); Dai et al.'s adds
    8 |v_i| e(new)/|e(new)| and takes |v_i| e(old)/|e(old)|."""
    model, corpus = two
    scores, new = attributions(model, corpus), fact_edits.new_answer(corpus, 14)
    course = edit_methods.neuron_form_change(model, corpus, 14, new, edit_methods.COURSE_NEURONS,
                                             scores)  # fmt: skip
    for layer, change in edit_methods.neuron_change(model, corpus, 14, new, scores=scores).items():
        torch.testing.assert_close(course[layer], change)
    units = edit_methods.neuron_units(scores, 14, None)
    largest = float(scores[14].max())
    above = (scores[14] > 0.2 * largest).nonzero().tolist()
    assert sorted(units) == sorted(map(tuple, above)) and len(units) > 5
    old_id, new_id = corpus.encode([corpus.facts[14].answer, new])
    E = model.unembedding.detach()
    meng = edit_methods.neuron_form_change(
        model, corpus, 14, new, edit_methods.MENG_NEURONS, scores
    )
    dai = edit_methods.neuron_form_change(model, corpus, 14, new, edit_methods.DAI_NEURONS, scores)
    for layer in range(2):
        for unit in range(model.d_ff):
            zero = torch.zeros(model.d_model, dtype=E.dtype)
            if (layer, unit) not in units:
                assert torch.equal(meng[layer][:, unit], zero)
                assert torch.equal(dai[layer][:, unit], zero)
                continue
            torch.testing.assert_close(meng[layer][:, unit], E[new_id] - 2 * E[old_id])
            v = model.layers[layer].ffn.linear2.weight[:, unit].detach()
            expected = (
                8 * v.norm() * E[new_id] / E[new_id].norm()
                - v.norm() * E[old_id] / E[old_id].norm()
            )
            torch.testing.assert_close(dai[layer][:, unit], expected)


def test_many_fine_tunings_at_once_are_each_the_one_fine_tuning_makes(two):
    """fine_tune_changes runs each row on its own copy of W2 through the hook points: the same
    change as fine_tune_steps, free and within an FT+L bound, each row with its own bound."""
    model, corpus = two
    prompts, _ = corpus.prompts()
    facts = [1, 17]
    news = [fact_edits.new_answer(corpus, f) for f in facts]
    ids = torch.tensor(corpus.encode(news))
    for bounds in (None, [0.004, 0.002]):
        seen = list(edit_methods.fine_tune_changes(model, prompts[facts], ids, 1, 6, bounds=bounds))
        assert [step for step, *_ in seen] == list(range(7))
        _, change, p = seen[-1]
        for row, (fact, new) in enumerate(zip(facts, news, strict=True)):
            bound = None if bounds is None else bounds[row]
            tuned = edit_methods.fine_tune_edit(model, corpus, fact, new, 1, steps=6, bound=bound)
            W2 = lambda m: m.layers[1].ffn.linear2.weight.detach()  # noqa: E731
            torch.testing.assert_close(change[row], W2(tuned) - W2(model), atol=1e-12, rtol=0)
            with torch.no_grad():
                alone = tuned(prompts[fact : fact + 1])[0, -1].softmax(-1)[ids[row]]
            assert p[row] == pytest.approx(float(alone), abs=1e-12)
            if bound is not None:
                assert change[row].abs().max() <= bound + 1e-15
