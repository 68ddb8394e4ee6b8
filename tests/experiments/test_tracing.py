"""experiments.tracing: causal tracing restores exactly what the corruption can reach, at every
site, and corrupts each fact's subject wherever ``Fact.subject_positions`` puts it, one token or
several, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest
import torch

from course_lib.core.experiments import fact_edits, tracing
from course_lib.core.experiments.facts import Fact
from course_lib.core.model.transformer import create_sequence_mask
from course_lib.core.threads import torch_threads
from course_lib.lessons.l06_locating_and_editing.experiments import editing


@pytest.fixture(scope="module")
def two():
    return editing.paraphrased_model()


@pytest.mark.parametrize("site", tracing.SITES)
def test_restoring_before_the_subject_changes_nothing_and_the_last_stream_all(two, site):
    model, corpus = two
    trace = tracing.causal_trace(model, corpus, site, samples=2)
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


@pytest.mark.parametrize("site", tracing.SITES)
def test_the_trace_skips_only_restorations_that_change_nothing(two, site):
    """The trace does not run a restoration before the subject: it records the corrupted run's p.
    Run by hand, with the trace's own noise, every such restoration gives that p, bit for bit."""
    model, corpus = two
    prompts, answers = corpus.prompts()
    trace = tracing.causal_trace(model, corpus, site, samples=1)
    with torch.no_grad(), torch_threads(1):  # as the trace computes them
        kept, embedded = tracing.states(model, prompts, site), model.embed(prompts)
    (noise,) = tracing._noises(embedded, 1, 1, 0)
    scale = tracing.NOISE * float(embedded.std())

    def corrupt(out, _hook):
        out = out.clone()
        out[:, [fact_edits.SUBJECT]] += scale * noise
        return out

    for row in range(len(kept)):
        for position in range(fact_edits.SUBJECT):

            def restore(out, _hook, row=row, position=position):
                out = out.clone()
                out[:, position] = kept[row][:, position]
                return out

            hooks = [("hook_embed", corrupt), (tracing._site(site, row), restore)]
            with torch.no_grad(), torch_threads(1), model.hooks(hooks):
                p = tracing._answer_p(model, prompts, answers)
            np.testing.assert_array_equal(p.numpy(), trace.restored[:, row, position])
            np.testing.assert_array_equal(p.numpy(), trace.corrupted)


def test_a_restored_attention_output_is_that_of_the_clean_run(two):
    """Restoring layer 1's attention at the last word with the clean run's own output, in a clean
    run, changes nothing; in the corrupted run it is what the trace measures."""
    model, corpus = two
    prompts, answers = corpus.prompts()
    kept = tracing.states(model, prompts, "attention")
    assert len(kept) == 2 and kept[1].shape == (48, 6, model.d_model)
    with torch.no_grad():  # the site is the attention's own output: attn(LN(x)) of the stream
        stream = tracing.states(model, prompts, "stream")[1]  # entering layer 1
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
    np.testing.assert_allclose(p.numpy(), tracing.causal_trace(model, corpus, "stream", 1).clean)


def test_a_site_the_trace_does_not_know_is_named(two):
    model, corpus = two
    with pytest.raises(ValueError, match=r"site must be one of \['stream', 'attention', 'ffn'\]"):
        tracing.causal_trace(model, corpus, "mlp", samples=1)


# ---- a subject at several positions


@dataclass(frozen=True)
class WideSubject(Fact):
    """A fact whose subject is read as two tokens, "of velor" (positions 3 and 4)."""

    @property
    def subject_positions(self) -> tuple[int, ...]:
        return (3, 4)


def _widened(corpus, kind=WideSubject, every: bool = True):
    facts = tuple(kind(f.entity, f.relation, f.answer) if every or i else f
                  for i, f in enumerate(corpus.facts))  # fmt: skip
    return replace(corpus, facts=facts)


def test_a_one_token_subject_draws_the_noise_it_always_drew(two):
    """One draw of shape (facts, d_model) per sample from the seed, as before subjects could span
    tokens: lesson 6's traces keep their numbers."""
    model, corpus = two
    embedded = model.embed(corpus.prompts()[0]).detach()
    g = torch.Generator().manual_seed(7)
    old = [torch.randn(embedded[:, 4].shape, generator=g, dtype=embedded.dtype) for _ in range(3)]
    new = tracing._noises(embedded, 1, 3, seed=7)
    assert [n.shape for n in new] == [(48, 1, model.d_model)] * 3
    for a, b in zip(old, new, strict=True):
        torch.testing.assert_close(b[:, 0], a, atol=0, rtol=0)


def test_a_two_token_subject_is_corrupted_at_both_positions_and_nowhere_else(two):
    """Restoring the input at a position outside the subject restores exactly nothing (it was
    never corrupted); restoring one of the subject's two positions leaves the other corrupted, so
    p(answer) stays short of the clean run; and the corruption is not that of one position."""
    model, corpus = two
    wide = tracing.causal_trace(model, _widened(corpus), "stream", samples=2)
    one = tracing.causal_trace(model, corpus, "stream", samples=2)
    np.testing.assert_array_equal(wide.clean, one.clean)
    assert not np.allclose(wide.corrupted, one.corrupted)
    for outside in (0, 1, 2, 5):
        np.testing.assert_array_equal(wide.restored[:, 0, outside], wide.corrupted)
    for inside in (3, 4):
        restored = wide.restored[:, 0, inside]
        assert not np.allclose(restored, wide.corrupted)
        assert restored.mean() < 0.9 * wide.clean.mean()  # the other position still corrupted
    np.testing.assert_allclose(one.restored[:, 0, 4], one.clean)  # one token: restoring it is all


def test_facts_whose_subjects_stand_at_different_positions_are_refused(two):
    _, corpus = two
    assert tracing.subject_positions(corpus) == (4,)
    assert tracing.subject_positions(_widened(corpus)) == (3, 4)
    with pytest.raises(ValueError, match=r"share one subject_positions, got \[\(3, 4\), \(4,\)\]"):
        tracing.subject_positions(_widened(corpus, every=False))
