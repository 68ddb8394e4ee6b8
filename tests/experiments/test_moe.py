"""experiments.moe: the batched networks are the MixtureOfExperts module with the same weights, a
short training run returns every network's load and accuracy, and the expert map is the router's."""

from __future__ import annotations

import numpy as np
import torch

from course_lib.experiments.moe import expert_map, moe_init, moe_outputs, train_routers
from course_lib.model.moe import MixtureOfExperts


def test_the_batched_network_is_the_module_with_the_same_weights():
    w = moe_init(seed=3, num_experts=4, d_ff=5, out=2)
    module = MixtureOfExperts(d_model=2, d_ff=5, num_experts=4, k=2).double().eval()
    module.router.weight.data = w["router"].T.clone()
    module.experts = torch.nn.ModuleList(module.experts)
    for i, expert in enumerate(module.experts):
        expert.linear1 = torch.nn.Linear(2, 5).double()
        expert.linear2 = torch.nn.Linear(5, 2).double()
        expert.linear1.weight.data, expert.linear1.bias.data = w["W1"][i].T, w["b1"][i, 0]
        expert.linear2.weight.data, expert.linear2.bias.data = w["W2"][i].T, w["b2"][i, 0]
    X = torch.rand(50, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(0)) * 2 - 1
    out, logits = moe_outputs(w, X, k=2)
    with torch.no_grad():
        assert torch.allclose(out, module(X), atol=1e-12)
        assert torch.allclose(logits, module.router(X), atol=1e-12)


def test_a_short_run_reports_each_networks_load_and_accuracy():
    runs = train_routers(
        "xor", num_experts=4, k=2, d_ff=4, alphas=(0.0, 0.5), seeds=(0, 1), steps=5
    )
    assert runs.load.shape == (2, 2, 4) and runs.accuracy.shape == (2, 2)
    assert np.allclose(runs.load.sum(axis=-1), 1.0)
    assert ((runs.used() >= 1) & (runs.used() <= 4)).all()
    chosen, logit = expert_map(runs.weights[0][0], k=2, resolution=20)
    assert chosen.shape == logit.shape == (20, 20) and set(np.unique(chosen)) <= set(range(4))
    corner = torch.tensor([[-1.0, -1.0]], dtype=torch.float64)  # the grid's first point
    out, logits = moe_outputs(runs.weights[0][0], corner, k=2)
    assert chosen[0, 0] == logits.argmax().item() and np.isclose(logit[0, 0], out[0, 0].item())


def test_every_alpha_starts_a_seed_from_the_same_weights():
    a, b = moe_init(7, 4, 3, 1), moe_init(7, 4, 3, 1)
    assert all(torch.equal(a[name], b[name]) for name in a)
    assert not torch.equal(a["W1"], moe_init(8, 4, 3, 1)["W1"])
