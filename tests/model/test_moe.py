"""course_lib.core.model.moe: the mixture of experts is the FFN when there is one expert, a weighted sum
of every expert when k = E, runs each expert on its own tokens only, and its counts match the
modules and the published Mixtral numbers."""

from __future__ import annotations

import math

import pytest
import torch

from course_lib.core.model.ffn import module_parameters
from course_lib.core.model.moe import (
    DEEPSEEK_V3,
    MISTRAL_7B,
    MIXTRAL_8X7B,
    MixtureOfExperts,
    assignments,
    attention_parameters,
    balance_step,
    balancing_loss,
    bias_update,
    biased_top_k_gates,
    capacity,
    decoder_parameters,
    dropped,
    expert_load,
    gradient_reach,
    moe_flops_per_token,
    moe_parameters,
    top_k_gates,
)
from course_lib.lessons.l07_mixture_of_experts.papers import DEEPSEEK_V3_2024, MIXTRAL_2024


def _moe(num_experts=4, k=2, seed=0, d_model=6, d_ff=10):
    torch.manual_seed(seed)
    return MixtureOfExperts(d_model, d_ff, num_experts, k).double().eval()


def _x(seed=1, d_model=6):
    return torch.randn(
        3, 5, d_model, dtype=torch.float64, generator=torch.Generator().manual_seed(seed)
    )


def test_one_expert_is_the_ffn():
    moe, x = _moe(num_experts=1, k=1), _x()
    assert torch.equal(moe.gates(x), torch.ones(3, 5, 1, dtype=torch.float64))
    assert torch.allclose(moe(x), moe.experts[0](x), atol=1e-15)


def test_a_dense_mixture_is_the_softmax_weighted_sum_of_every_expert():
    moe, x = _moe(num_experts=3, k=3), _x()
    weights = (x @ moe.router.weight.T).softmax(dim=-1)  # computed here, not by the module
    direct = sum(weights[..., i, None] * expert(x) for i, expert in enumerate(moe.experts))
    assert torch.allclose(moe(x), direct, atol=1e-12)


def test_top_k_keeps_k_gates_that_sum_to_one_as_a_softmax_over_the_k_largest_logits():
    logits = torch.tensor([[2.0, -1.0, 0.5, 1.0], [0.0, 3.0, 3.0, -2.0]], dtype=torch.float64)
    gates = top_k_gates(logits, 2)
    assert ((gates > 0).sum(-1) == 2).all() and torch.allclose(
        gates.sum(-1), torch.ones(2, dtype=torch.float64)
    )
    assert torch.allclose(
        gates[0, [0, 3]], torch.tensor([2.0, 1.0], dtype=torch.float64).softmax(0)
    )
    assert gates[0, 1] == gates[0, 2] == 0
    assert torch.allclose(gates[1, [1, 2]], torch.tensor([0.5, 0.5], dtype=torch.float64))


def test_the_sparse_forward_equals_the_gated_sum_and_runs_each_expert_on_its_tokens_only():
    moe, x = _moe(num_experts=4, k=2), _x()
    gates = moe.gates(x)
    dense = sum(gates[..., i, None] * e(x) for i, e in enumerate(moe.experts))
    assert torch.allclose(moe(x), dense, atol=1e-12)
    seen = []
    hooks = [
        e.register_forward_hook(lambda m, i, o: seen.append(i[0].shape[0])) for e in moe.experts
    ]
    moe(x)
    for hook in hooks:
        hook.remove()
    assert seen == [int((gates[..., i] > 0).sum()) for i in range(4)]
    assert sum(seen) == 2 * 15, "k of E experts per token: half the dense compute here"


def test_the_counts_match_the_module():
    moe = MixtureOfExperts(8, 32, 4, 2)
    counts = moe_parameters(8, 32, 4, 2)
    assert counts["total"] == module_parameters(moe)
    one_expert = module_parameters(moe.experts[0])
    assert counts["active"] == module_parameters(moe.router) + 2 * one_expert
    assert moe_flops_per_token(8, 32, 4, 2) == 2 * 8 * 4 + 2 * (4 * 8 * 32)


