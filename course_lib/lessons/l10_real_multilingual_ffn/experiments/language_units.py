"""Tang et al.'s language-specific units in the real model, and what zeroing them does to
English -> Chinese retrieval of parallel paragraphs, beside as many random units of matched
firing rates.

``python -m course_lib.lessons.l10_real_multilingual_ffn.experiments.language_units`` rebuilds
``course_lib/data/e5_retrieval.npz`` (each condition's similarities, after "passage: " and, nothing
or each language's units zeroed, after "query: "; a few minutes).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import torch

from course_lib.core.experiments.statistics import holm  # noqa: F401 (the lesson reads it here)
from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz
from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations, e5_model
from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import Corpus, stored_corpus
from course_lib.lessons.l10_real_multilingual_ffn.papers import TANG_2024

FILE = DATA / "e5_retrieval.npz"
MODULE = "course_lib.lessons.l10_real_multilingual_ffn.experiments.language_units"
PAIRS, LONGEST, DRAWS, SEED = 60, 48, 10, 0  # pairs retrieved among, their tokens, random draws
PREFIX = "passage: "  # both sides embedded as the passages they are
QUERY = "query: "  # the model card's prefix for symmetric tasks such as bitext retrieval


def activation_probability() -> np.ndarray:
    """How often each unit fires on each language's tokens: (layers, d_ff, languages)."""
    stored = activations.stored()
    return stored["fires"] / stored["tokens_per_language"]


def lape(probability: np.ndarray) -> np.ndarray:
    """Entropy of a unit's firing probabilities normalised over the languages (nats): 0 if it
    fires in one language only, log 2 if equally in both. (..., languages) -> (...)."""
    total = probability.sum(-1, keepdims=True)
    share = np.divide(probability, total, out=np.zeros_like(probability), where=total > 0)
    return -(share * np.log(np.where(share > 0, share, 1.0))).sum(-1)


def frequency_threshold(probability: np.ndarray) -> float:
    """Tang et al.'s bar: the 95th percentile of all units' firing probabilities."""
    return float(np.quantile(probability.reshape(-1, 2), TANG_2024["frequency quantile"]))


def eligible_per_layer(probability: np.ndarray) -> np.ndarray:
    """How many units of each layer clear the bar in at least one language: (layers,). Only
    they can be selected, whatever their entropy."""
    return (probability.max(-1) > frequency_threshold(probability)).sum(1)


def script_probability() -> np.ndarray:
    """How often each unit fires on Latin-script and on Han tokens, whatever the paragraph's
    language: (layers, d_ff, 2), the second labelling of the tokens."""
    from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls

    stored = controls.stored()
    return stored["fires_by_script"] / stored["tokens_by_script"]


def by_script() -> dict[str, np.ndarray]:
    """Tang et al.'s selection with the tokens labelled by script (Latin for "en", Han for "zh")
    instead of by their paragraph's language: each one's units per layer."""
    return per_layer(language_specific(script_probability()))


def other_language(probability: np.ndarray, selected: dict[str, np.ndarray]):
    """Per language: (median ratio of a selected unit's firing in its language to its firing in
    the other, median firing in the other language)."""
    out = {}
    for i, lang in enumerate(activations.LANGUAGES):
        rows = probability[selected[lang][:, 0], selected[lang][:, 1]]
        own, other = rows[:, i], rows[:, 1 - i]
        out[lang] = (float(np.median(own / np.maximum(other, 1e-12))), float(np.median(other)))
    return out


def lowest_other(probability: np.ndarray, selected: dict[str, np.ndarray]) -> dict[str, float]:
    """Per language: the lowest share of the other language's tokens that one of its selected
    units fires on."""
    return {
        lang: float(probability[selected[lang][:, 0], selected[lang][:, 1], 1 - i].min())
        for i, lang in enumerate(activations.LANGUAGES)
    }


