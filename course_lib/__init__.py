"""Helpers for the ffn-course notebooks: the feed-forward network (前馈全连接层) and its context."""

from __future__ import annotations

import os
import random

__version__ = "0.1.0"

__all__ = ["__version__", "order_bound", "seed_everything"]


def seed_everything(seed: int = 0) -> None:
    """Seed Python, NumPy and PyTorch so every run of a notebook prints the same numbers."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    import numpy as np
    import torch

    os.environ["PYTHONHASHSEED"] = str(seed)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def order_bound(value: float) -> str:
    """A rounding-error size as a power-of-ten bound, e.g. 3.9e-07 -> '< 1e-06' ('0' for exact zero).

    Differences at float precision vary in their last digits across machines; the bound does not.
    """
    import math

    value = abs(float(value))
    if value == 0.0:
        return "0"
    if not math.isfinite(value):
        raise ValueError(f"value must be finite, got {value!r}")
    return f"< 1e{math.floor(math.log10(value)) + 1:+03d}"
