"""The sublayer connection (子层连接): residual connection (残差连接) plus layer normalization
(层归一化), and the encoder/decoder layers built from it; RMSNorm (均方根归一化) beside LayerNorm.

Post-norm (the original Transformer, PyTorch's default): ``norm(x + dropout(sublayer(x)))``.
Pre-norm (``norm_first=True``): ``x + dropout(sublayer(norm(x)))``.
``EncoderLayer.from_torch`` / ``DecoderLayer.from_torch`` copy the weights of PyTorch's own layers,
so a test can prove the two compute the same thing.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import nn

from course_lib.core._validate import (
    checked_by,
    choice,
    flag,
    positive_int,
    positive_number,
    probability,
    tensor_input,
)
from course_lib.core.model.ffn import FeedForward
from course_lib.core.model.hooks import HookedModule, HookPoint
from course_lib.core.model.transformer import MultiHeadAttention


def _positive_eps(eps: float) -> float:
    return positive_number("eps", eps)


def layer_norm(
    x: torch.Tensor, gain: torch.Tensor, bias: torch.Tensor, eps: float = 1e-5
) -> torch.Tensor:
    """gain * (x - mean) / sqrt(var + eps) + bias over the last dimension; var is biased (/ n).

    x: (..., d) -> same shape; gain, bias: (d,). The formula ``LayerNorm`` computes.
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)  # biased: divide by n, not n - 1
    return gain * (x - mean) / torch.sqrt(var + eps) + bias


class LayerNorm(nn.Module):
    """gain * (x - mean) / sqrt(var + eps) + bias over the last dimension; var is biased (/ n).

    x: (..., d_model) -> same shape. Equal to ``torch.nn.LayerNorm(d_model, eps)``.
    """

    def __init__(self, d_model: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.d_model = positive_int("d_model", d_model)
        self.eps = _positive_eps(eps)
        self.weight = nn.Parameter(torch.ones(d_model))  # the gain, learnable (可学习的缩放)
        self.bias = nn.Parameter(torch.zeros(d_model))  # the shift, learnable

    def _check(self, x: torch.Tensor) -> None:
        tensor_input("x", x, self.d_model)

    @checked_by(_check)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm(x, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.d_model}, eps={self.eps}"


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """weight * x / sqrt(mean(x^2) + eps) over the last dimension: no mean subtracted, no bias.

    x: (..., d) -> same shape; weight: (d,). The formula ``RMSNorm`` (LLaMA-style models) computes.
    """
    return weight * x / torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)


