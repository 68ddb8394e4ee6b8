"""What a trained FFN stores (lesson 5): a small language model trained on the invented facts of
``experiments.facts``, its stored weights, and the measurements made on it.

``python -m course_lib.core.experiments.memory`` retrains the model and rewrites ``WEIGHTS_FILE``; a
test retrains a shortened run to prove the effect, another loads the file and checks the facts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core._validate import positive_int
from course_lib.core.experiments import DTYPE, default_dtype
from course_lib.core.experiments.facts import Corpus, make_corpus
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.experiments.training import adam_steps
from course_lib.core.i18n import N_
from course_lib.core.model.hooks import HookFn
from course_lib.core.model.language_model import LanguageModel, LanguageModelConfig
from course_lib.core.model.moe import MixtureOfExperts, balancing_loss
from course_lib.core.progress import progress as progress_bar
from course_lib.core.threads import torch_threads

WEIGHTS_FILE = DATA / "fact_lm.npz"
# watch(router logits, one (lines, L) per layer with experts; the mask of real tokens (lines, L))
RouterWatch = Callable[[list[torch.Tensor], torch.Tensor], None]


FACT_MODEL = LanguageModelConfig(d_model=64, num_layers=2, num_heads=4, d_ff=256)


@dataclass(frozen=True)
class Settings:
    """Everything a run depends on: the corpus, the model's shape (a ``LanguageModelConfig``
    whose vocabulary is the corpus's) and the training. ``reshaped(d_ff=64)`` changes the shape."""

    seed: int = 0
    n_entities: int = 12
    repeats: int = 4
    filler_per_fact: float = 1.0
    paraphrases: bool = False  # each fact also stated "in velor the capital is quen ."
    model: LanguageModelConfig = FACT_MODEL  # ffn="moe": each FFN split into experts (lesson 7)
    steps: int = 600
    lr: float = 3e-3
    warmup: int = 50
    alpha: float = 0.0  # a mixture's balancing loss weight, summed over the layers' routers

    def reshaped(self, **shape: Any) -> Settings:
        """These settings with the model's fields ``shape`` changed: ``reshaped(ffn="moe", k=1)``."""
        return replace(self, model=replace(self.model, **shape))

    def flat(self) -> dict[str, Any]:
        """Every field, the model's among them, by name, as the stored files keep them."""
        shape = {f.name: getattr(self.model, f.name) for f in fields(self.model)}
        shape.pop("vocab_size")  # the corpus's
        mine = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "model"}
        return mine | shape

    @classmethod
    def from_flat(cls, stored: dict[str, Any]) -> Settings:
        """The settings ``flat`` gave (a field left out keeps its default)."""
        shape = {f.name for f in fields(LanguageModelConfig)}
        model = {k: v for k, v in stored.items() if k in shape}
        rest = {k: v for k, v in stored.items() if k not in shape}
        return cls(**rest).reshaped(**model)


SETTINGS = Settings()  # the stored model's


def corpus_of(settings: Settings) -> Corpus:
    """The corpus ``settings`` trains on (cached by ``make_corpus``'s arguments)."""
    return _corpus(
        settings.seed,
        settings.n_entities,
        settings.repeats,
        settings.filler_per_fact,
        settings.paraphrases,
    )


@lru_cache(maxsize=8)
def _corpus(
    seed: int, n_entities: int, repeats: int, filler_per_fact: float, paraphrases: bool
) -> Corpus:
    return make_corpus(seed, n_entities, repeats, filler_per_fact, paraphrases)


def model_config(settings: Settings, vocab_size: int) -> LanguageModelConfig:
    """The shape of the model ``settings`` trains, for a vocabulary of ``vocab_size`` words."""
    return replace(settings.model, vocab_size=vocab_size)


def build_model(settings: Settings, vocab_size: int) -> LanguageModel:
    """The untrained model of ``settings``, in float64, its initial weights drawn from the seed."""
    config = model_config(settings, vocab_size)
    with torch.random.fork_rng(), default_dtype(DTYPE):  # the global RNG is left as it was
        torch.manual_seed(settings.seed)
        model = LanguageModel(config)
    return model.eval()  # no dropout anywhere (p = 0); eval keeps it explicit


