"""Hook points: identities that add no arithmetic, named by module path; run_with_cache reads what
the formulas compute, run_with_hooks changes it as the edit path does, and every hook is gone once
its run ends, an exception included."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from course_lib.core.model import hooks
from course_lib.core.model.ffn import FeedForward, GatedFeedForward
from course_lib.core.model.language_model import LanguageModel, LanguageModelConfig
from course_lib.core.model.moe import MixtureOfExperts
from course_lib.core.model.sublayer import EncoderLayer
from course_lib.core.model.transformer import create_sequence_mask

VOCAB = 30


def small_model(seed: int = 0, **fields) -> LanguageModel:
    config = LanguageModelConfig(
        vocab_size=VOCAB, **({"d_model": 16, "num_heads": 2, "d_ff": 24} | fields)
    )
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        return LanguageModel(config).double().eval()


def tokens(batch: int = 3, length: int = 7, seed: int = 1) -> torch.Tensor:
    return torch.randint(0, VOCAB, (batch, length), generator=torch.Generator().manual_seed(seed))


def no_hooks_left(module: nn.Module) -> bool:
    return all(not m._forward_hooks for m in module.modules())


def by_hand(model: LanguageModel, ids: torch.Tensor) -> torch.Tensor:
    """The logits from the model's weights, every step written out, through no hook point."""
    mask = create_sequence_mask(ids.shape[1])
    x = model.embed.lut(ids) * model.d_model**0.5 + model.position.pe[:, : ids.shape[1]]
    for layer in model.layers:
        a = layer.sublayers[0].norm(x)
        x = x + layer.self_attn(a, a, a, mask)
        h = layer.sublayers[1].norm(x)
        ffn = layer.ffn
        x = x + ffn.linear2(F.relu(ffn.linear1(h)))
    return model.norm(x) @ model.embed.lut.weight.T


# ---- identities


def test_a_hook_point_returns_the_tensor_it_is_given_and_holds_no_state():
    point, x = hooks.HookPoint(), torch.randn(2, 3)
    assert point(x) is x
    assert not list(point.parameters()) and not list(point.buffers())
    assert not point.state_dict()


def test_the_model_computes_bit_for_bit_what_its_formula_computes_without_hook_points():
    model = small_model()
    ids = tokens()
    with torch.no_grad():
        plain = model(ids)
        cached, cache = model.run_with_cache(ids)
        seen: list[str] = []
        every = [(lambda _name: True, lambda _a, hook: seen.append(hook.name))]  # reads only
        read = model.run_with_hooks(ids, fwd_hooks=every)
    assert torch.equal(plain, by_hand(model, ids))  # the hook points add no arithmetic
    assert torch.equal(cached, plain) and torch.equal(read, plain)
    assert sorted(seen) == sorted(cache)  # every hook point ran, once
    assert len(cache) == len(model.hook_points()) == 1 + 1 + 2 * 7


def test_state_dict_keys_are_those_of_the_parameters_alone():
    for ffn in ("plain", "swiglu", "moe"):
        model = small_model(ffn=ffn)
        keys = set(model.state_dict())
        assert not any("hook" in key for key in keys), ffn
        assert keys == {name for name, _ in model.named_parameters()}, ffn


def test_the_printout_shows_the_formulas_parts_and_no_hook_point():
    assert repr(FeedForward(512, 2048)) == (
        "FeedForward(\n"
        "  activation='relu'\n"
        "  (linear1): Linear(in_features=512, out_features=2048, bias=True)\n"
        "  (dropout): Dropout(p=0.1, inplace=False)\n"
        "  (linear2): Linear(in_features=2048, out_features=512, bias=True)\n"
        ")"
    )
    text = repr(small_model(ffn="moe", d_ff=6))
    assert "HookPoint" not in text and "(router): Linear" in text and "(experts)" in text


# ---- run_with_cache reads what the formulas compute


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_the_cached_hidden_units_are_act_of_x_w1_plus_b1_from_the_weights(activation):
    model, ids = small_model(activation=activation), tokens()
    act = {"relu": F.relu, "gelu": F.gelu}[activation]
    with torch.no_grad():
        _, cache = model.run_with_cache(ids, names_filter=lambda name: "ffn" in name)
        x = model.position(model.embed(ids))
        for i, layer in enumerate(model.layers):
            a = layer.sublayers[0].norm(x)
            x = x + layer.self_attn(a, a, a, create_sequence_mask(ids.shape[1]))
            h = layer.sublayers[1].norm(x)  # pre-norm: the FFN reads LN(x)
            W1, b1 = layer.ffn.linear1.weight.T, layer.ffn.linear1.bias  # the formula's layout
            expected = act(h @ W1 + b1)
            torch.testing.assert_close(cache[f"layers.{i}.ffn.hook_hidden"], expected)
            x = x + layer.ffn(h)
    assert set(cache) == {
        f"layers.{i}.ffn.{p}" for i in (0, 1) for p in ("hook_hidden", "hook_out")
    }
    assert torch.equal(model.ffn_hidden(ids)[1], cache["layers.1.ffn.hook_hidden"])


