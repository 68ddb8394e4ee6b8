"""Lesson 10's live demo, the unit browser: a layer and one of its sampled units -> the contexts
that make it fire most, in English and in Chinese. Every frame is read from the stored pass
(``experiments.activations``): nothing runs the model on a move."""

from __future__ import annotations

from functools import lru_cache

from course_lib.core._validate import integer
from course_lib.core.i18n import N_, language
from course_lib.core.widgets import Control, Demo
from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations, keys
from course_lib.lessons.l10_real_multilingual_ffn.figures import UnitContexts, UnitView

LAYERS = tuple(range(12))
SAMPLES = tuple(range(6))  # the first six sampled units of each layer: 72 frames for the site
SHOWN = 4  # contexts per language


def unit_data(layer: int, sample: int) -> UnitContexts:
    """Layer ``layer``'s ``sample``-th sampled unit and its SHOWN strongest contexts per language."""
    for name, value, accepted in (("layer", layer, LAYERS), ("sample", sample, SAMPLES)):
        if integer(name, value) not in accepted:
            raise ValueError(f"{name} must be one of {list(accepted)}, got {value!r}")
    return _unit_data(layer, sample, language())


@lru_cache(maxsize=128)
def _unit_data(layer: int, sample: int, _: str) -> UnitContexts:
    stored = activations.stored()
    contexts = {}
    for i, lang in enumerate(activations.LANGUAGES):
        tokens = stored["top_token"][layer, sample, i, :SHOWN]
        values = stored["top_value"][layer, sample, i, :SHOWN]
        contexts[lang] = [
            (*keys.context(int(t)), float(v)) for t, v in zip(tokens, values, strict=True)
        ]
    return UnitContexts(layer, int(stored["units"][layer, sample]), contexts)


def demos() -> list[Demo]:
    return [
        Demo(
            "unit browser",
            (
                Control("layer", LAYERS, 2, label=N_("FFN layer")),
                Control("sample", SAMPLES, 0, kind="dropdown", label=N_("sample")),
            ),
            data=unit_data,
            view=UnitView,
        )
    ]
