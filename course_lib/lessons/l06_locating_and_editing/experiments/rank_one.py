"""The rank-one update of a linear map (Meng et al. 2022, ROME): the W' closest to W, over the keys
whose uncentred covariance is C, that maps the key k to the value v.

    W' = W + (v - W k) u^T / (u^T k),   u = C^-1 k
"""

from __future__ import annotations

import torch


def rank_one_update(
    W: torch.Tensor, k: torch.Tensor, v: torch.Tensor, C: torch.Tensor, ridge: float = 1e-6
) -> torch.Tensor:
    """W' for W (d_out, d_in), k (d_in,), v (d_out,), C (d_in, d_in); ``ridge`` is added to C's
    diagonal (keys of units that never fire make C singular)."""
    u = torch.linalg.solve(C + ridge * torch.eye(len(C), dtype=C.dtype), k)
    return W + torch.outer(v - W @ k, u) / (u @ k)
