"""experiments.edit_measures, what lesson 6's sweep adds: many edited copies read in one forward
pass through the hook points read as each copy alone, and an edit read at a target p(new) is
interpolated between the two strengths that bracket it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments import edit_measures, edit_methods, fact_edits
from course_lib.core.experiments.edit_measures import METRICS
from course_lib.lessons.l06_locating_and_editing.experiments import editing


@pytest.fixture(scope="module")
def two():
    return editing.paraphrased_model()


def test_copies_read_at_once_are_each_read_as_the_edited_model_alone(two):
    model, corpus = two
    new = fact_edits.new_answer(corpus, 5)
    subject = edit_methods.rank_one_update_for(model, corpus, 5, new, 0, 4)  # layer 0
    neurons = edit_methods.neuron_change(model, corpus, 5, new)  # both layers
    scales = [0.0, 0.5, 1.5]
    cases = [
        ({0: torch.stack([s * subject for s in scales])},
         [fact_edits.with_change(model, 0, subject, s) for s in scales]),
        ({layer: torch.stack([s * c for s in scales]) for layer, c in neurons.items()},
         [edit_methods.neuron_edit(model, corpus, 5, new, strength=s) for s in scales]),
    ]  # fmt: skip
    for changes, copies in cases:
        metrics, changed = edit_measures.measure_changed(model, corpus, 5, new, changes)
        for row, copy in enumerate(copies):
            alone, flips = edit_measures.measure(model, copy, corpus, 5, new)
            np.testing.assert_allclose(metrics[row], alone, atol=1e-12, rtol=0)
            np.testing.assert_array_equal(changed[row], flips)
        prompts = corpus.prompts()[0][[5, 5, 5]]
        answers = torch.tensor(corpus.encode([new] * 3))
        p = edit_measures.p_after_changed(model, prompts, answers, changes)
        np.testing.assert_allclose(p, metrics[:, METRICS.index("p(new)")], atol=1e-12, rtol=0)
    assert changed[0].sum() == 0 and metrics[0, METRICS.index("neighbourhood")] == 1


def _sweep(p_new, neighbourhood):
    rows = np.zeros((len(p_new), len(p_new[0]), len(METRICS)))
    rows[..., METRICS.index("p(new)")] = p_new
    rows[..., METRICS.index("neighbourhood")] = neighbourhood
    return rows


def test_an_edit_is_read_between_the_first_two_strengths_that_bracket_the_target():
    rows = _sweep([[0.0, 0.5, 0.8, 1.0], [0.0, 0.2, 0.3, 0.4], [0.0, 0.95, 0.6, 0.97]],
                  [[1.0, 0.8, 0.5, 0.0], [1.0, 1.0, 1.0, 1.0], [1.0, 0.1, 0.0, 0.0]])  # fmt: skip
    read, reached, width = edit_measures.interpolated(rows, 0.9)
    assert reached.tolist() == [True, False, True]
    assert read[0, METRICS.index("p(new)")] == pytest.approx(0.9)
    assert read[0, METRICS.index("neighbourhood")] == pytest.approx(0.25)  # half-way, 0.5 to 0
    assert np.isnan(read[1]).all() and np.isnan(width[1])
    # the first crossing, not a later one: between 0 and 0.95, a share 0.9 / 0.95 of the way
    assert read[2, METRICS.index("neighbourhood")] == pytest.approx(1 - 0.9 / 0.95 * 0.9)
    assert width[[0, 2]].tolist() == pytest.approx([0.2, 0.95])
