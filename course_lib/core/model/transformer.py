"""The rest of a Transformer layer, as context for the FFN: embeddings (词嵌入), sinusoidal
positional encoding (位置编码), masks and multi-head attention (多头注意力)."""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import nn

from course_lib.core._validate import checked_by, positive_int, probability, tensor_input
from course_lib.core.model.ffn import count_parameters
from course_lib.core.model.hooks import HookedModule, HookPoint, hooks


class Embeddings(nn.Module):
    """Token ids (batch, seq_len) -> vectors (batch, seq_len, d_model), scaled by sqrt(d_model)."""

    def __init__(self, vocab_size: int, d_model: int = 512) -> None:
        super().__init__()
        self.vocab_size = positive_int("vocab_size", vocab_size)
        self.d_model = positive_int("d_model", d_model)
        self.lut = nn.Embedding(vocab_size, d_model)

    def _check(self, token_ids: torch.Tensor) -> None:
        if not isinstance(token_ids, torch.Tensor):
            raise TypeError(f"token_ids must be an integer tensor, got {type(token_ids).__name__}")
        if token_ids.dtype not in (torch.int64, torch.int32):
            raise TypeError(f"token_ids must be an integer tensor, got dtype {token_ids.dtype}")
        if token_ids.numel() and (token_ids.min() < 0 or token_ids.max() >= self.vocab_size):
            raise ValueError(
                f"token_ids must lie in [0, {self.vocab_size}), got values from "
                f"{int(token_ids.min())} to {int(token_ids.max())}"
            )

    @checked_by(_check)
    def forward(self, token_ids: torch.Tensor) -> torch.Tensor:
        return self.lut(token_ids) * math.sqrt(self.d_model)  # (batch, seq_len, d_model)


def sinusoidal_table(max_len: int, d_model: int) -> torch.Tensor:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...): (max_len, d_model)."""
    position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)
    div_term = torch.exp(
        torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model)
    )
    table = torch.zeros(max_len, d_model)
    table[:, 0::2] = torch.sin(position * div_term)
    table[:, 1::2] = torch.cos(position * div_term)[:, : d_model // 2]
    return table


class PositionalEncoding(HookedModule):
    """Adds the sinusoidal table to x: (batch, seq_len, d_model) -> same shape, then dropout.
    Hook point: ``hook_with_positions``, x + PE before the dropout."""

    def __init__(self, d_model: int = 512, dropout: float = 0.1, max_len: int = 5000) -> None:
        super().__init__()
        self.d_model = positive_int("d_model", d_model)
        self.dropout = nn.Dropout(probability("dropout", dropout))
        self.register_buffer(
            "pe",
            sinusoidal_table(positive_int("max_len", max_len), d_model).unsqueeze(0),
            persistent=False,
        )
        self.hook_with_positions = HookPoint()  # an identity: a place to look

    def _check(self, x: torch.Tensor) -> None:
        tensor_input("x", x, self.d_model, dims=3)  # 2-D would broadcast against the table
        if x.shape[1] > self.pe.shape[1]:
            raise ValueError(
                f"seq_len must be at most max_len={self.pe.shape[1]}, got {x.shape[1]}"
            )

    @checked_by(_check)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(self.hook_with_positions(x + self.pe[:, : x.shape[1]]))


def create_sequence_mask(size: int) -> torch.Tensor:
    """Causal mask (size, size): True where a position may attend (itself and earlier ones)."""
    positive_int("size", size)
    return torch.tril(torch.ones(size, size, dtype=torch.bool))


def scaled_dot_product_attention(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None = None,
    dropout: Callable[[torch.Tensor], torch.Tensor] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(Q K^T / sqrt(d_k)) V; mask is True (or 1) where attention is allowed; ``dropout``
    (an ``nn.Dropout``, or any function of them) is applied to the weights.

    query: (..., L, d_k), key/value: (..., S, d_k) -> output (..., L, d_k), weights (..., L, S).
    """
    d_k = query.shape[-1]
    scores = query @ key.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    weights = scores.softmax(dim=-1)
    if dropout is not None:
        weights = dropout(weights)
    return weights @ value, weights


class MultiHeadAttention(HookedModule):
    """Multi-head attention: num_heads heads of size d_model // num_heads, concatenated.

    query: (batch, L, d_model), key/value: (batch, S, d_model) -> (batch, L, d_model).
    The last attention weights (batch, heads, L, S) are kept in ``self.attn``, detached (a model
    stays copyable with ``copy.deepcopy`` after a backward pass). Hook points: ``hook_pattern``,
    the attention weights after the softmax, before their dropout; ``hook_out``, the output.
    """

    def __init__(self, d_model: int = 512, num_heads: int = 8, dropout: float = 0.1) -> None:
        super().__init__()
        positive_int("d_model", d_model)
        positive_int("num_heads", num_heads)
        if d_model % num_heads:
            raise ValueError(
                f"d_model must be divisible by num_heads, got {d_model} and {num_heads}"
            )
        self.d_model, self.num_heads, self.d_k = d_model, num_heads, d_model // num_heads
        self.linear_q = nn.Linear(d_model, d_model)
        self.linear_k = nn.Linear(d_model, d_model)
        self.linear_v = nn.Linear(d_model, d_model)
        self.linear_out = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(probability("dropout", dropout))
        self.hook_pattern, self.hook_out = HookPoint(), HookPoint()  # identities: places to look
        self.attn: torch.Tensor | None = None

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, _ = x.shape
        return x.view(batch, length, self.num_heads, self.d_k).transpose(1, 2)

    def _check(self, query, key, value, mask=None) -> None:
        for name, t in (("query", query), ("key", key), ("value", value)):
            tensor_input(name, t, self.d_model, dims=3)

    @checked_by(_check)
    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        mask: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if mask is not None and mask.dim() == 3:
            mask = mask.unsqueeze(1)  # (batch, L, S) -> (batch, 1, L, S): the same for every head
        q, k, v = (
            self._split(f(t))
            for f, t in ((self.linear_q, query), (self.linear_k, key), (self.linear_v, value))
        )
        out, weights = scaled_dot_product_attention(
            q, k, v, mask, lambda pattern: self.dropout(self.hook_pattern(pattern))
        )
        self.attn = weights.detach()  # to look at, not to differentiate: keeps no graph alive
        batch, _, length, _ = out.shape
        heads = out.transpose(1, 2).reshape(batch, length, self.d_model)  # concatenated
        return self.hook_out(self.linear_out(heads))


