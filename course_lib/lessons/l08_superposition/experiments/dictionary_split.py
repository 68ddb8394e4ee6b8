"""Lesson 8's test of which regime a dictionary is in: each stored dictionary's twin (same kind,
rule, size, k, steps and seed), trained without the grammar's held-out contexts (``grammar``: a
seeded 20 %, 301 of 1,506) and measured on them, which it never saw: its FVU and L0 there, and
the loss recovered when it is spliced in at the held-out positions only, scored at those
positions. A dictionary that has learnt features of the layer reconstructs new inputs about as
well as its training inputs; one that has memorised its inputs does not. Beside them, SAEs of
the same settings trained on the contexts lesson 5's corpus has (517 once the held-out ones are
left out), tested on the same held-out contexts: the regime the corpus alone gives. And a lookup:
each held-out input replaced by the nearest training input; and for the transcoders, a
least-squares affine map of the FFN's input, which has no features at all.

``python -m course_lib.lessons.l08_superposition.experiments.dictionary_split --jobs 1``
retrains them and rewrites ``SPLIT_FILE`` (it reads the stored dictionaries' k).
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core.experiments.memory import stored_model
from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.core.i18n import N_
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l08_superposition.experiments.dictionary import SparseDictionary
from course_lib.lessons.l08_superposition.experiments.dictionary_runs import (
    KINDS,
    L1,
    RULES,
    SEED,
    SIZES,
    stored_dictionary,
)
from course_lib.lessons.l08_superposition.experiments.fact_dictionaries import (
    LAYER,
    STEPS,
    measures,
    train_dictionary,
)
from course_lib.lessons.l08_superposition.experiments.grammar import Contexts, grammar_contexts

SPLIT_FILE = DATA / "dictionary_split.npz"
TRAINED_ON = ("grammar", "corpus")  # every context but the held-out ones; the corpus' only
COLUMNS = ("fvu train", "fvu held out", "l0 train", "l0 held out", "loss clean",
           "loss spliced", "loss ablated", "contexts")  # fmt: skip


def training_rows(contexts: Contexts, trained_on: str) -> np.ndarray:
    """The contexts a split dictionary trains on: every one not held out, or of those only the
    ones lesson 5's corpus has: (contexts,) bool."""
    if trained_on not in TRAINED_ON:
        raise ValueError(f"trained_on must be one of {list(TRAINED_ON)}, got {trained_on!r}")
    kept = ~contexts.held_out
    return kept & contexts.in_corpus if trained_on == "corpus" else kept


def _pair(contexts: Contexts, kind: str) -> tuple[torch.Tensor, torch.Tensor]:
    rows = contexts.rows
    return (rows.hidden, rows.hidden) if kind == "sae" else (rows.ffn_in, rows.ffn_out)


def held_out_losses(
    model: LanguageModel, contexts: Contexts, dictionary: SparseDictionary, kind: str
) -> tuple[float, float, float]:
    """The mean next-word loss over the grammar's lines at the positions whose context is held
    out: as trained, with the dictionary spliced in at those positions (an SAE's reconstruction
    for the units, a transcoder's output for the FFN's) and with the units zeroed there."""
    tokens = contexts.tokens
    held = torch.as_tensor(np.flatnonzero(contexts.held_out))
    at = torch.isin(contexts.rows.row_of, held)[..., None]  # (lines, L, 1): held-out positions
    norm, seen = model.layers[LAYER].sublayers[1].norm, {}

    def keep(stream: torch.Tensor, _hook) -> None:
        seen["x"] = norm(stream)  # the FFN's input, which a transcoder reads

    def loss(point: str, replace) -> float:
        hooks = [(f"layers.{LAYER}.hook_resid_mid", keep),
                 (f"layers.{LAYER}.ffn.hook_{point}",
                  lambda value, _hook: torch.where(at, replace(value), value))]  # fmt: skip
        with torch.no_grad(), model.hooks(hooks):
            logits = model(tokens[:, :-1])
        each = F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], reduction="none")
        return float(each[at[..., 0]].mean())

    def spliced(value: torch.Tensor) -> torch.Tensor:
        source = value if kind == "sae" else seen["x"]
        return dictionary(source.float())[0].to(value.dtype)

    point = "hidden" if kind == "sae" else "out"
    return (loss(point, lambda value: value), loss(point, spliced),
            loss("hidden", torch.zeros_like))  # fmt: skip