def silent_by_script(below: float = 1e-3) -> list[tuple[str, int, int, float, int, int]]:
    """The units selected by script that fire on under ``below`` of the other script's tokens:
    rows (language, layer, unit, share of its own script's tokens it fires on, other script's
    tokens it fires on, other script's tokens), the most silent first."""
    from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls

    stored = controls.stored()
    fires, tokens = stored["fires_by_script"], stored["tokens_by_script"]
    selected = language_specific(fires / tokens)
    rows = []
    for i, lang in enumerate(activations.LANGUAGES):
        for layer, unit in selected[lang]:
            other = int(fires[layer, unit, 1 - i])
            if other < below * tokens[1 - i]:
                own = float(fires[layer, unit, i] / tokens[i])
                rows.append((lang, int(layer), int(unit), own, other, int(tokens[1 - i])))
    return sorted(rows, key=lambda row: row[4] / row[5])


def language_specific(probability: np.ndarray) -> dict[str, np.ndarray]:
    """Tang et al.'s selection: (layer, unit) rows for each language's units."""
    flat = probability.reshape(-1, 2)
    threshold = np.quantile(flat, TANG_2024["frequency quantile"])
    entropy = np.where(flat.max(-1) > threshold, lape(flat), np.inf)  # rare units left out
    chosen = np.argsort(entropy, kind="stable")[: round(TANG_2024["lowest share"] * len(flat))]
    d_ff = probability.shape[1]
    return {
        lang: np.array([divmod(int(u), d_ff) for u in chosen if flat[u, i] > threshold])
        for i, lang in enumerate(activations.LANGUAGES)
    }


def matched_random(units: np.ndarray, probability: np.ndarray, seed: int) -> np.ndarray:
    """As many random units as ``units``, each from the same layer, among the 20 units of that
    layer whose mean firing rate is nearest to its (the selected units themselves left out)."""
    rng = np.random.default_rng(seed)
    rate = probability.mean(-1)  # (layers, d_ff)
    taken = {tuple(u) for u in units}
    out = []
    for layer, unit in units:
        others = [u for u in np.argsort(np.abs(rate[layer] - rate[layer, unit]), kind="stable")
                  if (layer, u) not in taken][:20]  # fmt: skip
        pick = int(rng.choice(others))
        taken.add((layer, pick))
        out.append((layer, pick))
    return np.array(out)


def retrieval_pairs(corpus: Corpus) -> np.ndarray:
    """PAIRS pairs of distinct texts, both at most LONGEST tokens, drawn with a seeded generator."""
    _, tokenizer = e5_model.load_model()
    seen, short = set(), []
    for i, (en, zh) in enumerate(zip(corpus.english, corpus.chinese, strict=True)):
        if en in seen or zh in seen:
            continue
        seen |= {en, zh}
        if max(len(tokenizer(PREFIX + t)) for t in (en, zh)) <= LONGEST:
            short.append(i)
    return np.sort(np.random.default_rng(SEED).choice(short, PAIRS, replace=False))


def zeroing(units: np.ndarray | None):
    """Hooks that set the GELU outputs of ``units`` (layer, unit) rows to zero at every token."""
    if units is None or len(units) == 0:
        return []
    by_layer: dict[int, list[int]] = {}
    for layer, unit in units:
        by_layer.setdefault(int(layer), []).append(int(unit))

    def hook_for(chosen: list[int]):
        def zero(hidden: torch.Tensor, _hook) -> torch.Tensor:
            hidden = hidden.clone()
            hidden[..., chosen] = 0.0
            return hidden

        return zero

    return [(f"layers.{layer}.ffn.hook_hidden", hook_for(u)) for layer, u in by_layer.items()]


def similarities(
    corpus: Corpus, pairs: np.ndarray, units: np.ndarray | None = None, prefix: str = PREFIX
) -> np.ndarray:
    """cos(English paragraph i, Chinese paragraph j) over ``pairs``, ``units`` zeroed in both,
    both sides embedded after ``prefix``."""
    model, tokenizer = e5_model.load_model()
    embedded = []
    for texts in (corpus.english, corpus.chinese):
        ids, mask = e5_model.batch(tokenizer, [texts[i] for i in pairs], prefix)
        with torch.no_grad(), model.hooks(zeroing(units)):
            embedded.append(e5_model.mean_pool(model(ids, mask), mask).numpy())
    return embedded[0] @ embedded[1].T


