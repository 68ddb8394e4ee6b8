"""Lesson 5's scoreboard: each paper's number (``papers``) beside the toy's own
measurement of the same thing, whether the toy agrees with the paper (a level and a direction are
separate rows), and what the lesson measured about it; a cause the lesson did not test is not
given (a dash)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from course_lib.core.experiments.memory import KNOWLEDGE_THRESHOLD, knowledge_neurons
from course_lib.core.i18n import N_, series, tr
from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import mean_interval
from course_lib.lessons.l05_ffn_memory.papers import (
    DAI_2022,
    GEVA_2021_AGREEMENT,
    GEVA_2021_VOCABULARY,
    LI_2023,
)

COULD_NOT_TELL = "could not tell"  # a direction whose interval holds both signs
NOT_REPORTED = "not reported"  # a comparison the paper's code computes but its text never reports


@dataclass(frozen=True)
class Row:
    """One line of the scoreboard. ``claim`` is the lesson's sentence about the row, ``holds``
    whether this run confirms it; ``same`` whether the toy agrees with the paper (a direction: the
    same sign; a level: within a factor of 2), None where the two are not measured alike,
    ``COULD_NOT_TELL`` where the toy's interval holds either answer, ``NOT_REPORTED`` where the
    paper gives no number to agree with; ``tested`` what the lesson
    measured about the difference or the agreement, "" where it measured nothing."""

    study: str
    measure: str
    paper: str
    toy: str
    same: bool | str | None  # str: COULD_NOT_TELL or NOT_REPORTED
    tested: str
    claim: str
    holds: bool


def knowledge_neuron_counts(scores, threshold: float = KNOWLEDGE_THRESHOLD) -> np.ndarray:
    """Per fact, how many of Dai et al.'s coarse knowledge neurons it has (``knowledge_neurons``):
    (facts,). ``scores``: (facts, layers, d_ff)."""
    return knowledge_neurons(scores, threshold).reshape(len(scores), -1).sum(axis=1)


def _percent(value: float, digits: int = 1) -> str:
    """A relative change as a signed percentage: the papers' with their own digits (0), the toy's
    with one (what the lesson prints beside it; -0.5 % would round to -1 % or -0 % by CPU), as
    the learner's language writes a percentage."""
    if digits == 0:
        return tr("{change:+.0f} %", change=100 * value)
    return tr("{change:+.1f} %", change=100 * value)


def scoreboard(agreement, vocabulary, semantic, untrained_semantic, erased, doubled, neurons,
               trained, untrained, sweep, p_answer, paths,
               erase_level: float | None = None) -> list[Row]:  # fmt: skip
    """The rows, from the lesson's own measurements: ``agreement`` (``value_agreement``),
    ``vocabulary`` (the toy's words), ``semantic`` (layer -> semantic keys) and
    ``untrained_semantic`` (the same rule on untrained draws, (draws, layers)), ``erased`` and
    ``doubled`` (``knowledge_neuron_effects`` at 0 and 2), ``neurons`` (``knowledge_neuron_counts``
    by the paper's equation and by the authors' code's path, two (facts,)), ``trained`` and
    ``untrained`` (``active_fraction``, (layers,)), ``sweep`` (the sparsity sweep), ``p_answer``
    (each fact's p(answer) before any edit, (facts,)), ``paths`` (``doubling.doubling_paths``),
    ``erase_level`` (erasing's change of p by Dai et al.'s metric, ``relation_average``; the mean
    of ``erased.own`` if not given)."""
    return [
        *_geva_rows(agreement, vocabulary, semantic, np.asarray(untrained_semantic)),
        *_dai_rows(erased, doubled, neurons, np.asarray(p_answer), paths, erase_level),
        *_li_rows(np.asarray(trained), np.asarray(untrained), sweep),
    ]


