"""The FFN variants raced honestly (lesson 5): the same small language model with a ReLU FFN, a GELU
FFN and a SwiGLU FFN of equal parameter count, each trained from several seeds on the invented
facts of ``experiments.facts``, scored by the next-token loss on held-out filler lines.

Shazeer 2020 ("GLU Variants Improve Transformer", Table 1) ranks the GLU variants ahead. The
summary says whether this small model ranks them the same way, and whether the gaps between the
variants are larger than the spread over seeds.

``python -m course_lib.lessons.l05_ffn_memory.experiments.variant_race`` reruns the race and rewrites ``RACE_FILE``
(12 models, about 2.5 minutes on one busy core). Across CPUs: the whole race rerun under
``ATEN_CPU_CAPABILITY=default OMP_NUM_THREADS=1`` (scalar kernels) gave final validation losses
within 2.3e-12 of the stored ones (curves within 2.4e-10; a shortened race of 80 steps: 1.8e-15),
so every digit a lesson prints (3 or 4 decimals) holds on any CPU.

The stored race, as built: at the last step GELU 1.078 (1.073-1.082), ReLU 1.092 (1.072-1.121),
SwiGLU 1.104 (1.078-1.132). SwiGLU learns fastest (training loss at step 30: SwiGLU 2.17-2.20,
GELU 2.28-2.34, ReLU 2.46-2.51, the paper's order and clear of the spread), then on average
overfits the most (final minus best validation loss 0.03-0.07, GELU 0.02-0.03). At each run's
best step: SwiGLU 1.053, GELU 1.055, ReLU 1.057, the paper's order again, but with gaps of 0.002
against spreads of 0.013. At the end as at the best step, the spread over seeds swamps the
difference.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import torch

from course_lib.core.experiments import DTYPE, default_dtype
from course_lib.core.experiments.facts import make_corpus
from course_lib.core.experiments.memory import next_token_loss
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.experiments.training import adam_steps
from course_lib.core.model.ffn import module_parameters
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l05_ffn_memory.papers import SHAZEER_2020

RACE_FILE = DATA / "variant_race.npz"

# variant -> LanguageModel's options: the plain FFN with its activation, or the gated SwiGLU one
VARIANTS: dict[str, dict[str, str]] = {
    "relu": {"activation": "relu"},
    "gelu": {"activation": "gelu"},
    "swiglu": {"ffn": "swiglu"},
}


@dataclass(frozen=True)
class RaceSettings:
    """Everything the race depends on: the corpus and its split, the model, the training."""

    corpus_seed: int = 0
    n_entities: int = 12
    repeats: int = 4
    filler_per_fact: float = 1.5
    held_out: float = 0.25  # the fraction of the filler lines kept for validation
    d_model: int = 40
    num_layers: int = 2
    num_heads: int = 4
    d_ff: int = 120  # the plain FFN's width; SwiGLU's is 2/3 of it, 80
    steps: int = 240
    lr: float = 5e-3
    warmup: int = 24
    seeds: tuple[int, ...] = (0, 1, 2, 3)
    variants: tuple[str, ...] = ("relu", "gelu", "swiglu")


SETTINGS = RaceSettings()  # the stored race's


@dataclass(frozen=True)
class Race:
    """The race's results, variants x seeds. Losses are mean next-token cross-entropy (nats)."""

    settings: RaceSettings
    val_loss: np.ndarray  # (variants, seeds): held-out filler lines, after the last step
    val_curves: np.ndarray  # (variants, seeds, steps): the same before each step
    train_curves: np.ndarray  # (variants, seeds, steps): the training lines, before each step
    parameters: np.ndarray  # (variants,): the whole model's trainable numbers
    ffn_parameters: np.ndarray  # (variants,): those of its FFNs alone
    seconds: float = 0.0  # how long the run took (not compared by tests)


def split_tokens(settings: RaceSettings) -> tuple[torch.Tensor, torch.Tensor, int]:
    """The training lines (every fact line, the filler not held out) and the validation lines
    (``held_out`` of the filler, chosen by the corpus seed), each (lines, L) int64 with the
    all-padding columns dropped, and the vocabulary's size."""
    if not 0 < settings.held_out < 1:
        raise ValueError(f"held_out must be a fraction in (0, 1), got {settings.held_out!r}")
    corpus = make_corpus(
        settings.corpus_seed, settings.n_entities, settings.repeats, settings.filler_per_fact
    )
    tokens = corpus.tokens()
    tokens = tokens[:, : int((tokens != 0).sum(dim=1).max())]
    sentences = {fact.sentence for fact in corpus.facts}
    filler = [i for i, line in enumerate(corpus.lines) if line not in sentences]
    chosen = np.random.default_rng(settings.corpus_seed).permutation(filler)
    val = sorted(chosen[: max(1, round(settings.held_out * len(filler)))].tolist())
    train = sorted(set(range(len(corpus.lines))) - set(val))
    return tokens[train], tokens[val], len(corpus.vocabulary)


def build_variant(settings: RaceSettings, variant: str, seed: int, vocab_size: int):
    """The untrained model of ``variant`` (one of ``VARIANTS``) from ``seed``, in float64."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {sorted(VARIANTS)}, got {variant!r}")
    with torch.random.fork_rng(), default_dtype(DTYPE):  # the global RNG is left as it was
        torch.manual_seed(seed)
        model = LanguageModel(
            vocab_size,
            settings.d_model,
            settings.num_layers,
            settings.num_heads,
            settings.d_ff,
            **VARIANTS[variant],
        )
    return model.eval()


def ffn_parameters(model: LanguageModel) -> int:
    """The trainable numbers of the model's FFNs, summed over its layers."""
    return sum(module_parameters(layer.ffn) for layer in model.layers)


