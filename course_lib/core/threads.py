"""How many threads torch uses for the course's tiny tensors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Run a block (or, as a decorator, a function) with ``n`` intra-op threads, then restore.

    Tiny batched models are dominated by per-operation overhead: one thread avoids the cost of
    waking the others, which on a busy 2-core machine was up to 20x slower.
    """
    previous = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(previous)
