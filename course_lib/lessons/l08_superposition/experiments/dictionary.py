"""Lesson 8's sparse dictionaries: a sparse autoencoder (SAE) on an FFN's hidden units and a
transcoder in place of the FFN. Both are a wide layer of features with a ReLU, read back by a
decoder whose columns are the features' directions:

    SAE (Bricken et al. 2023):       f = ReLU(W_enc (x − b_dec) + b_enc),   x̂ = W_dec f + b_dec
    transcoder (Dunefsky et al. 2024): f = ReLU(W_enc x + b_enc),             ŷ = W_dec f + b_dec

trained to reconstruct x (the SAE) or the FFN's output y from its input x (the transcoder). Sparse
by one of two rules: an L1 penalty λ Σ_i f_i with every decoder column kept at norm 1 (Bricken
et al.; without the norm the penalty is beaten by shrinking f and growing W_dec), or TopK (Gao et
al. 2024): only the k largest pre-activations kept, no penalty.
"""

from __future__ import annotations

import torch
from torch import nn

from course_lib.core._validate import int_at_least, positive_int


class SparseDictionary(nn.Module):
    """n_features directions in d_out, read from d_in: an SAE when ``autoencoder`` (then
    d_in = d_out and the decoder's bias is taken off the input first), else a transcoder.
    ``k``: keep the k largest pre-activations (TopK); None: every positive one (the L1 rule)."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        n_features: int,
        k: int | None = None,
        autoencoder: bool = True,
        generator: torch.Generator | None = None,
    ) -> None:
        super().__init__()
        positive_int("n_features", n_features)
        if k is not None:
            int_at_least("k", k, 1)
        if autoencoder and d_in != d_out:
            raise ValueError(f"an autoencoder needs d_in == d_out, got {d_in} and {d_out}")
        self.k, self.autoencoder = k, autoencoder
        W_dec = torch.randn(n_features, d_out, generator=generator)
        W_dec /= W_dec.norm(dim=1, keepdim=True)  # unit columns (rows here: f @ W_dec)
        W_enc = (
            W_dec.T.clone()
            if autoencoder
            else torch.randn(d_in, n_features, generator=generator) / d_in**0.5
        )
        self.W_enc = nn.Parameter(W_enc)  # (d_in, n_features)
        self.b_enc = nn.Parameter(torch.zeros(n_features))
        self.W_dec = nn.Parameter(W_dec)  # (n_features, d_out): row i is feature i's direction
        self.b_dec = nn.Parameter(torch.zeros(d_out))

    def encode(self, x: torch.Tensor) -> torch.Tensor:
        """The features' activations f: (..., d_in) -> (..., n_features), ≥ 0."""
        if self.autoencoder:
            x = x - self.b_dec
        pre = x @ self.W_enc + self.b_enc
        if self.k is not None:  # TopK: all but the k largest set to -inf, so ReLU zeroes them
            kept = pre.topk(self.k, dim=-1).indices
            pre = torch.full_like(pre, float("-inf")).scatter(-1, kept, pre.gather(-1, kept))
        return torch.relu(pre)

    def decode(self, f: torch.Tensor) -> torch.Tensor:
        """(..., n_features) -> (..., d_out): the sum of the active features' directions."""
        return f @ self.W_dec + self.b_dec

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.encode(x)
        return self.decode(f), f

    @torch.no_grad()
    def normalise_decoder(self) -> None:
        """Every decoder direction back to norm 1 (the L1 rule's constraint)."""
        self.W_dec /= self.W_dec.norm(dim=1, keepdim=True).clamp_min(1e-12)


def dictionary_loss(
    dictionary: SparseDictionary,
    x: torch.Tensor,
    target: torch.Tensor,
    l1: float,
    weight: torch.Tensor | None = None,
) -> torch.Tensor:
    """Squared error summed over the output's dimensions plus ``l1`` · Σ_i f_i, per row, then the
    mean over the rows (or their ``weight`` (rows,), summing to 1): the training objective.
    x, target: (rows, d)."""
    reconstruction, f = dictionary(x)
    if weight is None:
        return ((reconstruction - target) ** 2).sum(-1).mean() + l1 * f.sum(-1).mean()
    return weight @ (((reconstruction - target) ** 2).sum(-1) + l1 * f.sum(-1))