def transformer_layer_parameters(d_model: int = 512, d_ff: int = 2048) -> dict[str, int]:
    """Parameters of one encoder layer by part: attention 4(d^2+d), FFN 2*d*d_ff+d_ff+d, 2 LayerNorms."""
    positive_int("d_model", d_model)
    positive_int("d_ff", d_ff)
    parts = {
        "attention": 4 * (d_model * d_model + d_model),
        "ffn": count_parameters(d_model, d_ff),
        "layer_norms": 2 * 2 * d_model,
    }
    parts["total"] = sum(parts.values())
    return parts


# Who put each dropout of our layers there, by the module that owns it
_DROPOUT_SOURCES = {
    "PositionalEncoding": "paper",  # on embeddings + positional encoding
    "SublayerConnection": "paper",  # on a sublayer's output, before the residual add
    "FeedForward": "implementation",  # on the FFN's hidden layer, after the activation
    "MultiHeadAttention": "implementation",  # on the attention weights, after the softmax
}


def dropout_sites(model: nn.Module) -> list[tuple[str, float, str, str]]:
    """Every ``nn.Dropout`` in ``model`` as (name, p, owner, source): ``owner`` is the class of the
    module it sits in ("SublayerConnection", …), which says what it drops; ``source`` is "paper"
    (Vaswani et al. 2017, section 5.4), "implementation" (a choice of tensor2tensor and PyTorch) or
    "unknown" (a module not of this course)."""
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.Module, got {type(model).__name__}")
    owners = dict(model.named_modules())
    sites = []
    for name, module in owners.items():
        if isinstance(module, nn.Dropout):
            owner = type(owners[name.rpartition(".")[0]]).__name__
            sites.append((name, module.p, owner, _DROPOUT_SOURCES.get(owner, "unknown")))
    return sites


# The hook point each of our modules passes its dropout's input through, by the module's class
_DROPOUT_INPUTS = {
    "PositionalEncoding": "hook_with_positions",
    "FeedForward": "hook_hidden",
    "GatedFeedForward": "hook_hidden",
    "MultiHeadAttention": "hook_pattern",
}
# A sublayer connection's dropout receives its sublayer's output: the modules a layer's
# connections wrap, in order, by the layer's class (each has a hook point ``hook_out``)
_SUBLAYERS = {
    "EncoderLayer": ("self_attn", "ffn"),
    "DecoderLayer": ("self_attn", "src_attn", "ffn"),
}


def _dropout_input(owners: dict[str, nn.Module], dropout: str) -> str | None:
    """The name of the hook point just before the dropout ``dropout``, None if it has none."""
    owner = dropout.rpartition(".")[0]
    kind = type(owners[owner]).__name__
    if kind != "SublayerConnection":
        point = _DROPOUT_INPUTS.get(kind)
        return None if point is None else _path(owner, point)
    layer, found, index = f".{owner}".rpartition(".sublayers.")  # "layer.sublayers.1"
    wrapped = _SUBLAYERS.get(type(owners[layer[1:]]).__name__, ()) if found else ()
    if not index.isdigit() or int(index) >= len(wrapped):
        return None
    return _path(layer[1:], wrapped[int(index)], "hook_out")


def _path(*names: str) -> str:
    return ".".join(name for name in names if name)


def dropout_input_shapes(model: nn.Module, run: Callable[[], object]) -> dict[str, tuple[int, ...]]:
    """The shape each ``nn.Dropout`` of ``model`` receives while ``run()`` executes, read at the
    hook point just before it (a sublayer connection's: its sublayer's ``hook_out``), by the
    dropout's name. A dropout of a module not of this course has no hook point before it and is
    left out."""
    owners = dict(model.named_modules())
    dropouts = {  # hook point name -> the name of the dropout it feeds
        point: name
        for name, module in owners.items()
        if isinstance(module, nn.Dropout) and (point := _dropout_input(owners, name)) is not None
    }
    shapes: dict[str, tuple[int, ...]] = {}

    def record(activation: torch.Tensor, hook: HookPoint) -> None:  # None: nothing changes
        shapes.setdefault(dropouts[hook.name], tuple(activation.shape))

    with hooks(model, [(point, record) for point in dropouts]):
        run()
    return shapes
