"""What 4-bit weights and 8-bit activations do to one FFN's output, measured on real inputs.

The file holds no float weights to compare with, so the weights' rounding is measured by one more
rounding of the same size: every weight moved by uniform noise within half its block's step (the
error a round to the 4-bit grid makes, under the usual uniform-error model). The engine's 8-bit
activations are copied exactly: each block of 32 inputs to a matrix product scaled by its largest
magnitude / 127 and rounded (``quantize_acts`` in ``e5.c``).
"""

from __future__ import annotations

import numpy as np
import torch

from course_lib.core.model.ffn import ACTIVATIONS, FeedForward
from course_lib.lessons.l10_real_multilingual_ffn.experiments import e5_model
from course_lib.lessons.l10_real_multilingual_ffn.experiments.reader import PackedModel


def ffn_inputs(texts: list[str], layer: int) -> tuple[torch.Tensor, np.ndarray]:
    """What enters layer ``layer``'s FFN at every real token of ``texts``: (tokens, d_model), and
    which of those tokens are the frame's ``<s>`` or ``</s>`` (tokens,) bool."""
    model, tokenizer = e5_model.load_model()
    ids, mask = e5_model.batch(tokenizer, texts)
    name = f"layers.{layer}.hook_resid_mid"
    with torch.no_grad():
        _, cache = model.run_with_cache(ids, mask, names_filter=name)
    frame = np.isin(ids[mask].numpy(), [tokenizer.bos, tokenizer.eos])
    return cache[name][mask], frame


def int8_blocks(x: torch.Tensor, block: int = 32) -> torch.Tensor:
    """x rounded as the engine rounds a matrix product's input: per block of 32 values, to
    round(x / s) s with s = max|x| / 127 over the block. (..., n) -> same."""
    blocks = x.reshape(*x.shape[:-1], -1, block)
    scale = blocks.abs().amax(-1, keepdim=True) / 127
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))
    return (torch.round(blocks / safe).clamp(-128, 127) * scale).reshape(x.shape)


def relative_error(changed: torch.Tensor, reference: torch.Tensor, rows=None) -> float:
    """|changed - reference| / |reference| over the tokens ``rows`` (all if None), Frobenius."""
    if rows is not None:
        rows = torch.as_tensor(rows)
        changed, reference = changed[rows], reference[rows]
    return float((changed - reference).norm() / reference.norm())


def int8_output(ffn: FeedForward, x: torch.Tensor) -> torch.Tensor:
    """The FFN's output with its two inputs rounded to 8 bits as the engine does."""
    with torch.no_grad():
        hidden = ACTIVATIONS[ffn.activation](ffn.linear1(int8_blocks(x)))
        return ffn.linear2(int8_blocks(hidden))


def int8_error(ffn: FeedForward, x: torch.Tensor, rows=None) -> float:
    """int8_output against the float output, over the tokens ``rows``."""
    with torch.no_grad():
        return relative_error(int8_output(ffn, x), ffn(x), rows)


def rounded_output(ffn: FeedForward, x: torch.Tensor, packed: PackedModel, layer: int,
                   seed: int) -> torch.Tensor:  # fmt: skip
    """The FFN's output with W1 and W2 each moved by uniform noise within half a step of their
    blocks' 4-bit grid. Each block's largest weight (code 0: the scale is chosen so that it sits
    exactly on the grid) is spared; the others are moved."""
    rng = np.random.default_rng(seed)
    moved = []
    for name, linear in (("fi.w", ffn.linear1), ("fo.w", ffn.linear2)):
        scale, codes = packed.quantised(f"l{layer}.{name}")
        step = np.repeat(np.abs(scale), 32).reshape(linear.weight.shape)
        noise = rng.uniform(-0.5, 0.5, step.shape) * step * (codes != 0).reshape(step.shape)
        moved.append(linear.weight + torch.as_tensor(noise, dtype=linear.weight.dtype))
    with torch.no_grad():
        hidden = ACTIVATIONS[ffn.activation](x @ moved[0].T + ffn.linear1.bias)
        return hidden @ moved[1].T + ffn.linear2.bias


def rounding_error(ffn: FeedForward, x: torch.Tensor, packed: PackedModel, layer: int,
                   seed: int, rows=None) -> float:  # fmt: skip
    """rounded_output against the output as stored, over the tokens ``rows``."""
    with torch.no_grad():
        return relative_error(rounded_output(ffn, x, packed, layer, seed), ffn(x), rows)
