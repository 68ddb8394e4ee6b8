"""Every quantity a test compares between a fresh run and a stored file: what the test computes
now (``fresh``) and what the file holds (``stored``), as named arrays. Each lesson lists its own in
``lessons/lNN_topic/spread.py``, found by the core's discovery; the ones below are still listed
here, to move into their lessons' folders.

The tests call these same functions, so the spread ``python -m devtools.spread`` measures is the
spread of exactly what each test compares (``devtools.spread.record.tolerance``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from course_lib.core.experiments.spread import Arrays, Quantity, lm_first_losses
from course_lib.core.lesson import lesson_modules

# ---- lesson 5's and 6's language models: the first steps of a fresh run of their rebuild


def _memory_settings():
    from course_lib.core.experiments.memory import SETTINGS

    return SETTINGS


def _memory_file():
    from course_lib.core.experiments.memory import WEIGHTS_FILE

    return WEIGHTS_FILE


def _moe(name: str):
    from course_lib.lessons.l07_mixture_of_experts.experiments import fact_experts as X

    return (lambda: X.settings_of(name, 0)), (lambda: X.model_file(name, 0))


# ---- lesson 7: the routers and the dense FFN on the spiral


def _router_run(experts: int, k: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        runs = M.train_routers(num_experts=experts, k=k, alphas=(0.1,), seeds=(1,), **M.TRAINING)
        return _router(runs, 0, 0)

    def stored() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        runs = M.stored_router_runs(experts, k)
        return _router(runs, runs.alphas.index(0.1), runs.seeds.index(1))

    return fresh, stored


def _long_router_run() -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        long = M.TRAINING | {"steps": M.LONG_STEPS}
        return _router(M.train_routers(num_experts=8, k=2, alphas=(0.1,), seeds=(1,), **long), 0, 0)

    def stored() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        runs, _ = M.stored_long_runs()
        return _router(runs, runs.alphas.index(0.1), runs.seeds.index(1))

    return fresh, stored


def _router(runs, a: int, s: int) -> Arrays:
    from course_lib.lessons.l07_mixture_of_experts import experiments as M

    arrays = {name: runs.weights[a][s][name].numpy() for name in M.WEIGHTS}
    return arrays | {"load": runs.load[a, s], "accuracy": np.asarray(runs.accuracy[a, s])}


def _dense_run(d_ff: int, seed: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        return _router(M.train_dense(d_ff, seeds=(seed,)), 0, 0)

    def stored() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        runs = M.stored_dense_runs(d_ff)
        return _router(runs, 0, runs.seeds.index(seed))

    return fresh, stored


# ---- lesson 5's sparsity sweep: its fractions at initialisation and its first steps


def sparsity_runs() -> list[tuple[int, int]]:
    """The sweep's runs a test rebuilds: every seed at the two narrowest widths (cheap models,
    every seed's corpus and draw) and every width at the shipped model's seed (every shape)."""
    from course_lib.core.experiments.memory import SETTINGS as MODEL
    from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import SETTINGS

    seeds, widths = SETTINGS.seeds, SETTINGS.widths
    return sorted({(s, i) for s in range(len(seeds)) for i in (0, 1)}
                  | {(seeds.index(MODEL.seed), i) for i in range(len(widths))})  # fmt: skip


def every_sparsity_run() -> list[tuple[int, int]]:
    """Every (seed, width) of the sweep, as row indices."""
    from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import SETTINGS

    return [(s, i) for s in range(len(SETTINGS.seeds)) for i in range(len(SETTINGS.widths))]


def _sparsity(initial: bool) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import (
            active_fraction,
            build_model,
            corpus_of,
            train_language_model,
        )
        from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import SETTINGS

        out = {}
        for s, i in every_sparsity_run() if initial else sparsity_runs():
            run = SETTINGS.at(SETTINGS.widths[i], SETTINGS.seeds[s])
            if initial:
                model = build_model(run, len(corpus_of(run).vocabulary))
                out[f"seed {s}, width {i}"] = active_fraction(model, corpus_of(run))
            else:
                out[f"seed {s}, width {i}"] = train_language_model(replace(run, steps=3))[1]
        return out

    def stored() -> Arrays:
        from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import load_sweep

        sweep = load_sweep()
        runs = every_sparsity_run() if initial else sparsity_runs()
        return {f"seed {s}, width {i}": (sweep.initial[s, i] if initial else sweep.losses[s, i, :3])
                for s, i in runs}  # fmt: skip

    return fresh, stored


def _quantities() -> tuple[Quantity, ...]:
    lm = [
        Quantity(
            "lesson 5 model: first 8 losses", *lm_first_losses(_memory_settings, _memory_file, 8)
        ),
        *(
            Quantity(f"experts, {name}: first 8 losses", *lm_first_losses(*_moe(name), 8))
            for name in ("equal total", "equal active")
        ),
    ]
    toys = [
        *(
            Quantity(f"router run: {e} experts, top {k}", *_router_run(e, k), ("load", "accuracy"))
            for e, k in ROUTER_CASES
        ),  # fmt: skip
        Quantity("dense run: 12 units, seed 1", *_dense_run(12, 1), ("load", "accuracy")),
        Quantity("long router run: 8 experts, top 2", *_long_router_run(), ("load", "accuracy")),
    ]
    starts = [
        Quantity(
            "sparsity sweep: fractions at initialisation",
            *_sparsity(initial=True),
            tuple(f"seed {s}, width {i}" for s, i in every_sparsity_run()),
        ),  # fmt: skip
        Quantity("sparsity sweep: first 3 losses", *_sparsity(initial=False)),
    ]
    return (*lm, *toys, *starts)


ROUTER_CASES = ((2, 1), (4, 2))
QUANTITIES = _quantities()
BY_NAME = {q.name: q for q in QUANTITIES}


# ---- lesson 7: the routers' loads over training and the shared-expert model; each a fresh run's
# first steps against the stored run's


def _load_history_first_steps(steps: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts.experiments import load_history as H

        out = {}
        for alpha in H.ALPHAS:
            run = H.train_with_load(replace(H.settings_of(alpha, H.SEEDS[0]), steps=steps))
            out |= {f"alpha {alpha} | {name}": getattr(run, name)
                    for name in ("first", "assigned", "losses")}  # fmt: skip
        return out

    def stored() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts.experiments import load_history as H

        runs = H.stored_histories()
        return {f"alpha {alpha} | {name}": getattr(runs, name)[a, 0, :steps]
                for a, alpha in enumerate(runs.alphas)
                for name in ("first", "assigned", "losses")}  # fmt: skip

    return fresh, stored


QUANTITIES = (
    *QUANTITIES,
    Quantity("experts, shared expert: first 8 losses", *lm_first_losses(*_moe("shared expert"), 8)),
    Quantity(
        "load history: first 8 steps",
        *_load_history_first_steps(8),
        ("first", "assigned"),  # shares of the tokens: counts
    ),
)
BY_NAME = {q.name: q for q in QUANTITIES}


# ---- lesson 10's real model: slices of its stored pass, dictionary and retrieval, run again


def _real_pass_slice() -> tuple[Callable, Callable]:
    """Lesson 10's pass over the corpus: the first paragraphs of each language run again, each
    one's share of GELU outputs above zero in every layer."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"active share": activations.slice_shares(stored_corpus())}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        rows = activations.slice_rows(len(stored_corpus().english))
        return {"active share": activations.stored()["text_share"][rows]}

    return fresh, stored


