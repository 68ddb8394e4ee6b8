"""A SentencePiece unigram tokenizer (分词器) of the course's own, built from the packed file's
pieces, scores and normalisation map, as XLM-R's tokenizer reads text.

Normalise each character, collapse runs of spaces, write a space as ▁ and start the text with
one; then split it into the pieces whose scores (log probabilities) add up to the most: a
Viterbi search over the characters (``viterbi``). A character no piece covers is ``<unk>``.
"""

from __future__ import annotations

import re

import numpy as np

from course_lib.lessons.l10_real_multilingual_ffn.experiments.reader import PackedModel

META = "\u2581"  # ▁, SentencePiece's mark of a space


def viterbi(text: str, vocab: dict[str, int], scores: np.ndarray, longest: int, unk: int,
            unk_score: float) -> list[int]:  # fmt: skip
    """The ids of the pieces that split ``text`` with the highest total score.

    best[e]: the best score of text[:e]; each end e is reached from some start i by the piece
    text[i:e] (or, for one character no piece covers, by ``<unk>`` at ``unk_score``)."""
    n = len(text)
    best = [0.0] + [-np.inf] * n
    back = [(0, unk)] * (n + 1)  # (start, piece id) of the last piece of the best split
    for i in range(n):
        if best[i] == -np.inf:
            continue
        for e in range(i + 1, min(n, i + longest) + 1):
            piece = vocab.get(text[i:e])
            if piece is not None and best[i] + scores[piece] > best[e]:
                best[e], back[e] = best[i] + scores[piece], (i, piece)
        if best[i] + unk_score > best[i + 1]:
            best[i + 1], back[i + 1] = best[i] + unk_score, (i, unk)
    ids, e = [], n
    while e > 0:
        e, piece = back[e]
        ids.append(piece)
    return ids[::-1]


class Unigram:
    """``tokenizer(text)`` -> ids with ``<s>`` and ``</s>`` around them; ``pieces(ids)``."""

    def __init__(self, packed: PackedModel) -> None:
        self.bos, self.eos, self.unk = packed.bos, packed.eos, packed.unk
        self.scores = packed.scores.astype(np.float64)
        self.id_to_piece = packed.pieces
        self.vocab = {piece: i for i, piece in enumerate(self.id_to_piece) if i != self.unk}
        self.longest = max(map(len, self.vocab))
        self.unk_score = float(self.scores.min()) - 10.0  # as the engine scores an unknown char
        self.table = str.maketrans(packed.normalisation)

    def normalise(self, text: str) -> str:
        """The text the pieces are matched against: mapped, spaces collapsed, ▁ for a space."""
        text = re.sub(" {2,}", " ", text.translate(self.table))
        return (text if text.startswith(" ") else " " + text).replace(" ", META)

    def content(self, text: str) -> list[int]:
        """The ids of ``text``'s pieces, no special tokens."""
        return viterbi(self.normalise(text), self.vocab, self.scores, self.longest, self.unk,
                       self.unk_score)  # fmt: skip

    def __call__(self, text: str) -> list[int]:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        return [self.bos, *self.content(text), self.eos]

    def pieces(self, ids) -> list[str]:
        return [self.id_to_piece[int(i)] for i in ids]
