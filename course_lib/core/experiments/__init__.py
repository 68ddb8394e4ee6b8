"""Seeded runs that return data (never figures): one batched trainer, sweeps, stored runs, and the
lessons' measurements. Imports course_lib.core.model and the base modules only."""

from collections.abc import Iterator
from contextlib import contextmanager

import torch

# Every experiment computes in float64 and draws its random numbers in float64. PyTorch picks its
# vector kernels per CPU (AVX-512, AVX2, scalar), and in float32 the last-bit differences grow
# through training into visible digits; in float64 they stay far below anything a lesson prints.
# (float32 torch.randn even draws different numbers on AVX2 than on scalar kernels.)
DTYPE = torch.float64


@contextmanager
def default_dtype(dtype: torch.dtype = DTYPE) -> Iterator[None]:
    """Create tensors and modules in ``dtype`` inside a block, then restore the default."""
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(previous)