def _copied(contexts: Contexts, trained_on: str, kind: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The lookup's output at each held-out context (the target of the nearest training context,
    nearest by the dictionary's input) and the held-out targets: (held out, d) each."""
    x, y = _pair(contexts, kind)
    train, held = training_rows(contexts, trained_on), contexts.held_out
    nearest = torch.cdist(x[held], x[train]).argmin(1)
    return y[train][nearest], y[held]


def nearest_input_fvu(contexts: Contexts, trained_on: str, kind: str = "sae") -> float:
    """The lookup baseline: each held-out context's target replaced by that of the nearest
    training context (nearest by the dictionary's input), its FVU on the held-out contexts."""
    copied, target = _copied(contexts, trained_on, kind)
    return float(((copied - target) ** 2).sum() / ((target - target.mean(0)) ** 2).sum())


def nearest_input_errors(contexts: Contexts, trained_on: str, kind: str = "sae") -> np.ndarray:
    """The lookup's squared error at each held-out context: (held out,). Their sum over the
    held-out targets' variance is ``nearest_input_fvu``."""
    copied, target = _copied(contexts, trained_on, kind)
    return ((copied - target) ** 2).sum(1).double().numpy()


def _linear_map(contexts: Contexts, trained_on: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The affine map's inputs with a constant column (contexts, d + 1) and its weights."""
    x, y = (t.double() for t in _pair(contexts, "transcoder"))
    x = torch.cat([x, torch.ones(len(x), 1, dtype=x.dtype)], 1)  # the bias as a constant input
    train = torch.as_tensor(training_rows(contexts, trained_on))
    return x, torch.linalg.lstsq(x[train], y[train]).solution


def linear_map_fvu(contexts: Contexts, trained_on: str = "grammar") -> tuple[float, float]:
    """A transcoder's baseline with no features: the least-squares affine map from the FFN's
    input LN(x) to its output, fitted (exactly, in float64) on the training contexts; its FVU on
    them and on the held-out contexts."""
    x, weights = _linear_map(contexts, trained_on)
    y = contexts.rows.ffn_out.double()
    train, held = torch.as_tensor(training_rows(contexts, trained_on)), contexts.held_out

    def fvu(rows) -> float:
        error, target = x[rows] @ weights - y[rows], y[rows]
        return float((error**2).sum() / ((target - target.mean(0)) ** 2).sum())

    return fvu(train), fvu(torch.as_tensor(held))


def linear_map_errors(contexts: Contexts, trained_on: str = "grammar") -> np.ndarray:
    """The affine map's squared error at each held-out context: (held out,). Their sum over the
    held-out targets' variance is ``linear_map_fvu``'s second value."""
    x, weights = _linear_map(contexts, trained_on)
    held = torch.as_tensor(contexts.held_out)
    return ((x[held] @ weights - contexts.rows.ffn_out.double()[held]) ** 2).sum(1).numpy()


BAR, TOO_CLOSE = 0.9, 0.1  # the lookup test's bar on held-out FVU ÷ the copy's, and its margin


def verdict(ratio: float, bar: float = BAR) -> str:
    """The lookup test on one run's held-out FVU ÷ the copy's: "better" below ``bar``, "no better"
    above it, "could not tell" within ``TOO_CLOSE`` of it (one run has no interval)."""
    if abs(ratio - bar) <= TOO_CLOSE:
        return N_("could not tell")
    return N_("better") if ratio < bar else N_("no better")


RESAMPLES = 20_000  # resamples of the held-out contexts for a ratio's interval


def ratio_interval(numerator, denominator, resamples: int = RESAMPLES, seed: int = 0) -> np.ndarray:
    """The 95 % bootstrap interval of sum(numerator) ÷ sum(denominator), two squared errors per
    held-out context (..., contexts): the held-out contexts drawn with replacement, the same
    resample for numerator and denominator (paired). Both FVUs of a ratio share the held-out
    targets' variance, so it cancels. Returns (..., 2): the 2.5th and 97.5th percentiles."""
    top, bottom = (np.asarray(v, dtype=float) for v in (numerator, denominator))
    if top.shape[-1] != bottom.shape[-1] or top.shape[-1] < 2 or (bottom < 0).any():
        raise ValueError(f"numerator and denominator must be squared errors over the same "
                         f"contexts, got shapes {top.shape} and {bottom.shape}")  # fmt: skip
    if not isinstance(resamples, int) or resamples < 100:
        raise ValueError(f"resamples must be an integer of at least 100, got {resamples!r}")
    n = top.shape[-1]
    counts = np.random.default_rng(seed).multinomial(n, np.full(n, 1 / n), size=resamples)
    ratios = (top @ counts.T.astype(float)) / (bottom @ counts.T.astype(float))
    return np.moveaxis(np.percentile(ratios, [2.5, 97.5], axis=-1), 0, -1)


def interval_verdict(low: float, high: float, bar: float = BAR) -> str:
    """The lookup test on a ratio's interval: "better" only when all of it lies below the band
    (``bar`` - ``TOO_CLOSE``), "no better" only when all of it lies above (``bar`` + ``TOO_CLOSE``),
    "could not tell" otherwise."""
    if not low <= high:
        raise ValueError(f"low must not exceed high, got {low!r} and {high!r}")
    if high < bar - TOO_CLOSE:
        return N_("better")
    return N_("no better") if low > bar + TOO_CLOSE else N_("could not tell")


FIRST = 20  # training losses kept: a fresh run's first steps are compared with them


def _train(job: tuple[str, str, int, int | None]) -> tuple[np.ndarray, np.ndarray]:
    """The ``COLUMNS`` of one split dictionary (trained on, kind, size, k; k None: the L1 rule)
    and its first ``FIRST`` training losses."""
    trained_on, kind, size, k = job
    with torch_threads(1):
        model, corpus = stored_model()
        contexts = grammar_contexts(model, corpus)
        x, y = _pair(contexts, kind)
        train = torch.as_tensor(training_rows(contexts, trained_on))
        held = torch.as_tensor(contexts.held_out)
        weight = torch.full((int(train.sum()),), 1 / int(train.sum()), dtype=x.dtype)
        held_weight = torch.full((int(held.sum()),), 1 / int(held.sum()), dtype=x.dtype)
        inputs = x[train]
        targets = inputs if kind == "sae" else y[train]  # the same tensor: an autoencoder
        d, curve = train_dictionary(inputs, targets, weight, size, k, 0.0 if k else L1, SEED,
                                    STEPS)  # fmt: skip
        seen = measures(d, inputs, targets, weight)
        unseen = measures(d, x[held], y[held], held_weight)
        losses = held_out_losses(model, contexts, d, kind)
    row = np.array([seen.fvu, unseen.fvu, seen.l0, unseen.l0, *losses, int(train.sum())])
    return row, curve[:FIRST]


def plan() -> list[tuple[str, str, int, int | None, str]]:
    """Every split dictionary: (trained on, kind, size, k, rule), k the stored dictionary's."""
    jobs = []
    for trained_on in TRAINED_ON:
        for kind in KINDS if trained_on == "grammar" else ("sae",):
            for rule in RULES:
                for size in SIZES:
                    k = stored_dictionary(kind, rule, size).dictionary.k
                    jobs.append((trained_on, kind, size, k, rule))
    return jobs


def save_split(path: Path = SPLIT_FILE, jobs: int = 1) -> int:
    runs = plan()
    with ProcessPoolExecutor(jobs) as pool:
        found = list(pool.map(_train, [job[:4] for job in runs]))
    arrays = {}
    for (on, kind, size, _, rule), (row, first) in zip(runs, found, strict=True):
        arrays |= {f"{on}|{kind}|{rule}|{size}": row, f"first|{on}|{kind}|{rule}|{size}": first}
    settings = {"sizes": SIZES, "seed": SEED, "columns": COLUMNS}
    return save_npz(path, arrays, settings)


def stored_first_losses(trained_on: str, kind: str, rule: str, size: int,
                        path: Path = SPLIT_FILE) -> np.ndarray:  # fmt: skip
    """The first ``FIRST`` training losses of one stored split dictionary."""
    arrays, _ = load_npz(path, "set of split dictionaries",
                         "course_lib.lessons.l08_superposition.experiments.dictionary_split")  # fmt: skip
    return arrays[f"first|{trained_on}|{kind}|{rule}|{size}"]


@lru_cache(maxsize=1)
def stored_split(path: Path = SPLIT_FILE) -> dict[tuple[str, str, str, int], dict[str, float]]:
    """{(trained on, kind, rule, size): {"fvu train", "fvu held out", "l0 train", "l0 held out",
    "loss clean", "loss spliced", "loss ablated", "contexts"}}, the losses at the held-out
    positions (``python -m course_lib.lessons.l08_superposition.experiments.dictionary_split``
    rebuilds it)."""
    arrays, settings = load_npz(
        path,
        "set of split dictionaries",
        "course_lib.lessons.l08_superposition.experiments.dictionary_split",
    )
    out = {}
    for key, row in arrays.items():
        if key.startswith("first|"):
            continue
        trained_on, kind, rule, size = key.split("|")
        out[trained_on, kind, rule, int(size)] = dict(zip(settings["columns"], row.tolist(),
                                                          strict=True))  # fmt: skip
    return out


if __name__ == "__main__":  # python -m …experiments.dictionary_split [--jobs N]
    workers = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    rebuild(lambda: save_split(jobs=workers), SPLIT_FILE, "the dictionaries trained on a split")
