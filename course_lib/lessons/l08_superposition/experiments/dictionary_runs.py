"""Lesson 8's stored dictionaries on lesson 5's fact model (layer 0's FFN): SAEs on its hidden
units and transcoders in its place, each at 1×, 4× and 8× the FFN's 256 units, with the L1 rule
(λ = ``L1``) and with TopK, k set to the L1 dictionary's L0 of the same kind and size (rounded):
the two rules compared at matched sparsity. Each is trained on every distinct context the corpus'
grammar can make (``grammar``: 1,506, each once) and stored with its measures over them (fraction
of variance unexplained, L0, dead features), the corpus' loss with it spliced in and the facts
still answered, its training loss every ``EVERY`` steps, and its live features' weights (a dead
feature never fires, so it changes nothing). ``dictionary_split`` says which regime each is in.

``python -m course_lib.lessons.l08_superposition.experiments.dictionary_runs --jobs 2`` retrains
every dictionary and rewrites ``DICTIONARY_FILE``.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments.memory import stored_model
from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.core.threads import torch_threads
from course_lib.lessons.l08_superposition.experiments.dictionary import SparseDictionary
from course_lib.lessons.l08_superposition.experiments.fact_dictionaries import (
    STEPS,
    ablation_hooks,
    loss_recovered,
    measures,
    sae_hooks,
    spliced_facts,
    spliced_loss,
    train_dictionary,
    transcoder_hooks,
)
from course_lib.lessons.l08_superposition.experiments.grammar import grammar_contexts

DICTIONARY_FILE = DATA / "fact_dictionaries.npz"
SIZES = (256, 1024, 2048)  # 1×, 4×, 8× the FFN's d_ff (Bricken et al.'s A/1: 8×)
KINDS = ("sae", "transcoder")
RULES = ("l1", "topk")
L1 = 1.0
SEED = 0
MEASURES = ("fvu", "l0", "dead", "alive", "loss", "recovered", "facts", "k")
FIRST = 20  # training losses kept: a fresh run's first steps are compared with them
EVERY = 100  # and every 100th, to show where training stopped


@dataclass(frozen=True)
class StoredDictionary:
    """One stored dictionary: its kind, rule, size and measures, the dictionary itself with only
    its live features (``alive`` of them), and its first training losses."""

    kind: str
    rule: str
    size: int
    measures: dict[str, float]
    dictionary: SparseDictionary
    first_losses: np.ndarray  # the training loss at the first ``FIRST`` steps
    curve: np.ndarray  # the training loss every ``EVERY`` steps, and at the last


def _train(job: tuple[str, int, int | None]) -> dict[str, np.ndarray]:
    """Train one dictionary (kind, size, k; k None: the L1 rule) and measure it."""
    kind, size, k = job
    with torch_threads(1):
        model, corpus = stored_model()
        rows = grammar_contexts(model, corpus).rows
        x, y = (rows.hidden, rows.hidden) if kind == "sae" else (rows.ffn_in, rows.ffn_out)
        d, losses = train_dictionary(x, y, rows.weight, size, k, 0.0 if k else L1, SEED, STEPS)
        found = measures(d, x, y, rows.weight)
        hooks = sae_hooks(d) if kind == "sae" else transcoder_hooks(model, d)
        clean, ablated = spliced_loss(model, corpus), spliced_loss(model, corpus, ablation_hooks())
        loss = spliced_loss(model, corpus, hooks)
        with torch.no_grad():
            live = (d.encode(x.float()) > 0).any(0)
        weights = {n: p.detach()[..., live] if n.endswith("enc") else p.detach() for n, p in
                   d.named_parameters()}  # fmt: skip
        weights["W_dec"] = d.W_dec.detach()[live]
        row = [found.fvu, found.l0, found.dead, found.alive, loss,
               loss_recovered(clean, loss, ablated), spliced_facts(model, corpus, hooks).sum(),
               k or 0]  # fmt: skip
    first = {"first losses": losses[:FIRST], "curve": np.append(losses[::EVERY], losses[-1])}
    return (
        {"measures": np.array(row, dtype=float)}
        | first
        | {n: w.numpy() for n, w in weights.items()}
    )


def save_runs(path: Path = DICTIONARY_FILE, jobs: int = 1) -> int:
    """Train every dictionary (the L1 ones first, then TopK at their L0) and store them."""
    l1_plan = [(kind, size, None) for kind in KINDS for size in SIZES]
    with ProcessPoolExecutor(jobs) as pool:
        runs = dict(zip(l1_plan, pool.map(_train, l1_plan), strict=True))
        topk_plan = [(kind, size, max(1, round(runs[kind, size, None]["measures"][1])))
                     for kind, size, _ in l1_plan]  # fmt: skip
        runs |= dict(zip(topk_plan, pool.map(_train, topk_plan), strict=True))
    arrays = {}
    for (kind, size, k), run in runs.items():
        rule = "topk" if k else "l1"
        arrays |= {f"{kind}|{rule}|{size}|{name}": value for name, value in run.items()}
    settings = {"sizes": SIZES, "l1": L1, "seed": SEED, "steps": STEPS, "measures": MEASURES,
                "every": EVERY}  # fmt: skip
    return save_npz(path, arrays, settings)


@lru_cache(maxsize=16)
def stored_dictionary(
    kind: str, rule: str, size: int, path: Path = DICTIONARY_FILE
) -> StoredDictionary:
    """One stored dictionary (``python -m
    course_lib.lessons.l08_superposition.experiments.dictionary_runs`` rebuilds them all)."""
    arrays, settings = _stored(path)
    if kind not in KINDS or rule not in RULES or size not in settings["sizes"]:
        raise ValueError(
            f"kind, rule, size must be in {list(KINDS)}, {list(RULES)}, {list(settings['sizes'])}, "
            f"got {kind!r}, {rule!r}, {size!r}"
        )
    key = f"{kind}|{rule}|{size}|"
    values = dict(zip(settings["measures"], arrays[key + "measures"].tolist(), strict=True))
    first_losses, curve = arrays[key + "first losses"], arrays[key + "curve"]
    W_dec = torch.as_tensor(arrays[key + "W_dec"])
    d_in = arrays[key + "W_enc"].shape[0]
    k = int(values["k"]) or None
    d = SparseDictionary(d_in, W_dec.shape[1], len(W_dec), k, kind == "sae")
    with torch.no_grad():
        for name, parameter in d.named_parameters():
            parameter.copy_(torch.as_tensor(arrays[key + name]))
    return StoredDictionary(kind, rule, size, values, d.eval(), first_losses, curve)


@lru_cache(maxsize=1)
def _stored(path: Path) -> tuple[dict, dict]:
    return load_npz(
        path, "set of sparse dictionaries",
        "course_lib.lessons.l08_superposition.experiments.dictionary_runs",
    )  # fmt: skip


if __name__ == "__main__":  # python -m …experiments.dictionary_runs [--jobs N]
    workers = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    rebuild(lambda: save_runs(jobs=workers), DICTIONARY_FILE, "the fact model's dictionaries")
