"""The position-wise feed-forward network (前馈全连接层): FFN(x) = act(x W1 + b1) W2 + b2.

PyTorch modules, a NumPy reference, parameter and FLOP counts, and the gated variants
(ReGLU, GEGLU, SwiGLU) of Shazeer 2020, "GLU Variants Improve Transformer".
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from course_lib.core._validate import (
    checked_by,
    choice,
    flag,
    last_dim,
    positive_int,
    probability,
    tensor_input,
)
from course_lib.core.model.hooks import HookedModule, HookPoint

ACTIVATIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "relu": F.relu,
    "gelu": F.gelu,  # the exact erf form, as in BERT/GPT-2's papers and torch's default
    "gelu_tanh": lambda z: F.gelu(z, approximate="tanh"),
    "silu": F.silu,
    "tanh": torch.tanh,
    "identity": lambda z: z,
}

_erf = np.vectorize(math.erf, otypes=[float])

NUMPY_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda z: np.maximum(0.0, z),
    "gelu": lambda z: 0.5 * z * (1.0 + _erf(z / math.sqrt(2.0))),
    "gelu_tanh": lambda z: (
        0.5 * z * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))
    ),
    "silu": lambda z: z / (1.0 + np.exp(-z)),
    "tanh": np.tanh,
    "identity": lambda z: z,
}


def activation_fn(name: str) -> Callable[[torch.Tensor], torch.Tensor]:
    """The activation called ``name`` (one of ``ACTIVATIONS``) as a function on tensors."""
    return ACTIVATIONS[choice("activation", name, ACTIVATIONS)]


class FeedForward(HookedModule):
    """FFN(x) = dropout(act(x W1 + b1)) W2 + b2, applied to every position alone.

    x: (..., d_model) -> (..., d_model); the hidden layer has d_ff units (512 -> 2048 -> 512).
    The hidden dropout is an implementation choice (tensor2tensor, PyTorch), not in the paper's
    formula; the paper's dropouts sit outside the FFN (``model.transformer.dropout_sites``).
    Hook points (``model.hooks``): ``hook_hidden``, the hidden units act(x W1 + b1) before the
    dropout, and ``hook_out``, the FFN's output.
    """

    def __init__(
        self, d_model: int = 512, d_ff: int = 2048, dropout: float = 0.1, activation: str = "relu"
    ) -> None:
        super().__init__()
        self.d_model = positive_int("d_model", d_model)
        self.d_ff = positive_int("d_ff", d_ff)
        self.activation = choice("activation", activation, ACTIVATIONS)
        self.linear1 = nn.Linear(d_model, d_ff)  # W1: up-projection (升维)
        self.dropout = nn.Dropout(probability("dropout", dropout))
        self.linear2 = nn.Linear(d_ff, d_model)  # W2: down-projection (降维)
        self.hook_hidden, self.hook_out = HookPoint(), HookPoint()  # identities: places to look

    def _check(self, x: torch.Tensor) -> None:
        tensor_input("x", x, self.d_model)

    @checked_by(_check)
    def hidden(self, x: torch.Tensor) -> torch.Tensor:
        """The hidden activations act(x W1 + b1): (..., d_model) -> (..., d_ff), before dropout."""
        return ACTIVATIONS[self.activation](self.linear1(x))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.hook_hidden(self.hidden(x))  # act(x W1 + b1): (..., d_ff)
        return self.hook_out(self.linear2(self.dropout(h)))

    def extra_repr(self) -> str:
        return f"activation={self.activation!r}"


def ffn_formula(
    x: torch.Tensor,
    W1: torch.Tensor,
    b1: torch.Tensor,
    W2: torch.Tensor,
    b2: torch.Tensor,
    activation: str = "relu",
) -> torch.Tensor:
    """act(x W1 + b1) W2 + b2 on tensors in the formula's layout, W1 (d_in, d_ff), W2 (d_ff, d_out):
    the FFN with given weights, for networks built by hand (``FeedForward`` holds them in
    ``nn.Linear``'s transposed layout, ``numpy_ffn`` is the same in NumPy)."""
    return ACTIVATIONS[choice("activation", activation, ACTIVATIONS)](x @ W1 + b1) @ W2 + b2


def numpy_ffn(
    x: np.ndarray,
    W1: np.ndarray,
    b1: np.ndarray,
    W2: np.ndarray,
    b2: np.ndarray,
    activation: str = "relu",
) -> np.ndarray:
    """The FFN in plain NumPy: act(x @ W1 + b1) @ W2 + b2, with W1 (d_model, d_ff), W2 (d_ff, d_model).

    The math's layout, not torch's: ``nn.Linear`` stores its weight as (out, in), the transpose.
    """
    choice("activation", activation, NUMPY_ACTIVATIONS)
    x, W1, b1, W2, b2 = (np.asarray(a, dtype=float) for a in (x, W1, b1, W2, b2))
    if W1.ndim != 2 or W2.ndim != 2:
        raise ValueError(f"W1 and W2 must be 2-D, got shapes {W1.shape} and {W2.shape}")
    d_model, d_ff = W1.shape
    if W2.shape != (d_ff, d_model):
        raise ValueError(f"W2 must have shape (d_ff, d_model) = {(d_ff, d_model)}, got {W2.shape}")
    if b1.reshape(-1).shape != (d_ff,) or b2.reshape(-1).shape != (d_model,):
        raise ValueError(
            f"b1 must have {d_ff} entries and b2 {d_model}, got shapes {b1.shape} and {b2.shape}"
        )
    last_dim("x", x.shape, d_model)
    hidden = NUMPY_ACTIVATIONS[activation](x @ W1 + b1.reshape(-1))
    return hidden @ W2 + b2.reshape(-1)


def ffn_weights_numpy(ffn: FeedForward) -> dict[str, np.ndarray]:
    """A ``FeedForward``'s weights in the formula's layout: W1 (d_model, d_ff), b1, W2 (d_ff, d_model), b2."""
    if not isinstance(ffn, FeedForward):
        raise TypeError(f"ffn must be a FeedForward, got {type(ffn).__name__}")
    with torch.no_grad():
        return {
            "W1": ffn.linear1.weight.T.double().numpy().copy(),
            "b1": ffn.linear1.bias.double().numpy().copy(),
            "W2": ffn.linear2.weight.T.double().numpy().copy(),
            "b2": ffn.linear2.bias.double().numpy().copy(),
        }


def load_numpy_weights(ffn: FeedForward, W1, b1, W2, b2) -> FeedForward:
    """Copy NumPy weights in the formula's layout into ``ffn`` (transposing to torch's (out, in))."""
    if not isinstance(ffn, FeedForward):
        raise TypeError(f"ffn must be a FeedForward, got {type(ffn).__name__}")
    expected = {"W1": (ffn.d_model, ffn.d_ff), "W2": (ffn.d_ff, ffn.d_model)}
    for name, array in (("W1", W1), ("W2", W2)):
        if np.shape(array) != expected[name]:
            raise ValueError(f"{name} must have shape {expected[name]}, got {np.shape(array)}")
    # copy_ would broadcast a wrong-sized bias (e.g. one number) without complaint
    for name, array, size in (("b1", b1, ffn.d_ff), ("b2", b2, ffn.d_model)):
        if np.size(array) != size:
            raise ValueError(f"{name} must have {size} entries, got shape {np.shape(array)}")
    with torch.no_grad():
        ffn.linear1.weight.copy_(torch.as_tensor(np.asarray(W1).T))
        ffn.linear1.bias.copy_(torch.as_tensor(np.asarray(b1).reshape(-1)))
        ffn.linear2.weight.copy_(torch.as_tensor(np.asarray(W2).T))
        ffn.linear2.bias.copy_(torch.as_tensor(np.asarray(b2).reshape(-1)))
    return ffn


def count_parameters(d_model: int = 512, d_ff: int = 2048, bias: bool = True) -> int:
    """Weights plus biases of a plain FFN: d_model*d_ff + d_ff + d_ff*d_model + d_model
    (``bias=False``: the two weight matrices only, as in gated FFNs, which have no biases)."""
    positive_int("d_model", d_model)
    positive_int("d_ff", d_ff)
    flag("bias", bias)
    return 2 * d_model * d_ff + (d_ff + d_model if bias else 0)


def flops_per_token(d_model: int = 512, d_ff: int = 2048) -> int:
    """Multiply-adds counted as 2 FLOPs: two matmuls of d_model*d_ff each -> 4*d_model*d_ff."""
    positive_int("d_model", d_model)
    positive_int("d_ff", d_ff)
    return 4 * d_model * d_ff


def module_parameters(module: nn.Module) -> int:
    """The number of trainable numbers in ``module``: sum(p.numel() for p in parameters)."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


GATED_VARIANTS: dict[str, str] = {"reglu": "relu", "geglu": "gelu", "swiglu": "silu"}


def gated_hidden(
    x: torch.Tensor, W: torch.Tensor, V: torch.Tensor, variant: str = "swiglu"
) -> torch.Tensor:
    """The gated FFN's hidden units act(x W) * (x V), the activation the variant's (SwiGLU:
    SiLU): x (..., d_model), W and V (d_model, d_ff) in the formula's layout -> (..., d_ff)."""
    act = ACTIVATIONS[GATED_VARIANTS[variant]]
    return act(x @ W) * (x @ V)


def gated_ffn(
    x: torch.Tensor, W: torch.Tensor, V: torch.Tensor, W2: torch.Tensor, variant: str = "swiglu"
) -> torch.Tensor:
    """(act(x W) * (x V)) W2 with the variant's activation (SwiGLU: SiLU), Shazeer 2020.

    x: (..., d_model); W, V: (d_model, d_ff); W2: (d_ff, d_model), the formula's layout.
    """
    return gated_hidden(x, W, V, choice("variant", variant, GATED_VARIANTS)) @ W2


class GatedFeedForward(HookedModule):
    """FFN_GLU(x) = (act(x W) * (x V)) W2, Shazeer 2020; no biases, as in the paper.

    x: (..., d_model) -> (..., d_model). Three matrices, so 3*d_model*d_ff parameters.
    Hook points: ``hook_hidden``, the hidden units act(x W) * (x V) before the dropout, and
    ``hook_out``, the FFN's output (the names of ``FeedForward``'s).
    """

    def __init__(
        self, d_model: int = 512, d_ff: int = 1365, variant: str = "swiglu", dropout: float = 0.0
    ) -> None:
        super().__init__()
        self.d_model = positive_int("d_model", d_model)
        self.d_ff = positive_int("d_ff", d_ff)
        self.variant = choice("variant", variant, GATED_VARIANTS)
        self.gate = nn.Linear(d_model, d_ff, bias=False)  # W: goes through the activation
        self.up = nn.Linear(d_model, d_ff, bias=False)  # V: the linear branch
        self.dropout = nn.Dropout(probability("dropout", dropout))
        self.down = nn.Linear(d_ff, d_model, bias=False)  # W2
        self.hook_hidden, self.hook_out = HookPoint(), HookPoint()  # identities: places to look

    def _check(self, x: torch.Tensor) -> None:
        tensor_input("x", x, self.d_model)

    @checked_by(_check)
    def hidden(self, x: torch.Tensor) -> torch.Tensor:
        """The hidden units act(x W) * (x V): (..., d_model) -> (..., d_ff), before dropout."""
        return gated_hidden(x, self.gate.weight.T, self.up.weight.T, self.variant)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.hook_hidden(self.hidden(x))  # act(x W) * (x V): (..., d_ff)
        return self.hook_out(self.down(self.dropout(h)))  # (..., d_model)


def count_gated_parameters(d_model: int = 512, d_ff: int = 1365) -> int:
    """Parameters of a bias-free gated FFN: 3 * d_model * d_ff."""
    return 3 * positive_int("d_model", d_model) * positive_int("d_ff", d_ff)


def equal_budget_gated_d_ff(d_ff: int) -> int:
    """The gated d_ff' with the parameters of a bias-free plain FFN: 2*d*d_ff = 3*d*d_ff'.

    d_ff' = 2/3 * d_ff, rounded (T5-base: 3072 -> 2048).
    """
    return max(1, round(2 * positive_int("d_ff", d_ff) / 3))


def trace_shapes(ffn: FeedForward, x: torch.Tensor) -> list[tuple[str, tuple[int, ...]]]:
    """The shape after each step of ``ffn`` on ``x``, by step: "input", "linear1", the activation's
    name ("relu", …), "dropout", "linear2" (the module's own names; a lesson labels them)."""
    last_dim("x", tuple(x.shape), ffn.d_model)
    steps = [("input", x)]
    h = ffn.linear1(x)
    steps.append(("linear1", h))
    h = ACTIVATIONS[ffn.activation](h)
    steps.append((ffn.activation, h))
    h = ffn.dropout(h)
    steps.append(("dropout", h))
    steps.append(("linear2", ffn.linear2(h)))
    return [(name, tuple(t.shape)) for name, t in steps]


def parameter_table(ffn: FeedForward) -> list[tuple[str, tuple[int, ...], int]]:
    """(name, shape in the formula's layout, count) for W1, b1, W2, b2, read off the module."""
    rows = []
    for formula_name, parameter in (
        ("W1", ffn.linear1.weight),
        ("b1", ffn.linear1.bias),
        ("W2", ffn.linear2.weight),
        ("b2", ffn.linear2.bias),
    ):
        shape = tuple(parameter.T.shape) if parameter.dim() == 2 else tuple(parameter.shape)
        rows.append((formula_name, shape, parameter.numel()))
    return rows


class ConvFeedForward(nn.Module):
    """The FFN as two kernel-size-1 Conv1d layers (the view of the original paper), with the
    weights of ``ffn`` copied: x (batch, seq_len, d_model) -> the same shape. The formula is the
    FFN's, act(conv1(x)) then conv2, on (batch, channels, seq_len) instead of (..., d_model)."""

    def __init__(self, ffn: FeedForward) -> None:
        super().__init__()
        if not isinstance(ffn, FeedForward):
            raise TypeError(f"ffn must be a FeedForward, got {type(ffn).__name__}")
        like = {"dtype": ffn.linear1.weight.dtype, "device": ffn.linear1.weight.device}
        self.d_model, self.activation = ffn.d_model, ffn.activation
        self.conv1 = nn.Conv1d(ffn.d_model, ffn.d_ff, kernel_size=1, **like)
        self.dropout = nn.Dropout(ffn.dropout.p)
        self.conv2 = nn.Conv1d(ffn.d_ff, ffn.d_model, kernel_size=1, **like)
        with torch.no_grad():
            self.conv1.weight.copy_(ffn.linear1.weight.unsqueeze(-1))
            self.conv1.bias.copy_(ffn.linear1.bias)
            self.conv2.weight.copy_(ffn.linear2.weight.unsqueeze(-1))
            self.conv2.bias.copy_(ffn.linear2.bias)

    def _check(self, x: torch.Tensor) -> None:
        tensor_input("x", x, self.d_model, dims=3)

    @checked_by(_check)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = ACTIVATIONS[self.activation](self.conv1(x.transpose(1, 2)))  # (batch, d_ff, L)
        return self.conv2(self.dropout(hidden)).transpose(1, 2)

    def extra_repr(self) -> str:
        return f"activation={self.activation!r}"


def as_conv1d(ffn: FeedForward) -> ConvFeedForward:
    """The same FFN as two kernel-size-1 Conv1d layers (the view of the original paper), same weights.

    Takes x: (batch, seq_len, d_model) like the FFN and returns the same shape. The result is an
    independent module: copies of the weights, and its own dropout (same p) as a submodule, so its
    ``.eval()`` and ``.train()`` switch that dropout; it starts in ``ffn``'s mode.
    """
    return ConvFeedForward(ffn).train(ffn.training)