def retrieval(similarity: np.ndarray) -> tuple[float, float]:
    """(top-1 accuracy, mean margin): an English paragraph retrieves its twin if the twin is the
    most similar Chinese paragraph; the margin is cos(twin) minus the best other cos."""
    n = len(similarity)
    twin = np.diag(similarity)
    others = np.where(np.eye(n, dtype=bool), -np.inf, similarity).max(1)
    return float((similarity.argmax(1) == np.arange(n)).mean()), float((twin - others).mean())


def save(path=FILE) -> int:
    corpus, probability = stored_corpus(), activation_probability()
    pairs, selected = retrieval_pairs(corpus), language_specific(probability)
    arrays = {"pairs": pairs, "base": similarities(corpus, pairs)}
    for lang, units in selected.items():
        arrays[f"zeroed {lang}"] = similarities(corpus, pairs, units)
    save_npz(path, arrays, {"pairs": PAIRS, "longest": LONGEST, "seed": SEED})
    add_query_prefix(path)
    return add_draws(DRAWS, path)


def random_draw(lang: str, draw: int, corpus: Corpus | None = None) -> np.ndarray:
    """The similarities with draw ``draw`` of random units matched to language ``lang``'s zeroed."""
    corpus, probability = corpus or stored_corpus(), activation_probability()
    units = language_specific(probability)[lang]
    random = matched_random(units, probability, seed=100 * SEED + 10 * draw + len(lang))
    return similarities(corpus, stored()["pairs"], random)


def add_draws(draws: int = DRAWS, path=FILE) -> int:
    """Add matched random draws to the stored file until each language has ``draws`` of them,
    the languages in turn, the file written after each draw (a long rebuild can stop anywhere)."""
    size = path.stat().st_size
    for draw in range(draws):
        for lang in activations.LANGUAGES:
            arrays, settings = load_npz(path, "retrieval with units zeroed", MODULE)
            if f"random {lang} {draw}" in arrays:
                continue
            arrays[f"random {lang} {draw}"] = random_draw(lang, draw)
            size = save_npz(path, arrays, settings)
            print(f"{lang} draw {draw} stored", flush=True)
    return size


def add_query_prefix(path=FILE) -> int:
    """The same retrieval with both sides after "query: " (the model card's prefix for symmetric
    tasks): nothing zeroed and each language's units zeroed, added to the stored file."""
    corpus, probability = stored_corpus(), activation_probability()
    arrays, settings = load_npz(path, "retrieval with units zeroed", MODULE)
    arrays["query base"] = similarities(corpus, arrays["pairs"], None, QUERY)
    for lang, units in language_specific(probability).items():
        arrays[f"query zeroed {lang}"] = similarities(corpus, arrays["pairs"], units, QUERY)
    return save_npz(path, arrays, settings)


def draws_stored(stored: dict[str, np.ndarray], lang: str) -> int:
    """How many random draws the stored file holds for language ``lang``."""
    return sum(1 for name in stored if name.startswith(f"random {lang} "))


@cache
def stored() -> dict[str, np.ndarray]:
    return load_npz(FILE, "retrieval with units zeroed", MODULE)[0]


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--add-draws"]:  # more matched random draws into the stored file
        rebuild(add_draws, FILE, "nothing (more matched random draws)")
    elif sys.argv[1:] == ["--query"]:  # the retrieval again with the prefix "query: "
        rebuild(add_query_prefix, FILE, 'nothing (retrieval with the prefix "query: ")')
    else:
        rebuild(save, FILE, "nothing (retrieval with units zeroed)")


def per_layer(selected: dict[str, np.ndarray], layers: int = 12) -> dict[str, np.ndarray]:
    """How many of each language's units sit in each layer: {language: (layers,)}."""
    return {lang: np.bincount(units[:, 0], minlength=layers) if len(units) else np.zeros(layers, int)
            for lang, units in selected.items()}  # fmt: skip