def _geva_rows(agreement, vocabulary: int, semantic, untrained: np.ndarray) -> list[Row]:
    """Geva et al.'s rows. The agreement level depends on the vocabulary (83 words here, about
    267k theirs), so only the ratio to a shuffled pairing is shown beside it; its rise with depth
    is a difference of two rates of 256 units, given with its interval; the semantic keys are
    counted by the lesson's own rule, which random weights also order either way."""
    rate, null = agreement.rate, agreement.null
    low, high = GEVA_2021_AGREEMENT
    rise, lo, hi = agreement.rise()
    rises = COULD_NOT_TELL if lo < 0 < hi else bool(lo > 0)
    upper_more = untrained[:, -1] > untrained[:, 0]  # (draws,)
    either = bool(upper_more.any() and not upper_more.all())
    return [
        Row(
            tr("Geva et al. 2021"),
            tr(
                "value's top token follows the top trigger prefix somewhere in the corpus (theirs: "
                "the top trigger example's next token), lower / upper layer (level)"
            ),
            tr(
                "{low:.0f} % / {high:.1f} % (about {words:,} words)",
                low=100 * low,
                high=100 * high,
                words=GEVA_2021_VOCABULARY,
            ),  # fmt: skip
            tr(
                "{low:.0f} % / {high:.0f} % ({words} words)",
                low=100 * rate[0],
                high=100 * rate[-1],
                words=vocabulary,
            ),  # fmt: skip
            None,
            tr(
                "{a:.1f} and {b:.1f} times a shuffled pairing (section 3)",
                a=rate[0] / null[0],
                b=rate[-1] / null[-1],
            ),  # fmt: skip
            N_("Geva et al.: agreement levels not comparable; the vocabularies differ 3,000-fold"),
            bool(GEVA_2021_VOCABULARY > 1000 * vocabulary and (rate > 3 * null).all()),
        ),
        Row(
            tr("Geva et al. 2021"),
            tr("agreement, lower -> upper layer (direction)"),
            tr("rises"),
            tr(
                "{rise:+.1f} points, 95 % interval {lo:+.1f} to {hi:+.1f}",
                rise=100 * rise,
                lo=100 * lo,
                hi=100 * hi,
            ),  # fmt: skip
            rises,
            "",
            N_("Geva et al.: whether agreement rises with depth, the toy could not tell"),
            rises == COULD_NOT_TELL,
        ),
        Row(
            tr("Geva et al. 2021"),
            tr("semantic keys, lower / upper layer"),
            tr("more in upper layers"),
            tr("{lower} / {upper} (the lesson's own rule)", lower=semantic[0], upper=semantic[1]),
            None,
            tr(
                "untrained, the upper layer has more in {n} of {draws} draws (section 2)",
                n=int(upper_more.sum()),
                draws=len(upper_more),
            )
            if either
            else "",  # fmt: skip
            N_(
                "Geva et al.: semantic keys by layer not comparable; the lesson's own rule, and "
                "random weights order them either way"
            ),
            either,
        ),
    ]


