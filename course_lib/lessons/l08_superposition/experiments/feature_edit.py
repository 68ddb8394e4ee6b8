"""One fact rewritten through one transcoder feature, beside lesson 6's rank-one edit (Meng et al.
2022) and one FFN unit, at the same place and with the same value.

The place is where the transcoders sit: layer 0's FFN at the prompt's last word. The value is
lesson 6's v* (``fact_edits.target_value``): the FFN output there that makes the model answer the
new word. Each edit adds scale x (v* - y*) to the FFN's output wherever its key detector fires,
y* being the FFN's own output at the edited word, and differs only in that detector:

- rank-one: u = C^-1 k* read from the FFN's units (the output at keys k moves by u.k / u.k*),
  with C over every key of the corpus (which includes the other prompts) or over the lines that
  state no fact only;
- one unit, its value vector moved (h(x) / h(x*)), or one transcoder feature, its activation
  f(x) / f(x*) added beside the unchanged FFN (``FeatureEdit``: exact wherever it is silent);
  each chosen four ways (``CHOICES``): the top by attribution; of those that carry the fact, or
  of all active at the edited word, the one active at the fewest prompts' last words; or, blind
  to the prompts as C from filler is, the one active at the fewest positions of the filler lines.

At the edited word all of them add exactly scale x (v* - y*). What differs is where else they
fire: the measures of ``edit_measures``.
Rebuild: ``python -m course_lib.lessons.l08_superposition.experiments.feature_edit``. Not stored
since the transcoders were retrained on the grammar's contexts (``dictionary_runs``): the lesson
does not show these edits until the sweep is remade over them.
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
from course_lib.lessons.l08_superposition.experiments.polysemantic import FIRING
from course_lib.lessons.l08_superposition.experiments.transcoder import feature_attributions

EDIT_FILE = DATA / "feature_edits.npz"
SCALES = (0.05, 0.1, 0.2, 0.3, 0.5, 1.0)  # fractions of the full update (v* overshoots: 0.99)
TARGETS = 3  # new answers per fact, as in lesson 6
RANK_ONE = N_("rank-one, C over the corpus")
RANK_ONE_FILLER = N_("rank-one, C from filler")  # C over the lines that state no fact
UNEDITED = N_("unedited")  # the model as trained, measured as the edits are
GROUPS = (N_("same relation"), N_("other relations"), N_("same entity"))  # the other prompts
TRANSCODERS = tuple((rule, size) for rule in RULES for size in SIZES)
# which unit or feature an edit goes through: the largest attribution; of those that carry the
# fact (attribution > CARRIES x the largest, lesson 8's rule) the one active at the fewest
# prompts' last words; of all those active at the edited word, the one active at the fewest
# prompts' last words; or the one active at the fewest positions of the lines that state no fact
# (which, like C from filler, never sees the prompts)
CHOICES = ("top", "narrowest carrying", "narrowest active", "quietest on filler")
CARRIES = 0.2


UNITS = {"top": N_("top unit"), "narrowest carrying": N_("narrowest carrying unit"),
         "narrowest active": N_("narrowest active unit"),
         "quietest on filler": N_("unit quietest on filler")}  # fmt: skip
LABELS = {"top": N_("top feature, {rule} {width}×"),
          "narrowest carrying": N_("narrowest carrying feature, {rule} {width}×"),
          "narrowest active": N_("narrowest active feature, {rule} {width}×"),
          "quietest on filler": N_("feature quietest on filler, {rule} {width}×")}  # fmt: skip


def _parts(rule: str, size: int) -> dict[str, object]:
    return {"rule": "L1" if rule == "l1" else "TopK", "width": size // 256}


def feature_method(rule: str, size: int, chosen: str) -> str:
    """The name (the stored file's key) of the edit through the ``chosen`` feature of one
    transcoder."""
    return LABELS[chosen].format(**_parts(rule, size))


BY_CHOICE = {c: tuple(feature_method(r, s, c) for r, s in TRANSCODERS) for c in CHOICES}
FEATURES = tuple(m for c in CHOICES for m in BY_CHOICE[c])
METHODS = (RANK_ONE, RANK_ONE_FILLER, *UNITS.values(), *FEATURES)
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


def chosen_feature(
    scores: np.ndarray, active: np.ndarray, fires: np.ndarray, quiet: np.ndarray, chosen: str
) -> int:
    """The unit or feature an edit goes through: ``scores`` (n,) one fact's attributions,
    ``active`` (n,) which fire at its prompt's last word, ``fires`` (n,) at how many prompts'
    last words each fires, ``quiet`` (n,) at how many positions of the filler lines; firing means
    above ``FIRING`` (near 0 a unit's sign is the CPU's, and an edit divided by it explodes)."""
    if chosen == "top":
        return int(np.argmax(scores))
    pool = np.flatnonzero(scores > CARRIES * scores.max() if chosen == "narrowest carrying"
                          else active)  # fmt: skip
    count = quiet if chosen == "quietest on filler" else fires
    return int(pool[np.argmin(count[pool])])


def _rank_one_gates(k: torch.Tensor, C: torch.Tensor) -> np.ndarray:
    """u.k / u.k* at every prompt's last word for each fact's u = C^-1 k*: (facts, facts)."""
    u = torch.linalg.solve(C + 1e-6 * torch.eye(len(C), dtype=C.dtype), k.T).T  # as rank_one_update
    return ((u @ k.T) / (u * k).sum(-1, keepdim=True)).numpy()


def filler_inputs(model: LanguageModel, corpus: Corpus) -> torch.Tensor:
    """The FFN's inputs at every word of the lines that state no fact: (positions, d_model)."""
    tokens = corpus.tokens()[fact_edits.fact_free_lines(corpus)]
    name = f"layers.{LAYER}.hook_resid_mid"
    with torch.no_grad():
        _, cache = model.run_with_cache(tokens, names_filter=[name])
        return model.layers[LAYER].sublayers[1].norm(cache[name][tokens != 0])


def detectors(model: LanguageModel, corpus: Corpus) -> dict[str, np.ndarray]:
    """Each method's key detector for each fact, read at every prompt's last word and divided by
    its value at the fact's own: the share of the edit each prompt receives, ``gates|method``
    (facts, facts), row = the edited fact. Also the chosen unit's or feature's index,
    ``index|method`` (facts,), and its attribution over the fact's largest, ``share|method``."""
    x, k = last_word_inputs(model, corpus)
    filler = filler_inputs(model, corpus)
    out = {f"gates|{RANK_ONE}": _rank_one_gates(k, fact_edits.key_covariance(model, corpus, LAYER)),
           f"gates|{RANK_ONE_FILLER}": _rank_one_gates(
               k, fact_edits.key_covariance(model, corpus, LAYER, facts=False))}  # fmt: skip
    ffn = model.layers[LAYER].ffn
    with torch.no_grad():
        h, quiet = ffn.hidden(x).numpy(), (ffn.hidden(filler) > FIRING).sum(0).numpy()
    scores = attributions(model, corpus)[:, LAYER].numpy()  # (facts, d_ff)
    _choose(out, UNITS, scores, h > FIRING, h, quiet)
    for rule, size in TRANSCODERS:
        transcoder = stored_dictionary("transcoder", rule, size).dictionary
        scores, _ = feature_attributions(model, corpus, transcoder)
        with torch.no_grad():
            f = transcoder.encode(x.float()).double().numpy()  # (facts, n_features)
            quiet = (transcoder.encode(filler.float()) > FIRING).sum(0).numpy()
        names = {c: feature_method(rule, size, c) for c in CHOICES}
        _choose(out, names, scores, f > FIRING, f, quiet)
    return out


def _choose(out, names, scores, active, acts, quiet) -> None:
    """Each rule's unit or feature for each fact (``names``: {rule: method}), recorded."""
    fires = (acts > FIRING).sum(axis=0)
    for chosen, method in names.items():
        index = np.array([chosen_feature(s, a, fires, quiet, chosen)
                          for s, a in zip(scores, active, strict=True)])  # fmt: skip
        _chosen(out, method, scores, acts, index)


def _chosen(
    out: dict, method: str, scores: np.ndarray, acts: np.ndarray, index: np.ndarray
) -> None:
    """Record one method's detectors: each fact's chosen unit or feature ``index`` (facts,),
    its activation at every prompt's last word over its own (``acts`` (facts, n)), and its
    attribution over the fact's largest (``scores`` (facts, n))."""
    rows = np.arange(len(index))
    out[f"gates|{method}"] = (acts[:, index] / acts[rows, index]).T
    out[f"index|{method}"] = index
    out[f"share|{method}"] = scores[rows, index] / scores.max(axis=1)


def _edits(model, corpus, fact, C, chosen, x, change):
    """Every method's edited model at every scale, as (method, scale index, model); ``C`` the
    two rank-one methods' covariances."""
    transcoders = {feature_method(r, s, c): stored_dictionary("transcoder", r, s).dictionary
                   for c in CHOICES for r, s in TRANSCODERS}  # fmt: skip
    for j, scale in enumerate(SCALES):
        for name in (RANK_ONE, RANK_ONE_FILLER):
            yield name, j, rank_one_edit(model, corpus, fact, change, C[name], scale)
        for name in UNITS.values():
            yield name, j, unit_edit(model, x, change, int(chosen[name][fact]), scale)
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
    method`` (edits, scales) other facts whose top word changed, what ``detectors`` finds, the
    same measures of the model as trained, ``unedited`` (edits, len(METRICS)), and ``fact`` and
    ``new`` (edits,)."""
    facts = list(range(len(corpus.facts)) if facts is None else facts)
    found = detectors(model, corpus)
    chosen = {m: found[f"index|{m}"] for m in METHODS[2:]}
    C = {RANK_ONE: fact_edits.key_covariance(model, corpus, LAYER),
         RANK_ONE_FILLER: fact_edits.key_covariance(model, corpus, LAYER, facts=False)}  # fmt: skip
    unedited_reading(model, corpus)  # read once, before any edit
    shape = (len(facts) * answers, len(SCALES))
    results = {m: np.zeros((*shape, len(METRICS))) for m in METHODS}
    changed = {m: np.zeros(shape) for m in METHODS}
    unedited = np.zeros((shape[0], len(METRICS)))
    edits = [(fact, fact_edits.new_answer(corpus, fact, shift)) for fact in facts
             for shift in range(answers)]  # fmt: skip
    with torch_threads(1):
        for e, (fact, new) in enumerate(edits):
            change, x = edit_value(model, corpus, fact, new)
            unedited[e], _ = measure(model, model, corpus, fact, new)
            for name, j, edited in _edits(model, corpus, fact, C, chosen, x, change):
                results[name][e, j], top = measure(model, edited, corpus, fact, new)
                changed[name][e, j] = top.sum() - top[fact]
    out = {f"results|{m}": results[m] for m in METHODS}
    out |= {f"changed|{m}": changed[m] for m in METHODS}
    out |= found | {"unedited": unedited}
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
