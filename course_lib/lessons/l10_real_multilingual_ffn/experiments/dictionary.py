"""A TopK sparse autoencoder (Gao et al. 2024) on one layer's FFN units, over the corpus'
thousands of distinct contexts: lesson 8's dictionary, now with far more contexts than features.

f = ReLU(TopK(W_enc (x - b_dec) + b_enc)), x̂ = W_dec f + b_dec, the decoder's columns of length
1; trained on the paragraphs of 80 % of the pairs (both languages), its fraction of variance
unexplained (FVU) measured on those and on the other 20 %. Trained once in float32 (``save``,
called by the activations' rebuild, or ``python -m
course_lib.lessons.l10_real_multilingual_ffn.experiments dictionary`` alone, about ten minutes).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch
from torch import nn

from course_lib.core.experiments.statistics import holm
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.lessons.l10_real_multilingual_ffn.experiments.activations import SLICE, corpus_pass
from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import Corpus

FILE = DATA / "e5_dictionary.npz"
MODULE = "course_lib.lessons.l10_real_multilingual_ffn.experiments dictionary"  # the rebuild command's arguments
LAYER, FEATURES, K = 6, 1024, 16  # the layer read (0-based), the dictionary's size, its top k
STEPS, BATCH, LR, SEED = 400, 512, 1e-3, 0
LOOKUP_EVERY = 4  # the lookup baseline is measured on every 4th held-out token
HELD_OUT = 0.2  # the share of pairs kept out of training
CARD = 8  # contexts kept per feature and language


class TopKDictionary(nn.Module):
    """x (n, d) -> features f (n, features), at most k nonzero, and the reconstruction x̂."""

    def __init__(self, d: int, features: int, k: int, generator: torch.Generator) -> None:
        super().__init__()
        self.k = k
        decoder = torch.randn(d, features, generator=generator)
        self.W_dec = nn.Parameter(decoder / decoder.norm(dim=0))
        self.W_enc = nn.Parameter(self.W_dec.detach().T.clone())  # tied at the start, as Gao's
        self.b_enc = nn.Parameter(torch.zeros(features))
        self.b_dec = nn.Parameter(torch.zeros(d))

    def encode(self, x: torch.Tensor) -> torch.Tensor:
        pre = (x - self.b_dec) @ self.W_enc.T + self.b_enc  # (n, features)
        top = pre.topk(self.k, dim=-1)
        return torch.zeros_like(pre).scatter(-1, top.indices, top.values.relu())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.encode(x) @ self.W_dec.T + self.b_dec


def fvu(x: np.ndarray | torch.Tensor, reconstruction) -> float:
    """The fraction of variance unexplained: |x - x̂|² summed over the data / |x - mean x|²."""
    x, r = (
        torch.as_tensor(x, dtype=torch.float64),
        torch.as_tensor(reconstruction, dtype=torch.float64),
    )
    return float(((x - r) ** 2).sum() / ((x - x.mean(0)) ** 2).sum())


def held_out_texts(n_pairs: int) -> np.ndarray:
    """The pairs kept out of training (both their paragraphs): a seeded fifth."""
    rng = np.random.default_rng(SEED)
    return np.sort(rng.choice(n_pairs, round(HELD_OUT * n_pairs), replace=False))


def train(x: torch.Tensor, steps: int = STEPS) -> tuple[TopKDictionary, np.ndarray]:
    """Adam on the squared error, batches drawn by a seeded generator; returns (dictionary, the
    loss per step)."""
    generator = torch.Generator().manual_seed(SEED)
    sae = TopKDictionary(x.shape[1], FEATURES, K, generator)
    with torch.no_grad():
        sae.b_dec.copy_(x.mean(0))  # the mean here; Gao et al. take the geometric median
    optimiser = torch.optim.Adam(sae.parameters(), lr=LR)
    losses = []
    for _ in range(steps):
        batch = x[torch.randint(len(x), (BATCH,), generator=generator)]
        loss = ((sae(batch) - batch) ** 2).sum(-1).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        with torch.no_grad():
            sae.W_dec /= sae.W_dec.norm(dim=0)  # columns of length 1, as the paper keeps them
        losses.append(loss.item())
    return sae, np.array(losses)


def codes(
    sae: TopKDictionary, x: torch.Tensor, chunk: int = 8192
) -> tuple[np.ndarray, np.ndarray, float]:
    """Each token's active features and values (n, K) each, and the summed squared error."""
    indices, values, error = [], [], 0.0
    with torch.no_grad():
        for start in range(0, len(x), chunk):
            part = x[start : start + chunk]
            f = sae.encode(part)
            top = f.topk(K, dim=-1)
            indices.append(top.indices.numpy()), values.append(top.values.numpy())
            error += float(((f @ sae.W_dec.T + sae.b_dec - part).double() ** 2).sum())
    return np.concatenate(indices), np.concatenate(values), error


