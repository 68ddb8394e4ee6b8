"""The controls lesson 10's readings need, from a second pass over the corpus.

- Random keys: for 64 random directions per layer in the FFN's input space, the 20 contexts of
  each language where the input projects most onto the direction. The shallow-pattern rule read on
  them says how much of the units' depth trend any direction would show (the residual stream's)
  and how much belongs to the learned keys.
- Firing by script: how often each unit fires on Latin-script and on Han tokens, whatever the
  paragraph's language (the corpus mixes them: English paragraphs name Chinese terms, Chinese
  paragraphs keep English names), so that Tang et al.'s selection can be run on either labelling.

``python -m course_lib.lessons.l10_real_multilingual_ffn.experiments controls`` rebuilds
``course_lib/data/e5_controls.npz`` and, from the same pass, adds the lookup baseline to the
dictionary of ``dictionary.py`` (run it after ``activations``, which trains that dictionary; about
half an hour on a shared two-core machine).
"""

from __future__ import annotations

import unicodedata
from functools import cache

import numpy as np
import torch

from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations, e5_model
from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import Corpus, stored_corpus

FILE = DATA / "e5_controls.npz"
MODULE = "course_lib.lessons.l10_real_multilingual_ffn.experiments controls"  # the rebuild command's arguments
DIRECTIONS, DIRECTION_SEED = 64, 20  # random keys per layer, their seed
SCRIPTS = ("latin", "han")  # scripts whose tokens are counted (others: digits, punctuation)


def script(piece: str) -> int:
    """0 if a piece holds a Latin letter and no Han character, 1 if it holds a Han character,
    2 otherwise (digits, punctuation, the bare word boundary)."""
    names = [unicodedata.name(ch, "") for ch in piece]
    if any(name.startswith("CJK UNIFIED") for name in names):
        return 1
    if any(name.startswith("LATIN") for name in names):
        return 0
    return 2


def scripts_of(tokens: np.ndarray) -> np.ndarray:
    """The script (0 Latin, 1 Han, 2 other) of every token id in ``tokens``."""
    _, tokenizer = e5_model.load_model()
    unique, inverse = np.unique(tokens, return_inverse=True)
    return np.array([script(p) for p in tokenizer.pieces(unique.tolist())])[inverse]


def random_directions(d_model: int = 384, layers: int = 12) -> np.ndarray:
    """(layers, d_model, DIRECTIONS) unit vectors drawn from a seeded Gaussian."""
    rng = np.random.default_rng(DIRECTION_SEED)
    v = rng.standard_normal((layers, d_model, DIRECTIONS))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _top(values, tokens, new_values, new_tokens):
    """Keep the TOP largest of the stored and the new values per row."""
    v = np.concatenate([values, new_values], 1)
    t = np.concatenate([tokens, new_tokens], 1)
    best = np.argsort(-v, axis=1, kind="stable")[:, : activations.TOP]
    return np.take_along_axis(v, best, 1), np.take_along_axis(t, best, 1)


def _hooks(directions, content, language, where, here, keep, into):
    """The pass's two hooks for one batch: ``project`` (the FFN's input onto the random keys)
    and ``count`` (firing by script, and layer ``keep``'s GELU outputs)."""
    top_value, top_token, fires, kept = into

    def project(x: torch.Tensor, hook) -> None:
        layer = int(hook.name.split(".")[1])
        p = (x[content] @ directions[layer]).numpy()  # (n, DIRECTIONS)
        for lang in range(2):
            rows = language == lang
            new_tokens = np.broadcast_to(where[rows], (DIRECTIONS, int(rows.sum())))
            top_value[layer, :, lang], top_token[layer, :, lang] = _top(
                top_value[layer, :, lang], top_token[layer, :, lang], p[rows].T, new_tokens
            )

    def count(hidden: torch.Tensor, hook) -> None:
        layer = int(hook.name.split(".")[1])
        h = hidden[content].numpy()
        for s in range(len(SCRIPTS)):
            fires[layer, :, s] += (h[here == s] > 0).sum(0)
        if layer == keep:
            kept.append((where, h.astype(np.float32)))

    return project, count


