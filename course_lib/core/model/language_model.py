"""A small decoder-only language model (语言模型) built from the course's own parts, so its FFNs can
be read: token ``Embeddings``, sinusoidal ``PositionalEncoding``, then pre-norm blocks, each an
``EncoderLayer`` under a causal mask (a GPT block is exactly that), then a final ``LayerNorm`` and
the output embedding, tied to the input one: logits = LN(x) E^T.

Its shape is one frozen ``LanguageModelConfig`` (as nanoGPT's ``GPTConfig``):
``LanguageModel(config)``. Every FFN hidden layer can be read (``ffn_hidden``) and edited
through its hook point ``layers.i.ffn.hook_hidden`` (below): the hidden units act(x W1 + b1) of
lesson 1 are the "keys" of Geva et al. 2021, W2's rows the values. ``ffn="swiglu"`` (or another of ``GATED_VARIANTS``) puts a
bias-free ``GatedFeedForward`` of equal parameter budget, width ``equal_budget_gated_d_ff(d_ff)``,
in every block; its hidden units are act(x W) * (x V), and its values the rows of W2 as well.
``ffn="moe"`` puts a ``MixtureOfExperts`` of ``num_experts`` experts of width ``d_ff``, top ``k``,
in every block (lesson 7); its hidden units belong to one expert each and are not read or edited
here.

Anything inside can be read or changed at its hook points (``model.hooks``), and only there:
``model.run_with_cache(tokens)``, ``model.run_with_hooks(tokens, fwd_hooks=[(name, fn)])``, with
names such as ``hook_embed``, ``layers.0.hook_resid_pre``, ``layers.0.self_attn.hook_pattern``,
``layers.0.self_attn.hook_out``, ``layers.0.hook_resid_mid``, ``layers.0.ffn.hook_hidden``,
``layers.0.ffn.hook_out``, ``layers.0.hook_resid_post`` (``model.hook_points()`` lists them all).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from course_lib.core._validate import (
    choice,
    flag,
    int_at_least,
    positive_int,
    probability,
)
from course_lib.core.model.ffn import (
    GATED_VARIANTS,
    GatedFeedForward,
    equal_budget_gated_d_ff,
)
from course_lib.core.model.hooks import HookedModule, HookPoint, caching
from course_lib.core.model.moe import MixtureOfExperts
from course_lib.core.model.sublayer import EncoderLayer, LayerNorm
from course_lib.core.model.transformer import Embeddings, PositionalEncoding, create_sequence_mask

# plain: FeedForward with ``activation``; moe: a MixtureOfExperts of such FFNs; else gated
FFN_KINDS = ("plain", *GATED_VARIANTS, "moe")


@dataclass(frozen=True, kw_only=True)
class LanguageModelConfig:
    """The shape of a ``LanguageModel``, every field named and checked when it is made.

    ``ffn="plain"`` (the default): each FFN is a ``FeedForward`` of width ``d_ff`` with
    ``activation``. A gated ``ffn`` ("reglu", "geglu", "swiglu") is a bias-free
    ``GatedFeedForward`` of width ``equal_budget_gated_d_ff(d_ff)`` (3 d d_ff' = 2 d d_ff up to
    rounding), whose activation is the variant's (SwiGLU: SiLU); ``activation`` must then stay
    "relu", its default. ``ffn="moe"``: each FFN is a ``MixtureOfExperts`` of ``num_experts``
    experts of width ``d_ff`` with ``activation``, top ``k``, renormalised gates (unless
    ``renormalise`` is False), and ``shared_experts`` more that every token runs.
    """

    vocab_size: int | None = None  # None: a shape whose vocabulary its corpus gives later
    d_model: int = 64
    num_layers: int = 2
    num_heads: int = 4
    d_ff: int = 256
    max_len: int = 12
    activation: str = "relu"
    dropout: float = 0.0
    ffn: str = "plain"
    num_experts: int = 4
    k: int = 2
    shared_experts: int = 0
    renormalise: bool = True

    def __post_init__(self) -> None:
        if self.vocab_size is not None:
            positive_int("vocab_size", self.vocab_size)
        for name in ("d_model", "num_layers", "num_heads", "d_ff", "max_len"):
            positive_int(name, getattr(self, name))
        if self.d_model % self.num_heads:
            raise ValueError(
                f"d_model must be divisible by num_heads, got {self.d_model} and {self.num_heads}"
            )
        choice("activation", self.activation, ("relu", "gelu"))
        probability("dropout", self.dropout)
        choice("ffn", self.ffn, FFN_KINDS)
        if self.ffn in GATED_VARIANTS and self.activation != "relu":
            raise ValueError(
                f"activation must be 'relu' (unused) with a gated ffn, whose activation is its "
                f"variant's ({self.ffn}: {GATED_VARIANTS[self.ffn]}); "
                f"got activation={self.activation!r}"
            )
        positive_int("num_experts", self.num_experts)
        int_at_least("k", self.k, 1)
        if self.k > self.num_experts:
            raise ValueError(f"k must be at most num_experts={self.num_experts}, got {self.k}")
        int_at_least("shared_experts", self.shared_experts, 0)
        flag("renormalise", self.renormalise)

    @property
    def hidden_width(self) -> int:
        """The width of each FFN's hidden layer as built (one expert's, for a mixture)."""
        return equal_budget_gated_d_ff(self.d_ff) if self.ffn in GATED_VARIANTS else self.d_ff


def _one_hidden_layer(layers: nn.ModuleList, argument: str) -> None:
    if any(isinstance(layer.ffn, MixtureOfExperts) for layer in layers):
        raise ValueError(
            f"{argument}: a mixture of experts has no single hidden layer to read or edit (each "
            "expert has its own, layers.0.ffn.experts.0.hook_hidden); edit an expert's output "
            "instead"
        )


class LanguageModel(HookedModule):
    """token ids (batch, seq_len) -> next-token logits (batch, seq_len, vocab_size).

    Pre-norm blocks: x + attn(LN(x)) under a causal mask, then x + FFN(LN(x)); a final LayerNorm;
    output weights tied to the token embedding (no separate output matrix, no output bias).

    ``LanguageModel(config)`` with a ``LanguageModelConfig``, whose ``ffn`` chooses the FFN of
    every block; the config is passed down, as nanoGPT's ``Block(config)`` (``EncoderLayer`` and
    ``MixtureOfExperts.from_config``). ``self.d_ff`` is the width of the hidden layer actually
    built (one expert's, for a mixture). Hook point of its own: ``hook_embed``, the token
    embeddings before the positions.
    """

    def __init__(self, config: LanguageModelConfig) -> None:
        super().__init__()
        if not isinstance(config, LanguageModelConfig):
            raise TypeError(
                "config must be a LanguageModelConfig, e.g. LanguageModel(LanguageModelConfig("
                f"vocab_size=40, d_model=16, num_heads=2)), got {type(config).__name__} {config!r}"
            )
        if config.vocab_size is None:
            raise ValueError(
                "config.vocab_size must be set to build a model, got None (a shape without its "
                "vocabulary: dataclasses.replace(config, vocab_size=...))"
            )
        self.config = c = config
        self.vocab_size, self.d_model, self.max_len = c.vocab_size, c.d_model, c.max_len
        self.activation, self.ffn_kind, self.d_ff = c.activation, c.ffn, c.hidden_width
        self.embed = Embeddings(c.vocab_size, c.d_model)
        self.hook_embed = HookPoint()  # an identity: a place to look
        # std 1/sqrt(d_model): after Embeddings' sqrt(d_model) the inputs are ~1 per entry, and
        # the tied output logits LN(x) E^T start with a spread of ~1
        nn.init.normal_(self.embed.lut.weight, std=c.d_model**-0.5)
        self.position = PositionalEncoding(c.d_model, c.dropout, c.max_len)
        self.layers = nn.ModuleList(EncoderLayer.from_config(c) for _ in range(c.num_layers))
        # A gated or mixture FFN takes the place of the block's plain one here, at construction,
        # after every block is built: the random draws come in the order the stored models
        # (data/*.npz) were initialised in, so a seed gives the weights their rebuild started from.
        if c.ffn in GATED_VARIANTS:
            for layer in self.layers:
                layer.ffn = GatedFeedForward(c.d_model, c.hidden_width, c.ffn, c.dropout)
        if c.ffn == "moe":
            for layer in self.layers:
                layer.ffn = MixtureOfExperts.from_config(c)
        self.norm = LayerNorm(c.d_model)
        self.register_buffer("causal", create_sequence_mask(c.max_len), persistent=False)

    def _sequence_length(self, token_ids: torch.Tensor) -> int:
        if token_ids.dim() != 2 or not 1 <= token_ids.shape[1] <= self.max_len:
            raise ValueError(
                f"token_ids must be (batch, seq_len) with 1 <= seq_len <= {self.max_len}, "
                f"got shape {tuple(token_ids.shape)}"
            )
        return token_ids.shape[1]

    @property
    def unembedding(self) -> torch.Tensor:
        """The output embedding E (vocab_size, d_model): the input embedding, tied."""
        return self.embed.lut.weight

    def residual_stream(
        self, token_ids: torch.Tensor, stop_at_layer: int | None = None
    ) -> torch.Tensor:
        """The stream after the last block, before the final LayerNorm, or as it enters block
        ``stop_at_layer``: (batch, seq_len, d_model)."""
        self._sequence_length(token_ids)  # a learner's ids are checked where they enter
        x = self.position(self.hook_embed(self.embed(token_ids)))
        return self.run_blocks(x, 0, stop_at_layer)

    def run_blocks(
        self, x: torch.Tensor, start_at_layer: int, stop_at_layer: int | None = None
    ) -> torch.Tensor:
        """The blocks from ``start_at_layer`` up to ``stop_at_layer`` (all, if None) on the
        stream ``x`` (batch, seq_len, d_model) entering the first of them."""
        mask = self.causal[: x.shape[1], : x.shape[1]]  # (seq_len, seq_len): True = may attend
        blocks = range(start_at_layer, len(self.layers) if stop_at_layer is None else stop_at_layer)
        for index in blocks:
            x = self.layers[index](x, mask)
        return x

    def forward(self, token_ids: torch.Tensor) -> torch.Tensor:
        """Logits LN(x) E^T: (batch, seq_len) -> (batch, seq_len, vocab_size)."""
        return self.logits(self.residual_stream(token_ids))

    def logits(self, stream: torch.Tensor) -> torch.Tensor:
        """LN(x) E^T for the stream after the last block: (..., d_model) -> (..., vocab_size)."""
        return self.norm(stream) @ self.unembedding.T

    def ffn_hidden(self, token_ids: torch.Tensor) -> torch.Tensor:
        """Every layer's FFN hidden units act(x W1 + b1), or act(x W) * (x V) for a gated FFN:
        (num_layers, batch, seq_len, d_ff), as the hook points ``layers.i.ffn.hook_hidden`` see
        them."""
        _one_hidden_layer(self.layers, "ffn_hidden")
        names = [f"layers.{i}.ffn.hook_hidden" for i in range(len(self.layers))]
        with caching(self, names) as cache:
            self.residual_stream(token_ids)
        return torch.stack([cache[name] for name in names])

    def values(self, layer: int) -> torch.Tensor:
        """Each unit's value vector v_i of ``layer``'s FFN, what the unit adds to the stream per unit
        of activation (row i of lesson 1's W2; column i of ``linear2.weight``): (d_ff, d_model)."""
        ffn = self.layers[self.check_unit(layer)[0]].ffn
        out = ffn.down if isinstance(ffn, GatedFeedForward) else ffn.linear2
        return out.weight.T

    def value_logits(self, layer: int) -> torch.Tensor:
        """Each unit's value vector (its row of W2) read through the output embedding, E v_i:
        (d_ff, vocab_size). High entries are the tokens the unit promotes when it fires."""
        return self.values(layer) @ self.unembedding.T  # (d_ff, d_model) @ (d_model, vocab_size)

    def check_unit(self, layer: int, unit: int = 0) -> tuple[int, int]:
        """Return (layer, unit) if both name an FFN hidden unit of this model, else raise."""
        for name, value, size in (("layer", layer, len(self.layers)), ("unit", unit, self.d_ff)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int in [0, {size}), got {value!r}")
            if not 0 <= value < size:
                raise ValueError(f"{name} must be in [0, {size}), got {value}")
        return layer, unit