def _real_dictionary_first_losses(steps: int) -> tuple[Callable, Callable]:
    """Lesson 10's dictionary trained again for ``steps`` steps on the slice's layer-6 units."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import dictionary
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"losses": dictionary.slice_losses(stored_corpus(), steps)}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import dictionary

        return {"losses": dictionary.stored()[0]["slice_losses"][:steps]}

    return fresh, stored


def _real_retrieval(pairs: int) -> tuple[Callable, Callable]:
    """Lesson 10's retrieval, nothing zeroed: the similarities of its first ``pairs`` pairs."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import language_units as L
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"cos": L.similarities(stored_corpus(), L.stored()["pairs"][:pairs])}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import language_units as L

        return {"cos": L.stored()["base"][:pairs, :pairs]}

    return fresh, stored


QUANTITIES = (
    *QUANTITIES,
    Quantity("real model pass: first 6 paragraphs of each language", *_real_pass_slice()),
    Quantity(
        "real model dictionary: first 8 losses on the slice", *_real_dictionary_first_losses(8)
    ),
    Quantity("real model retrieval: first 10 pairs", *_real_retrieval(10)),
)
BY_NAME = {q.name: q for q in QUANTITIES}


# ---- every lesson's own: lessons/lNN_topic/spread.py, found as its demos are

QUANTITIES = (
    *QUANTITIES,
    *(q for module in lesson_modules("spread").values() for q in module.QUANTITIES),
)
BY_NAME = {q.name: q for q in QUANTITIES}
if len(BY_NAME) != len(QUANTITIES):
    raise ValueError("two fresh-run quantities share a name")