def split_fvu(sae: TopKDictionary, x: torch.Tensor, held: np.ndarray) -> tuple[float, float]:
    """(training FVU, held-out FVU), each against its own rows' mean."""
    out = []
    for rows in (~held, held):
        part = x[torch.as_tensor(rows)]
        _, _, error = codes(sae, part)
        out.append(error / float(((part.double() - part.double().mean(0)) ** 2).sum()))
    return out[0], out[1]


def nearest_input_fvu(x: torch.Tensor, held: np.ndarray, every: int = 1, chunk: int = 512) -> float:
    """Lesson 8's lookup baseline: each held-out row replaced by the nearest training row (in
    Euclidean distance); the FVU of that replacement on every ``every``-th held-out row."""
    train_rows, y = x[torch.as_tensor(~held)], x[torch.as_tensor(held)][::every]
    error = 0.0
    for start in range(0, len(y), chunk):
        part = y[start : start + chunk]
        nearest = train_rows[torch.cdist(part, train_rows).argmin(1)]
        error += float(((nearest - part).double() ** 2).sum())
    return error / float(((y.double() - y.double().mean(0)) ** 2).sum())


def add_lookup(hidden: np.ndarray, text_of: np.ndarray, n_pairs: int, path=FILE) -> int:
    """Add lesson 8's lookup baseline to the stored dictionary: on the held-out paragraphs, the
    FVU of copying the nearest training token's units (layer LAYER's ``hidden``)."""
    arrays, settings = load_npz(path, "dictionary of one layer's FFN units", MODULE)
    held = np.isin(text_of % n_pairs, held_out_texts(n_pairs))
    arrays["lookup_fvu_held_out"] = nearest_input_fvu(torch.as_tensor(hidden), held, LOOKUP_EVERY)
    return save_npz(path, arrays, {**settings, "lookup every": LOOKUP_EVERY})


def save(hidden: np.ndarray, text_of: np.ndarray, n_pairs: int, first_losses: np.ndarray,
         path=FILE) -> int:  # fmt: skip
    """Train on layer LAYER's units ``hidden`` (n_tokens, d_ff) and store what the lesson reads,
    with ``first_losses``, those of ``slice_losses`` (what a fresh-run test repeats), and the
    lookup baseline (``add_lookup``)."""
    pair = text_of % n_pairs  # the pair a token's paragraph belongs to
    held = np.isin(pair, held_out_texts(n_pairs))
    x = torch.as_tensor(hidden)
    sae, losses = train(x[torch.as_tensor(~held)])
    index, value, _ = codes(sae, x)
    fvus = dict(zip(("train", "held_out"), split_fvu(sae, x, held), strict=True))
    active = value > 0
    fires = np.zeros((FEATURES, 2 * n_pairs), bool)  # feature f fires somewhere in paragraph t
    fires[index[active], np.broadcast_to(text_of[:, None], index.shape)[active]] = True
    save_npz(
        path,
        {"losses": losses, "fvu_train": fvus["train"], "fvu_held_out": fvus["held_out"],
         "l0": active.sum(1).mean(), "fires_on_token": np.bincount(index[active], minlength=FEATURES),
         "fires_in_text": np.packbits(fires, axis=1), "held_out": held_out_texts(n_pairs),
         "card_token": _cards(index, value, text_of, n_pairs), "slice_losses": first_losses},
        {"layer": LAYER, "features": FEATURES, "k": K, "steps": STEPS, "batch": BATCH, "lr": LR,
         "seed": SEED},
    )  # fmt: skip
    return add_lookup(hidden, text_of, n_pairs, path)


def _cards(index: np.ndarray, value: np.ndarray, text_of: np.ndarray, n_pairs: int) -> np.ndarray:
    """Each feature's CARD strongest tokens per language (corpus token indices; -1 if fewer):
    (FEATURES, 2, CARD)."""
    cards = np.full((FEATURES, 2, CARD), -1, np.int64)
    token = np.broadcast_to(np.arange(len(index))[:, None], index.shape).ravel()
    feature, strength = index.ravel(), value.ravel()
    language = (text_of[token] >= n_pairs).astype(int)
    order = np.lexsort((-strength, language, feature))  # by feature, language, strongest first
    f, lang, tok = feature[order], language[order], token[order]
    keep = strength[order] > 0
    for g in range(2):
        for feat in np.unique(f[keep & (lang == g)]):
            rows = tok[keep & (lang == g) & (f == feat)][:CARD]
            cards[feat, g, : len(rows)] = rows
    return cards


@cache
def stored() -> tuple[dict[str, np.ndarray], dict[str, object]]:
    return load_npz(FILE, "dictionary of one layer's FFN units", MODULE)


@cache
def _log_factorials(n: int) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1)))])


def _log_choose(n: int, k: np.ndarray) -> np.ndarray:
    f = _log_factorials(max(int(n), 1))
    k = np.asarray(k)
    return f[n] - f[k] - f[n - k]


