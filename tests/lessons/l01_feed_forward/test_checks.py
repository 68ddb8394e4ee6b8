"""course_lib.core.checks and checks.ffn: each checker passes the reference, says "not attempted" for a
stub, and rejects every typical wrong answer with a hint that names the mistake."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from course_lib.core.checks import CheckResult, Hint, close, require_close, run_check, shape_of
from course_lib.core.model.ffn import FeedForward
from course_lib.lessons.l01_feed_forward.checks import (
    check_attention_weights,
    check_feed_forward,
    check_gpt2_ffn,
    check_parameter_formula,
)

# --- the framework ----------------------------------------------------------------------------


def test_run_check_reports_a_pass_with_the_checks_note(capsys):
    result = run_check("demo", lambda: "all good")
    assert (result.status, result.message, result.passed) == ("passed", "all good", True)
    assert capsys.readouterr().out.strip() == "✔ demo: all good"


def test_run_check_reports_a_pass_with_a_default_note_when_the_check_returns_none():
    result = run_check("demo", lambda: None)
    assert result.status == "passed" and "well done" in result.message


def test_run_check_reports_a_stub_as_not_attempted(capsys):
    def stub():
        raise NotImplementedError

    result = run_check("demo", stub)
    assert result.status == "not attempted" and not result.passed
    assert "not attempted yet" in capsys.readouterr().out


def test_run_check_reports_a_hint_as_failed(capsys):
    def wrong():
        raise Hint("b1 is missing")

    result = run_check("demo", wrong)
    assert (result.status, result.message) == ("failed", "b1 is missing")
    assert capsys.readouterr().out.strip() == "✘ demo: b1 is missing"


def test_run_check_turns_any_other_exception_into_a_failure_naming_it():
    def buggy():
        return {}["key"]

    result = run_check("demo", buggy)
    assert result.status == "failed"
    assert result.message == "your code raised KeyError: 'key'"


def test_check_result_str_marks_each_status():
    assert str(CheckResult("x", "not attempted", "m")) == "… x: m"
    assert str(CheckResult("x", "failed", "m")).startswith("✘")


def test_close_compares_shape_and_values_across_numpy_and_torch():
    a = np.array([1.0, 2.0])
    assert close(torch.tensor([1.0, 2.0]), a)
    assert not close(a, np.array([1.0, 2.1]))
    assert not close(a, a.reshape(2, 1))
    assert close([1.0, 2.0], a)


def test_require_close_passes_a_match_and_names_the_suspect_or_the_fallback():
    def never():
        raise AssertionError("suspects are built only for a wrong answer")

    require_close(torch.ones(2), torch.ones(2), never, "differs")
    suspects = {"the sign is flipped": -torch.ones(2)}
    with pytest.raises(Hint, match="the sign is flipped"):
        require_close(-torch.ones(2), torch.ones(2), lambda: suspects, "differs")
    with pytest.raises(Hint, match="differs"):
        require_close(torch.zeros(2), torch.ones(2), lambda: suspects, "differs")


def test_shape_of_reads_tensors_arrays_and_lists():
    assert shape_of(torch.zeros(2, 3)) == (2, 3)
    assert shape_of(np.zeros((4,))) == (4,)
    assert shape_of([[1, 2, 3]]) == (1, 3)


# --- check_parameter_formula ------------------------------------------------------------------


def test_check_parameter_formula_passes_the_reference_and_states_the_total():
    result = check_parameter_formula(lambda d, f: d * f + f + f * d + d)
    assert result.status == "passed"
    assert "2,099,712" in result.message


def test_check_parameter_formula_says_not_attempted_for_the_stub():
    def stub(d_model, d_ff):
        raise NotImplementedError

    assert check_parameter_formula(stub).status == "not attempted"


FORMULA_MISTAKES = {
    "no biases": (lambda d, f: 2 * d * f, "not the biases"),
    "no b1": (lambda d, f: 2 * d * f + d, "one of the two biases is missing"),
    "no b2": (lambda d, f: 2 * d * f + f, "one of the two biases is missing"),
    "only the first layer": (lambda d, f: d * f + f, "only the first layer"),
    "only the first layer's weights": (lambda d, f: d * f, "only the first layer"),
    "both biases of size d_ff": (lambda d, f: 2 * d * f + 2 * f, "biases have different sizes"),
    "both biases of size d_model": (lambda d, f: 2 * d * f + 2 * d, "biases have different sizes"),
    "d_ff squared": (lambda d, f: f * f + f + d, "expected 2099712"),
    "returns None": (lambda d, f: None, "= None"),
}


@pytest.mark.parametrize("mistake", FORMULA_MISTAKES)
def test_check_parameter_formula_rejects_a_typical_mistake_naming_it(mistake):
    fn, phrase = FORMULA_MISTAKES[mistake]
    result = check_parameter_formula(fn)
    assert result.status == "failed"
    assert phrase in result.message


# --- check_feed_forward -----------------------------------------------------------------------


class Reference(nn.Module):
    def __init__(self, d_model, d_ff, dropout):
        super().__init__()
        self.linear1, self.linear2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.linear2(self.dropout(F.relu(self.linear1(x))))


class SwappedDims(Reference):
    def __init__(self, d_model, d_ff, dropout):
        super().__init__(d_ff, d_model, dropout)


class SwappedSecondLayer(Reference):
    def __init__(self, d_model, d_ff, dropout):
        super().__init__(d_model, d_ff, dropout)
        self.linear2 = nn.Linear(d_model, d_ff)


class NoBias(Reference):
    def __init__(self, d_model, d_ff, dropout):
        super().__init__(d_model, d_ff, dropout)
        self.linear1 = nn.Linear(d_model, d_ff, bias=False)


class NoReLU(Reference):
    def forward(self, x):
        return self.linear2(self.dropout(self.linear1(x)))


class ReLUAfterLinear2(Reference):
    def forward(self, x):
        return F.relu(self.linear2(self.dropout(self.linear1(x))))


class DropoutAlwaysOn(Reference):
    def forward(self, x):
        return self.linear2(F.dropout(F.relu(self.linear1(x)), 0.5, training=True))


class DropoutUnused(Reference):
    def forward(self, x):
        return self.linear2(F.relu(self.linear1(x)))


class DropoutAfterLinear2(Reference):
    def forward(self, x):
        return self.dropout(self.linear2(F.relu(self.linear1(x))))


class NoLinearLayers(nn.Module):
    def __init__(self, d_model, d_ff, dropout):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(d_model, d_ff))

    def forward(self, x):
        return x


class TanhInstead(Reference):
    def forward(self, x):
        return self.linear2(self.dropout(torch.tanh(self.linear1(x))))


class GeluInstead(Reference):
    def forward(self, x):
        return self.linear2(self.dropout(F.gelu(self.linear1(x))))


class ReLUOnTheInput(Reference):
    def forward(self, x):
        return self.linear2(self.dropout(self.linear1(F.relu(x))))


class Stub(nn.Module):
    def __init__(self, d_model, d_ff, dropout):
        raise NotImplementedError  # your code here


def test_check_feed_forward_passes_the_reference_and_the_library_module():
    assert check_feed_forward(Reference).status == "passed"
    assert check_feed_forward(FeedForward).status == "passed"


def test_check_feed_forward_says_not_attempted_for_the_stub():
    assert check_feed_forward(Stub).status == "not attempted"


MODULE_MISTAKES = {
    SwappedDims: "are d_model and d_ff swapped",
    SwappedSecondLayer: "linear2.weight has shape",
    NoBias: "has no bias",
    NoReLU: "ReLU between the two layers is missing",
    ReLUAfterLinear2: "ReLU comes after linear2",
    DropoutAlwaysOn: "F.dropout(training=True)",
    DropoutUnused: "is the dropout layer used in forward()",
    DropoutAfterLinear2: "dropout belongs on the hidden layer",
    NoLinearLayers: "needs an attribute `linear1` that is an nn.Linear",
    TanhInstead: "the activation between the layers is tanh",
    GeluInstead: "the activation between the layers is gelu",
    ReLUOnTheInput: "check the order of the steps",
}


@pytest.mark.parametrize("cls", MODULE_MISTAKES, ids=lambda c: c.__name__)
def test_check_feed_forward_rejects_a_typical_mistake_naming_it(cls):
    result = check_feed_forward(cls)
    assert result.status == "failed"
    assert MODULE_MISTAKES[cls] in result.message


# --- check_attention_weights ------------------------------------------------------------------


def scaled_scores(q, k):
    return q @ k.T / k.shape[-1] ** 0.5


def reference_weights(q, k, mask):
    return scaled_scores(q, k).masked_fill(~mask, float("-inf")).softmax(-1)


def test_check_attention_weights_passes_the_reference():
    result = check_attention_weights(reference_weights)
    assert result.status == "passed" and "sums to 1" in result.message


def test_check_attention_weights_passes_a_mask_filled_with_a_large_negative_number():
    def finite(q, k, mask):
        return scaled_scores(q, k).masked_fill(~mask, -1e9).softmax(-1)

    assert check_attention_weights(finite).status == "passed"


def test_check_attention_weights_says_not_attempted_for_the_stub():
    def stub(q, k, mask):
        raise NotImplementedError

    assert check_attention_weights(stub).status == "not attempted"


ATTENTION_MISTAKES = {
    "no scaling": (
        lambda q, k, m: (q @ k.T).masked_fill(~m, float("-inf")).softmax(-1),
        "not divided by sqrt(d_k)",
    ),
    "scaled by d_k": (
        lambda q, k, m: (q @ k.T / k.shape[-1]).masked_fill(~m, float("-inf")).softmax(-1),
        "divided by d_k",
    ),
    "softmax over the queries": (
        lambda q, k, m: scaled_scores(q, k).masked_fill(~m, float("-inf")).softmax(0),
        "over the queries",
    ),
    "mask ignored": (lambda q, k, m: scaled_scores(q, k).softmax(-1), "mask is ignored"),
    "mask inverted": (
        lambda q, k, m: scaled_scores(q, k).masked_fill(m, float("-inf")).softmax(-1),
        "True means a query may attend",
    ),
    "mask after the softmax": (
        lambda q, k, m: scaled_scores(q, k).softmax(-1) * m,
        "zeroed after the softmax",
    ),
    "no softmax": (lambda q, k, m: scaled_scores(q, k) * m, "there is no softmax"),
    "transposed": (lambda q, k, m: reference_weights(q, k, m).T, "one row per query"),
    "returns None": (lambda q, k, m: None, "returned None"),
}


@pytest.mark.parametrize("mistake", ATTENTION_MISTAKES)
def test_check_attention_weights_rejects_a_typical_mistake_naming_it(mistake):
    fn, phrase = ATTENTION_MISTAKES[mistake]
    result = check_attention_weights(fn)
    assert result.status == "failed"
    assert phrase in result.message


# --- check_gpt2_ffn ---------------------------------------------------------------------------

D, D_FF = 768, 3072
GPT2_FFN = 2 * D * D_FF + D_FF + D  # W1, b1, W2, b2 written out, not the library's formula
GPT2_LAYER = 4 * (D * D + D) + GPT2_FFN + 4 * D  # attention, FFN, two LayerNorms


def test_check_gpt2_ffn_passes_the_right_prediction_and_states_it():
    result = check_gpt2_ffn(lambda: (GPT2_FFN, GPT2_FFN / GPT2_LAYER))
    assert result.status == "passed"
    assert f"{GPT2_FFN:,}" in result.message and f"{GPT2_LAYER:,}" in result.message


def test_check_gpt2_ffn_accepts_a_share_rounded_to_two_thirds():
    assert check_gpt2_ffn(lambda: (GPT2_FFN, 2 / 3)).status == "passed"


def test_check_gpt2_ffn_says_not_attempted_for_the_stub():
    def stub():
        raise NotImplementedError

    assert check_gpt2_ffn(stub).status == "not attempted"


GPT2_MISTAKES = {
    "no biases": ((2 * D * D_FF, 2 / 3), "forgot the biases"),
    "one matrix": ((D * D_FF, 2 / 3), "that is one weight matrix"),
    "first layer only": ((D * D_FF + D_FF, 2 / 3), "only the first layer"),
    "no b2": ((2 * D * D_FF + D_FF, 2 / 3), "b2 is missing"),
    "no b1": ((2 * D * D_FF + D, 2 / 3), "b1 is missing"),
    "biases both d_ff": ((2 * D * D_FF + 2 * D_FF, 2 / 3), "different sizes"),
    "the 512 model": ((2 * 512 * 2048 + 2048 + 512, 2 / 3), "original 512 -> 2048"),
    "unknown count": ((12345, 2 / 3), "count W1, b1, W2 and b2"),
    "a percentage": ((GPT2_FFN, 66.6), "not a percentage"),
    "attention's share": ((GPT2_FFN, 1 / 3), "attention's share"),
    "half": ((GPT2_FFN, 0.5), "not half"),
    "unknown share": ((GPT2_FFN, 0.9), "over the layer's 7,087,872"),
    "one number": ((GPT2_FFN,), "return two numbers"),
}


@pytest.mark.parametrize("mistake", GPT2_MISTAKES)
def test_check_gpt2_ffn_rejects_a_typical_mistake_naming_it(mistake):
    prediction, phrase = GPT2_MISTAKES[mistake]
    result = check_gpt2_ffn(lambda: prediction)
    assert result.status == "failed"
    assert phrase in result.message