def test_the_cached_stream_and_attention_are_the_models_own():
    model, ids = small_model(), tokens()
    with torch.no_grad():
        _, cache = model.run_with_cache(ids)
        embedded = model.embed(ids)
        stream = model.residual_stream(ids)
    assert torch.equal(cache["hook_embed"], embedded)
    assert torch.equal(cache["layers.0.hook_resid_pre"], model.position(embedded))
    assert torch.equal(cache["layers.1.hook_resid_post"], stream)
    assert torch.equal(cache["layers.1.hook_resid_pre"], cache["layers.0.hook_resid_post"])
    assert torch.equal(cache["layers.0.self_attn.hook_pattern"], model.layers[0].self_attn.attn)
    mid = cache["layers.0.hook_resid_pre"] + cache["layers.0.self_attn.hook_out"]
    assert torch.equal(cache["layers.0.hook_resid_mid"], mid)
    assert cache["layers.0.self_attn.hook_pattern"].shape == (3, 2, 7, 7)


def test_a_gated_models_cache_holds_the_gate_times_the_linear_branch():
    model, ids = small_model(ffn="swiglu"), tokens()
    with torch.no_grad():
        _, cache = model.run_with_cache(ids, names_filter=["layers.0.hook_resid_mid"])
        _, hidden = model.run_with_cache(ids, names_filter="layers.0.ffn.hook_hidden")
        x = model.layers[0].sublayers[1].norm(cache["layers.0.hook_resid_mid"])
        ffn = model.layers[0].ffn
        expected = F.silu(x @ ffn.gate.weight.T) * (x @ ffn.up.weight.T)
    assert list(hidden) == ["layers.0.ffn.hook_hidden"]
    torch.testing.assert_close(hidden["layers.0.ffn.hook_hidden"], expected)


# ---- run_with_hooks changes what it names, as the edit path does


def zero_unit(unit: int):
    def hook(hidden: torch.Tensor, _hook: hooks.HookPoint) -> torch.Tensor:
        hidden = hidden.clone()
        hidden[..., unit] = 0
        return hidden

    return hook


@pytest.mark.parametrize("ffn", ["plain", "swiglu"])
def test_zeroing_a_hidden_unit_with_a_hook_equals_a_zero_value_vector(ffn):
    model, ids = small_model(ffn=ffn), tokens()
    unit = 5
    without = copy.deepcopy(model)  # the unit's value vector (column of W2) zeroed instead
    with torch.no_grad():
        out = without.layers[1].ffn.linear2 if ffn == "plain" else without.layers[1].ffn.down
        out.weight[:, unit] = 0
        plain = model(ids)
        hooked = model.run_with_hooks(
            ids, fwd_hooks=[("layers.1.ffn.hook_hidden", zero_unit(unit))]
        )
        expected = without(ids)
    torch.testing.assert_close(hooked, expected, atol=1e-12, rtol=0)
    assert (hooked - plain).abs().max() > 1e-6  # the unit mattered
    assert no_hooks_left(model)


def test_a_test_on_names_hooks_every_hook_point_it_accepts():
    model, ids = small_model(), tokens()
    seen: list[str] = []
    with torch.no_grad():
        model.run_with_hooks(
            ids,
            fwd_hooks=[(lambda n: n.endswith("hook_resid_post"), lambda a, h: seen.append(h.name))],
        )
    assert seen == ["layers.0.hook_resid_post", "layers.1.hook_resid_post"]


# ---- hooks are removed, whatever happens


def test_hooks_are_removed_after_an_exception_in_a_hook_or_in_the_block():
    model, ids = small_model(), tokens()
    with torch.no_grad():
        plain = model(ids)

        def broken(_activation, _hook):
            raise RuntimeError("broken hook")

        with pytest.raises(RuntimeError, match="broken hook"):
            model.run_with_hooks(ids, fwd_hooks=[("layers.0.ffn.hook_hidden", broken)])
        assert no_hooks_left(model)
        with pytest.raises(KeyError), model.hooks([("layers.1.ffn.hook_hidden", zero_unit(0))]):
            assert not no_hooks_left(model)  # attached while the block runs
            raise KeyError("in the block")
        assert no_hooks_left(model)
        assert torch.equal(model(ids), plain)


def test_a_name_that_is_not_a_hook_point_is_named_and_nothing_is_attached():
    model, ids = small_model(), tokens()
    fwd_hooks = [("layers.0.ffn.hook_hidden", zero_unit(0)), ("layers.0.ffn.hidden", zero_unit(0))]
    with pytest.raises(
        ValueError, match=r"fwd_hooks must name hook points .* got 'layers.0.ffn.hidden'"
    ):
        model.run_with_hooks(ids, fwd_hooks=fwd_hooks)
    assert no_hooks_left(model)
    with pytest.raises(ValueError, match="names_filter must name hook points .* got 'hook_ffn'"):
        model.run_with_cache(ids, names_filter=["hook_ffn"])
    with pytest.raises(TypeError, match="fwd_hooks must pair each name with a function"):
        model.run_with_hooks(ids, fwd_hooks=[("hook_embed", "zero")])
    assert no_hooks_left(model)


