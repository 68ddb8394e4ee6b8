"""Lesson 8's test of the memorising regime: SAEs trained on 80 % of the distinct FFN inputs and
measured on the other 20 %, which they never saw: their FVU and L0 there, and the loss recovered
when the reconstruction is spliced in at the held-out positions only, scored at those positions.
A dictionary that has learnt features of the layer reconstructs new inputs about as well as its
training inputs; one that has memorised its inputs does not. Beside them, a lookup: each held-out
input replaced by the nearest training input.

``python -m course_lib.lessons.l08_superposition.experiments.dictionary_split --jobs 2``
retrains them and rewrites ``SPLIT_FILE`` (about a minute).
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import stored_model, training_tokens
from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l08_superposition.experiments.dictionary import SparseDictionary
from course_lib.lessons.l08_superposition.experiments.dictionary_runs import L1, SEED
from course_lib.lessons.l08_superposition.experiments.fact_dictionaries import (
    LAYER,
    STEPS,
    layer_rows,
    measures,
    train_dictionary,
)

SPLIT_FILE = DATA / "dictionary_split.npz"
SIZES = (256, 1024)
HELD_OUT = 0.2  # of the distinct inputs
SPLIT_SEED = 0
# k of each TopK SAE: the full runs' (dictionary_runs: the L1 SAE's L0 rounded), 3 at both sizes
TOPK = 3


def split(rows: int, seed: int = SPLIT_SEED) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, held-out rows): a seeded permutation of ``rows`` distinct inputs cut at
    1 − ``HELD_OUT``."""
    order = np.random.default_rng(seed).permutation(rows)
    cut = round(rows * (1 - HELD_OUT))
    return np.sort(order[:cut]), np.sort(order[cut:])


def held_out_losses(
    model: LanguageModel,
    corpus: Corpus,
    sae: SparseDictionary,
    row_of: torch.Tensor,
    held: torch.Tensor,
) -> tuple[float, float, float]:
    """The mean next-word loss at the positions whose input is a held-out row (``row_of``:
    ``LayerRows.row_of``): as trained, with the layer's units replaced by the SAE's reconstruction
    at those positions, and zeroed there."""
    tokens = training_tokens(corpus)
    at = torch.isin(row_of, held)  # (lines, L): the held-out positions

    def loss(replace) -> float:
        def hook(h: torch.Tensor, _hook) -> torch.Tensor:
            return torch.where(at[..., None], replace(h), h)

        with torch.no_grad(), model.hooks([(f"layers.{LAYER}.ffn.hook_hidden", hook)]):
            logits = model(tokens[:, :-1])
        each = F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], reduction="none")
        return float(each[at].mean())

    return (loss(lambda h: h), loss(lambda h: sae(h.float())[0].to(h.dtype)),
            loss(torch.zeros_like))  # fmt: skip


def nearest_input_fvu(hidden: torch.Tensor, weight: torch.Tensor) -> float:
    """The lookup baseline: each held-out row replaced by the nearest training row, its FVU on the
    held-out rows (weighted by their counts)."""
    train, held = (torch.as_tensor(i) for i in split(len(hidden)))
    y, w = hidden[held], (weight[held] / weight[held].sum()).to(hidden.dtype)
    nearest = hidden[train][torch.cdist(y, hidden[train]).argmin(1)]
    return float((w @ ((nearest - y) ** 2).sum(-1)) / (w @ ((y - w @ y) ** 2).sum(-1)))


def _train(job: tuple[int, int | None]) -> np.ndarray:
    """FVU and L0 on the training rows and on the held-out rows, and the held-out positions'
    losses (as trained, spliced, zero-ablated), of one SAE."""
    size, k = job
    with torch_threads(1):
        model, corpus = stored_model()
        rows = layer_rows(model, corpus)
        train, held = (torch.as_tensor(i) for i in split(len(rows.hidden)))
        h, w = rows.hidden, rows.weight

        def part(index: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return h[index], w[index] / w[index].sum()

        x, weight = part(train)
        sae, _ = train_dictionary(x, x, weight, size, k, 0.0 if k else L1, SEED, STEPS)
        y, held_weight = part(held)
        seen, unseen = measures(sae, x, x, weight), measures(sae, y, y, held_weight)
        losses = held_out_losses(model, corpus, sae, rows.row_of, held)
    return np.array([seen.fvu, unseen.fvu, seen.l0, unseen.l0, *losses])


def save_split(path: Path = SPLIT_FILE, jobs: int = 1) -> int:
    plan = [(size, k) for size in SIZES for k in (None, TOPK)]
    with ProcessPoolExecutor(jobs) as pool:
        found = dict(zip(plan, pool.map(_train, plan), strict=True))
    arrays = {f"{'topk' if k else 'l1'}|{size}": row for (size, k), row in found.items()}
    settings = {"sizes": SIZES, "held_out": HELD_OUT, "split_seed": SPLIT_SEED, "topk": TOPK,
                "columns": ("fvu train", "fvu held out", "l0 train", "l0 held out",
                            "loss clean", "loss spliced", "loss ablated")}  # fmt: skip
    return save_npz(path, arrays, settings)


@lru_cache(maxsize=1)
def stored_split(path: Path = SPLIT_FILE) -> dict[tuple[str, int], dict[str, float]]:
    """{(rule, size): {"fvu train", "fvu held out", "l0 train", "l0 held out", "loss clean",
    "loss spliced", "loss ablated"}}, the losses at the held-out positions (``python -m
    course_lib.lessons.l08_superposition.experiments.dictionary_split`` rebuilds it)."""
    arrays, settings = load_npz(
        path,
        "set of split SAEs",
        "course_lib.lessons.l08_superposition.experiments.dictionary_split",
    )
    out = {}
    for key, row in arrays.items():
        rule, size = key.split("|")
        out[rule, int(size)] = dict(zip(settings["columns"], row.tolist(), strict=True))
    return out


if __name__ == "__main__":  # python -m …experiments.dictionary_split [--jobs N]
    workers = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    rebuild(lambda: save_split(jobs=workers), SPLIT_FILE, "the SAEs trained on a split")