def overlap_p(both: int, english: int, chinese: int, pairs: int) -> float:
    """P(at least ``both`` pairs fire on both sides) if a feature's Chinese paragraphs were drawn
    at random: the hypergeometric upper tail."""
    k = np.arange(both, min(english, chinese) + 1)
    logs = (
        _log_choose(english, k)
        + _log_choose(pairs - english, chinese - k)
        - _log_choose(pairs, np.array(chinese))
    )
    return float(np.exp(logs).sum()) if len(k) else 0.0


@dataclass(frozen=True)
class Shared:
    alive: int  # features firing in at least MIN_TEXTS paragraphs of each language
    shared: int  # of them, firing on both sides of a pair beyond chance (Holm p < 0.05)
    shuffled: int  # the same count with the Chinese paragraphs shuffled among the pairs
    length_matched: tuple[int, ...]  # the same count, Chinese paragraphs shuffled among pairs of
    # similar length, one count per draw
    overlap: float  # the mean overlap (IoU) of a pair's two sets of active features
    overlap_matched: tuple[float, ...]  # the same for the length-matched non-twins, per draw


MIN_TEXTS, MATCHED_DRAWS, BLOCK = 5, 5, 8


def length_matched(lengths: np.ndarray, seed: int, block: int = BLOCK) -> np.ndarray:
    """A permutation of the pairs in which each pair gets the Chinese paragraph of another pair of
    similar length: the pairs sorted by ``lengths`` (ties broken at random) and cut into blocks of
    about ``block``; inside each, a random cycle, so that no pair keeps its own twin."""
    rng = np.random.default_rng(seed)
    order = np.lexsort((rng.random(len(lengths)), lengths))
    perm = np.arange(len(lengths))
    for part in np.array_split(order, max(len(lengths) // block, 1)):
        cycle = rng.permutation(part)
        perm[cycle] = np.roll(cycle, 1)
    return perm


def overlap(english: np.ndarray, chinese: np.ndarray) -> float:
    """The mean, over the pairs, of |A ∩ B| / |A ∪ B| for the features active in the English (A)
    and in the Chinese (B) paragraph: (features, pairs) each."""
    union = (english | chinese).sum(0)
    return float(((english & chinese).sum(0) / np.maximum(union, 1)).mean())


def shared_features(data: dict[str, np.ndarray], pairs: int, lengths: np.ndarray,
                    seed: int = 0) -> Shared:  # fmt: skip
    """Which features fire on both paragraphs of a pair more often than on a random English and
    Chinese paragraph; the same with the pairs shuffled, and shuffled among pairs of similar
    length (``lengths``, (pairs,)), which keeps what length alone explains."""
    fires = np.unpackbits(data["fires_in_text"], axis=1, count=2 * pairs).astype(bool)
    english, chinese = fires[:, :pairs], fires[:, pairs:]
    alive = np.flatnonzero((english.sum(1) >= MIN_TEXTS) & (chinese.sum(1) >= MIN_TEXTS))

    def passing(other: np.ndarray) -> int:
        p = [overlap_p(int((english[f] & other[f]).sum()), int(english[f].sum()),
                       int(other[f].sum()), pairs) for f in alive]  # fmt: skip
        return int((np.array(holm(p)) < 0.05).sum()) if p else 0

    matched = [chinese[:, length_matched(lengths, seed + 1 + d)] for d in range(MATCHED_DRAWS)]
    return Shared(
        len(alive), passing(chinese),
        passing(chinese[:, np.random.default_rng(seed).permutation(pairs)]),
        tuple(passing(m) for m in matched), overlap(english, chinese),
        tuple(overlap(english, m) for m in matched),
    )  # fmt: skip


def slice_losses(corpus, steps: int = 8) -> np.ndarray:
    """The first ``steps`` losses of training on the slice's layer-LAYER units alone (the first
    paragraphs of each language): what a fresh-run test repeats."""
    sub = Corpus(corpus.english[:SLICE], corpus.chinese[:SLICE], corpus.lesson[:SLICE],
                 corpus.cell[:SLICE])  # fmt: skip
    _, _, _, hidden = corpus_pass(sub, layers=LAYER + 1, keep=LAYER)
    return train(torch.as_tensor(hidden), steps)[1]


def most_shared(data: dict[str, np.ndarray], pairs: int, count: int = 2) -> list[int]:
    """The ``count`` features that fire on both paragraphs of the most pairs."""
    fires = np.unpackbits(data["fires_in_text"], axis=1, count=2 * pairs).astype(bool)
    both = (fires[:, :pairs] & fires[:, pairs:]).sum(1)
    only = fires.sum(1) - 2 * both  # paragraphs whose twin it misses: a feature firing everywhere
    return [int(f) for f in np.argsort(-(both - only), kind="stable")[:count]]
