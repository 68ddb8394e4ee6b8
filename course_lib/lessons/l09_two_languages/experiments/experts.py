"""Lesson 7's experts in the bilingual model: does the router split by language, by relation, or
by neither?

The model is lesson 7's "equal total" mixture (lesson 5's model, each FFN split into 4 experts of
width 64, top 2, balancing loss alpha 0.01) trained on ``bilingual.split_corpus`` (no
dictionary) with seed 0's split and initial weights: one model, so what it shows is one seed's.
``python -m course_lib.lessons.l09_two_languages.experiments.experts`` retrains it (4 to 10
minutes on one thread); a test retrains its first steps and compares.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import (
    Settings,
    build_model,
    router_logits,
    save_model,
    stored_weights,
    train_language_model,
)
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.model.moe import MixtureOfExperts
from course_lib.core.threads import torch_threads
from course_lib.lessons.l09_two_languages.experiments.bilingual import (
    LANGUAGES,
    in_language,
    prompt_groups,
    split_corpus,
)
from course_lib.lessons.l09_two_languages.experiments.bilingual_model import known
from course_lib.lessons.l09_two_languages.experiments.bilingual_model import (
    settings_of as dense_settings,
)
from course_lib.lessons.l09_two_languages.experiments.one_memory import line_language

SEEDS = (0,)  # the dense models' first seed (its split and initial weights)


def settings_of(seed: int) -> Settings:
    """Lesson 7's "equal total" settings, the initial weights drawn from ``seed`` (one of
    ``SEEDS``, the dense models' seeds)."""
    if seed not in SEEDS:
        raise ValueError(f"seed must be one of {list(SEEDS)}, got {seed!r}")
    return replace(
        dense_settings(seed).reshaped(ffn="moe", num_experts=4, k=2, d_ff=64), alpha=0.01
    )


def model_file(seed: int) -> Path:
    return DATA / f"bilingual_moe_{seed}.npz"


def train(seed: int) -> tuple[LanguageModel, np.ndarray]:
    """The bilingual mixture of ``seed`` and its loss curve (steps,), the next-token loss alone."""
    return train_language_model(settings_of(seed), corpus=split_corpus(seed))


@lru_cache(maxsize=len(SEEDS))
def stored_moe(seed: int = 0) -> LanguageModel:
    """The stored bilingual mixture of ``seed`` (float64, eval mode), loaded once; callers must
    not train or edit it."""
    path = model_file(settings_of(seed).seed)
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing; rebuild it with python -m "
            "course_lib.lessons.l09_two_languages.experiments.experts"
        )
    model = build_model(settings_of(seed), len(split_corpus(seed).vocabulary))
    model.load_state_dict({k: torch.from_numpy(v) for k, v in stored_weights(path).items()})
    return model.eval()


# ---- where the router sends each token: by language, by relation, or by neither
#
# The measure: the mutual information I(route; label) in bits, the plug-in estimate over the
# tokens, where a token's route is the set of the k experts its router picks (6 possible pairs of
# 4) and its label its line's language or its fact's relation. I = 0: the route says nothing of
# the label; I = H(label): the route gives the label away. Its null distribution comes from
# shuffling the labels (``SHUFFLES`` times, a seeded local generator) among the units that carry
# them (lines, token types or prompts), the routes kept; the p-value counts the shuffles scoring
# at least as much: (1 + #{null >= I}) / (1 + SHUFFLES).

SHUFFLES = 20_000  # 1,000 left a p near 0.05 several standard errors (about 0.007) off
ONE_LANGUAGE = 0.9  # an expert takes more than this share of its tokens from one language


@dataclass(frozen=True)
class Routing:
    """The routes of the corpus' real tokens (<bos> and padding left out), one column per token:
    ``experts`` (layers, tokens, k) the k experts each layer's router picks, ``routes`` (layers,
    tokens) the same set as one code (the bit mask sum 2**expert); each token's ``token`` id,
    ``line`` index and ``position`` in the line (<bos> at 0), (tokens,) each."""

    experts: np.ndarray
    routes: np.ndarray
    token: np.ndarray
    line: np.ndarray
    position: np.ndarray


def picked(logits: torch.Tensor, k: int) -> torch.Tensor:
    """The k experts the router picks, (..., E) -> (..., k), as ``moe.top_k_gates`` picks them:
    the k largest probabilities, ties to the lower index."""
    return logits.softmax(dim=-1).topk(k, dim=-1).indices


def route_codes(experts: np.ndarray) -> np.ndarray:
    """Each set of picked experts (..., k) as one integer, the bit mask sum 2**expert: (...)."""
    return (1 << experts.astype(np.int64)).sum(axis=-1)