def _dai_rows(erased, doubled, neurons, p_answer: np.ndarray, paths, level=None) -> list[Row]:
    """Dai et al.'s rows. Their levels are not measured alike here: their knowledge neurons are
    refined over paraphrases (about 4 a fact), the toy's are a fact's top 5 on its one prompt;
    their attribution scales a whole layer, the toy's ranks one unit alone; and every answer here
    starts above p 0.95, where a relative change can hardly rise and cannot fall below -100 %.
    So the levels, the count and where the units sit are marked not comparable (``same`` None),
    with what the lesson measured about them. Erasing's direction, whether a fact loses more than
    the unrelated facts under the same edit (that the fact itself loses could hardly come out
    otherwise: each unit was chosen because zeroing it lowers p), is the course's own: Dai et
    al.'s code computes it (``rm_oth``) but their paper reports no number for it. Doubling's
    direction is compared: whether p(answer) rises. Where the top units sit is measured on the
    facts that have top units in both layers, so each layer's doubling is read on the same
    facts."""
    harder = int((erased.own < erased.unrelated).sum())
    facts = len(erased.own)
    saturated = bool(p_answer.min() > 0.95)
    doubled_p, doubled_odds = int((doubled.own < 0).sum()), int((doubled.own_log_odds < 0).sum())
    doubling_rises = bool(doubled.own.mean() > 0)
    held, both = paths.paths["scale held"], paths.paths["both held"]
    as_run = paths.paths["as run"]
    through = bool((as_run < 0).all() and held.mean() > as_run.mean() and (both > 0).mean() > 0.75)
    bottom = float((paths.layers == 0).mean())
    matched = ~np.isnan(paths.only[0]) & ~np.isnan(paths.only[1])  # facts with units in both
    only = {layer: float(change[matched].mean()) for layer, change in paths.only.items()}
    equation, code = (float(np.mean(n)) for n in neurons)
    unrelated = float(erased.unrelated.mean())
    return [
        Row(
            tr("Dai et al. 2022"),
            tr("erase a fact's top units: the fact loses more than unrelated facts (direction)"),
            tr("not reported (their code computes it: rm_oth)"),
            tr(
                "more for {n} of {total} facts (unrelated facts: {change})",
                n=harder,
                total=facts,
                change=_percent(unrelated),
            ),
            NOT_REPORTED,
            tr("same edit, the other facts' p (section 4)"),
            N_(
                "Dai et al.: erasing hits the fact harder than unrelated facts here, a comparison "
                "the paper does not report"
            ),
            harder > 0.9 * facts,
        ),
        Row(
            tr("Dai et al. 2022"),
            tr("erase a fact's top units: change of p(answer) (level)"),
            _percent(DAI_2022["suppress"], 0),
            tr(
                "{change}: top 5 of one prompt, p above 0.95 before",
                change=_percent(float(erased.own.mean() if level is None else level)),
            ),
            None,
            "",
            N_("Dai et al.: erasing levels not comparable; every answer here starts above p 0.95"),
            saturated,
        ),
        Row(
            tr("Dai et al. 2022"),
            tr("double them: p(answer) rises (direction)"),
            tr("rises"),
            tr(
                "falls for {p} of {total} facts, log-odds for {odds}",
                p=doubled_p,
                total=facts,
                odds=doubled_odds,
            ),
            doubling_rises,
            tr(
                "through the final LayerNorm and layer 1; both held, rises for {n} of 48 "
                "(section 4)",
                n=int((both > 0).sum()),
            )
            if through
            else "",
            N_("Dai et al.: doubling lowers p(answer) here, against the paper"),
            doubled_p == facts and doubled_odds == facts and through,
        ),
        Row(
            tr("Dai et al. 2022"),
            tr("double them: change of p(answer) (level)"),
            _percent(DAI_2022["amplify"], 0),
            tr(
                "{change}: the same 5, p above 0.95 before",
                change=_percent(float(doubled.own.mean())),
            ),
            None,
            "",
            N_("Dai et al.: doubling levels not comparable; every answer here starts above p 0.95"),
            saturated,
        ),
        Row(
            tr("Dai et al. 2022"),
            tr("where a fact's top units sit"),
            tr("mostly the top layers"),
            tr("{share:.0f} % in layer 0 of 2 (top 5 of one prompt)", share=100 * bottom),
            None,
            tr(
                "on the {n} facts with top units in both layers, doubling only layer 0's: "
                "log-odds {first:+.1f}; only layer 1's: {second:+.1f} (section 4)",
                n=int(matched.sum()),
                first=only[0],
                second=only[1],
            ),
            N_("Dai et al.: where the top units sit not comparable; here most sit in layer 0"),
            bottom > 0.75,
        ),
        Row(
            tr("Dai et al. 2022"),
            tr("units per fact above 0.2 x the largest attribution"),
            tr(
                "≈{n:.0f}, a target of their refining over paraphrases (their code moves its "
                "threshold until a relation's mean count is 2 to 5)",
                n=DAI_2022["neurons"],
            ),
            tr(
                "{a:.0f} (paper's equation) or {b:.0f} (their code's path), one prompt",
                a=equation,
                b=code,
            ),
            None,
            "",
            N_("Dai et al.: counts not comparable; here the count depends on the path integrated"),
            code > 2 * equation,
        ),
    ]