def controls_pass(corpus: Corpus, keep: int | None = None):
    """Run the model over every paragraph; returns (arrays, layer ``keep``'s GELU outputs in
    corpus order or None, text of each token)."""
    model, tokenizer = e5_model.load_model()
    c = model.config
    prefix = len(tokenizer.content("passage:"))
    texts = activations.texts_in_order(corpus)
    rows = [tokenizer("passage: " + t) for t, _ in texts]
    start = np.cumsum([0] + [len(r) - prefix - 2 for r in rows])
    tokens = np.concatenate([r[prefix + 1 : -1] for r in rows])
    text_of = np.repeat(np.arange(len(rows)), np.diff(start))
    token_script = scripts_of(tokens)
    directions = torch.as_tensor(random_directions(c.d_model, c.num_layers), dtype=torch.float32)
    shape = (c.num_layers, DIRECTIONS, 2, activations.TOP)
    top_value, top_token = np.full(shape, -np.inf), np.full(shape, -1, np.int64)
    fires = np.zeros((c.num_layers, c.d_ff, len(SCRIPTS)), np.int64)
    kept = []
    for group in activations.batches([len(r) for r in rows]):
        ids, mask = e5_model.batch(tokenizer, [texts[i][0] for i in group])
        content = activations.content_mask(ids, mask, prefix)
        language = np.repeat([texts[i][1] for i in group], content.sum(1).numpy())
        where = np.concatenate([np.arange(start[i], start[i + 1]) for i in group])
        project, count = _hooks(directions, content, language, where, token_script[where],
                                keep, (top_value, top_token, fires, kept))  # fmt: skip
        names = [(f"layers.{i}.hook_resid_mid", project) for i in range(c.num_layers)]
        names += [(f"layers.{i}.ffn.hook_hidden", count) for i in range(c.num_layers)]
        with torch.no_grad(), model.hooks(names):
            model(ids, mask)
    arrays = {
        "direction_value": top_value.astype(np.float32),
        "direction_token": top_token,
        "fires_by_script": fires,
        "tokens_by_script": np.bincount(token_script, minlength=3)[: len(SCRIPTS)],
    }
    hidden = None
    if kept:
        order = np.argsort(np.concatenate([w for w, _ in kept]))
        hidden = np.concatenate([h for _, h in kept])[order]
    return arrays, hidden, text_of


def slice_fires(corpus: Corpus, per_language: int = activations.SLICE) -> np.ndarray:
    """The first ``per_language`` paragraphs of each language run again: how often each unit
    fires on their Latin-script and Han tokens, (layers, d_ff, 2). What a fresh-run test repeats."""
    sub = Corpus(corpus.english[:per_language], corpus.chinese[:per_language],
                 corpus.lesson[:per_language], corpus.cell[:per_language])  # fmt: skip
    return controls_pass(sub)[0]["fires_by_script"]


def add_slice(path=FILE, corpus: Corpus | None = None) -> int:
    """Store ``slice_fires`` beside the pass's arrays."""
    arrays, settings = load_npz(path, "controls of the pass over the corpus", MODULE)
    arrays["slice_fires_by_script"] = slice_fires(corpus or stored_corpus())
    return save_npz(path, arrays, settings)


def save(arrays: dict[str, np.ndarray], corpus: Corpus, path=FILE) -> int:
    """Store ``controls_pass``'s ``arrays`` over ``corpus``, and ``slice_fires`` beside them."""
    save_npz(path, arrays, {"directions": DIRECTIONS, "seed": DIRECTION_SEED})
    return add_slice(path, corpus)


@cache
def stored() -> dict[str, np.ndarray]:
    return load_npz(FILE, "controls of the pass over the corpus", MODULE)[0]
