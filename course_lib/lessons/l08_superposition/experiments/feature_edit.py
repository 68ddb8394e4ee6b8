"""One fact rewritten through one transcoder feature, beside lesson 6's rank-one edit (Meng et al.
2022) and one FFN unit, at the same place and with the same value.

The place is where the transcoders sit: layer 0's FFN at the prompt's last word. The value is
lesson 6's v* (``fact_edits.target_value``): the FFN output there that makes the model answer the
new word. Each edit adds scale x (v* - y*) to the FFN's output wherever its key detector fires,
y* being the FFN's own output at the edited word, and differs only in that detector:

- rank-one: u = C^-1 k* read from the FFN's units (the output at keys k moves by u.k / u.k*);
- one unit: the fact's top layer-0 unit by attribution (its value vector moves; h(x) / h(x*));
- one feature: the fact's top transcoder feature by attribution, its activation f(x) / f(x*),
  added beside the unchanged FFN (``FeatureEdit``), so the model is exact wherever it is silent.

At the edited word all three add exactly scale x (v* - y*): the same strength there by
construction. What differs is where else they fire: the measures of ``edit_measures``.
Rebuild: ``python -m course_lib.lessons.l08_superposition.experiments.feature_edit``.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
from torch import nn

from course_lib.core.experiments import fact_edits
from course_lib.core.experiments.edit_measures import METRICS, measure, unedited_reading
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import attributions
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.i18n import N_, tr
from course_lib.core.model.hooks import HookPoint
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads
from course_lib.lessons.l08_superposition.experiments.dictionary import SparseDictionary
from course_lib.lessons.l08_superposition.experiments.dictionary_runs import (
    RULES,
    SIZES,
    stored_dictionary,
)
from course_lib.lessons.l08_superposition.experiments.fact_dictionaries import LAYER
from course_lib.lessons.l08_superposition.experiments.transcoder import feature_attributions

EDIT_FILE = DATA / "feature_edits.npz"
SCALES = (0.05, 0.1, 0.2, 0.3, 0.5, 1.0)  # fractions of the full update (v* overshoots: 0.99)
TARGETS = 3  # new answers per fact, as in lesson 6
RANK_ONE, UNIT = N_("rank-one (C⁻¹k*)"), N_("one unit")
TRANSCODERS = tuple((rule, size) for rule in RULES for size in SIZES)
CHOICES = ("top", "narrowest")  # which feature: the largest attribution, or of those that carry
# the fact (attribution > CARRIES x the largest, lesson 8's rule) the one firing on fewest prompts
CARRIES = 0.2


LABELS = {"top": N_("top feature, {rule} {width}×"),
          "narrowest": N_("narrowest feature, {rule} {width}×")}  # fmt: skip


def _parts(rule: str, size: int) -> dict[str, object]:
    return {"rule": "L1" if rule == "l1" else "TopK", "width": size // 256}


def feature_method(rule: str, size: int, chosen: str) -> str:
    """The name (the stored file's key) of the edit through the ``chosen`` feature of one
    transcoder."""
    return LABELS[chosen].format(**_parts(rule, size))


FEATURES = tuple(feature_method(r, s, c) for c in CHOICES for r, s in TRANSCODERS)
METHODS = (RANK_ONE, UNIT, *FEATURES)
_LABELLED = {feature_method(r, s, c): (c, r, s) for c in CHOICES for r, s in TRANSCODERS}


def label(method: str) -> str:
    """A method's name in the learner's language."""
    if method not in _LABELLED:
        return tr(method)
    chosen, rule, size = _LABELLED[method]
    return tr(LABELS[chosen], **_parts(rule, size))


class FeatureEdit(nn.Module):
    """An FFN with one transcoder feature's edit beside it: FFN(x) + f_i(x) delta, x the FFN's
    input (the normalised stream), f_i the feature's activation, delta (d_model,)."""

    def __init__(
        self, ffn: nn.Module, transcoder: SparseDictionary, feature: int, delta: torch.Tensor
    ) -> None:
        super().__init__()
        self.ffn, self.transcoder, self.feature = ffn, transcoder, feature
        self.register_buffer("delta", delta)
        self.hook_out = HookPoint()  # the slot's output, named as the FFN's was

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.transcoder.encode(x.float())[..., self.feature, None].to(x.dtype)  # (..., 1)
        return self.hook_out(self.ffn(x) + f * self.delta)


def last_word(corpus: Corpus) -> int:
    """The prompts' last position, where the transcoders' attributions are read."""
    return corpus.prompts()[0].shape[1] - 1


def edit_value(
    model: LanguageModel, corpus: Corpus, fact: int, new: str
) -> tuple[torch.Tensor, torch.Tensor]:
    """(v* - y*, the FFN's input at the edited word): what every edit adds there at scale 1, and
    where the detectors read it. (d_model,) each."""
    prompt, position = corpus.prompts()[0][fact : fact + 1], last_word(corpus)
    v = fact_edits.target_value(model, prompt, corpus.encode([new])[0], LAYER, position)
    y = fact_edits.ffn_output(model, prompt, LAYER)[0, position]
    name = f"layers.{LAYER}.hook_resid_mid"
    with torch.no_grad():
        _, cache = model.run_with_cache(prompt, names_filter=[name])
        x = model.layers[LAYER].sublayers[1].norm(cache[name][0, position])
    return v - y, x


def rank_one_edit(model, corpus, fact, change, C, scale) -> LanguageModel:
    """Lesson 6's rank-one update of layer 0's W2 storing y* + ``change`` at k*, scaled."""
    prompt = corpus.prompts()[0][fact : fact + 1]
    with torch.no_grad():
        k = fact_edits.keys(model, prompt, LAYER)[0, last_word(corpus)]
        W = model.layers[LAYER].ffn.linear2.weight
        update = fact_edits.rank_one_update(W, k, W @ k + change, C) - W
    return fact_edits.with_change(model, LAYER, update, scale)


def unit_edit(model, x, change, unit, scale) -> LanguageModel:
    """One unit's value vector moved by scale x ``change`` / h(x*): column ``unit`` of W2."""
    ffn = model.layers[LAYER].ffn
    with torch.no_grad():
        h = ffn.hidden(x)[unit]
        update = torch.zeros_like(ffn.linear2.weight)
        update[:, unit] = change / h
    return fact_edits.with_change(model, LAYER, update, scale)


def feature_edit(model, x, change, transcoder, feature, scale) -> LanguageModel:
    """A copy of ``model`` with ``FeatureEdit`` in layer 0: delta = scale x ``change`` / f(x*)."""
    with torch.no_grad():
        f = transcoder.encode(x.float())[feature].to(x.dtype)
    edited = copy.deepcopy(model)
    edited.layers[LAYER].ffn = FeatureEdit(edited.layers[LAYER].ffn, transcoder, feature,
                                           scale * change / f)  # fmt: skip
    return edited


def last_word_inputs(model: LanguageModel, corpus: Corpus) -> tuple[torch.Tensor, torch.Tensor]:
    """(the FFN's inputs x, its keys k) at every prompt's last word: (facts, d_model), (facts,
    d_ff)."""
    prompts, last = corpus.prompts()[0], last_word(corpus)
    name = f"layers.{LAYER}.hook_resid_mid"
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=[name])
        x = model.layers[LAYER].sublayers[1].norm(cache[name][:, last])
        return x, fact_edits.keys(model, prompts, LAYER)[:, last]