def next_token_loss(model: LanguageModel, tokens: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of each next token over all lines, padding ignored: (lines, L) -> ()."""
    logits = model(tokens[:, :-1])
    return F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], ignore_index=0)


def training_tokens(corpus: Corpus) -> torch.Tensor:
    """Every line of the corpus, (lines, L), without the columns that are padding on every line:
    the model reads [:, :-1] and predicts [:, 1:]."""
    tokens = corpus.tokens()
    return tokens[:, : int((tokens != 0).sum(dim=1).max())]


def train_language_model(
    settings: Settings = SETTINGS, watch: RouterWatch | None = None, corpus: Corpus | None = None
) -> tuple[LanguageModel, np.ndarray]:
    """Train on the whole corpus at once (full-batch Adam, ``adam_steps``), with a linear warm-up
    and a cosine decay; seeded, so one machine gives the same model every time. A mixture of
    experts adds ``settings.alpha`` times each layer's balancing loss over the real tokens.
    ``watch``, if given, sees every step's router logits (one per layer, detached) and the mask of
    real tokens, before the step. Returns the model and the loss curve (steps,), the next-token
    loss alone. ``corpus``: another corpus than the one ``settings`` makes (lesson 9's, in two
    languages); ``settings.seed`` then draws only the initial weights."""
    corpus = corpus_of(settings) if corpus is None else corpus
    tokens = training_tokens(corpus)
    model = build_model(settings, len(corpus.vocabulary))

    def lr_at(step: int) -> float:
        if step < settings.warmup:
            return settings.lr * (step + 1) / settings.warmup
        progress = (step - settings.warmup) / max(1, settings.steps - settings.warmup)
        return settings.lr * 0.5 * (1 + math.cos(math.pi * progress))

    curve: list[float] = []

    def loss(_step: int) -> torch.Tensor:
        with router_logits(model) as routed:
            task = next_token_loss(model, tokens)
        curve.append(float(task.detach()))
        real = tokens[:, :-1] != 0  # where the routers' tokens are words, not padding
        if watch is not None:
            watch([z.detach() for z in routed], real)
        balance = sum(balancing_loss(z[real], settings.alpha) for z in routed)
        return (task + balance).reshape(1)

    with torch_threads(1):
        adam_steps(list(model.parameters()), loss, settings.steps, settings.lr, lr_at=lr_at)
    return model, np.array(curve)


@contextmanager
def router_logits(model: LanguageModel) -> Iterator[list[torch.Tensor]]:
    """While the block runs, every forward's router logits, one (batch, seq_len, E) per layer
    with a mixture of experts (none for a dense model), as the hook points
    ``layers.i.ffn.hook_router_logits`` see them; not detached: the balancing loss trains on
    them."""
    found: list[torch.Tensor] = []
    names = [
        f"layers.{i}.ffn.hook_router_logits"
        for i, layer in enumerate(model.layers)
        if isinstance(layer.ffn, MixtureOfExperts)
    ]
    with model.hooks([(name, lambda logits, _hook: found.append(logits)) for name in names]):
        yield found


def fact_predictions(
    model: LanguageModel, corpus: Corpus, paraphrased: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Each fact's top-1 next word after its prompt (``paraphrased``: after its other phrasing),
    as ids (facts,), and whether it is right."""
    prompts, answers = corpus.prompts(paraphrased)
    with torch.no_grad():
        top = model(prompts)[:, -1].argmax(dim=-1)
    return top.numpy(), (top == answers).numpy()


def fact_accuracy(model: LanguageModel, corpus: Corpus) -> float:
    """The fraction of facts whose answer is the model's top-1 next word after the prompt."""
    return float(fact_predictions(model, corpus)[1].mean())


def save_model(
    model: LanguageModel, settings: Settings, losses: np.ndarray, path: Path = WEIGHTS_FILE
) -> int:
    """Store the weights (float64, as trained), the settings and the loss curve (steps,);
    returns the file's size in bytes."""
    arrays = {f"weight|{k}": v.detach().numpy() for k, v in model.state_dict().items()}
    arrays["losses"] = np.asarray(losses, dtype=np.float64)
    arrays |= {f"setting|{k}": np.array(v) for k, v in settings.flat().items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    return path.stat().st_size


def load_model(path: Path = WEIGHTS_FILE) -> tuple[LanguageModel, Settings, np.ndarray]:
    """The stored model (float64, eval mode), its settings and its loss curve (steps,)."""
    if not path.exists():
        raise FileNotFoundError(
            f"path must name a stored model, got {path}; rebuild it with "
            "python -m course_lib.core.experiments.memory"
        )
    with np.load(path, allow_pickle=False) as data:
        stored = {
            k.split("|", 1)[1]: data[k].item() for k in data.files if k.startswith("setting|")
        }
        losses = data["losses"]
    state = {name: torch.from_numpy(array) for name, array in stored_weights(path).items()}
    settings = Settings.from_flat(stored)
    model = build_model(settings, len(corpus_of(settings).vocabulary))
    model.load_state_dict(state)
    return model.eval(), settings, losses


def stored_weights(path: Path = WEIGHTS_FILE) -> dict[str, np.ndarray]:
    """The shipped model's weights as the file holds them: {parameter name: array}."""
    with np.load(path, allow_pickle=False) as data:
        return {k.split("|", 1)[1]: data[k].copy() for k in data.files if k.startswith("weight|")}


@lru_cache(maxsize=1)
def stored_model() -> tuple[LanguageModel, Corpus]:
    """The shipped model and its corpus, loaded once; callers must not train or edit it."""
    model, settings, _ = load_model()
    return model, corpus_of(settings)


# ---- reading the FFNs: keys (what fires a unit), values (what it promotes), knowledge neurons


@dataclass(frozen=True)
class Trigger:
    """A corpus prefix, <bos> left out, and the unit's activation at its last word."""

    prefix: tuple[str, ...]
    activation: float


def unit_triggers(
    model: LanguageModel, corpus: Corpus, layer: int, unit: int, k: int = 5
) -> list[Trigger]:
    """The ``k`` distinct corpus prefixes that activate ``unit`` of ``layer`` most: its key's
    "trigger examples" (Geva et al. 2021). A prefix fixes the activation, as the model is causal."""
    model.check_unit(layer, unit)
    tokens = torch.unique(corpus.tokens(), dim=0)  # (lines, L): distinct lines
    with torch.no_grad():
        acts = model.ffn_hidden(tokens)[layer, :, :, unit]  # (lines, L)
    acts = acts.masked_fill(tokens == 0, float("-inf"))
    acts[:, 0] = float("-inf")  # <bos> alone is the same prefix everywhere: not a trigger
    triggers = top_prefixes(acts, tokens, corpus, positive_int("k", k))
    return [Trigger(prefix, value) for prefix, value in triggers.items()]


def top_prefixes(
    acts: torch.Tensor, tokens: torch.Tensor, corpus: Corpus, k: int
) -> dict[tuple[str, ...], float]:
    """The ``k`` distinct prefixes (words, <bos> left out) with the largest ``acts`` at their last
    word, most active first: {prefix: activation}. ``acts`` (lines, L) is a reading at every
    position of ``tokens`` (lines, L); a prefix fixes it, as the model is causal."""
    found: dict[tuple[str, ...], float] = {}
    for flat in acts.flatten().argsort(descending=True).tolist():
        line, position = divmod(flat, tokens.shape[1])
        prefix = tuple(corpus.decode(tokens[line, 1 : position + 1]))
        found.setdefault(prefix, float(acts[line, position]))
        if len(found) == k:
            break
    return found


def unit_promotes(
    model: LanguageModel, corpus: Corpus, layer: int, unit: int, k: int = 5
) -> list[tuple[str, float]]:
    """The ``k`` tokens the unit's value vector raises most, read through the output embedding:
    the top entries of E v_i, as (word, logit contribution per unit of activation)."""
    model.check_unit(layer, unit)
    with torch.no_grad():
        top = model.value_logits(layer)[unit].topk(positive_int("k", k))
    return list(zip(corpus.decode(top.indices), top.values.tolist(), strict=True))


def _answer_log_probs(
    model: LanguageModel, corpus: Corpus, fwd_hooks: Sequence[tuple[str, HookFn]] = ()
) -> torch.Tensor:
    """log p(answer | prompt) of every fact, (facts,), with ``fwd_hooks`` attached."""
    prompts, answers = corpus.prompts()
    log_probs = model.run_with_hooks(prompts, fwd_hooks=fwd_hooks)[:, -1].log_softmax(dim=-1)
    return log_probs[torch.arange(len(answers)), answers]


def unit_gradients(model: LanguageModel, corpus: Corpus) -> tuple[torch.Tensor, torch.Tensor]:
    """(activations, gradients) of every FFN unit at each prompt's last word, (facts, layers,
    d_ff) each: the gradient is the full d log p(answer) / d(unit), through every later layer.

    Each layer's hidden units get a zero added (a tap) and the gradient is taken with respect to
    the taps. Making the units themselves separate leaves would cut the path from a layer-0 unit
    through layer 1's FFN to the output, and give layer 0 a wrong score (even its sign)."""
    hidden: list[torch.Tensor] = []
    taps: list[torch.Tensor] = []

    def tap(h: torch.Tensor, _hook) -> torch.Tensor:
        taps.append(torch.zeros_like(h, requires_grad=True))
        hidden.append(h.detach())
        return h + taps[-1]  # the same value; its gradient is d total / d h, every path kept

    every = [(f"layers.{i}.ffn.hook_hidden", tap) for i in range(len(model.layers))]
    total = _answer_log_probs(model, corpus, every).sum()  # facts do not interact
    grads = torch.autograd.grad(total, taps)  # the weights' .grad are left untouched
    last = [(h[:, -1], g[:, -1]) for h, g in zip(hidden, grads, strict=True)]
    return torch.stack([h for h, _ in last], 1), torch.stack([g for _, g in last], 1)


def attributions(model: LanguageModel, corpus: Corpus) -> torch.Tensor:
    """Dai et al. 2022's attribution of every FFN unit at each prompt's last word, for each fact:
    (facts, layers, d_ff). Their score integrates the gradient of p(answer) along the path that
    takes the one unit from 0 to its trained activation h, the others kept:

        Attr = h * integral_0^1 dp(alpha h)/dh dalpha = p(h) - p(0),

    the integral of a derivative along a line (the fundamental theorem of calculus). They sum 20
    points of it; here it is exact: p as trained minus p with the unit zeroed at the last word.
    Zeroing unit i takes its h_i v_i out of the stream at that word and changes nothing else
    there, so only the later blocks run again, and only for the units that fire (zeroing one that
    does not changes nothing: its score is 0)."""
    prompts, answers = corpus.prompts()
    layers = len(model.layers)
    scores = torch.zeros(len(answers), layers, model.d_ff, dtype=DTYPE)
    with torch.no_grad():
        before = model(prompts)[:, -1].softmax(-1)[torch.arange(len(answers)), answers]
        hidden = model.ffn_hidden(prompts)[:, :, -1]  # (layers, facts, d_ff) at the last word
        for layer in range(layers):
            fact, unit = hidden[layer].nonzero(as_tuple=True)  # (n,) each: the units that fire
            stream = model.residual_stream(prompts, stop_at_layer=layer + 1)[fact]  # (n, L, d)
            taken = hidden[layer, fact, unit, None] * model.values(layer)[unit]  # h_i v_i: (n, d)
            stream[:, -1] -= taken  # the stream after this block, unit i zeroed
            p = model.logits(model.run_blocks(stream, layer + 1)[:, -1]).softmax(-1)
            scores[fact, layer, unit] = before[fact] - p[torch.arange(len(fact)), answers[fact]]
    return scores


KNOWLEDGE_THRESHOLD = 0.2  # Dai et al.'s coarse knowledge neurons: above 0.2 x the fact's largest


def knowledge_neurons(scores, threshold: float = KNOWLEDGE_THRESHOLD) -> np.ndarray:
    """Dai et al.'s coarse knowledge neurons of each fact: the units whose attribution is above
    ``threshold`` times the fact's largest. ``scores`` (facts, layers, d_ff) -> bool, same shape."""
    scores = np.asarray(scores, dtype=float)
    largest = scores.reshape(len(scores), -1).max(axis=1)
    return scores > threshold * largest[:, None, None]


@lru_cache(maxsize=1)
def stored_attributions() -> torch.Tensor:
    """``attributions`` of the shipped model, computed once; callers read it, never write it."""
    model, corpus = stored_model()
    with torch_threads(1):
        return attributions(model, corpus)


def integrated_gradients(
    model: LanguageModel,
    prompt: torch.Tensor,
    answer: int,
    units: list[tuple[int, int]],
    steps: int = 20,
    left: bool = False,
) -> torch.Tensor:
    """Dai et al.'s attribution of each (layer, unit) of ``units`` at the last word of one
    ``prompt`` (L,), by their sum: h times the mean of dp(answer)/dh at ``steps`` points alpha h
    along the unit's own path, the others kept (the midpoints alpha = (j + 1/2) / steps; ``left``:
    the left points alpha = j / steps, j = 0 … steps - 1, as the authors' code sums):
    (len(units),). ``attributions`` gives the integral itself."""
    m = positive_int("steps", steps)
    alphas = (torch.arange(m, dtype=DTYPE) + (0.0 if left else 0.5)) / m
    for layer, unit in units:
        model.check_unit(layer, unit)
    with torch.no_grad():
        trained = model.ffn_hidden(prompt[None])[:, 0, -1]  # (layers, d_ff)
    h = torch.stack([trained[layer, unit] for layer, unit in units])  # (units,)
    point = (alphas[:, None] * h).reshape(-1).requires_grad_(True)  # (steps * units,)
    which = torch.arange(len(units)).repeat(m)  # row r sets units[which[r]] to point[r]

    def along(index: int, hidden: torch.Tensor, _hook) -> torch.Tensor:
        rows = [r for r in range(len(point)) if units[which[r]][0] == index]
        last = hidden[:, -1].clone()
        cols = torch.tensor([units[which[r]][1] for r in rows])
        last[torch.tensor(rows), cols] = point[rows]
        return torch.cat([hidden[:, :-1], last[:, None]], dim=1)

    layers = sorted({layer for layer, _ in units})  # a hook at each layer the units are in
    fwd_hooks = [(f"layers.{i}.ffn.hook_hidden", partial(along, i)) for i in layers]
    logits = model.run_with_hooks(prompt[None].expand(len(point), -1), fwd_hooks=fwd_hooks)
    p = logits[:, -1].softmax(-1)[:, answer]
    (grad,) = torch.autograd.grad(p.sum(), [point])  # the weights' .grad are left untouched
    return h * grad.reshape(m, len(units)).mean(dim=0)


def first_order_scores(model: LanguageModel, corpus: Corpus) -> torch.Tensor:
    """Gradient x activation of every FFN unit at each prompt's last word, for log p(answer):
    (facts, layers, d_ff). The first-order estimate of what zeroing the unit does, from the slope
    at the trained point alone, where training leaves many ReLU units within 1e-7 of switching."""
    activations, gradients = unit_gradients(model, corpus)
    return (activations * gradients).detach()


def scale_units(units: list[tuple[int, int]], factor: float) -> list[tuple[str, HookFn]]:
    """Hooks multiplying the hidden units ``units`` (layer, unit) by ``factor`` at the last word,
    one per layer at its hook point ``layers.i.ffn.hook_hidden``: ``run_with_hooks``'s
    ``fwd_hooks``."""
    layers = sorted({layer for layer, _ in units})
    return [
        (
            f"layers.{layer}.ffn.hook_hidden",
            partial(_scaled, [u for i, u in units if i == layer], factor),
        )
        for layer in layers
    ]


def _scaled(chosen: list[int], factor: float, h: torch.Tensor, _hook) -> torch.Tensor:
    h = h.clone()
    h[:, -1, chosen] = h[:, -1, chosen] * factor
    return h


@dataclass(frozen=True)
class NeuronEffects:
    """Relative change of p(answer), p_after / p_before - 1, when each fact's ``top`` units are
    scaled by ``factor``: of that fact (facts,), and averaged over the unrelated facts, those of
    another entity and another relation, under the same edit (facts,)."""

    factor: float
    top: int
    own: np.ndarray
    unrelated: np.ndarray
    own_log_odds: np.ndarray  # the fact's change of log(p / (1 - p)): no ceiling near p = 1


def knowledge_neuron_effects(
    model: LanguageModel,
    corpus: Corpus,
    top: int = 5,
    factor: float = 0.0,
    progress: bool = False,
) -> NeuronEffects:
    """For each fact, scale its ``top`` units by attribution at the prompt's last word (0: erase,
    2: double) and measure the change of p(answer) on that fact and on the unrelated facts. With
    ``progress`` a bar counts the facts (course_lib.core.progress)."""
    scores = attributions(model, corpus).flatten(1)  # (facts, layers * d_ff)
    d_ff, facts = model.d_ff, corpus.facts
    with torch.no_grad():
        log_p = _answer_log_probs(model, corpus)
        before = log_p.exp()
        own, unrelated, odds = [], [], []
        rows = progress_bar(
            enumerate(scores),
            N_("scaling each fact's top {top} units: facts"),
            total=len(scores),
            show=progress,
            top=top,
        )
        for i, row in rows:
            units = [divmod(int(u), d_ff) for u in row.topk(positive_int("top", top)).indices]
            edited = _answer_log_probs(model, corpus, scale_units(units, factor))
            change = edited.exp() / before - 1
            odds.append(float(log_odds(edited[i]) - log_odds(log_p[i])))
            other = [
                j
                for j, f in enumerate(facts)
                if f.entity != facts[i].entity and f.relation != facts[i].relation
            ]
            own.append(float(change[i]))
            unrelated.append(float(change[other].mean()))
    return NeuronEffects(factor, top, np.array(own), np.array(unrelated), np.array(odds))


def log_odds(log_p: torch.Tensor) -> torch.Tensor:
    """log(p / (1 - p)) from log p, exact even where p is within rounding of 1."""
    return log_p - torch.log(-torch.expm1(log_p))


def active_fraction(model: LanguageModel, corpus: Corpus, words_only: bool = False) -> np.ndarray:
    """The fraction of each layer's FFN units with a positive activation, averaged over the
    corpus' tokens (padding left out; ``words_only``: the <bos> that opens each line too, so
    that only the words count): (layers,)."""
    tokens = corpus.tokens()
    with torch.no_grad():
        active = (model.ffn_hidden(tokens) > 0).double().mean(dim=-1)  # (layers, lines, L)
    real = (tokens != 0).double()
    if words_only:
        real[:, 0] = 0.0  # position 0 of every line is <bos>
    return ((active * real).sum(dim=(1, 2)) / real.sum()).numpy()


if __name__ == "__main__":  # rebuild WEIGHTS_FILE: python -m course_lib.core.experiments.memory
    start = time.perf_counter()
    trained, curve = train_language_model(SETTINGS)
    seconds = time.perf_counter() - start
    size = save_model(trained, SETTINGS, curve)
    right = fact_predictions(trained, corpus_of(SETTINGS))[1]
    print(
        f"trained {SETTINGS.steps} steps in {seconds:.0f} s; loss {curve[0]:.2f} -> {curve[-1]:.3f}"
    )
    print(
        f"facts right: {int(right.sum())} of {right.size}; wrote {size / 1e3:.0f} kB to {WEIGHTS_FILE}"
    )