def margins(similarity: np.ndarray) -> np.ndarray:
    """Each English paragraph's margin: cos(its twin) minus the best other Chinese cos: (pairs,)."""
    n = len(similarity)
    return np.diag(similarity) - np.where(np.eye(n, dtype=bool), -np.inf, similarity).max(1)


def paired_p(a: np.ndarray, b: np.ndarray, shuffles: int = 10_000, seed: int = 0) -> float:
    """Two-sided p that the mean of a - b is 0: the pairs' signs flipped at random."""
    rng = np.random.default_rng(seed)
    d = np.asarray(a) - np.asarray(b)
    flips = rng.choice([-1.0, 1.0], size=(shuffles, len(d)))
    return float(((np.abs((flips * d).mean(1)) >= abs(d.mean())).sum() + 1) / (shuffles + 1))


def retrieval_summary(stored: dict[str, np.ndarray]) -> dict[str, tuple[int, float, float]]:
    """Each condition's (units zeroed, top-1 accuracy, mean margin); the random draws averaged."""
    selected = language_specific(activation_probability())
    out = {"none": (0, *retrieval(stored["base"]))}
    for lang, units in selected.items():
        out[lang] = (len(units), *retrieval(stored[f"zeroed {lang}"]))
        draws = [retrieval(stored[f"random {lang} {d}"]) for d in range(draws_stored(stored, lang))]
        out[f"random {lang}"] = (len(units), *np.mean(draws, axis=0))
    return out


def random_top1_range(stored: dict[str, np.ndarray]) -> tuple[float, float]:
    """The lowest and highest top-1 accuracy over every random draw of both languages."""
    top1 = [retrieval(stored[f"random {lang} {d}"])[0] for lang in activations.LANGUAGES
            for d in range(draws_stored(stored, lang))]  # fmt: skip
    return min(top1), max(top1)


def bootstrap_interval(d: np.ndarray, resamples: int = 10_000, seed: int = 0, level: float = 0.95):
    """The bootstrap interval at ``level`` (95 % unless told) of the mean of ``d`` over its pairs."""
    rng = np.random.default_rng(seed)
    means = np.asarray(d)[rng.integers(len(d), size=(resamples, len(d)))].mean(1)
    tail = (1 - level) / 2
    return float(np.quantile(means, tail)), float(np.quantile(means, 1 - tail))