def train_variant(
    settings: RaceSettings, variant: str, seed: int
) -> tuple[LanguageModel, np.ndarray, np.ndarray]:
    """Train one model, full-batch Adam (``adam_steps``) with a linear warm-up and a cosine decay.
    Returns the model, its training loss and its validation loss before each step, (steps,) each."""
    train, val, vocab_size = split_tokens(settings)
    model = build_variant(settings, variant, seed, vocab_size)
    val_curve: list[float] = []

    def lr_at(step: int) -> float:
        if step < settings.warmup:
            return settings.lr * (step + 1) / settings.warmup
        progress = (step - settings.warmup) / max(1, settings.steps - settings.warmup)
        return settings.lr * 0.5 * (1 + math.cos(math.pi * progress))

    def loss_at(_step: int) -> torch.Tensor:
        with torch.no_grad():
            val_curve.append(float(next_token_loss(model, val)))
        return next_token_loss(model, train).reshape(1)

    with torch_threads(1):
        train_curve = adam_steps(
            list(model.parameters()), loss_at, settings.steps, settings.lr, lr_at=lr_at
        )
    return model, train_curve[0], np.array(val_curve)


def run_race(settings: RaceSettings = SETTINGS) -> Race:
    """Every variant from every seed, on one corpus and one split; seeded, so one machine gives
    the same numbers every time."""
    start = time.perf_counter()
    _, val, _ = split_tokens(settings)
    shape = (len(settings.variants), len(settings.seeds))
    val_loss, val_curves, train_curves = np.zeros(shape), [], []
    parameters, ffn_counts = [], []
    for i, variant in enumerate(settings.variants):
        runs = [train_variant(settings, variant, seed) for seed in settings.seeds]
        with torch.no_grad():
            val_loss[i] = [float(next_token_loss(model, val)) for model, _, _ in runs]
        train_curves.append([curve for _, curve, _ in runs])
        val_curves.append([curve for _, _, curve in runs])
        parameters.append(module_parameters(runs[0][0]))
        ffn_counts.append(ffn_parameters(runs[0][0]))
    return Race(
        settings,
        val_loss,
        np.array(val_curves),
        np.array(train_curves),
        np.array(parameters),
        np.array(ffn_counts),
        time.perf_counter() - start,
    )


def save_race(race: Race, path: Path = RACE_FILE) -> int:
    """Store the race's arrays and settings; returns the file's size in bytes."""
    arrays = {f.name: getattr(race, f.name) for f in fields(Race) if f.name != "settings"}
    return save_npz(path, arrays, race.settings.__dict__)


def load_race(path: Path = RACE_FILE) -> Race:
    """The stored race, as ``run_race`` returned it."""
    arrays, settings = load_npz(
        path, "race", "course_lib.lessons.l05_ffn_memory.experiments.variant_race"
    )
    kept = {f.name: arrays[f.name] for f in fields(Race) if f.name not in ("settings", "seconds")}
    return Race(RaceSettings(**settings), **kept, seconds=float(arrays["seconds"]))


@dataclass(frozen=True)
class RaceSummary:
    """Each variant's validation loss over seeds, best first: mean, lowest and highest (their
    spread), and for each neighbour pair in the ranking whether the better one's highest loss is
    below the worse one's lowest (the gap larger than the spread)."""

    ranking: tuple[str, ...]
    mean: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    separated: tuple[bool, ...]  # (variants - 1,): ranking[i] vs ranking[i + 1]

    @property
    def glu_ahead(self) -> bool:
        """Whether SwiGLU comes first, as in Shazeer 2020."""
        return self.ranking[0] == "swiglu"

    @property
    def reproduces_paper(self) -> bool:
        """SwiGLU first and clear of the runner-up by more than the spread over seeds."""
        return self.glu_ahead and self.separated[0]


def summarize(variants: tuple[str, ...], val_loss: np.ndarray) -> RaceSummary:
    """``val_loss`` (variants, seeds) -> each variant's mean and min-max, ranked by mean."""
    val_loss = np.asarray(val_loss, dtype=float)
    if val_loss.ndim != 2 or val_loss.shape[0] != len(variants) or val_loss.shape[1] < 1:
        raise ValueError(
            f"val_loss must have shape (variants, seeds) = ({len(variants)}, seeds >= 1), "
            f"got {val_loss.shape}"
        )
    mean = dict(zip(variants, val_loss.mean(axis=1).tolist(), strict=True))
    low = dict(zip(variants, val_loss.min(axis=1).tolist(), strict=True))
    high = dict(zip(variants, val_loss.max(axis=1).tolist(), strict=True))
    ranking = tuple(sorted(variants, key=mean.__getitem__))
    separated = tuple(high[a] < low[b] for a, b in zip(ranking, ranking[1:], strict=False))
    return RaceSummary(ranking, mean, low, high, separated)


if (
    __name__ == "__main__"
):  # rebuild RACE_FILE: python -m course_lib.lessons.l05_ffn_memory.experiments.variant_race
    race = run_race(SETTINGS)
    size = save_race(race)
    summary = summarize(SETTINGS.variants, race.val_loss)
    print(f"raced {race.val_loss.size} models in {race.seconds:.0f} s; wrote {size / 1e3:.0f} kB")
    for name, count, ffn in zip(
        SETTINGS.variants, race.parameters, race.ffn_parameters, strict=True
    ):
        print(
            f"{name:7s} {count} parameters ({ffn} in the FFNs): validation loss "
            f"{summary.mean[name]:.4f} (min {summary.low[name]:.4f}, "
            f"max {summary.high[name]:.4f}); "
            f"Shazeer 2020: {SHAZEER_2020[name][0]}"
        )
    print(f"ranking {summary.ranking}; neighbours separated beyond the spread: {summary.separated}")
