"""Lesson 8's stored toy models: the grids its figures and demo read.

- The superposition grid: n = 5 features in m = 2 dimensions, importance I_i = decay^i, for the
  paper's ten feature densities (1 − S = 20^−t, t from 0 to 1: S from 0 to 0.95) and each decay of
  ``DECAYS``, from three seeds each.
- The phase diagram (the paper's "Superposition as a Phase Change"): n = 2 features in m = 1
  dimension, feature 1 of importance 1 and the extra feature 2 of ``RELATIVE`` importance, both of
  density ``PHASE_DENSITIES``, from two seeds each.

Each setting keeps the seed with the lowest loss on a held-out sample (``toy.evaluate``): training
from one seed sometimes stops in a worse arrangement, as gradient descent does.
``python -m course_lib.lessons.l08_superposition.experiments.toy_grid --jobs 2`` retrains both
grids and rewrites ``TOY_FILE``.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.lessons.l08_superposition.experiments.toy import evaluate, train_toy

TOY_FILE = DATA / "toy_superposition.npz"
N_FEATURES, N_HIDDEN = 5, 2
SPARSITIES = tuple(float(1 - 20**-t) for t in np.linspace(0, 1, 10))  # the paper's densities
DECAYS = (0.5, 0.7, 0.9, 1.0)  # importance I_i = decay^i; the paper's intro figure: 0.9
SEEDS = (0, 1, 2)
PHASE_DENSITIES = tuple(float(d) for d in np.logspace(0, -2, 11))  # 1 to 0.01
RELATIVE = tuple(float(r) for r in np.logspace(-1, 1, 11))  # 0.1 to 10, 1 in the middle
PHASE_SEEDS = (0, 1)
CURVE_EVERY = 100  # the stored loss curves keep every 100th step


@dataclass(frozen=True)
class ToyGrid:
    """Trained toy models over a grid of settings, the best seed of each kept:
    W (*grid, m, n), b (*grid, n), held-out loss (*grid,), the loss curve (*grid, steps / 100)
    and each seed's held-out loss (*grid, seeds)."""

    axes: dict[str, tuple[float, ...]]
    W: np.ndarray
    b: np.ndarray
    loss: np.ndarray
    curve: np.ndarray
    seed_losses: np.ndarray


def _settings(kind: str) -> tuple[np.ndarray, np.ndarray, int, tuple[int, ...]]:
    """(sparsity (instances,), importance (instances, n), m, seeds) of ``kind``'s grid, the grid
    flattened in C order."""
    if kind == "superposition":
        S, D = np.meshgrid(SPARSITIES, DECAYS, indexing="ij")
        importance = D.reshape(-1, 1) ** np.arange(N_FEATURES)
        return S.reshape(-1), importance, N_HIDDEN, SEEDS
    density, relative = np.meshgrid(PHASE_DENSITIES, RELATIVE, indexing="ij")
    importance = np.stack([np.ones(relative.size), relative.reshape(-1)], axis=1)
    return 1 - density.reshape(-1), importance, 1, PHASE_SEEDS


def _train(job: tuple[str, int]) -> tuple[np.ndarray, ...]:
    kind, seed = job
    sparsity, importance, m, _ = _settings(kind)
    run = train_toy(m, sparsity, importance, seed=seed)
    return run.W, run.b, evaluate(run), run.losses[:, ::CURVE_EVERY]


def save_grids(path: Path = TOY_FILE, jobs: int = 1) -> int:
    """Train both grids from every seed and store each setting's best seed; the file's size."""
    plan = [(kind, seed) for kind in ("superposition", "phase") for seed in _settings(kind)[3]]
    with ProcessPoolExecutor(jobs) as pool:
        runs = dict(zip(plan, pool.map(_train, plan), strict=True))
    arrays: dict[str, object] = {}
    for kind in ("superposition", "phase"):
        seeds = _settings(kind)[3]
        W, b, loss, curve = (np.stack([runs[kind, s][i] for s in seeds]) for i in range(4))
        best = loss.argmin(0)  # (instances,)
        pick = np.arange(best.size)
        arrays |= {
            f"{kind}|W": W[best, pick],
            f"{kind}|b": b[best, pick],
            f"{kind}|loss": loss[best, pick],
            f"{kind}|curve": curve[best, pick],
            f"{kind}|seed_losses": loss.T,
        }
    settings = {
        "sparsities": SPARSITIES,
        "decays": DECAYS,
        "seeds": SEEDS,
        "phase_densities": PHASE_DENSITIES,
        "relative": RELATIVE,
        "phase_seeds": PHASE_SEEDS,
    }
    return save_npz(path, arrays, settings)


@lru_cache(maxsize=2)
def stored_grid(kind: str, path: Path = TOY_FILE) -> ToyGrid:
    """``kind`` "superposition" (axes sparsity, decay) or "phase" (axes density, relative
    importance): the stored models (``python -m course_lib.lessons.l08_superposition.experiments.toy_grid``
    rebuilds them)."""
    arrays, settings = load_npz(
        path, "set of toy models", "course_lib.lessons.l08_superposition.experiments.toy_grid"
    )
    if kind == "superposition":
        axes = {"sparsity": settings["sparsities"], "decay": settings["decays"]}
    elif kind == "phase":
        axes = {"density": settings["phase_densities"], "relative": settings["relative"]}
    else:
        raise ValueError(f"kind must be one of ['phase', 'superposition'], got {kind!r}")
    shape = tuple(len(v) for v in axes.values())
    part = {k.split("|", 1)[1]: v for k, v in arrays.items() if k.startswith(kind + "|")}
    return ToyGrid(
        axes,
        part["W"].reshape(*shape, *part["W"].shape[1:]),
        part["b"].reshape(*shape, -1),
        part["loss"].reshape(shape),
        part["curve"].reshape(*shape, -1),
        part["seed_losses"].reshape(*shape, -1),
    )


if (
    __name__ == "__main__"
):  # python -m course_lib.lessons.l08_superposition.experiments.toy_grid [--jobs N]
    workers = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    rebuild(lambda: save_grids(jobs=workers), TOY_FILE, "the toy models' two grids")
