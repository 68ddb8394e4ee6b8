"""Lesson 9's checkers pass the reference, name each typical mistake, and never break Run All."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.lessons.l09_two_languages import checks
from course_lib.lessons.l09_two_languages.experiments.one_memory import ACTIVE, lape


def _entropy(q):
    return -(q * np.log(np.where(q > 0, q, 1.0))).sum(-1)


def test_lape_passes_the_reference_and_a_torch_version():
    assert checks.check_lape(lape).passed

    def in_torch(p):
        q = torch.as_tensor(p) / torch.as_tensor(p).sum(-1, keepdim=True).clamp_min(1e-300)
        return -(q * torch.where(q > 0, q, torch.ones_like(q)).log()).sum(-1)

    assert checks.check_lape(in_torch).passed


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda p: _entropy(p), "not normalised"),
        (lambda p: _entropy(p / p.sum(1, keepdims=True).clip(1e-300)), "over the units"),
        (lambda p: lape(p) / np.log(2), "in bits"),
        (lambda p: -lape(p), "sign is missing"),
        (
            lambda p: (
                -((p / p.sum(-1, keepdims=True)) * np.log(p / p.sum(-1, keepdims=True))).sum(-1)
            ),
            "NaN",
        ),
        (lambda p: lape(p)[..., None], "shape"),
        (lambda p: None, "returned None"),
    ],
)
def test_lape_names_each_typical_mistake(wrong, hint):
    with np.errstate(all="ignore"):
        result = checks.check_lape(wrong)
    assert result.status == "failed" and hint in result.message


def test_a_stub_is_not_attempted():
    def stub(*_):
        raise NotImplementedError

    assert checks.check_lape(stub).status == "not attempted"
    assert checks.check_activation_fix(stub).status == "not attempted"
    assert checks.check_transfer_prediction(stub, 0, 36).status == "not attempted"


def _counted(hidden, tokens, language, counted):
    out = []
    for lang in (0, 1):
        mask = counted * torch.from_numpy(language == lang).double()[:, None]
        out.append(((hidden > ACTIVE).double() * mask[..., None]).sum((0, 1)) / mask.sum())
    return torch.stack(out, -1)


def test_the_fixed_activation_probability_passes_and_the_bugs_are_named():
    def fixed(hidden, tokens, language):
        real = (tokens != 0).double()
        real[:, 0] = 0
        return _counted(hidden, tokens, language, real)

    assert checks.check_activation_fix(fixed).passed
    padding = checks.check_activation_fix(
        lambda h, t, lang: _counted(h, t, lang, torch.ones(t.shape, dtype=torch.float64))
    )
    assert padding.status == "failed" and "padding and <bos>" in padding.message

    def padding_only(hidden, tokens, language):  # the notebook's planted bug
        counted = torch.ones(tokens.shape, dtype=torch.float64)
        counted[:, 0] = 0
        return _counted(hidden, tokens, language, counted)

    planted = checks.check_activation_fix(padding_only)
    assert planted.status == "failed" and "padding is still counted" in planted.message
    bos = checks.check_activation_fix(lambda h, t, lang: _counted(h, t, lang, (t != 0).double()))
    assert bos.status == "failed" and "<bos>" in bos.message
    zero = checks.check_activation_fix(
        lambda h, t, lang: _counted(h, t, lang, (t != 0).double()) * 0
    )
    assert zero.status == "failed" and "differ" in zero.message


def test_the_cases_have_padding_that_fires_and_lines_of_both_languages():
    hidden, tokens, language = checks.activation_case(0)
    assert (tokens == 0).any() and (hidden[tokens == 0] > ACTIVE).any()
    assert set(language.tolist()) == {0, 1}


@pytest.mark.parametrize(
    ("guess", "status", "says"),
    [
        (4, "passed", "measured: 2 of 36"),
        (20, "failed", "Too many"),
        (1, "passed", "measured"),
        (0, "failed", "Too few"),
    ],
)
def test_the_prediction_passes_near_the_measured_count_and_says_which_way_it_missed(
    guess, status, says
):
    result = checks.check_transfer_prediction(lambda: guess, 2, 36)
    assert result.status == status and says in result.message


def test_a_prediction_that_is_not_a_count_is_named():
    result = checks.check_transfer_prediction(lambda: "half", 2, 36)
    assert result.status == "failed" and "a number from 0 to 36" in result.message
    low = checks.check_transfer_prediction(lambda: 0, 20, 36)
    assert low.status == "failed" and "Too few" in low.message


def test_a_measured_count_above_the_facts_is_refused():
    with pytest.raises(ValueError, match="measured must be at most facts=36, got 50"):
        checks.check_transfer_prediction(lambda: 1, 50, 36)


@pytest.mark.parametrize("never", [7, 0, 36])
def test_the_passing_message_prints_the_never_taught_count_it_was_given(never):
    result = checks.check_transfer_prediction(lambda: 4, 2, 36, never)
    assert result.passed and "a blind guess among 8 answers gets 4.5 of 36" in result.message
    assert result.message.endswith(f"the facts never taught, asked in Chinese, get {never}.")
    alone = checks.check_transfer_prediction(lambda: 4, 2, 36)
    assert alone.passed and "never taught" not in alone.message


def test_the_verdict_follows_the_measured_count_against_the_guess_and_the_never_taught():
    # a count above both the blind guess and the never-taught count is not "no more than a guess"
    above = checks.check_transfer_prediction(lambda: 20, 20, 36, 7)
    assert above.passed and "More than a guess" in above.message
    assert "No more than" not in above.message
    assert "No more than a guess" in checks.check_transfer_prediction(lambda: 7, 7, 36, 7).message
    assert "More than a guess" in checks.check_transfer_prediction(lambda: 6, 6, 36).message
    too_many = checks.check_transfer_prediction(lambda: 30, 20, 36, 7)
    assert too_many.status == "failed" and "does no better than a guess" not in too_many.message
    assert (
        "does no better than a guess"
        in checks.check_transfer_prediction(lambda: 30, 2, 36, 7).message
    )


def test_a_never_taught_count_above_the_facts_or_negative_is_refused():
    with pytest.raises(ValueError, match="never must be at most facts=36, got 40"):
        checks.check_transfer_prediction(lambda: 1, 2, 36, 40)
    with pytest.raises(ValueError, match="never"):
        checks.check_transfer_prediction(lambda: 1, 2, 36, -1)