def test_mixtrals_published_totals_follow_from_its_published_shape():
    mixtral, mistral = decoder_parameters(MIXTRAL_8X7B), decoder_parameters(MISTRAL_7B)
    assert abs(mixtral["total"] / MIXTRAL_2024["total"] - 1) < 0.01  # 46.7B against 47B
    assert abs(mixtral["active"] / MIXTRAL_2024["active"] - 1) < 0.01  # 12.9B against 13B
    assert mistral["total"] == mistral["active"]
    # the same layers but for the FFN: Mixtral's active parameters are Mistral's plus one expert
    # per layer and the routers
    expert = 3 * 4096 * 14336
    assert mixtral["active"] - mistral["total"] == 32 * (expert + 4096 * 8)


def test_shared_experts_are_held_and_run_by_every_token():
    plain, shared = moe_parameters(8, 32, 4, 2), moe_parameters(8, 32, 4, 2, shared=1)
    expert = 2 * 8 * 32 + 32 + 8
    assert shared["total"] - plain["total"] == expert == shared["active"] - plain["active"]
    flops = moe_flops_per_token(8, 32, 4, 2, shared=1) - moe_flops_per_token(8, 32, 4, 2)
    assert flops == 2 * 8 * 32 * 2  # one more expert's two products per token
    with pytest.raises(ValueError, match="shared must be"):
        moe_parameters(8, 32, 4, 2, shared=-1)


def test_deepseek_v3s_published_counts_follow_from_its_configuration():
    """Latent attention counted from the checkpoint's weight shapes (DeepSeek-V3's names), not
    from the formula: q_a_proj, its norm, q_b_proj, kv_a_proj_with_mqa, its norm, kv_b_proj,
    o_proj."""
    d, heads, q_rank, kv_rank, nope, rope, v = 7168, 128, 1536, 512, 128, 64, 128
    shapes = [(q_rank, d), (q_rank,), (heads * (nope + rope), q_rank), (kv_rank + rope, d)]
    shapes += [(kv_rank,), (heads * (nope + v), kv_rank), (d, heads * v)]
    assert attention_parameters(DEEPSEEK_V3) == sum(math.prod(shape) for shape in shapes)
    counts = decoder_parameters(DEEPSEEK_V3)
    assert abs(counts["total"] / DEEPSEEK_V3_2024["total"] - 1) < 0.001  # 671.0B against 671B
    assert abs(counts["active"] / DEEPSEEK_V3_2024["active"] - 1) < 0.02  # 37.6B against 37B
    expert, router, dense_ffn = 3 * d * 2048, d * 256, 3 * d * 18432
    every_layer = 61 * (attention_parameters(DEEPSEEK_V3) + 2 * d)  # attention and two norms
    embeddings = 2 * 129280 * d + d  # input, output, final norm
    routed = 58 * (router + 9 * expert)  # 58 MoE layers: 8 routed experts and the shared one
    assert counts["active"] == every_layer + 3 * dense_ffn + routed + embeddings
    assert counts["total"] - counts["active"] == 58 * (256 - 8) * expert
    assert counts["input embedding"] == 129280 * d  # in both counts; a lookup, not a product
    # README_WEIGHTS.md: "36.7B (including 0.9B for Embedding and 0.9B for the output Head)"
    assert round(counts["input embedding"] / 1e9, 1) == 0.9
    with_it, without = counts["active"] / 1e9, (counts["active"] - counts["input embedding"]) / 1e9
    assert abs(with_it - 36.7) > 0.8 and abs(without - 36.7) < 0.1  # only without one 0.9B matrix


def test_the_balancing_loss_is_alpha_when_balanced_and_alpha_e_when_collapsed():
    uniform = torch.eye(4, dtype=torch.float64).repeat(5, 1) * 50  # each expert takes a quarter
    assert expert_load(uniform.softmax(-1)).tolist() == [0.25] * 4
    assert balancing_loss(uniform, alpha=0.01).item() == pytest.approx(0.01, rel=1e-9)
    collapsed = torch.zeros(20, 4, dtype=torch.float64)
    collapsed[:, 0] = 50
    assert balancing_loss(collapsed, alpha=0.01).item() == pytest.approx(0.04, rel=1e-9)