def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom (Abramowitz and Stegun
    26.7.3-4: a finite sum in cos θ, θ = atan(|t| / √df))."""
    theta = np.arctan(abs(t) / np.sqrt(df))
    c2, term, total = np.cos(theta) ** 2, 1.0, 1.0
    for j in range(2 if df % 2 else 1, df - 2, 2):  # the series' ratios j/(j+1), to cos^(df-2)
        term *= j / (j + 1) * c2
        total += term
    inside = (2 / np.pi * (theta + np.sin(theta) * np.cos(theta) * total) if df % 2
              else np.sin(theta) * (total if df > 1 else 1.0))  # fmt: skip
    if df == 1:
        inside = 2 / np.pi * theta
    return float(1.0 - inside)


def prediction_p(own: float, random: np.ndarray) -> float:
    """Two-sided p that ``own`` is one more draw of the normal distribution the ``random`` draws
    sample (a prediction interval's test): t = (own - mean) / (sd √(1 + 1/k)), k - 1 degrees of
    freedom. Unlike the rank test, it can reject with few draws, if the draws are normal."""
    k = len(random)
    scale = np.std(random, ddof=1) * np.sqrt(1 + 1 / k)
    return t_two_sided((own - np.mean(random)) / scale, k - 1)


def detectable(random: np.ndarray, alpha: float) -> float:
    """The smallest distance from the draws' mean at which ``prediction_p`` falls below
    ``alpha``: what the test could tell apart from matched random units."""
    k, low, high = len(random), 0.0, 1e3
    for _ in range(200):  # bisection on t
        mid = (low + high) / 2
        low, high = (low, mid) if t_two_sided(mid, k - 1) < alpha else (mid, high)
    return float(high * np.std(random, ddof=1) * np.sqrt(1 + 1 / k))


def alignment(embeddings: np.ndarray, chinese: list[str]) -> tuple[int, int]:
    """(pairs whose English paragraph retrieves its own Chinese paragraph, or one with the same
    text, among all the Chinese paragraphs; pairs): ``embeddings`` are the English paragraphs'
    then the Chinese ones', in the corpus' order."""
    unit = embeddings / np.linalg.norm(embeddings, axis=1, keepdims=True)
    n = len(chinese)
    best = (unit[:n] @ unit[n:].T).argmax(1)
    return sum(chinese[int(j)] == chinese[i] for i, j in enumerate(best)), n


def normal_tests(tests: dict[str, tuple], alpha: float = 0.05) -> dict[str, tuple[float, float]]:
    """Per language of ``against_random``'s answer: (Holm-adjusted ``prediction_p`` over the
    languages, the smallest distance from the draws' mean it tells apart at Bonferroni's level
    ``alpha`` / languages)."""
    p = holm([prediction_p(own, random) for own, _, random, _ in tests.values()])
    return {lang: (p[i], detectable(t[2], alpha / len(tests)))
            for i, (lang, t) in enumerate(tests.items())}  # fmt: skip


def with_query(stored: dict[str, np.ndarray]) -> dict[str, tuple[float, float, tuple]]:
    """The retrieval after "query: " (``add_query_prefix``): per condition ("none", then each
    language's units zeroed) its (top-1 accuracy, change of the mean margin from nothing zeroed,
    that change's 95 % bootstrap interval over the pairs)."""
    base = margins(stored["query base"])
    out = {"none": (retrieval(stored["query base"])[0], 0.0, (0.0, 0.0))}
    for lang in activations.LANGUAGES:
        change = margins(stored[f"query zeroed {lang}"]) - base
        out[lang] = (retrieval(stored[f"query zeroed {lang}"])[0], float(change.mean()),
                     bootstrap_interval(change))  # fmt: skip
    return out


def prefix_difference(stored: dict[str, np.ndarray], level: float = 0.95) -> dict[str, tuple]:
    """Per language: the change of the margin when its units are zeroed after "passage: " minus
    that change after "query: ", paired over the same pairs: (mean difference, its bootstrap
    interval at ``level``, the paired sign-flip p). Whether the rise depends on the prefix is
    this difference, not one interval that excludes zero beside one that does not."""
    passage_base, query_base = margins(stored["base"]), margins(stored["query base"])
    out = {}
    for lang in activations.LANGUAGES:
        passage = margins(stored[f"zeroed {lang}"]) - passage_base
        query = margins(stored[f"query zeroed {lang}"]) - query_base
        d = passage - query
        out[lang] = (float(d.mean()), bootstrap_interval(d, level=level), paired_p(passage, query))
    return out


def against_random(stored: dict[str, np.ndarray], level: float = 0.95) -> dict[str, tuple]:
    """Per language: (change of the mean margin when its units are zeroed, its bootstrap
    interval at ``level`` over the pairs, the changes of the DRAWS matched random sets (DRAWS,), and the
    two-sided rank p of the own change among the random ones)."""
    base = margins(stored["base"])
    out = {}
    for lang in activations.LANGUAGES:
        own = margins(stored[f"zeroed {lang}"]) - base
        random = np.array([(margins(stored[f"random {lang} {d}"]) - base).mean()
                           for d in range(draws_stored(stored, lang))])  # fmt: skip
        above = int((random >= own.mean()).sum())  # a rank test: the draws are the null
        p = min(1.0, 2 * (min(above, len(random) - above) + 1) / (len(random) + 1))
        out[lang] = (float(own.mean()), bootstrap_interval(own, level=level), random, p)
    return out