class RMSNorm(nn.Module):
    """weight * x / sqrt(mean(x^2) + eps) over the last dimension (均方根归一化).

    x: (..., d_model) -> same shape. Equal to ``torch.nn.RMSNorm(d_model, eps)``.
    """

    def __init__(self, d_model: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.d_model = positive_int("d_model", d_model)
        self.eps = _positive_eps(eps)
        self.weight = nn.Parameter(torch.ones(d_model))  # the gain, learnable; there is no bias

    def _check(self, x: torch.Tensor) -> None:
        tensor_input("x", x, self.d_model)

    @checked_by(_check)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm(x, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.d_model}, eps={self.eps}"


def unbiased_std_layer_norm(
    x: torch.Tensor, gain: torch.Tensor, bias: torch.Tensor, eps: float = 1e-6
) -> torch.Tensor:
    """The variant some tutorials write: gain * (x - mean) / (std + eps) + bias, std unbiased (/ n-1).

    x: (..., d) -> same shape. Not what ``nn.LayerNorm`` computes; kept to measure the gap.
    """
    mean = x.mean(dim=-1, keepdim=True)
    std = x.std(dim=-1, keepdim=True)  # torch.std divides by n - 1 by default
    return gain * (x - mean) / (std + eps) + bias


class SublayerConnection(nn.Module):
    """Residual + LayerNorm around any sublayer (attention or FFN), passed in as a callable.

    post-norm: norm(x + dropout(sublayer(x))); pre-norm: x + dropout(sublayer(norm(x))).
    x: (batch, seq_len, d_model) -> same shape.
    """

    def __init__(
        self, d_model: int, dropout: float = 0.1, norm_first: bool = False, eps: float = 1e-5
    ) -> None:
        super().__init__()
        flag("norm_first", norm_first)
        self.norm = LayerNorm(d_model, eps)
        self.dropout = nn.Dropout(probability("dropout", dropout))
        self.norm_first = norm_first

    def _check(self, x: torch.Tensor, sublayer: Callable) -> None:
        if not callable(sublayer):
            raise TypeError(f"sublayer must be callable, got {type(sublayer).__name__}")

    @checked_by(_check)
    def forward(
        self, x: torch.Tensor, sublayer: Callable[[torch.Tensor], torch.Tensor]
    ) -> torch.Tensor:
        if self.norm_first:
            return x + self.dropout(sublayer(self.norm(x)))
        return self.norm(x + self.dropout(sublayer(x)))

    def extra_repr(self) -> str:
        return f"norm_first={self.norm_first}"


def mask_from_torch(
    attn_mask: torch.Tensor | None = None, key_padding_mask: torch.Tensor | None = None
) -> torch.Tensor | None:
    """PyTorch's masks (bool True = blocked, or float 0 / -inf added) -> ours (True = may attend).

    attn_mask: (L, S); key_padding_mask: (batch, S). Returns (L, S), (batch, L or 1, S) or None.
    """
    allowed = None
    for name, mask in (("attn_mask", attn_mask), ("key_padding_mask", key_padding_mask)):
        if mask is None:
            continue
        if mask.dtype == torch.bool:
            ok = ~mask
        elif mask.is_floating_point():
            if not bool(((mask == 0) | (mask == float("-inf"))).all()):
                raise ValueError(
                    f"{name} must be bool or hold only 0 and -inf to become a True/False mask"
                )
            ok = mask == 0
        else:
            raise TypeError(f"{name} must be a bool or float tensor, got dtype {mask.dtype}")
        if name == "key_padding_mask":
            if ok.dim() != 2:
                raise ValueError(f"key_padding_mask must be (batch, S), got {tuple(ok.shape)}")
            ok = ok.unsqueeze(1)  # (batch, 1, S): the same padded keys for every query
        allowed = ok if allowed is None else allowed & ok
    return allowed


def _activation_name(layer: nn.Module) -> str:
    act = layer.activation
    if act is F.relu or isinstance(act, nn.ReLU):
        return "relu"
    if act is F.gelu or (isinstance(act, nn.GELU) and act.approximate == "none"):
        return "gelu"
    raise ValueError(f"activation must be relu or gelu to convert, got {act!r}")


def _check_torch_layer(layer: nn.Module, kind: type) -> None:
    if not isinstance(layer, kind):
        raise TypeError(f"layer must be a {kind.__name__}, got {type(layer).__name__}")
    if not layer.self_attn.batch_first:
        raise ValueError("layer must be built with batch_first=True, got batch_first=False")
    if layer.linear1.bias is None or layer.self_attn.in_proj_bias is None:
        raise ValueError("layer must be built with bias=True (our layers have biases)")


def _copy_attention(ours: MultiHeadAttention, theirs: nn.MultiheadAttention) -> None:
    """torch keeps W_q, W_k, W_v stacked in one (3d, d) matrix; we keep three Linears."""
    d = ours.d_model
    with torch.no_grad():
        for i, lin in enumerate((ours.linear_q, ours.linear_k, ours.linear_v)):
            lin.weight.copy_(theirs.in_proj_weight[i * d : (i + 1) * d])
            lin.bias.copy_(theirs.in_proj_bias[i * d : (i + 1) * d])
        ours.linear_out.weight.copy_(theirs.out_proj.weight)
        ours.linear_out.bias.copy_(theirs.out_proj.bias)


def _copy_tail(ours: nn.Module, theirs: nn.Module, norms: tuple[str, ...]) -> None:
    """Copy the FFN's two linears and each LayerNorm into our sublayer connections."""
    ours.ffn.linear1.load_state_dict(theirs.linear1.state_dict())
    ours.ffn.linear2.load_state_dict(theirs.linear2.state_dict())
    for sub, name in zip(ours.sublayers, norms, strict=True):
        sub.norm.load_state_dict(getattr(theirs, name).state_dict())


def _constructor_arguments(layer: nn.Module) -> tuple:
    """(d_model, num_heads, d_ff, dropout, activation, norm_first, eps) of a torch layer."""
    return (
        layer.linear1.in_features,
        layer.self_attn.num_heads,
        layer.linear1.out_features,
        layer.dropout.p,
        _activation_name(layer),
        layer.norm_first,
        layer.norm1.eps,
    )


class EncoderLayer(HookedModule):
    """Self-attention and FFN, each inside a sublayer connection (2 sublayers).

    x: (batch, seq_len, d_model) -> same; mask (seq_len, seq_len) or (batch, 1|L, S), True = may attend.
    Hook points on the stream (TransformerLens's names): ``hook_resid_pre`` as it enters,
    ``hook_resid_mid`` after the attention sublayer, ``hook_resid_post`` after the FFN sublayer;
    what each sublayer adds is its module's output, ``self_attn.hook_out`` and ``ffn.hook_out``.
    """

    def __init__(
        self,
        d_model: int = 512,
        num_heads: int = 8,
        d_ff: int = 2048,
        dropout: float = 0.1,
        activation: str = "relu",
        norm_first: bool = False,
        eps: float = 1e-5,
    ) -> None:
        super().__init__()
        choice("activation", activation, ("relu", "gelu"))
        self.self_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout, activation)
        self.sublayers = nn.ModuleList(
            SublayerConnection(d_model, dropout, norm_first, eps) for _ in range(2)
        )
        self.hook_resid_pre = HookPoint()  # identities: places to look at the stream
        self.hook_resid_mid = HookPoint()
        self.hook_resid_post = HookPoint()

    @classmethod
    def from_config(cls, config) -> EncoderLayer:
        """A pre-norm block of the language model whose ``LanguageModelConfig`` is ``config``
        (its width, heads, FFN width, dropout and activation)."""
        c = config
        return cls(c.d_model, c.num_heads, c.d_ff, c.dropout, c.activation, norm_first=True)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        x = self.hook_resid_pre(x)
        x = self.hook_resid_mid(self.sublayers[0](x, lambda h: self.self_attn(h, h, h, mask)))
        return self.hook_resid_post(self.sublayers[1](x, self.ffn))

    @classmethod
    def from_torch(cls, layer: nn.TransformerEncoderLayer) -> EncoderLayer:
        """Our layer holding the weights of ``layer`` (batch_first=True, relu or gelu)."""
        _check_torch_layer(layer, nn.TransformerEncoderLayer)
        ours = cls(*_constructor_arguments(layer))
        _copy_attention(ours.self_attn, layer.self_attn)
        _copy_tail(ours, layer, ("norm1", "norm2"))
        return ours


