"""A mixture of experts (混合专家, MoE): the FFN split into E experts, of which a router runs k.

    gates(x) = renormalise(top_k(softmax(x W_r)))        one weight per expert, k of them nonzero
    MoE(x)   = Σ_i gates_i(x) · FFN_i(x)                  only the chosen experts run

(``shared`` experts, which every token runs, add their FFN(x) to the sum: DeepSeekMoE.)

Shazeer et al. 2017 (the sparsely gated MoE), Lepikhin et al. 2020 (GShard, k = 2), Fedus et al.
2021 (the Switch Transformer: k = 1, the load-balancing loss, the capacity factor), Jiang et al.
2024 (Mixtral 8x7B: 8 SwiGLU experts, k = 2). Each expert is the course's ``FeedForward``;
parameter and FLOP counts build on ``model.ffn``'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from course_lib.core._validate import checked_by, flag, int_at_least, positive_int, tensor_input
from course_lib.core.model.ffn import (
    FeedForward,
    count_gated_parameters,
    count_parameters,
    flops_per_token,
)
from course_lib.core.model.hooks import HookedModule, HookPoint


def top_k_gates(logits: torch.Tensor, k: int, renormalise: bool = True) -> torch.Tensor:
    """The router's gates, (..., E) -> (..., E): softmax over the experts, keep the k largest,
    zero the rest. ``renormalise``: the kept ones sum to 1 (a softmax over the k largest logits,
    Mixtral's form); else they keep their probabilities (the Switch Transformer's k = 1, whose
    router would otherwise get no gradient from the task: one renormalised gate is always 1).
    Ties go to the lower expert index (torch.topk's order)."""
    int_at_least("k", k, 1)
    if k > logits.shape[-1]:
        raise ValueError(f"k must be at most the number of experts {logits.shape[-1]}, got {k}")
    probabilities = logits.softmax(dim=-1)
    top = probabilities.topk(k, dim=-1)
    kept = top.values / top.values.sum(dim=-1, keepdim=True) if renormalise else top.values
    return torch.zeros_like(probabilities).scatter(-1, top.indices, kept)


class MixtureOfExperts(HookedModule):
    """MoE(x) = Σ_i g_i(x) FFN_i(x) with g = top_k_gates(x W_r, k): (..., d_model) -> (..., d_model).

    ``num_experts`` experts, each a ``FeedForward(d_model, d_ff)``; a bias-free linear router
    (d_model -> num_experts). Each expert runs on the tokens routed to it only. ``renormalise``:
    see ``top_k_gates`` (False for the Switch Transformer's k = 1). ``shared``: experts of the
    same shape that every token runs, ungated, besides its k routed ones (DeepSeekMoE).
    Hook points: ``hook_router_logits`` (x W_r, (..., E)), ``hook_gates`` (the gates, (..., E))
    and ``hook_out`` (the layer's output); each expert has its own (``experts.0.hook_out``: its
    output, on the tokens routed to it).
    """

    def __init__(
        self,
        d_model: int = 512,
        d_ff: int = 2048,
        num_experts: int = 8,
        k: int = 2,
        dropout: float = 0.0,
        activation: str = "relu",
        renormalise: bool = True,
        shared: int = 0,
    ) -> None:
        super().__init__()
        self.d_model = positive_int("d_model", d_model)
        self.renormalise = flag("renormalise", renormalise)
        self.num_experts = positive_int("num_experts", num_experts)
        self.k = int_at_least("k", k, 1)
        if k > num_experts:
            raise ValueError(f"k must be at most num_experts={num_experts}, got {k}")
        self.router = nn.Linear(d_model, num_experts, bias=False)  # W_r: one score per expert
        self.experts = nn.ModuleList(
            FeedForward(d_model, d_ff, dropout, activation) for _ in range(num_experts)
        )
        self.shared = nn.ModuleList(  # empty unless asked: no weights, no random draws
            FeedForward(d_model, d_ff, dropout, activation)
            for _ in range(int_at_least("shared", shared, 0))
        )
        self.hook_router_logits = HookPoint()  # identities: places to look
        self.hook_gates = HookPoint()
        self.hook_out = HookPoint()

    @classmethod
    def from_config(cls, config) -> MixtureOfExperts:
        """The mixture in each block of the language model whose ``LanguageModelConfig`` is
        ``config`` (``ffn="moe"``: its experts, their width, k, gates and shared experts)."""
        c = config
        return cls(
            c.d_model, c.d_ff, c.num_experts, c.k, c.dropout, c.activation,
            c.renormalise, c.shared_experts,
        )  # fmt: skip

    def _check(self, x: torch.Tensor) -> None:
        tensor_input("x", x, self.d_model)

    @checked_by(_check)
    def gates(self, x: torch.Tensor) -> torch.Tensor:
        """Each token's weight for each expert, (..., num_experts): k nonzero, summing to 1."""
        logits = self.hook_router_logits(self.router(x))  # x W_r: one score per expert
        return self.hook_gates(top_k_gates(logits, self.k, self.renormalise))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gates = self.gates(x)
        out = sum((expert(x) for expert in self.shared), torch.zeros_like(x))  # every token
        for i, expert in enumerate(self.experts):
            chosen = gates[..., i] > 0  # the tokens the router sends to expert i
            out[chosen] += gates[..., i][chosen, None] * expert(x[chosen])
        return self.hook_out(out)

    def extra_repr(self) -> str:
        return (
            f"num_experts={self.num_experts}, k={self.k}, renormalise={self.renormalise}, "
            f"shared={len(self.shared)}"
        )


def expert_load(gates: torch.Tensor) -> torch.Tensor:
    """f_i: the fraction of tokens whose largest gate is expert i, (..., E) -> (E,)."""
    choices = gates.reshape(-1, gates.shape[-1]).argmax(dim=-1)
    return torch.bincount(choices, minlength=gates.shape[-1]).to(gates.dtype) / choices.numel()


def balancing_loss(logits: torch.Tensor, alpha: float = 0.01) -> torch.Tensor:
    """The Switch Transformer's auxiliary loss α · E · Σ_i f_i · P_i (Fedus et al. 2021, eq. 4):
    f_i the fraction of tokens sent to expert i (top-1), P_i the mean router probability of expert
    i. It is α when the load is uniform and grows to α · E when every token goes to one expert;
    its gradient flows through P (f counts, and has none)."""
    probabilities = logits.reshape(-1, logits.shape[-1]).softmax(dim=-1)
    f = expert_load(probabilities).detach()
    return alpha * logits.shape[-1] * (f * probabilities.mean(dim=0)).sum()


def gradient_reach(
    moe: MixtureOfExperts, x: torch.Tensor, alpha: float = 0.0
) -> tuple[set[int], set[int]]:
    """The router rows and the experts whose weights get a gradient from a loss on ``x``
    (..., d_model): a stand-in task loss, the outputs' squared sum, plus ``alpha`` times the
    balancing loss of the router's logits. Autograd's answer: (rows, experts), a gradient counted
    above 1e-9 of the largest (a softmax's terms that cancel leave rounding, not a gradient)."""
    loss = moe(x).pow(2).sum()
    if alpha > 0:
        loss = loss + balancing_loss(moe.router(x), alpha)
    experts = [list(expert.parameters()) for expert in moe.experts]
    grads = torch.autograd.grad(loss, [moe.router.weight, *sum(experts, [])], allow_unused=True)
    rows = grads[0].abs().amax(dim=1)  # (E,): an expert that never runs has None below
    sizes = [len(e) for e in experts]
    per_expert = torch.stack([
        max((g.abs().max() for g in part if g is not None), default=torch.tensor(0.0))
        for part in _split(grads[1:], sizes)
    ])  # fmt: skip
    floor = 1e-9 * max(rows.max(), per_expert.max())
    return set(torch.nonzero(rows > floor).flatten().tolist()), set(
        torch.nonzero(per_expert > floor).flatten().tolist()
    )


def _split(items: tuple, sizes: list[int]) -> list[tuple]:
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    return [items[a : a + n] for a, n in zip(starts, sizes, strict=True)]


def biased_top_k_gates(logits: torch.Tensor, bias: torch.Tensor, k: int) -> torch.Tensor:
    """DeepSeek-V3's gates (DeepSeek-AI 2024, section 2.1.2), (..., E) -> (..., E): affinities
    s = sigmoid(logits); the k experts with the largest s + bias are chosen (the bias, (E,), only
    chooses); their gates are their own s, normalised to sum to 1; the others 0."""
    int_at_least("k", k, 1)
    s = torch.sigmoid(logits)
    chosen = (s + bias).topk(k, dim=-1).indices
    kept = s.gather(-1, chosen)
    return torch.zeros_like(s).scatter(-1, chosen, kept / kept.sum(dim=-1, keepdim=True))


def bias_update(bias: torch.Tensor, counts: torch.Tensor, gamma: float = 0.001) -> torch.Tensor:
    """DeepSeek-V3's auxiliary-loss-free balancing, one step: each expert's bias moves by
    ``gamma``, down if it took more than the mean number of assignments of the batch (``counts``,
    (E,)), up if it took fewer, and stays if it took exactly the mean."""
    counts = counts.to(bias.dtype)
    return bias + gamma * torch.sign(counts.mean() - counts)


def balance_step(
    logits: torch.Tensor, bias: torch.Tensor, k: int, gamma: float = 0.001
) -> tuple[torch.Tensor, torch.Tensor]:
    """One batch of DeepSeek-V3's routing: the gates ``biased_top_k_gates`` gives, and the bias
    after ``bias_update`` with the batch's assignments. logits (tokens, E), bias (E,)."""
    gates = biased_top_k_gates(logits, bias, k)
    return gates, bias_update(bias, assignments(gates), gamma)


def capacity(tokens: int, num_experts: int, capacity_factor: float = 1.0, k: int = 1) -> int:
    """Assignments an expert may take in a batch: ⌈capacity_factor · k · tokens / E⌉ (Fedus et al.
    2021 for k = 1; with top k, each token takes k slots, as in GShard). An assignment to a full
    expert is dropped: that expert does not see the token, which keeps its other experts' share
    and the residual connection."""
    positive_int("tokens", tokens)
    positive_int("num_experts", num_experts)
    int_at_least("k", k, 1)
    if not capacity_factor > 0:
        raise ValueError(f"capacity_factor must be positive, got {capacity_factor!r}")
    return math.ceil(capacity_factor * k * tokens / num_experts)


def assignments(gates: torch.Tensor) -> torch.Tensor:
    """How many tokens each expert runs on, counting every one of a token's k choices:
    (..., E) -> (E,) integers."""
    return (gates.reshape(-1, gates.shape[-1]) > 0).sum(dim=0)


def dropped(counts: torch.Tensor, room: int) -> int:
    """Assignments beyond each expert's ``room`` (its capacity), summed over the experts."""
    return int((counts - room).clamp(min=0).sum())


def moe_parameters(
    d_model: int,
    d_ff: int,
    num_experts: int,
    k: int,
    gated: bool = False,
    bias: bool = True,
    shared: int = 0,
) -> dict[str, int]:
    """One MoE layer's parameters: "total" (router + every expert) and "active" (router + the k
    experts a token runs). ``gated``: SwiGLU experts of three bias-free matrices (Mixtral).
    ``shared``: experts every token runs besides its k routed ones (DeepSeekMoE)."""
    positive_int("num_experts", num_experts)
    int_at_least("k", k, 1)
    int_at_least("shared", shared, 0)
    if k > num_experts:
        raise ValueError(f"k must be at most num_experts={num_experts}, got {k}")
    expert = (
        count_gated_parameters(d_model, d_ff) if gated else count_parameters(d_model, d_ff, bias)
    )
    router = d_model * num_experts if num_experts > 1 else 0  # one expert needs no router
    return {
        "total": router + (num_experts + shared) * expert,
        "active": router + (k + shared) * expert,
    }


def moe_flops_per_token(
    d_model: int, d_ff: int, num_experts: int, k: int, gated: bool = False, shared: int = 0
) -> int:
    """FLOPs per token of one MoE layer: the router's d_model x E product, then k experts and the
    ``shared`` ones (a gated expert has three matrix products, a plain one two; a multiply-add is
    2 FLOPs)."""
    expert = flops_per_token(d_model, d_ff) * (3 if gated else 2) // 2
    router = 2 * d_model * num_experts if num_experts > 1 else 0
    return router + (int_at_least("k", k, 1) + int_at_least("shared", shared, 0)) * expert


@dataclass(frozen=True)
class LatentAttention:
    """Multi-head latent attention (DeepSeek-V2 and V3): queries through a rank-``q_rank`` latent,
    keys and values through a rank-``kv_rank`` one (what the cache keeps), each latent
    RMSNorm-ed; per head, ``nope_dim`` + ``rope_dim`` dimensions to match and ``v_dim`` of value,
    the ``rope_dim`` key part shared by all heads."""

    q_rank: int
    kv_rank: int
    nope_dim: int
    rope_dim: int
    v_dim: int


@dataclass(frozen=True)
class DecoderConfig:
    """A decoder-only language model's published shape: grouped-query attention (or ``latent``
    attention), SwiGLU experts with ``shared_experts`` every token runs, the first
    ``dense_layers`` layers with one SwiGLU FFN of width ``dense_d_ff`` instead, RMSNorm (weights
    only), untied input and output embeddings (Mistral, Mixtral, DeepSeek-V3)."""

    name: str
    vocab: int
    d_model: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    d_ff: int  # each expert's width
    num_experts: int = 1
    k: int = 1
    shared_experts: int = 0
    dense_layers: int = 0
    dense_d_ff: int = 0
    latent: LatentAttention | None = None


def attention_parameters(config: DecoderConfig) -> int:
    """One layer's attention weights (no biases)."""
    c, a = config, config.latent
    if a is None:  # W_q and W_o for every head; W_k and W_v for every key/value head
        return c.d_model * c.head_dim * (2 * c.heads + 2 * c.kv_heads)
    queries = c.d_model * a.q_rank + a.q_rank + a.q_rank * c.heads * (a.nope_dim + a.rope_dim)
    keys_values = (
        c.d_model * (a.kv_rank + a.rope_dim)
        + a.kv_rank
        + a.kv_rank * c.heads * (a.nope_dim + a.v_dim)
    )
    return queries + keys_values + c.heads * a.v_dim * c.d_model  # and W_o


def decoder_parameters(config: DecoderConfig) -> dict[str, int]:
    """Parameters of the whole model: "total", "active" per token, the FFN layers' share
    ("ffn_total") and the input embedding table ("input embedding", counted in both "total" and
    "active", so an active count can be given without this lookup)."""
    c = config
    moe = moe_parameters(c.d_model, c.d_ff, c.num_experts, c.k, gated=True, shared=c.shared_experts)
    dense = count_gated_parameters(c.d_model, c.dense_d_ff) if c.dense_layers else 0
    moe_layers = c.layers - c.dense_layers
    norms = 2 * c.d_model  # two RMSNorms per layer
    embeddings = 2 * c.vocab * c.d_model + c.d_model  # input, output, and the final RMSNorm
    every_layer = c.layers * (attention_parameters(c) + norms) + c.dense_layers * dense
    parts = {key: every_layer + moe_layers * moe[key] + embeddings for key in moe}
    parts["ffn_total"] = moe_layers * moe["total"] + c.dense_layers * dense
    parts["input embedding"] = c.vocab * c.d_model
    return parts


# Jiang et al. 2024 (Mixtral of Experts), Table 1, and Jiang et al. 2023 (Mistral 7B): the same
# shape but for the FFN, 8 experts and k = 2 in Mixtral, one dense FFN in Mistral.
MIXTRAL_8X7B = DecoderConfig("Mixtral 8x7B", 32000, 4096, 32, 32, 8, 128, 14336, 8, 2)
MISTRAL_7B = DecoderConfig("Mistral 7B", 32000, 4096, 32, 32, 8, 128, 14336, 1, 1)
# Not a released model: Mistral 7B with its FFN twice as wide, a dense model that spends per token
# what Mixtral's two experts spend
MISTRAL_WIDE = DecoderConfig("Mistral d_ff=28672", 32000, 4096, 32, 32, 8, 128, 28672, 1, 1)
# DeepSeek-AI 2024 (DeepSeek-V3 Technical Report), its published config: 61 layers, the first 3
# dense (width 18432), then 256 routed experts of width 2048, top 8, and 1 shared expert; latent
# attention with 128 heads. The router's load-balancing bias (256 numbers a layer) and the
# multi-token-prediction module are left out, as the report's 671B does.
DEEPSEEK_V3 = DecoderConfig(
    "DeepSeek-V3", 129280, 7168, 61, 128, 128, 128, 2048, 256, 8,
    shared_experts=1, dense_layers=3, dense_d_ff=18432,
    latent=LatentAttention(q_rank=1536, kv_rank=512, nope_dim=128, rope_dim=64, v_dim=128),
)  # fmt: skip
