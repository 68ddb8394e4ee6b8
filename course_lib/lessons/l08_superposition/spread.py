"""Lesson 8's fresh-run quantities: the toy models' first steps, the dictionaries' first losses, each what a test computes again against what
its stored file holds (``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from course_lib.core.experiments.spread import Arrays, Quantity


def _toy_first_steps(steps: int) -> tuple[Callable, Callable]:
    """Both toy grids from every seed for ``steps`` + 1 steps, each setting's stored (best) seed
    kept: the loss at step 0 and at step ``steps``, as the stored curve keeps every 100th."""

    def fresh() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import toy
        from course_lib.lessons.l08_superposition.experiments import toy_grid as G

        out = {}
        for kind in ("superposition", "phase"):
            sparsity, importance, m, seeds = G._settings(kind)
            best = G.stored_grid(kind).seed_losses.reshape(len(sparsity), -1).argmin(1)
            curves = np.stack([toy.train_toy(m, sparsity, importance, seed=s, steps=steps + 1)
                               .losses[:, [0, steps]] for s in seeds])  # fmt: skip
            out[kind] = curves[best, np.arange(len(best))]
        return out

    def stored() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import toy_grid as G

        every = steps // G.CURVE_EVERY
        return {kind: G.stored_grid(kind).curve.reshape(-1, G.stored_grid(kind).curve.shape[-1])
                [:, [0, every]] for kind in ("superposition", "phase")}  # fmt: skip

    return fresh, stored


def _dictionary_first_losses(kind: str, steps: int) -> tuple[Callable, Callable]:
    """The 1× L1 dictionary of ``kind`` trained again for ``steps`` steps: its training losses,
    against the first ones its stored run kept. (Its 2,000 steps in full move L0 by up to 0.2
    under another CPU: chaotic, so only the start is compared.)"""

    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import stored_model
        from course_lib.core.threads import torch_threads
        from course_lib.lessons.l08_superposition.experiments import dictionary_runs as R
        from course_lib.lessons.l08_superposition.experiments import fact_dictionaries as F
        from course_lib.lessons.l08_superposition.experiments.grammar import grammar_contexts

        with torch_threads(1):
            rows = grammar_contexts(*stored_model()).rows
            x, y = (rows.hidden, rows.hidden) if kind == "sae" else (rows.ffn_in, rows.ffn_out)
            _, losses = F.train_dictionary(x, y, rows.weight, 256, None, R.L1, R.SEED, steps)
        return {"losses": losses}

    def stored() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import dictionary_runs as R

        return {"losses": R.stored_dictionary(kind, "l1", 256).first_losses[:steps]}

    return fresh, stored


def _split_first_losses(trained_on: str, steps: int) -> tuple[Callable, Callable]:
    """The 1× L1 SAE trained without the held-out contexts (on the grammar's others, or the
    corpus' others) again for ``steps`` steps, against the first losses its stored run kept."""

    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import stored_model
        from course_lib.core.threads import torch_threads
        from course_lib.lessons.l08_superposition.experiments import dictionary_split as S
        from course_lib.lessons.l08_superposition.experiments import fact_dictionaries as F
        from course_lib.lessons.l08_superposition.experiments.grammar import grammar_contexts

        with torch_threads(1):
            contexts = grammar_contexts(*stored_model())
            train = S.training_rows(contexts, trained_on)
            x = contexts.rows.hidden[train]
            weight = x.new_full((len(x),), 1 / len(x))
            _, losses = F.train_dictionary(x, x, weight, 256, None, S.L1, S.SEED, steps)
        return {"losses": losses}

    def stored() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import dictionary_split as S

        return {"losses": S.stored_first_losses(trained_on, "sae", "l1", 256)[:steps]}

    return fresh, stored


def _toy_seeds_first_losses() -> tuple[Callable, Callable]:
    """Lesson 8's toy at its default setting from every stored seed, each variant, trained again
    for its first stored steps: the losses, against the stored ones."""

    def fresh() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import toy_seeds as T

        return {f"{variant} {seed}": T.train_seed(seed, variant, T.FIRST).losses[0]
                for variant in T.VARIANTS for seed in T.SEEDS}  # fmt: skip

    def stored() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import toy_seeds as T

        first = T.stored_seeds().first_losses
        return {f"{variant} {seed}": first[i, j] for i, variant in enumerate(T.VARIANTS)
                for j, seed in enumerate(T.SEEDS)}  # fmt: skip

    return fresh, stored


QUANTITIES = (
    Quantity("toy grids: losses at steps 0 and 100", *_toy_first_steps(100)),
    Quantity("SAE, 256 features, L1: first 20 losses", *_dictionary_first_losses("sae", 20)),
    Quantity(
        "transcoder, 256 features, L1: first 20 losses",
        *_dictionary_first_losses("transcoder", 20),
    ),
    Quantity("toy seeds: first 20 losses", *_toy_seeds_first_losses()),
    Quantity(
        "split SAE, 256 features, L1, grammar: first 20 losses", *_split_first_losses("grammar", 20)
    ),
    Quantity(
        "split SAE, 256 features, L1, corpus: first 20 losses", *_split_first_losses("corpus", 20)
    ),
)