def chosen_feature(scores: np.ndarray, fires: np.ndarray, chosen: str) -> int:
    """The feature an edit goes through: ``scores`` (n_features,) one fact's attributions,
    ``fires`` (n_features,) on how many prompts each fires."""
    if chosen == "top":
        return int(np.argmax(scores))
    carrying = np.flatnonzero(scores > CARRIES * scores.max())
    return int(carrying[np.argmin(fires[carrying])])


def detectors(model: LanguageModel, corpus: Corpus) -> dict[str, np.ndarray]:
    """Each method's key detector for each fact, read at every prompt's last word and divided by
    its value at the fact's own: the share of the edit each prompt receives. {method: (facts,
    facts)}, row = the edited fact. Also ``"unit"``/feature indices under ``index|method``."""
    x, k = last_word_inputs(model, corpus)
    C = fact_edits.key_covariance(model, corpus, LAYER)
    u = torch.linalg.solve(C + 1e-6 * torch.eye(len(C), dtype=C.dtype), k.T).T  # as rank_one_update
    gates = {RANK_ONE: ((u @ k.T) / (u * k).sum(-1, keepdim=True)).numpy()}
    units = attributions(model, corpus)[:, LAYER].argmax(-1)  # (facts,)
    with torch.no_grad():
        h = model.layers[LAYER].ffn.hidden(x)  # (facts, d_ff)
    gates[UNIT] = (h[:, units] / h[torch.arange(len(units)), units]).T.numpy()
    out = {f"index|{UNIT}": units.numpy()}
    for rule, size in TRANSCODERS:
        transcoder = stored_dictionary("transcoder", rule, size).dictionary
        scores, _ = feature_attributions(model, corpus, transcoder)
        with torch.no_grad():
            f = transcoder.encode(x.float()).double().numpy()  # (facts, n_features)
        fires = (f > 0).sum(axis=0)
        for chosen in CHOICES:
            name = feature_method(rule, size, chosen)
            index = np.array([chosen_feature(row, fires, chosen) for row in scores])
            gates[name] = (f[:, index] / f[np.arange(len(index)), index]).T
            out[f"index|{name}"] = index
    return gates | out


