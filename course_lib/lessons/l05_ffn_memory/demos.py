"""Lesson 5's live demos: scale a fact's most attributed FFN units (0 erases, 1 is the model as
trained, 2 doubles them) and watch the next-word distribution after its prompt; and move d_ff over
the stored sparsity sweep to see the fraction of units active per token (no training)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from course_lib.core._validate import choice as one_of
from course_lib.core.experiments.memory import stored_attributions, stored_model
from course_lib.core.i18n import N_
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l05_ffn_memory.experiments.memory_analysis import (
    next_token_probabilities,
    top_units,
)
from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import load_sweep
from course_lib.lessons.l05_ffn_memory.figures import (
    NextTokenData,
    NextTokenView,
    SparsityData,
    SparsityView,
)

UNIT_COUNTS = (1, 3, 5, 10)  # how many of the prompt's top attributed units are scaled
SCALES = (0.0, 0.5, 1.0, 1.5, 2.0)
SHOWN = 6  # bars: the most likely words after the edit, plus the answer if it is not among them


def _scores() -> torch.Tensor:
    """Every fact's attribution scores on the shipped model, (facts, layers, d_ff), once."""
    return stored_attributions()


def prompts() -> tuple[str, ...]:
    """The facts' prompts as text, in the corpus' order: the dropdown's values."""
    return tuple(" ".join(f.prompt) for f in stored_model()[1].facts)


def edit_data(prompt: str, units: int, scale: float) -> NextTokenData:
    """The prompt's next-word probabilities as trained and with its ``units`` most attributed FFN
    units scaled by ``scale``. Pure: the shipped model is never changed (cached per value). The
    values are checked before the cache is asked: True hashes as 1 and would find 1's entry."""
    one_of("prompt", prompt, prompts())
    for name, value, accepted in (("units", units, UNIT_COUNTS), ("scale", scale, SCALES)):
        if isinstance(value, bool) or value not in accepted:
            raise ValueError(f"{name} must be one of {list(accepted)}, got {value!r}")
    return _edit_data(prompt, units, scale)


@lru_cache(maxsize=512)
def _edit_data(prompt: str, units: int, scale: float) -> NextTokenData:
    fact = prompts().index(prompt)
    model, corpus = stored_model()
    chosen = top_units(_scores(), fact, units)
    before, after = next_token_probabilities(model, corpus, fact, chosen, scale)
    answer = corpus.facts[fact].answer
    order = [int(i) for i in np.argsort(-after, kind="stable")[:SHOWN]]
    answer_id = corpus.encode([answer])[0]
    if answer_id not in order:
        order[-1] = answer_id
    return NextTokenData(
        prompt=prompt,
        answer=answer,
        words=tuple(corpus.decode(order)),
        before=before[order],
        after=after[order],
        units=tuple(chosen),
        scale=scale,
    )


@lru_cache(maxsize=1)
def d_ff_values() -> tuple[int, ...]:
    """The widths of the stored sparsity sweep: the d_ff slider's values."""
    return load_sweep().settings.widths


@lru_cache(maxsize=16)
def sparsity_data(d_ff: int) -> SparsityData:
    """The stored sweep's active fractions (trained and at initialisation) and facts right, with
    ``d_ff`` chosen. Pure: reads the stored file, trains nothing."""
    widths = d_ff_values()
    if isinstance(d_ff, bool) or d_ff not in widths:
        raise ValueError(f"d_ff must be one of {list(widths)}, got {d_ff!r}")
    sweep = load_sweep()
    return SparsityData(
        widths=widths,
        trained=sweep.trained,
        initial=sweep.initial,
        facts_right=sweep.facts_right,
        facts=sweep.facts,
        d_ff=d_ff,
    )


def demos() -> list[Demo]:
    return [
        Demo(
            "knowledge neurons",
            (
                Control("prompt", prompts(), prompts()[0], kind="dropdown", label=N_("prompt")),
                Control("units", UNIT_COUNTS, 5, label=N_("top units")),
                Control("scale", SCALES, 0.0, label=N_("scale factor")),
            ),
            data=edit_data,
            view=NextTokenView,
        ),
        Demo(
            "sparsity sweep",
            (Control("d_ff", d_ff_values(), 256),),
            data=sparsity_data,
            view=SparsityView,
        ),
    ]
