"""Lesson 7's fresh-run quantities: the fact mixtures' first losses, the routers and the dense FFN on the spiral, and the
routers' loads over training, each what a test computes again against what
its stored file holds (``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from course_lib.core.experiments.spread import Arrays, Quantity, lm_first_losses


def _moe(name: str):
    from course_lib.lessons.l07_mixture_of_experts.experiments import fact_experts as X

    return (lambda: X.settings_of(name, 0)), (lambda: X.model_file(name, 0))


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


ROUTER_CASES = ((2, 1), (4, 2))
QUANTITIES = (
    *(
        Quantity(f"experts, {name}: first 8 losses", *lm_first_losses(*_moe(name), 8))
        for name in ("equal total", "equal active", "shared expert")
    ),
    *(
        Quantity(f"router run: {e} experts, top {k}", *_router_run(e, k), ("load", "accuracy"))
        for e, k in ROUTER_CASES
    ),  # fmt: skip
    Quantity("dense run: 12 units, seed 1", *_dense_run(12, 1), ("load", "accuracy")),
    Quantity("long router run: 8 experts, top 2", *_long_router_run(), ("load", "accuracy")),
    Quantity(
        "load history: first 8 steps",
        *_load_history_first_steps(8),
        ("first", "assigned"),  # shares of the tokens: counts
    ),
)
