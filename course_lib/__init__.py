"""Helpers for the ffn-course notebooks: the feed-forward network (前馈全连接层) and its context."""

from __future__ import annotations

import random

__version__ = "0.1.0"

__all__ = ["__version__", "seed_everything"]


def seed_everything(seed: int = 0) -> None:
    """Seed Python's, NumPy's and PyTorch's global generators so every run of a notebook prints
    the same numbers.

    String hashing (PYTHONHASHSEED) cannot be seeded from inside a running interpreter, so no
    result of the course may depend on the iteration order of a set of strings.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int in [0, 2**32), got {seed!r}")
    if not 0 <= seed < 2**32:  # NumPy's legacy seed accepts no more
        raise ValueError(f"seed must be an int in [0, 2**32), got {seed!r}")
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
