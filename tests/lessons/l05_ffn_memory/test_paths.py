"""The paths of zeroing a layer's units, in the answer's log-odds: the total is the model's own edit, the direct part and
the held-scale and blind-layer totals are what their definitions compute by hand, the split's parts
add up to the total in either order, the last layer has no later path, and the scale ratio is the
LayerNorm's own."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.experiments.memory import log_odds, scale_units, stored_model
from course_lib.lessons.l05_ffn_memory.experiments.paths import layer_contributions

FACT = 7


@pytest.fixture(scope="module")
def parts():
    model, corpus = stored_model()
    return layer_contributions(model, corpus)


def _by_hand(fact: int):
    """Layer 0's units zeroed at fact's last word: the clean and zeroed final streams, the stream
    when only the final one loses layer 0's values (layer 1 blind), and the answer's id."""
    model, corpus = stored_model()
    prompts, answers = corpus.prompts()
    tokens = prompts[fact : fact + 1]
    everything = [(0, u) for u in range(model.d_ff)]
    hidden = {}

    with torch.no_grad():
        _, cache = model.run_with_cache(tokens, names_filter=["layers.0.ffn.hook_hidden"])
        hidden[0] = cache["layers.0.ffn.hook_hidden"]
        clean = model.residual_stream(tokens)[0, -1]
        with model.hooks(scale_units(everything, 0.0)):
            zeroed = model.residual_stream(tokens)[0, -1]
        values = hidden[0][0, -1] @ model.layers[0].ffn.linear2.weight.T  # h W2: the units' part
    return model, clean, zeroed, clean - values, int(answers[fact])


def _read(model, stream, scale=None):
    """The final LayerNorm (its scale held at ``scale`` if given) and E, for one stream: each
    word's log-odds, log(p / (1 - p))."""
    sigma = torch.sqrt(stream.var(unbiased=False) + model.norm.eps) if scale is None else scale
    logits = (model.norm.weight * (stream - stream.mean()) / sigma + model.norm.bias) @ (
        model.unembedding.T
    )
    return log_odds(logits.log_softmax(-1))


def test_each_total_is_its_definition_computed_by_hand(parts):
    model, clean, zeroed, blind, answer = _by_hand(FACT)
    sigma = torch.sqrt(clean.var(unbiased=False) + model.norm.eps)
    with torch.no_grad():
        base = _read(model, clean)[answer]
        expected = {
            "total": base - _read(model, zeroed)[answer],
            "held": base - _read(model, zeroed, sigma)[answer],
            "blind": base - _read(model, blind)[answer],
            "direct": base - _read(model, blind, sigma)[answer],
        }
    for name, value in expected.items():
        assert abs(getattr(parts, name)[FACT, 0] - value.item()) < 1e-9, name
    ratio = torch.sqrt(zeroed.var(unbiased=False) + model.norm.eps) / sigma
    assert parts.scale[FACT, 0] == pytest.approx(ratio.item(), abs=1e-12)


def test_the_split_adds_up_in_either_order_and_the_orders_differ(parts):
    for layer in (0, 1):
        for held_first in (True, False):
            split = parts.split(layer, held_first)
            np.testing.assert_allclose(sum(split.values()), parts.total[:, layer], atol=1e-9)
    a, b = parts.split(0, True), parts.split(0, False)
    assert np.abs(a["later layers"] - b["later layers"]).max() > 1e-3  # the order matters


def test_the_last_layer_has_no_later_path(parts):
    np.testing.assert_allclose(parts.held[:, 1], parts.direct[:, 1], atol=1e-9)
    np.testing.assert_allclose(parts.blind[:, 1], parts.total[:, 1], atol=1e-9)