# ---- the same on bare modules


def test_a_bare_encoder_layer_runs_with_a_cache_under_its_own_names():
    torch.manual_seed(0)
    layer = EncoderLayer(16, 2, 24, 0.0, norm_first=True).eval()
    x = torch.randn(2, 5, 16)
    with torch.no_grad():
        out, cache = hooks.run_with_cache(
            layer, x, names_filter=lambda n: n.startswith(("ffn", "hook"))
        )
        plain = layer(x)
        ffn = layer.ffn
        hidden = F.relu(
            layer.sublayers[1].norm(cache["hook_resid_mid"]) @ ffn.linear1.weight.T
            + ffn.linear1.bias
        )
    assert torch.equal(out, plain) and torch.equal(cache["hook_resid_post"], plain)
    assert set(cache) == {
        "ffn.hook_hidden",
        "ffn.hook_out",
        "hook_resid_pre",
        "hook_resid_mid",
        "hook_resid_post",
    }
    torch.testing.assert_close(cache["ffn.hook_hidden"], hidden)


def test_a_bare_mixture_without_one_expert_is_the_gated_sum_of_the_others():
    torch.manual_seed(0)
    moe = MixtureOfExperts(8, 12, num_experts=4, k=2).double()
    x = torch.randn(3, 5, 8, dtype=torch.float64)
    with torch.no_grad():
        gates = moe.gates(x)
        zeros = [("experts.2.hook_out", lambda out, _hook: torch.zeros_like(out))]
        without = moe.run_with_hooks(x, fwd_hooks=zeros)
        expected = moe(x) - gates[..., 2:3] * moe.experts[2](x)
        _, cache = moe.run_with_cache(x, names_filter=["hook_router_logits", "hook_gates"])
    torch.testing.assert_close(without, expected)
    assert (gates[..., 2] > 0).any()  # expert 2 had tokens to lose
    assert torch.equal(cache["hook_router_logits"], moe.router(x))
    assert torch.equal(cache["hook_gates"], gates)
    assert no_hooks_left(moe)


def test_a_gated_ffn_and_a_module_of_none_of_ours_take_hooks_by_path():
    torch.manual_seed(0)
    stack = nn.Sequential(nn.Linear(4, 4), GatedFeedForward(4, 6))
    x = torch.randn(2, 4)
    with torch.no_grad():
        out, cache = hooks.run_with_cache(stack, x)
        doubled = hooks.run_with_hooks(stack, x, fwd_hooks=[("1.hook_out", lambda o, _h: 2 * o)])
    assert set(cache) == {"1.hook_hidden", "1.hook_out"} and torch.equal(cache["1.hook_out"], out)
    assert torch.equal(doubled, 2 * out)
    with pytest.raises(TypeError, match="module must be an nn.Module, got str"):
        hooks.hook_points("stack")


def test_the_course_hooks_its_modules_through_hook_points_only():
    """One way to look inside: a hand-written forward hook anywhere in the package but on a
    HookPoint is flagged (a pre-hook on a dropout, a hook on a router or an expert, ...)."""
    package = Path(hooks.__file__).resolve().parents[2]
    pattern = re.compile(r"register_(forward|full_backward)\w*hook")
    found = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if pattern.search(line)
    ]
    assert found == ["core/model/hooks.py"], found  # HookPoint.add_hook, once


# Ways to change what a module computes other than its hook points: PyTorch's own hooks, and
# replacing a module's forward. Only the hook points' module may use them.
_BYPASSES = re.compile(r"register_(forward|full_backward|backward)\w*hook|\.forward\s*=[^=]")


def test_activations_are_edited_only_at_hook_points_in_every_module_and_notebook():
    """One editing path: the model's forward takes tokens only (no ``edit=``), and no
    library module or notebook code cell, other than the hook points' own module, hooks a module
    or replaces its forward."""
    import inspect

    import nbformat

    for method in (LanguageModel.forward, LanguageModel.residual_stream, LanguageModel.run_blocks):
        assert "edit" not in inspect.signature(method).parameters, method.__qualname__
    root = Path(__file__).resolve().parents[2]
    sources = {p: p.read_text(encoding="utf-8") for p in (root / "course_lib").rglob("*.py")}
    for notebook in sorted((root / "notebooks").rglob("*.ipynb")):
        cells = nbformat.read(notebook, as_version=4).cells
        sources[notebook] = "\n".join(c.source for c in cells if c.cell_type == "code")
    assert len(sources) > 50  # the scan reads the package and the notebooks, not nothing
    own = root / "course_lib" / "core" / "model" / "hooks.py"
    offenders = [str(p.relative_to(root)) for p, text in sources.items()
                 if p != own and _BYPASSES.search(text)]  # fmt: skip
    assert not offenders, offenders
    assert _BYPASSES.search(own.read_text(encoding="utf-8"))  # the pattern finds the real use
    assert _BYPASSES.search("module.forward = lambda x: x")
