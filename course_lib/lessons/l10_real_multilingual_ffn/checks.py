"""Checkers for lesson 10: a 4-bit block dequantised by hand, and the bug in a reader that puts
W1's values into the wrong layout."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import torch

from course_lib.core.checks import CheckResult, Hint, require_close, require_return, run_check
from course_lib.core.i18n import N_, tr
from course_lib.lessons.l10_real_multilingual_ffn.experiments.reader import dequantise

# ---- build: one block of 32 weights from its 18 bytes


def block_case(seed: int) -> bytes:
    """One 18-byte block: a float16 scale (little-endian), then 16 bytes of two 4-bit codes."""
    rng = np.random.default_rng(seed)
    scale = np.array([rng.uniform(0.005, 0.05) * rng.choice([-1, 1])], dtype="<f2")
    return scale.tobytes() + rng.integers(0, 256, 16, dtype=np.uint8).tobytes()


def _block_suspects(block: bytes) -> dict[str, np.ndarray]:
    d = float(np.frombuffer(block[:2], "<f2")[0])
    codes = np.frombuffer(block[2:], np.uint8)
    low, high = (codes & 0x0F).astype(float), (codes >> 4).astype(float)
    return {
        tr("the codes are interleaved: byte j holds weight j in its low four bits and weight "
           "j + 16 in its high four, not weights 2j and 2j + 1"): (
            np.stack([low, high], 1).reshape(-1) - 8) * d,
        tr("the halves are swapped: the low four bits are the first 16 weights"): (
            np.concatenate([high, low]) - 8) * d,
        tr("the offset is missing: a code q from 0 to 15 stands for (q - 8) times the scale"): (
            np.concatenate([low, high]) * d),
        tr("the scale is missing: every weight is (q - 8) times the block's float16 scale"): (
            np.concatenate([low, high]) - 8),
        tr("the scale was read big-endian: the file is little-endian"): (
            np.concatenate([low, high]) - 8) * float(np.frombuffer(block[:2], ">f2")[0]),
        tr("the codes wrapped around: q - 8 on uint8 codes gives 248 to 255 for q below 8; turn "
           "the codes into floats (or signed integers) before subtracting"): (
            (np.concatenate([codes & 0x0F, codes >> 4]) - np.uint8(8)).astype(float) * d),
    }  # fmt: skip


def check_block(fn: Callable) -> CheckResult:
    """``fn(block)`` must turn 18 bytes into the block's 32 weights."""

    def check() -> str:
        for seed in (0, 1, 2):
            block = block_case(seed)
            got = require_return(fn(block))
            got = got.numpy() if isinstance(got, torch.Tensor) else np.asarray(got, dtype=float)
            expected = dequantise(np.frombuffer(block, np.uint8)).astype(float)
            if got.shape != (32,):
                raise Hint(tr("a block holds 32 weights, got shape {shape}", shape=got.shape))
            require_close(got, expected, partial(_block_suspects, block),
                          tr("the weights differ from (q - 8) times the scale"), atol=1e-6)  # fmt: skip
        return tr("sixteen distinct weights per block at most: the 4-bit grid the model lives on.")

    return run_check(N_("a 4-bit block"), check)


# ---- find the bug: a reader that puts W1 in the wrong layout


def w1_case(seed: int) -> tuple[np.ndarray, int, int]:
    """W1's values in the file's order (d_ff rows of d_model), and the two sizes."""
    rng = np.random.default_rng(seed)
    d_model, d_ff = int(rng.integers(3, 7)), int(rng.integers(8, 14))
    return rng.normal(size=d_model * d_ff), d_model, d_ff


def _w1_suspects(values: np.ndarray, d_model: int, d_ff: int) -> dict[str, np.ndarray]:
    return {
        tr("the values were read as (d_model, d_ff) and transposed: the file stores W1 as "
           "nn.Linear holds it, one row of d_model values per hidden unit, so reshape to "
           "(d_ff, d_model) and keep it"): values.reshape(d_model, d_ff).T,
        tr("this is W1 in the formula's layout (d_model, d_ff): nn.Linear's weight is its "
           "transpose, (d_ff, d_model)"): values.reshape(d_ff, d_model).T,
    }  # fmt: skip


def check_w1_fix(fn: Callable) -> CheckResult:
    """``fn(values, d_model, d_ff)`` must return W1 as ``nn.Linear(d_model, d_ff).weight`` holds it."""

    def check() -> str:
        for seed in (0, 1, 2):
            values, d_model, d_ff = w1_case(seed)
            got = require_return(fn(values.copy(), d_model, d_ff))
            got = got.numpy() if isinstance(got, torch.Tensor) else np.asarray(got, dtype=float)
            expected = values.reshape(d_ff, d_model)
            if got.shape != expected.shape:
                suspects = _w1_suspects(values, d_model, d_ff)
                if got.shape == (d_model, d_ff):
                    raise Hint(next(iter(suspects)) if np.allclose(got, suspects[next(iter(suspects))].T)
                               else list(suspects)[1])  # fmt: skip
                raise Hint(tr("W1 must have shape (d_ff, d_model) = {expected}, got {got}",
                              expected=expected.shape, got=got.shape))  # fmt: skip
            require_close(got, expected, partial(_w1_suspects, values, d_model, d_ff),
                          tr("W1's values are in the wrong places"))  # fmt: skip
        return tr("a wrong layout of the right shape runs without an error: only the values "
                  "betray it, as the model's output would.")  # fmt: skip

    return run_check(N_("W1's layout, fixed"), check)