def _edits(model, corpus, fact, new, C, chosen, x, change):
    """Every method's edited model at every scale, as (method, scale index, model)."""
    transcoders = {feature_method(r, s, c): stored_dictionary("transcoder", r, s).dictionary
                   for c in CHOICES for r, s in TRANSCODERS}  # fmt: skip
    for j, scale in enumerate(SCALES):
        yield RANK_ONE, j, rank_one_edit(model, corpus, fact, change, C, scale)
        yield UNIT, j, unit_edit(model, x, change, int(chosen[UNIT][fact]), scale)
        for name, transcoder in transcoders.items():
            yield (
                name,
                j,
                feature_edit(model, x, change, transcoder, int(chosen[name][fact]), scale),
            )


def sweep_feature_edits(
    model: LanguageModel, corpus: Corpus, facts=None, answers: int = TARGETS
) -> dict[str, np.ndarray]:
    """Every fact (all by default) rewritten to ``answers`` other answers of its relation by each
    method at each scale, measured: ``results|method`` (edits, scales, len(METRICS)), ``changed|
    method`` (edits, scales) other facts whose top word changed, ``gates|method`` (facts, facts)
    from ``detectors``, ``fact`` and ``new`` (edits,)."""
    facts = list(range(len(corpus.facts)) if facts is None else facts)
    found = detectors(model, corpus)
    chosen = {m: found[f"index|{m}"] for m in METHODS[1:]}
    C = fact_edits.key_covariance(model, corpus, LAYER)
    unedited_reading(model, corpus)  # read once, before any edit
    shape = (len(facts) * answers, len(SCALES))
    results = {m: np.zeros((*shape, len(METRICS))) for m in METHODS}
    changed = {m: np.zeros(shape) for m in METHODS}
    edits = [(fact, fact_edits.new_answer(corpus, fact, shift)) for fact in facts
             for shift in range(answers)]  # fmt: skip
    with torch_threads(1):
        for e, (fact, new) in enumerate(edits):
            change, x = edit_value(model, corpus, fact, new)
            for name, j, edited in _edits(model, corpus, fact, new, C, chosen, x, change):
                results[name][e, j], top = measure(model, edited, corpus, fact, new)
                changed[name][e, j] = top.sum() - top[fact]
    out = {f"results|{m}": results[m] for m in METHODS}
    out |= {f"changed|{m}": changed[m] for m in METHODS}
    out |= {f"gates|{m}": found[m] for m in METHODS} | {k: v for k, v in found.items() if "|" in k}
    out["fact"] = np.array([f for f, _ in edits])
    out["new"] = np.array([n for _, n in edits])
    return out


def save_feature_edits(arrays: dict[str, np.ndarray], path: Path = EDIT_FILE) -> int:
    return save_npz(path, arrays, {"metrics": METRICS, "scales": SCALES, "methods": METHODS})


@lru_cache(maxsize=1)
def stored_feature_edits(path: Path = EDIT_FILE) -> dict[str, np.ndarray]:
    """``sweep_feature_edits`` over all 48 facts, 3 new answers each, as stored."""
    arrays, _ = load_npz(path, "sweep of feature edits",
                         "course_lib.lessons.l08_superposition.experiments.feature_edit")  # fmt: skip
    return arrays


if (
    __name__ == "__main__"
):  # python -m course_lib.lessons.l08_superposition.experiments.feature_edit
    import time

    from course_lib.core.experiments.memory import stored_model

    start = time.perf_counter()
    size = save_feature_edits(sweep_feature_edits(*stored_model()))
    print(f"{size / 1024:.0f} KiB in {EDIT_FILE}, {time.perf_counter() - start:.0f} s")