def test_the_balancing_loss_gradient_matches_a_finite_difference():
    logits = torch.randn(12, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
    logits.requires_grad_(True)
    (grad,) = torch.autograd.grad(balancing_loss(logits, alpha=0.1), logits)
    step, i, j = 1e-6, 5, 2
    bumped = logits.detach().clone()
    bumped[i, j] += step  # small enough not to change any token's top expert
    lower = logits.detach().clone()
    lower[i, j] -= step
    numeric = (balancing_loss(bumped, 0.1) - balancing_loss(lower, 0.1)) / (2 * step)
    assert grad[i, j].item() == pytest.approx(numeric.item(), rel=1e-6, abs=1e-12)


def test_capacity_rounds_up_the_factor_times_an_even_share():
    assert capacity(8, 4, 1.0) == 2
    assert capacity(8, 4, 1.25) == 3
    assert capacity(10, 4, 1.0) == 3


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match=r"k must be at most num_experts=4, got 5"):
        MixtureOfExperts(8, 16, 4, 5)
    with pytest.raises(ValueError, match=r"k must be at most the number of experts 3, got 4"):
        top_k_gates(torch.zeros(2, 3), 4)
    with pytest.raises(ValueError, match="capacity_factor must be positive, got 0"):
        capacity(8, 4, 0)
    with pytest.raises(ValueError, match="x"):
        _moe()(torch.zeros(2, 7, dtype=torch.float64))


def test_switch_gates_keep_the_probability_so_the_router_learns_from_the_task():
    logits = torch.tensor([[2.0, 0.0, -1.0]], dtype=torch.float64, requires_grad=True)
    mixtral = top_k_gates(logits, 1)
    assert mixtral.tolist() == [[1.0, 0.0, 0.0]]  # renormalised: always 1, no gradient
    switch = top_k_gates(logits, 1, renormalise=False)
    assert switch[0, 0].item() == pytest.approx(logits.softmax(-1)[0, 0].item())
    (grad,) = torch.autograd.grad(switch[0, 0], logits)
    assert grad.abs().sum() > 0


def test_a_shared_expert_runs_on_every_token_ungated_and_is_counted():
    torch.manual_seed(0)
    moe = MixtureOfExperts(6, 10, 3, 1, renormalise=False, shared=1).double().eval()
    x = _x()
    gates = moe.gates(x)
    routed = sum(gates[..., i, None] * e(x) for i, e in enumerate(moe.experts))
    assert torch.allclose(moe(x), moe.shared[0](x) + routed, atol=1e-12)
    assert module_parameters(moe) == moe_parameters(6, 10, 3, 1, shared=1)["total"]


def test_no_shared_expert_adds_no_weights_and_draws_no_random_numbers():
    torch.manual_seed(4)
    plain = MixtureOfExperts(6, 10, 4, 2)
    torch.manual_seed(4)
    same = MixtureOfExperts(6, 10, 4, 2, shared=0)
    assert len(same.shared) == 0 and plain.state_dict().keys() == same.state_dict().keys()
    assert all(torch.equal(a, b) for a, b in zip(plain.state_dict().values(),
                                                 same.state_dict().values(), strict=True))  # fmt: skip


def test_capacity_counts_k_slots_per_token_and_dropped_counts_the_overflow():
    assert capacity(8, 4, 1.0, k=2) == 4 and capacity(10, 4, 1.25, k=2) == 7
    gates = top_k_gates(torch.tensor([[3.0, 2.0, 0.0], [3.0, 1.0, 2.0], [0.0, 3.0, 2.0]]), 2)
    assert assignments(gates).tolist() == [2, 2, 2]  # every token's two choices counted
    assert dropped(torch.tensor([5, 1, 0]), room=2) == 3 and dropped(torch.tensor([2, 2]), 2) == 0