class DecoderLayer(nn.Module):
    """Masked self-attention, cross-attention over the encoder's memory, FFN (3 sublayers).

    x: (batch, T, d_model), memory: (batch, S, d_model) -> (batch, T, d_model).
    tgt_mask: (T, T) or (batch, 1|T, T); memory_mask: (T, S) or (batch, 1|T, S); True = may attend.
    """

    def __init__(
        self,
        d_model: int = 512,
        num_heads: int = 8,
        d_ff: int = 2048,
        dropout: float = 0.1,
        activation: str = "relu",
        norm_first: bool = False,
        eps: float = 1e-5,
    ) -> None:
        super().__init__()
        choice("activation", activation, ("relu", "gelu"))
        self.self_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.src_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout, activation)
        self.sublayers = nn.ModuleList(
            SublayerConnection(d_model, dropout, norm_first, eps) for _ in range(3)
        )

    def forward(
        self,
        x: torch.Tensor,
        memory: torch.Tensor,
        tgt_mask: torch.Tensor | None = None,
        memory_mask: torch.Tensor | None = None,
    ) -> torch.Tensor:
        x = self.sublayers[0](x, lambda h: self.self_attn(h, h, h, tgt_mask))
        x = self.sublayers[1](x, lambda h: self.src_attn(h, memory, memory, memory_mask))
        return self.sublayers[2](x, self.ffn)

    @classmethod
    def from_torch(cls, layer: nn.TransformerDecoderLayer) -> DecoderLayer:
        """Our layer holding the weights of ``layer`` (batch_first=True, relu or gelu)."""
        _check_torch_layer(layer, nn.TransformerDecoderLayer)
        ours = cls(*_constructor_arguments(layer))
        _copy_attention(ours.self_attn, layer.self_attn)
        _copy_attention(ours.src_attn, layer.multihead_attn)
        _copy_tail(ours, layer, ("norm1", "norm2", "norm3"))
        return ours


def gaps_to_torch(
    encoder: nn.TransformerEncoderLayer,
    decoder: nn.TransformerDecoderLayer,
    x: torch.Tensor,
    memory: torch.Tensor,
    causal: torch.Tensor,
    padding: torch.Tensor,
) -> tuple[float, float]:
    """Largest |ours - PyTorch's| for our copies of ``encoder`` and ``decoder``, both in eval mode.

    x: (batch, T, d_model), memory: (batch, S, d_model); causal (T, T) and padding (batch, T) in
    PyTorch's convention (True = blocked), converted with ``mask_from_torch`` for our layers.
    """
    ours_mask = mask_from_torch(causal, padding)
    encoder, decoder = encoder.eval(), decoder.eval()
    with torch.no_grad():
        ours = EncoderLayer.from_torch(encoder).eval()(x, ours_mask)
        theirs = encoder(x, src_mask=causal, src_key_padding_mask=padding)
        encoder_gap = (ours - theirs).abs().max().item()
        ours = DecoderLayer.from_torch(decoder).eval()(x, memory, ours_mask)
        theirs = decoder(x, memory, tgt_mask=causal, tgt_key_padding_mask=padding)
        decoder_gap = (ours - theirs).abs().max().item()
    return encoder_gap, decoder_gap
