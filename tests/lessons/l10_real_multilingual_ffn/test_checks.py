"""Lesson 10's checkers pass the right answer, say "not attempted" for a stub, and name each
typical wrong answer."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.lessons.l10_real_multilingual_ffn import checks


def right_block(block):
    scale = np.frombuffer(block[:2], dtype="<f2")[0].astype(np.float64)
    codes = np.frombuffer(block[2:], dtype=np.uint8)
    return (np.concatenate([codes & 0x0F, codes >> 4]).astype(np.float64) - 8) * scale


def test_the_block_checker_passes_the_right_dequantisation():
    assert checks.check_block(right_block).passed


def test_a_stub_is_not_attempted():
    def stub(block):
        raise NotImplementedError

    assert checks.check_block(stub).status == "not attempted"
    assert checks.check_w1_fix(lambda *a: (_ for _ in ()).throw(NotImplementedError())).status == (
        "not attempted"
    )


def interleaved(block):
    codes = np.frombuffer(block[2:], np.uint8)
    q = np.stack([codes & 15, codes >> 4], 1).reshape(-1).astype(float)
    return (q - 8) * float(np.frombuffer(block[:2], "<f2")[0])


def wrapped(block):
    codes = np.frombuffer(block[2:], np.uint8)
    q = np.concatenate([codes & 0x0F, codes >> 4])  # still uint8: q - 8 wraps below 8
    return (q - 8).astype(float) * float(np.frombuffer(block[:2], "<f2")[0])


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (interleaved, "interleaved"),
        (lambda b: right_block(b) / float(np.frombuffer(b[:2], "<f2")[0]), "scale is missing"),
        (lambda b: right_block(b) + 8 * float(np.frombuffer(b[:2], "<f2")[0]), "offset is missing"),
        (lambda b: np.concatenate([right_block(b)[16:], right_block(b)[:16]]), "swapped"),
        (wrapped, "wrapped around"),
    ],
)  # fmt: skip
def test_the_block_checker_names_each_typical_mistake(wrong, hint):
    result = checks.check_block(wrong)
    assert result.status == "failed" and hint in result.message


def test_the_w1_checker_passes_the_fix_and_names_the_planted_bug():
    assert checks.check_w1_fix(lambda v, d, f: v.reshape(f, d)).passed
    planted = checks.check_w1_fix(lambda v, d, f: v.reshape(d, f).T)
    assert planted.status == "failed" and "(d_ff, d_model)" in planted.message
    formula = checks.check_w1_fix(lambda v, d, f: v.reshape(f, d).T)
    assert formula.status == "failed" and "formula's layout" in formula.message
