"""experiments.editing: causal tracing restores exactly what the corruption can reach, at every
site; the rank-one update is the least-squares edit it claims to be, the value search follows the
gradient it computes, ROME's safeguards do what they are for; knowledge neurons and fine-tuning
(with and without the L-infinity bound) change what they say and nothing else."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments import fact_edits
from course_lib.core.experiments.memory import attributions, fact_predictions
from course_lib.core.model.transformer import create_sequence_mask
from course_lib.lessons.l06_locating_and_editing.experiments import editing


@pytest.fixture(scope="module")
def two():
    return editing.paraphrased_model()


@pytest.mark.parametrize("site", editing.SITES)
def test_restoring_before_the_subject_changes_nothing_and_the_last_stream_all(two, site):
    model, corpus = two
    trace = editing.causal_trace(model, corpus, site, samples=2)
    rows = 3 if site == "stream" else 2
    assert trace.restored.shape == (48, rows, 6)
    assert trace.corrupted.mean() < 0.5 * trace.clean.mean()  # the corruption bites
    # causal attention: the noise at the subject cannot reach earlier positions
    before = trace.restored[:, :, : fact_edits.SUBJECT]
    np.testing.assert_allclose(
        before, np.broadcast_to(trace.corrupted[:, None, None], before.shape)
    )
    if site == "stream":  # by construction: the input at the subject, the last state at the end
        np.testing.assert_allclose(trace.restored[:, 0, fact_edits.SUBJECT], trace.clean)
        np.testing.assert_allclose(trace.restored[:, -1, -1], trace.clean)
    one = (trace.restored[3] - trace.corrupted[3]) / (trace.clean[3] - trace.corrupted[3])
    np.testing.assert_allclose(trace.effect(3), one)
    np.testing.assert_allclose(trace.effect(), np.mean([trace.effect(i) for i in range(48)], 0))


def test_a_restored_attention_output_is_that_of_the_clean_run(two):
    """Restoring layer 1's attention at the last word with the clean run's own output, in a clean
    run, changes nothing; in the corrupted run it is what the trace measures."""
    model, corpus = two
    prompts, answers = corpus.prompts()
    kept = editing.states(model, prompts, "attention")
    assert len(kept) == 2 and kept[1].shape == (48, 6, model.d_model)
    with torch.no_grad():  # the site is the attention's own output: attn(LN(x)) of the stream
        stream = editing.states(model, prompts, "stream")[1]  # entering layer 1
        h = model.layers[1].sublayers[0].norm(stream)
        by_hand = model.layers[1].self_attn(h, h, h, create_sequence_mask(prompts.shape[1]))
    torch.testing.assert_close(kept[1], by_hand, atol=0, rtol=0)

    def restore(out, _hook):
        out = out.clone()
        out[:, -1] = kept[1][:, -1]
        return out

    attention = [("layers.1.self_attn.hook_out", restore)]
    with torch.no_grad():
        p = model.run_with_hooks(prompts, fwd_hooks=attention)[:, -1].softmax(-1)
    p = p[torch.arange(48), answers]
    np.testing.assert_allclose(p.numpy(), editing.causal_trace(model, corpus, "stream", 1).clean)


def test_a_site_the_trace_does_not_know_is_named(two):
    model, corpus = two
    with pytest.raises(ValueError, match=r"site must be one of \['stream', 'attention', 'ffn'\]"):
        editing.causal_trace(model, corpus, "mlp", samples=1)


def test_an_edit_where_the_trace_points_rewrites_the_fact_and_spares_the_others(two):
    model, corpus = two
    before = [p.detach().clone() for p in model.parameters()]
    top0, _ = fact_predictions(model, corpus)
    new = fact_edits.new_answer(corpus, 0)
    edited = editing.rank_one_edit(model, corpus, 0, new, layer=1, position=5)
    top, _ = fact_predictions(edited, corpus)
    assert corpus.decode([top[0]]) == [new]
    assert (top[1:] != top0[1:]).sum() <= 2
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
    changed = edited.layers[1].ffn.linear2.weight - model.layers[1].ffn.linear2.weight
    assert torch.linalg.matrix_rank(changed) == 1


def test_a_scaled_update_is_that_fraction_of_the_update(two):
    model, corpus = two
    change = editing.rank_one_update_for(model, corpus, 2, fact_edits.new_answer(corpus, 2), 1, 5)
    half = fact_edits.with_change(model, 1, change, 0.5)
    torch.testing.assert_close(
        half.layers[1].ffn.linear2.weight, model.layers[1].ffn.linear2.weight + 0.5 * change
    )


def test_romes_key_is_the_mean_over_the_subjects_contexts_and_its_kl_keeps_them(two):
    """ROME's recipe at the subject: k* averages the entity's four prompts' keys there; with the
    KL term, the entity's other prompts' next-word distributions move less than without it."""
    model, corpus = two
    contexts = editing.subject_contexts(corpus, 0)
    entity = corpus.facts[0].entity
    assert len(contexts) == 4 and all(
        corpus.decode(c)[fact_edits.SUBJECT] == entity for c in contexts
    )
    new = fact_edits.new_answer(corpus, 0)
    others = contexts[1:] if torch.equal(contexts[0], corpus.prompts()[0][0]) else contexts

    def drift(recipe) -> float:
        edited = editing.rank_one_edit(model, corpus, 0, new, 0, fact_edits.SUBJECT, recipe=recipe)
        with torch.no_grad():
            p, q = (m(others)[:, -1].log_softmax(-1) for m in (model, edited))
        return float((q.exp() * (q - p)).sum(-1).mean())

    assert drift(editing.ROME) < drift(fact_edits.Recipe(averaged_key=True))


def test_a_neuron_edit_moves_the_top_units_values_by_the_strength(two):
    model, corpus = two
    new = fact_edits.new_answer(corpus, 0)
    scores = attributions(model, corpus)
    edited = editing.neuron_edit(model, corpus, 0, new, top=3, scores=scores, strength=0.25)
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
    free = editing.fine_tune_edit(model, corpus, 1, new, layer=1, steps=10)
    bound = editing.fine_tune_edit(model, corpus, 1, new, layer=1, steps=10, bound=0.004)
    for edited in (free, bound):
        moved = [n for (n, a), b in zip(model.named_parameters(), edited.parameters(), strict=True)
                 if not torch.equal(a, b)]  # fmt: skip
        assert moved == ["layers.1.ffn.linear2.weight"]
    change = lambda m: m.layers[1].ffn.linear2.weight - model.layers[1].ffn.linear2.weight  # noqa: E731
    assert change(bound).abs().max() <= 0.004 + 1e-15 < change(free).abs().max()
    assert corpus.decode([fact_predictions(free, corpus)[0][1]]) == [new]
    steps = [step for step, _ in editing.fine_tune_steps(model, corpus, 1, new, 1, steps=4)]
    assert steps == [1, 2, 3, 4]


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