def _li_rows(trained: np.ndarray, untrained: np.ndarray, sweep) -> list[Row]:
    """Li et al.'s rows: the level (comparable: the fraction of units that fire), training's
    direction, and width's direction (the paper's models grow deeper and wider together; the
    toy's width alone, read from d_ff 256 to 512, the widths that learn every fact, per layer:
    the two layers of a seed share one training run, so each layer's change is read over the
    seeds, with its 95 % interval). Training's direction is the shipped model's, beside the
    sweep's (seed, layer) pairs at the shipped width, d_ff 256 (the sweep's second widest)."""
    runs = np.asarray(sweep.trained)  # (seeds, widths, layers)
    start = np.asarray(sweep.initial)
    narrow, wide = sweep.settings.widths[-2], sweep.settings.widths[-1]
    wider = runs[:, -1] - runs[:, -2]  # (seeds, layers): d_ff 512 minus d_ff 256
    mean, low, high = mean_interval(wider)  # (layers,) each
    seeded = runs[:, -2] < start[:, -2]  # (seeds, layers): the shipped width, trained below start
    sparser = bool((trained < untrained).all() and seeded.all())
    level = min(LI_2023.values()), max(LI_2023.values())
    near_paper = bool(((trained <= 2 * level[1]) & (trained >= level[0] / 2)).all())
    return [
        Row(
            tr("Li et al. 2023"),
            tr("units active per token, trained (level)"),
            series(
                tr("{share:.1f} % ({model})", share=100 * v, model=k) for k, v in LI_2023.items()
            ),
            " / ".join(tr("{share:.0f} %", share=100 * v) for v in trained),
            near_paper,
            "",
            N_("Li et al.: the toy's FFN stays near half active, many times the paper's level"),
            not near_paper and bool((abs(trained - 0.5) < 0.1).all()),  # "near half": 0.4 to 0.6
        ),
        Row(
            tr("Li et al. 2023"),
            tr("training lowers the units active per token (direction)"),
            tr("yes"),
            " / ".join(
                tr("{before:.0f} % -> {after:.0f} %", before=100 * u, after=100 * t)
                for u, t in zip(untrained, trained, strict=True)
            ),
            sparser,
            tr(
                "in both layers, and in {n} of {pairs} sweep (seed, layer) pairs at d_ff 256 "
                "(section 5)",
                n=int(seeded.sum()),
                pairs=seeded.size,
            )
            if sparser
            else "",
            N_("Li et al.: training makes the FFN sparser here too"),
            sparser,
        ),
        *(_width_row(layer, wider[:, layer], (mean, low, high), narrow, wide) for layer in (0, 1)),
    ]


# Each layer's width claim: the sweep's intervals (section 5) told layer 0 apart from no change
# and left layer 1 undecided.
WIDTH_CLAIMS = {
    0: (True, N_("Li et al.: in layer 0, d_ff 512 is sparser than 256 here too, by the seeds' interval")),
    1: (COULD_NOT_TELL, N_("Li et al.: whether layer 1 is sparser at the wider FFN, the seeds could not tell")),
}  # fmt: skip


WIDTH_NOTE = N_(
    "consistent in direction only: the paper's models also grow deeper; both widths learn every "
    "fact (section 5)"
)


def _width_row(layer: int, wider: np.ndarray, interval, narrow: int, wide: int) -> Row:
    """Li et al.'s width direction in one layer: ``wider`` is each seed's change from d_ff
    ``narrow`` to ``wide`` (seeds,), ``interval`` the (mean, low, high) of every layer."""
    mean, low, high = (float(v[layer]) for v in interval)
    verdict = COULD_NOT_TELL if low < 0 < high else bool(high < 0)
    expected, claim = WIDTH_CLAIMS[layer]
    return Row(
        tr("Li et al. 2023"),
        tr(
            "units active per token, wider FFN at the same depth, layer {layer} (direction)",
            layer=layer,
        ),
        tr("fewer in larger models, deeper and wider"),
        tr(
            "{mean:+.1f} points, 95 % interval {low:+.1f} to {high:+.1f}; lower in {n} of {seeds} "
            "seeds, d_ff {narrow} -> {wide} (width alone)",
            mean=100 * mean,
            low=100 * low,
            high=100 * high,
            n=int((wider < 0).sum()),
            seeds=len(wider),
            narrow=narrow,
            wide=wide,
        ),
        verdict,
        tr(WIDTH_NOTE) if verdict is True else "",
        claim,
        verdict == expected,
    )


def markdown(rows: list[Row]) -> str:
    """The scoreboard as a Markdown table, in the learner's language."""
    head = [
        tr("study"),
        tr("measure"),
        tr("paper"),
        tr("this toy"),
        tr("as in the paper?"),
        tr("tested here"),
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    verdicts = {None: tr("not comparable"), True: tr("yes"), False: tr("no"),
                COULD_NOT_TELL: tr("could not tell"), NOT_REPORTED: tr("not reported")}  # fmt: skip
    for row in rows:
        cells = [row.study, row.measure, row.paper, row.toy, verdicts[row.same], row.tested or "—"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
