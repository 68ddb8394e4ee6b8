"""experiments.edit_sweep: every method has its six strengths, the matched comparison takes each
edit at the weakest strength that reaches the target, Spearman's ρ is the correlation of ranks; a
sweep of some methods is what the whole sweep gives for them, the edits at the subject are made
at the fact's last subject token, and p(new), p(old) before an edit are read after the paraphrase
in the paraphrase's own words."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest
import torch

from course_lib.core.experiments import edit_measures, edit_sweep, fact_edits
from course_lib.core.experiments.facts import Fact
from course_lib.lessons.l06_locating_and_editing.experiments import editing


@pytest.fixture(scope="module")
def two():
    return editing.paraphrased_model()


def test_the_matched_edit_is_the_weakest_strength_reaching_the_target():
    p_new = np.array([[0.1, 0.5, 0.95, 0.99], [0.1, 0.2, 0.3, 0.4]])  # two edits, four strengths
    results = np.zeros((2, 4, len(edit_measures.METRICS)))
    results[..., edit_measures.METRICS.index("p(new)")] = p_new
    results[..., edit_measures.METRICS.index("filler loss change")] = np.arange(
        4
    )  # marks the strength
    sweep = edit_sweep.Sweep({"m": results}, {}, np.zeros((2, 4)), ((0, "a"), (1, "b")))
    rows, reached = edit_sweep.at_least(sweep, "m", 0.9)
    assert reached.tolist() == [True, False]
    assert rows[:, edit_measures.METRICS.index("filler loss change")].tolist() == [
        2,
        3,
    ]  # else the strongest


def test_spearman_is_the_correlation_of_ranks():
    assert edit_sweep.spearman(
        np.array([1, 2, 3, 4]), np.array([10, 20, 30, 400])
    ) == pytest.approx(1)
    assert edit_sweep.spearman(np.array([1, 2, 3, 4]), np.array([4, 3, 2, 1])) == pytest.approx(-1)
    ties = edit_sweep.spearman(np.array([1, 1, 2, 3]), np.array([1, 2, 3, 4]))
    assert ties == pytest.approx(np.corrcoef([1.5, 1.5, 3, 4], [1, 2, 3, 4])[0, 1])


def test_every_method_has_six_strengths_weakest_first_and_its_default_among_them():
    for method in edit_sweep.METHODS:
        assert len(method.strengths) == edit_sweep.STRENGTHS and method.default in method.strengths
        assert list(method.strengths) == sorted(method.strengths)


def test_a_sweep_of_some_methods_is_what_the_whole_sweep_gives_for_them(two):
    model, corpus = two
    some = [edit_sweep.BY_NAME[edit_sweep.BOUNDED], edit_sweep.BY_NAME[edit_sweep.RANK_ONE]]
    part = edit_sweep.sweep_edits(model, corpus, [17], answers=1, methods=some)
    whole = edit_sweep.sweep_edits(model, corpus, [17], answers=1)
    assert list(part.results) == [edit_sweep.BOUNDED, edit_sweep.RANK_ONE]
    assert list(whole.results) == [m.name for m in edit_sweep.METHODS]
    assert part.edits == whole.edits and np.array_equal(part.before, whole.before)
    for name in part.results:
        assert part.results[name].shape == (1, edit_sweep.STRENGTHS, len(edit_measures.METRICS))
        np.testing.assert_array_equal(part.results[name], whole.results[name])
        np.testing.assert_array_equal(part.changed[name], whole.changed[name])


def test_a_method_the_sweep_does_not_know_is_refused(two):
    model, corpus = two
    other = edit_sweep.Method("my edit", "knob", (1.0,), 1.0)
    with pytest.raises(ValueError, match=r"methods must be among METHODS, named \[.*'FT\+L'\]"):
        edit_sweep.sweep_edits(model, corpus, [0], answers=1, methods=[other])


@dataclass(frozen=True)
class SubjectAtOf(Fact):
    """A fact whose subject is said to be "<relation> of" (positions 2 and 3): it ends at 3."""

    @property
    def subject_positions(self) -> tuple[int, ...]:
        return (2, 3)


def test_the_edits_at_the_subject_are_made_at_the_facts_last_subject_token(two, monkeypatch):
    model, corpus = two
    made = {}

    def spy(model, corpus, fact, new, layer, position, C=None, recipe=fact_edits.PLAIN):
        made[layer, recipe] = position
        return torch.zeros_like(model.layers[layer].ffn.linear2.weight)

    monkeypatch.setattr(edit_sweep, "rank_one_update_for", spy)
    moved = replace(corpus, facts=tuple(SubjectAtOf(f.entity, f.relation, f.answer)
                                        for f in corpus.facts))  # fmt: skip
    C = {0: None, 1: None}
    for c, subject in ((corpus, 4), (moved, 3)):
        made.clear()
        names = {edit_sweep.RANK_ONE, edit_sweep.ROME_SITE, edit_sweep.PLAIN_SUBJECT}
        changes = edit_sweep._changes(model, c, 0, "x", C, names)
        assert set(changes) == names
        assert made == {(1, fact_edits.PLAIN): 5, (0, edit_sweep.ROME): subject,
                        (0, fact_edits.PLAIN): subject}  # fmt: skip


@dataclass(frozen=True)
class OtherWords(Fact):
    """A fact whose paraphrase answers in other words: each answer word by the next of ``words``."""

    words: tuple[str, ...] = ()

    @property
    def paraphrase_answer(self) -> str:
        return self.words[(self.words.index(self.answer) + 1) % len(self.words)]


def test_p_before_an_edit_is_read_after_the_paraphrase_in_its_own_words(two):
    model, corpus = two
    words = tuple(sorted({f.answer for f in corpus.facts}))
    other = replace(corpus, facts=tuple(OtherWords(f.entity, f.relation, f.answer, words)
                                        for f in corpus.facts))  # fmt: skip
    sweep = edit_sweep.sweep_edits(
        model, other, [17], answers=1, methods=[edit_sweep.BY_NAME[edit_sweep.RANK_ONE]]
    )
    p, n, fact = edit_measures.unedited_reading(model, other)[0], 48, 17
    new = fact_edits.new_answer(other, fact)
    old_id, new_id = other.encode([other.facts[fact].answer, new])
    in_other = OtherWords("", "", new, words).paraphrase_answer
    old_2, new_2 = other.encode([other.facts[fact].paraphrase_answer, in_other])
    assert old_2 != old_id and new_2 != new_id
    expected = [p[fact, new_id], p[fact, old_id], p[n + fact, new_2], p[n + fact, old_2]]
    np.testing.assert_array_equal(sweep.before[0], np.array(expected, dtype=float))
    # the measures read the same words: what the sweep says before an edit, measure says at zero
    unedited = fact_edits.with_change(model, 1, torch.zeros(64, 256))
    metrics, _ = edit_measures.measure(model, unedited, other, fact, new)
    np.testing.assert_array_equal(metrics[:4], sweep.before[0])