def test_deepseek_v3s_bias_chooses_but_the_gates_are_the_normalised_sigmoid_affinities():
    logits = torch.tensor([[2.0, 1.0, 0.0, -1.0]], dtype=torch.float64)
    s = torch.sigmoid(logits)[0]
    plain = biased_top_k_gates(logits, torch.zeros(4, dtype=torch.float64), 2)
    assert torch.allclose(plain[0, :2], s[:2] / s[:2].sum()) and (plain[0, 2:] == 0).all()
    pushed = biased_top_k_gates(logits, torch.tensor([0.0, 0.0, 0.0, 1.0], dtype=torch.float64), 2)
    assert (pushed[0, [1, 2]] == 0).all()  # expert 3 chosen, by the bias alone
    assert torch.allclose(pushed[0, [0, 3]], s[[0, 3]] / s[[0, 3]].sum())  # no bias in the gates


def test_the_bias_steps_down_by_gamma_when_overloaded_up_when_underloaded():
    bias = torch.tensor([0.1, 0.0, -0.2], dtype=torch.float64)
    new = bias_update(bias, torch.tensor([5, 3, 1]), gamma=0.01)  # mean 3
    assert torch.allclose(new - bias, torch.tensor([-0.01, 0.0, 0.01], dtype=torch.float64))
    logits = torch.zeros(4, 3, dtype=torch.float64) + torch.arange(3.0)  # s = 0.50, 0.73, 0.88
    pushed = torch.tensor([0.5, 0.0, -0.2], dtype=torch.float64)  # s + bias: 1.00, 0.73, 0.68
    gates, after = balance_step(logits, pushed, 1)
    assert assignments(gates).tolist() == [4, 0, 0]
    assert torch.allclose(after - pushed, torch.tensor([-0.001, 0.001, 0.001], dtype=torch.float64))


def test_gradient_reach_is_autograds_nonzero_gradients():
    torch.manual_seed(2)
    moe = MixtureOfExperts(5, 4, 4, 2, renormalise=False).double()
    with torch.no_grad():
        moe.router.weight[3] = -1.0
    x = 0.1 + torch.rand(7, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(2))
    rows, experts = gradient_reach(moe, x)
    moe(x).pow(2).sum().backward()
    assert rows == {i for i in range(4) if moe.router.weight.grad[i].abs().max() > 0}
    assert experts == {
        i for i, e in enumerate(moe.experts) if e.linear1.weight.grad.abs().max() > 0
    }
    assert 3 in rows and 3 not in experts


@pytest.mark.parametrize("form", ["renormalised", "probabilities kept", "balancing loss"])
def test_the_gradient_reach_of_the_unchosen_row_agrees_with_a_finite_difference(form):
    """Lesson 7's exercise 3 rests on autograd: nudge the never-chosen expert's router row and the
    loss moves (central difference) exactly when autograd says that row gets gradient."""
    from course_lib.core.model.moe import balancing_loss, gradient_reach
    from course_lib.lessons.l07_mixture_of_experts.checks import FORMS, UNCHOSEN, never_chosen

    assert form in FORMS
    moe, x = never_chosen(form, 0)
    alpha = 0.01 if form == FORMS[2] else 0.0

    def loss() -> float:
        with torch.no_grad():
            value = moe(x).pow(2).sum()
            return float(value + (balancing_loss(moe.router(x), alpha) if alpha else 0.0))

    rows, _ = gradient_reach(moe, x, alpha)
    h, moved = 1e-5, 0.0
    for j in range(moe.router.weight.shape[1]):
        with torch.no_grad():
            moe.router.weight[UNCHOSEN, j] += h
            up = loss()
            moe.router.weight[UNCHOSEN, j] -= 2 * h
            down = loss()
            moe.router.weight[UNCHOSEN, j] += h
        moved = max(moved, abs(up - down) / (2 * h))
    assert (moved > 1e-6) == (UNCHOSEN in rows), (form, moved, rows)
    assert (UNCHOSEN in rows) == (form != FORMS[0])  # renormalised: no gradient reaches it
