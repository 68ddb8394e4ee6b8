"""Lesson 5's fresh-run quantities: the fact model's first losses and the sparsity sweep's fractions at initialisation and
first steps, each what a test computes again against what
its stored file holds (``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from course_lib.core.experiments.spread import Arrays, Quantity, lm_first_losses


def _memory_settings():
    from course_lib.core.experiments.memory import SETTINGS

    return SETTINGS


def _memory_file():
    from course_lib.core.experiments.memory import WEIGHTS_FILE

    return WEIGHTS_FILE


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


QUANTITIES = (
    Quantity("lesson 5 model: first 8 losses", *lm_first_losses(_memory_settings, _memory_file, 8)),
    Quantity(
        "sparsity sweep: fractions at initialisation",
        *_sparsity(initial=True),
        tuple(f"seed {s}, width {i}" for s, i in every_sparsity_run()),
    ),  # fmt: skip
    Quantity("sparsity sweep: first 3 losses", *_sparsity(initial=False)),
)
