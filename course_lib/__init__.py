"""Helpers for the ffn-course notebooks: the feed-forward network (前馈全连接层) and its context."""

from __future__ import annotations

import os
import random

__version__ = "0.1.0"

__all__ = ["__version__", "seed_everything"]


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
