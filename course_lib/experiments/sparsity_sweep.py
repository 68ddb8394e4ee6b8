"""Sparsity against width (lesson 5): the lesson's language model, only d_ff varied, each width
trained with the shipped model's recipe (``memory.train_language_model``: full-batch Adam, warm-up
then cosine decay, float64, one thread) but for fewer steps, the same for every width, so the
sweep rebuilds in a few minutes. Per width: the fraction of FFN units active per token in each
layer, trained and at initialisation (``memory.active_fraction``), and the facts right.

``python -m course_lib.experiments.sparsity_sweep`` reruns the sweep, rewrites ``SWEEP_FILE``
(15 kB) and prints how long it took: 120 s on one core of the building machine (5 widths, 300
steps each; the shipped model trains 600). Tests tie the file to the code: a fresh model's
fractions at initialisation and a fresh run's first steps give the stored ones. Across CPUs: the
whole sweep rerun under ``ATEN_CPU_CAPABILITY=default OMP_NUM_THREADS=1`` (scalar kernels) gave
the same active fractions, trained and at initialisation, exactly, the same facts right, and loss
curves within 8.7e-13, so the 2 decimals a lesson prints hold on any CPU.

The stored sweep, as built (fraction active per token, layer 0 / layer 1; facts right of 48):

    d_ff    trained          at initialisation   facts
    32      0.5004 / 0.5014  0.4618 / 0.4854     48
    64      0.4976 / 0.4789  0.4864 / 0.5244     48
    128     0.4870 / 0.4877  0.4814 / 0.4997     48
    256     0.4564 / 0.4710  0.4855 / 0.5130     48
    512     0.4421 / 0.4565  0.4925 / 0.4973     48

Wider ends sparser (layer 0 falls at every doubling, layer 1 at 3 of 4); training makes d_ff 256
and 512 sparser than at initialisation, and d_ff 32 denser. All far from large models' few percent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

from course_lib.experiments.memory import (
    SETTINGS as MODEL_SETTINGS,
)
from course_lib.experiments.memory import (
    Settings,
    active_fraction,
    build_model,
    corpus_of,
    fact_predictions,
    train_language_model,
)
from course_lib.experiments.stored_file import load_npz, save_npz

SWEEP_FILE = Path(__file__).parent.parent / "data" / "sparsity_sweep.npz"


@dataclass(frozen=True)
class SweepSettings:
    """The shipped model's settings with ``steps`` of training, and the widths swept."""

    model: Settings = replace(MODEL_SETTINGS, steps=300)  # the shipped model trains 600
    widths: tuple[int, ...] = (32, 64, 128, 256, 512)

    def at(self, d_ff: int) -> Settings:
        """The settings of one width's model: ``model`` with its d_ff replaced."""
        return replace(self.model, d_ff=d_ff)


SETTINGS = SweepSettings()  # the stored sweep's


@dataclass(frozen=True)
class Sweep:
    """The sweep's results, one row per width (``settings.widths``)."""

    settings: SweepSettings
    trained: np.ndarray  # (widths, layers): fraction of units active per token, trained
    initial: np.ndarray  # (widths, layers): the same model at initialisation
    facts_right: np.ndarray  # (widths,): facts whose answer is the top-1 next word, trained
    facts: int  # how many facts the corpus states
    losses: np.ndarray  # (widths, steps): the training loss before each step
    seconds: float = 0.0  # how long the run took (not compared by tests)


def run_sweep(settings: SweepSettings = SETTINGS) -> Sweep:
    """Train one model per width, from the same seed, and measure each; seeded, so one machine
    gives the same numbers every time."""
    start = time.perf_counter()
    corpus = corpus_of(settings.model)
    trained, initial, right, losses = [], [], [], []
    for d_ff in settings.widths:
        model_settings = settings.at(d_ff)
        initial.append(active_fraction(build_model(model_settings, len(corpus.vocabulary)), corpus))
        model, curve = train_language_model(model_settings)
        trained.append(active_fraction(model, corpus))
        right.append(int(fact_predictions(model, corpus)[1].sum()))
        losses.append(curve)
    return Sweep(
        settings,
        np.array(trained),
        np.array(initial),
        np.array(right),
        len(corpus.facts),
        np.array(losses),
        time.perf_counter() - start,
    )


def save_sweep(sweep: Sweep, path: Path = SWEEP_FILE) -> int:
    """Store the sweep's arrays and settings; returns the file's size in bytes."""
    arrays = {f.name: getattr(sweep, f.name) for f in fields(Sweep) if f.name != "settings"}
    arrays["widths"] = sweep.settings.widths
    return save_npz(path, arrays, sweep.settings.model.__dict__)


def load_sweep(path: Path = SWEEP_FILE) -> Sweep:
    """The stored sweep, as ``run_sweep`` returned it."""
    arrays, settings = load_npz(path, "sweep", "course_lib.experiments.sparsity_sweep")
    sweep_settings = SweepSettings(Settings(**settings), tuple(int(w) for w in arrays["widths"]))
    kept = {name: arrays[name] for name in ("trained", "initial", "facts_right", "losses")}
    facts, seconds = int(arrays["facts"]), float(arrays["seconds"])
    return Sweep(sweep_settings, **kept, facts=facts, seconds=seconds)


if __name__ == "__main__":  # rebuild SWEEP_FILE: python -m course_lib.experiments.sparsity_sweep
    sweep = run_sweep(SETTINGS)
    size = save_sweep(sweep)
    print(
        f"trained {len(SETTINGS.widths)} models, {SETTINGS.model.steps} steps each, in "
        f"{sweep.seconds:.0f} s; wrote {size / 1e3:.1f} kB to {SWEEP_FILE}"
    )
    for i, d_ff in enumerate(SETTINGS.widths):
        print(
            f"d_ff {d_ff:4d}: active trained {np.round(sweep.trained[i], 4)}, "
            f"at initialisation {np.round(sweep.initial[i], 4)}; "
            f"facts right {sweep.facts_right[i]} of {sweep.facts}; "
            f"loss {sweep.losses[i, 0]:.3f} -> {sweep.losses[i, -1]:.4f}"
        )