def routing(model: LanguageModel, corpus: Corpus) -> Routing:
    """Where each layer's router sends every real token of ``corpus`` (``Routing``)."""
    tokens = corpus.tokens()
    with torch.no_grad(), router_logits(model) as logits:
        model(tokens)
    real = (tokens != 0).numpy()
    real[:, 0] = False  # <bos>: the same token, with no context, on every line
    line, position = np.nonzero(real)
    ks = [layer.ffn.k for layer in model.layers if isinstance(layer.ffn, MixtureOfExperts)]
    experts = np.stack([picked(z, k).numpy()[real] for z, k in zip(logits, ks, strict=True)])
    return Routing(experts, route_codes(experts), tokens.numpy()[real], line, position)


def _codes(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Any labels (n,) as codes 0..m-1 in sorted order and m, as ``np.unique`` numbers them;
    integers of a small range by a lookup table (no sort: a thousand shuffles at once stay
    quick)."""
    values = np.asarray(values).reshape(-1)
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        if high - low < 1 << 16:
            present = np.zeros(high - low + 1, dtype=bool)
            present[values - low] = True
            code = np.cumsum(present) - 1
            return code[values - low], int(present.sum())
    unique, codes = np.unique(values, return_inverse=True)
    return codes.reshape(-1), len(unique)


def _plug_in(counts: np.ndarray, n: int) -> np.ndarray:
    """The plug-in entropy's last step: bits from counts (draws, cells) of ``n`` items."""
    p = counts / n
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(p > 0, p * np.log2(p), 0.0).sum(axis=1)


def entropy(*columns: np.ndarray) -> np.ndarray:
    """The plug-in entropy in bits of the joint of integer ``columns``, each (n,) or (draws, n)
    (one row per draw): (draws,) or ()."""
    joint = np.zeros(np.broadcast_shapes(*(c.shape for c in columns)), dtype=np.int64)
    for column in columns:
        codes, m = _codes(column)  # relabelled over all draws at once: counts stay per draw
        joint = joint * m + codes.reshape(column.shape)
    rows = joint.reshape(-1, joint.shape[-1])
    width = int(joint.max()) + 1
    offsets = (np.arange(len(rows)) * width)[:, None]
    counts = np.bincount((rows + offsets).reshape(-1), minlength=len(rows) * width)
    counts = counts.reshape(len(rows), width)
    return _plug_in(counts, rows.shape[1]).reshape(joint.shape[:-1])


def mutual_information(
    x: np.ndarray, y: np.ndarray, given: np.ndarray | None = None
) -> np.ndarray | float:
    """I(x; y) in bits, plug-in, or with ``given`` the conditional I(x; y | given), the
    information that stays when ``given`` (e.g. the token) is known. ``y`` may be (draws, n):
    one value per draw."""
    if given is None:
        return entropy(x) + entropy(y) - entropy(x, y)
    return entropy(x, given) + entropy(y, given) - entropy(x, y, given) - entropy(given)


def standard_error(p: float, shuffles: int = SHUFFLES) -> float:
    """The Monte Carlo standard error of a permutation p estimated from ``shuffles`` shuffles."""
    return float(np.sqrt(p * (1 - p) / positive_int("shuffles", shuffles)))


def p_text(p: float, shuffles: int = SHUFFLES) -> str:
    """A permutation p to the digits its shuffles support: at the floor 1 / (1 + shuffles) (no
    shuffle reached the value) "≤" the floor rounded up to one significant digit (0.001 for 1,000
    shuffles); else p "±" its standard error, both to the standard error's first digit; 1 where
    every shuffle reached it."""
    floor = 1 / (1 + positive_int("shuffles", shuffles))
    if p <= floor * (1 + 1e-9):
        digits = -int(np.floor(np.log10(floor)))
        bound = math.ceil(round(floor * 10**digits, 9)) / 10**digits
        return f"≤ {bound:.{-int(np.floor(np.log10(bound)))}f}"
    se = standard_error(p, shuffles)
    if se == 0:
        return f"{p:.0f}"
    digits = max(0, -int(np.floor(np.log10(se))))
    return f"{p:.{digits}f} ± {se:.{digits}f}"


@dataclass(frozen=True)
class Test:
    """One permutation test: the observed ``value`` (bits), the null's 95th percentile and mean,
    and the p-value (1 + #{null >= value}) / (1 + shuffles)."""

    value: float
    null95: float
    null_mean: float
    p_value: float


def permutation_test(
    routes: np.ndarray,
    unit_labels: np.ndarray,
    unit_of: np.ndarray,
    given: np.ndarray | None = None,
    shuffles: int = SHUFFLES,
    seed: int = 0,
    normalised: bool = False,
) -> Test:
    """I(routes; label) (or given ``given``) against shuffling ``unit_labels`` (units,) among the
    units: each token (n,) takes its unit's label, ``unit_of`` (n,) its unit. ``normalised``:
    test I / H(label) instead, each shuffle divided by its own H(label), the most its I can be
    (where units hold different numbers of tokens, a shuffle changes H(label), and raw I rises
    and falls with it)."""
    unit_labels, unit_of = np.asarray(unit_labels), np.asarray(unit_of)
    value = float(mutual_information(routes, unit_labels[unit_of], given))
    if normalised:
        value /= float(entropy(unit_labels[unit_of]))
    g = np.random.default_rng(seed)
    order = np.argsort(g.random((positive_int("shuffles", shuffles), len(unit_labels))), axis=1)
    if given is None and len(np.unique(unit_of)) == len(unit_labels):
        null, ceiling = _shuffled_information(routes, unit_labels, unit_of, order, ceiling=True)
    else:
        drawn = unit_labels[order][:, unit_of]
        null, ceiling = mutual_information(routes, drawn, given), entropy(drawn)
    if normalised:
        null = np.divide(null, ceiling, out=np.zeros_like(null), where=ceiling > 0)
    return Test(
        value=value,
        null95=float(np.percentile(null, 95)),
        null_mean=float(null.mean()),
        p_value=float((1 + np.sum(null >= value - 1e-12)) / (1 + len(null))),
    )


def _shuffled_information(
    routes: np.ndarray,
    unit_labels: np.ndarray,
    unit_of: np.ndarray,
    order: np.ndarray,
    ceiling: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """``mutual_information(routes, unit_labels[order][:, unit_of])``, every unit holding at least
    one token: the same counts, in ``entropy``'s cells, from the routes counted per unit once
    (routes x units) rather than the tokens relabelled once per draw, so the same bits, at a
    fraction of the cost for many tokens. ``ceiling``: also each draw's H(label), (draws,)."""
    route, n_routes = _codes(routes)
    label, m = _codes(unit_labels)  # every unit holds a token: the labels present are these
    units, n = len(unit_labels), len(route)
    per_unit = np.bincount(route * units + unit_of, minlength=n_routes * units)
    per_unit = per_unit.reshape(n_routes, units).astype(float)  # exact: counts below 2^53
    drawn = label[order]  # (draws, units): each unit's label in each draw
    joint = np.stack([(drawn == c) @ per_unit.T for c in range(m)], axis=2)  # (draws, routes, m)
    joint = joint.reshape(len(order), n_routes * m)  # cell route * m + label, as entropy's
    width = int(np.flatnonzero(joint.any(axis=0)).max()) + 1  # entropy's cells: up to the last
    labels = np.stack([(drawn == c) @ per_unit.sum(0) for c in range(m)], axis=1)
    h_label = _plug_in(labels, n)
    information = entropy(routes) + h_label - _plug_in(joint[:, :width], n)
    return (information, h_label) if ceiling else information


@dataclass(frozen=True)
class LanguageSplit:
    """How one layer's routes split by language. ``by_type``: I(route; language) against the
    languages shuffled among the token types (as many Chinese types kept): is the split into
    English words and Chinese characters more than any split of the vocabulary into two such
    parts? (No token but <bos> occurs in both languages, so the token fixes the language.)
    ``normalised``: the same test of I / H(language), each shuffle divided by its own H(language):
    a shuffle keeps the number of Chinese types, not of Chinese tokens, so the ceiling of I
    varies between shuffles, and this is the test that compares like with like.
    ``language_bits``: H(language), the most I can be; ``token_share``: I(route; token) /
    H(route), how much of the routing the token alone explains, plug-in, which reads high;
    ``token_share_corrected`` the same less its mean over ``ROUTE_SHUFFLES`` shuffles of the routes
    among the tokens (what the plug-in finds where the token explains nothing). ``chinese``: each expert's share
    of its tokens (k per token) that are Chinese, (experts,); ``base_rate``: the share of the
    tokens that are Chinese."""

    by_type: Test
    normalised: Test
    language_bits: float
    token_share: float
    token_share_corrected: float
    chinese: np.ndarray
    base_rate: float

    @property
    def one_language(self) -> int:
        """How many experts take more than ``ONE_LANGUAGE`` of their tokens from one language."""
        return int(np.sum(np.maximum(self.chinese, 1 - self.chinese) > ONE_LANGUAGE))


ROUTE_SHUFFLES = 200  # shuffles of the routes whose mean I is the plug-in bias taken off


def corrected_share(routes: np.ndarray, token: np.ndarray, seed: int = 0) -> float:
    """I(route; token) / H(route) less its mean when the routes are shuffled among the tokens
    (``ROUTE_SHUFFLES`` times, a local generator seeded ``seed``): the share of the routing the
    token explains, the plug-in estimate's bias taken off."""
    g = np.random.default_rng(seed)
    shuffled = routes[np.argsort(g.random((ROUTE_SHUFFLES, len(routes))), axis=1)]
    bias = float(np.mean(mutual_information(token, shuffled)))
    return float((mutual_information(routes, token) - bias) / entropy(routes))


def language_split(r: Routing, corpus: Corpus, layer: int, seed: int = 0) -> LanguageSplit:
    """``LanguageSplit`` of ``layer``'s routes ``r`` over ``corpus``."""
    lines = line_language(corpus)
    language = lines[r.line]
    routes = r.routes[layer]
    types, type_of = np.unique(r.token, return_inverse=True)
    type_language = np.array([language[type_of == t][0] for t in range(len(types))])
    experts = r.experts[layer]
    n_experts = int(experts.max()) + 1
    chinese = np.array([language[(experts == e).any(axis=1)].mean() for e in range(n_experts)])
    return LanguageSplit(
        by_type=permutation_test(routes, type_language, type_of, seed=seed),
        normalised=permutation_test(routes, type_language, type_of, seed=seed, normalised=True),
        language_bits=float(entropy(language)),
        token_share=float(mutual_information(routes, r.token) / entropy(routes)),
        token_share_corrected=corrected_share(routes, r.token, seed),
        chinese=chinese,
        base_rate=float(language.mean()),
    )


def prompt_routes(model: LanguageModel, corpus: Corpus, language: str) -> np.ndarray:
    """The experts each layer's router picks at the last token of each fact's prompt in
    ``language`` ("is", "是": one token for every fact), (layers, facts, k)."""
    groups = prompt_groups(in_language(corpus, language))
    ks = [layer.ffn.k for layer in model.layers if isinstance(layer.ffn, MixtureOfExperts)]
    out = np.zeros((len(ks), len(corpus.facts), max(ks)), dtype=np.int64)
    for index, prompts, _ in groups:
        with torch.no_grad(), router_logits(model) as logits:
            model(prompts)
        for layer, (z, k) in enumerate(zip(logits, ks, strict=True)):
            out[layer, index] = picked(z[:, -1], k).numpy()
    return out


@dataclass(frozen=True)
class RelationSplit:
    """How one layer's routes split by relation at the last token of the 48 prompts of one
    language, a token the same for every fact, so that only the context can set the route.
    ``information``: I(route; relation), the relations shuffled among the facts; ``purity``:
    lesson 7's purity of the routes (the share of prompts sent to their relation's most common
    pair of experts), ``chance_purity`` its mean over the same shuffles and ``purity_p`` the share
    of them at least as pure, (1 + #) / (1 + shuffles); ``exact_purity_p`` the same p computed
    exactly over every shuffle where at most two routes occur (``exact_purity_p``), else None."""

    information: Test
    purity: float
    chance_purity: float
    purity_p: float
    exact_purity_p: float | None = None


def route_purity(routes: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Lesson 7's purity, of routes: the share of items sent to their label's most common route,
    ``routes`` (n,) any codes, ``labels`` (n,) or (draws, n) codes 0..m-1: (draws,)."""
    routes, n_routes = _codes(np.asarray(routes))
    labels = np.atleast_2d(labels)
    counts = np.zeros((len(labels), int(labels.max()) + 1, n_routes), dtype=int)
    np.add.at(counts, (np.arange(len(labels))[:, None], labels, routes[None, :]), 1)
    return counts.max(axis=2).sum(axis=1) / labels.shape[1]


def exact_purity_p(routes: np.ndarray, labels: np.ndarray) -> float | None:
    """The exact p of ``route_purity`` under shuffles of ``labels`` (n,) among the items, where
    ``routes`` (n,) take at most two values: the share of all shuffles at least as pure. With two
    routes a shuffle is fixed by how many of each label's items take the first route, a
    multivariate hypergeometric draw, so every outcome is enumerated with its probability. None
    where more than two routes occur (then only the shuffles estimate it)."""
    routes, n_routes = _codes(np.asarray(routes))
    labels, _ = _codes(np.asarray(labels))
    if len(routes) != len(labels):
        raise ValueError(f"routes and labels must have one value per item, got {len(routes)} "
                         f"and {len(labels)}")  # fmt: skip
    if n_routes == 1:
        return 1.0
    if n_routes > 2:
        return None
    sizes = np.bincount(labels)
    first = int(np.sum(routes == 0))
    observed = float(route_purity(routes, labels)[0])
    total, found = math.comb(len(routes), first), 0
    for counts in itertools.product(*(range(int(size) + 1) for size in sizes)):
        if sum(counts) != first:
            continue
        pure = sum(max(a, int(size) - a) for a, size in zip(counts, sizes, strict=True))
        if pure / len(routes) >= observed - 1e-12:
            found += math.prod(
                math.comb(int(size), a) for a, size in zip(counts, sizes, strict=True)
            )
    return found / total


def relation_split(
    model: LanguageModel, corpus: Corpus, layer: int, language: str, seed: int = 0
) -> RelationSplit:
    """``RelationSplit`` of ``layer`` in ``language`` over ``corpus``'s 48 facts."""
    relations = sorted({f.english.relation for f in corpus.facts})
    relation = np.array([relations.index(f.english.relation) for f in corpus.facts])
    routes = route_codes(prompt_routes(model, corpus, language)[layer])  # (facts,)
    g = np.random.default_rng(seed)  # the permutation test's shuffles, drawn alike
    shuffled = relation[np.argsort(g.random((SHUFFLES, len(relation))), axis=1)]
    purity = float(route_purity(routes, relation)[0])
    null = route_purity(routes, shuffled)
    return RelationSplit(
        information=permutation_test(routes, relation, np.arange(len(relation)), seed=seed),
        purity=purity,
        chance_purity=float(null.mean()),
        purity_p=float((1 + np.sum(null >= purity - 1e-12)) / (1 + SHUFFLES)),
        exact_purity_p=exact_purity_p(routes, relation),
    )


@dataclass(frozen=True)
class ExpertSplits:
    """One model's ``LanguageSplit`` per layer and ``RelationSplit`` per layer and language."""

    language: tuple[LanguageSplit, ...]
    relation: dict[str, tuple[RelationSplit, ...]]


@lru_cache(maxsize=len(SEEDS))
def expert_splits(seed: int = 0) -> ExpertSplits:
    """``ExpertSplits`` of the stored model of ``seed``, computed once; callers must not edit."""
    model, corpus = stored_moe(seed), split_corpus(seed)
    with torch_threads(1):
        r = routing(model, corpus)
        layers = range(r.routes.shape[0])
        return ExpertSplits(
            language=tuple(language_split(r, corpus, i) for i in layers),
            relation={
                lang: tuple(relation_split(model, corpus, i, lang) for i in layers)
                for lang in LANGUAGES
            },
        )


def report(seed: int) -> str:
    """The splits of the stored model of ``seed``, a few lines per layer."""
    splits, out = expert_splits(seed), []
    for layer, lang in enumerate(splits.language):
        out.append(
            f"seed {seed} layer {layer}: language I={lang.by_type.value:.3f} of "
            f"{lang.language_bits:.3f} bits (types shuffled: 95% {lang.by_type.null95:.3f}, "
            f"p={lang.by_type.p_value:.3f}; I/H {lang.normalised.value:.3f}, "
            f"p={lang.normalised.p_value:.4f}); token explains {lang.token_share:.0%} of the "
            f"routing; Chinese share per expert {np.round(lang.chinese, 2).tolist()} (base "
            f"{lang.base_rate:.3f}), {lang.one_language} experts >{ONE_LANGUAGE:.0%} one language"
        )
        for language, rel in splits.relation.items():
            a = rel[layer].information
            out.append(
                f"    relation ({language}): I={a.value:.3f} (95% {a.null95:.3f}, "
                f"p={a.p_value:.3f}), purity {rel[layer].purity:.2f} vs "
                f"{rel[layer].chance_purity:.2f} (p={rel[layer].purity_p:.3f})"
            )
    return "\n".join(out)


if __name__ == "__main__":
    for seed in [int(s) for s in sys.argv[1:]] or SEEDS:
        start = time.perf_counter()
        model, curve = train(seed)
        size = save_model(model, settings_of(seed), curve, model_file(seed))
        right = {lang: int(r.sum()) for lang, r in known(model, split_corpus(seed)).items()}
        print(
            f"seed {seed}: {time.perf_counter() - start:.0f} s, loss {curve[-1]:.3f}, "
            f"facts right {right}, {size / 1e3:.0f} kB in {model_file(seed).name}",
            flush=True,
        )
        print(report(seed), flush=True)
