"""torch_threads sets torch's thread count inside a block and always restores it."""

from __future__ import annotations

import pytest
import torch

from course_lib.core.threads import torch_threads


def test_torch_threads_sets_and_restores_even_after_an_error():
    before = torch.get_num_threads()
    with pytest.raises(RuntimeError, match="boom"):
        with torch_threads(1):
            assert torch.get_num_threads() == 1
            raise RuntimeError("boom")
    assert torch.get_num_threads() == before


def test_torch_threads_works_as_a_decorator():
    @torch_threads(1)
    def inside() -> int:
        return torch.get_num_threads()

    assert inside() == 1
