"""Lesson 6's closing table (section 9): each paper's finding beside this lesson's own measurement
of it, whether the toy agrees, and what the lesson tested about the difference. The numbers come
in from the cells that measured them; this module only words the rows."""

from __future__ import annotations

from course_lib.core.i18n import tr
from course_lib.lessons.l06_locating_and_editing.experiments.edit_curves import (
    BOUNDED,
    FILLER_C,
    FINE_TUNING,
    PLAIN_SUBJECT,
    RANK_ONE,
    ROME_SITE,
)
from course_lib.lessons.l06_locating_and_editing.papers import HASE_2023, MENG_2022


def rows(
    score: dict[str, dict[str, float]],
    bounded: tuple[float, float, float],
    shift: dict[str, float],
    kn_change: dict[str, float],
    carried: float,
    rho: dict[str, float],
    power: float,
) -> list[list[str]]:
    """The table's rows, in the learner's language. ``score``: each edit's CounterFact scores at
    p(new) 0.9; ``bounded``: FT+L's S minus fine-tuning's, with its 95 % interval over facts;
    ``shift``: Meng et al.'s KN change from their unedited model (ΔES, ΔPS, ΔNS by "ES", "PS",
    "NS"); ``kn_change``: the toy's Meng-style KN edit's change from unedited, read where its ΔES is
    the paper's; ``carried``: the most any subject edit carries over at any scale (PS);
    ``rho``: Spearman's ρ of tracing effect against success, at the subject, by edit; ``power``:
    the chance 48 facts detect Hase et al.'s ρ."""
    meng = [
        [tr("where an FFN output matters most"), tr("subject, middle layers"),
         tr("last word, layer 1"), tr("no"), tr("restoring each state (section 2)")],
        [tr("best score S"), f"ROME {MENG_2022['rome'][0]}",
         tr("{name} {s:.0f} at p(new) 0.9; ROME at the subject {r:.0f}").format(
             name=tr(FILLER_C), s=score[FILLER_C]["S"], r=score[ROME_SITE]["S"]),
         tr("not comparable: the toy's best has no row in the paper; its ROME-like edit's S is 0 "
            "because its PS is, which is not comparable"),
         tr("C swapped at the last word only; v* to one rule; read at 0.8 to 0.95 (section 4)")],
        [tr("the rank-one edit keeps more neighbours than fine-tuning, NS; here at the last word"),
         f"{MENG_2022['rome'][3]} > {MENG_2022['ft'][3]}",
         tr("{a:.0f} > {b:.0f} at p(new) 0.9; C from filler: {c:.0f}; the subject edits: {d:.0f} "
            "and {e:.0f}").format(
             a=score[RANK_ONE]["NS"], b=score[FINE_TUNING]["NS"], c=score[FILLER_C]["NS"],
             d=score[ROME_SITE]["NS"], e=score[PLAIN_SUBJECT]["NS"]),
         tr("not comparable; above at every p(new) read"), tr("C swapped (section 4)")],
        [tr("FT+L scores above fine-tuning, S"), f"{MENG_2022['ft+l'][0]} > {MENG_2022['ft'][0]}",
         tr("{a:.0f} > {b:.0f}; {d:+.0f}, 95 % interval {lo:+.0f} to {hi:+.0f}").format(
             a=score[BOUNDED]["S"], b=score[FINE_TUNING]["S"], d=bounded[0], lo=bounded[1],
             hi=bounded[2]),
         tr("same sign; the paper's gap untested, by opposite profiles"),
         tr("an interval over facts (section 5)")],
        [tr("Meng et al.'s KN, change from unedited: ΔES, ΔPS, ΔNS"),
         tr("{a:+.1f}, {b:+.1f}, {c:+.1f}").format(a=shift["ES"], b=shift["PS"], c=shift["NS"]),
         tr("{a:+.1f}, {b:+.1f}, {c:+.1f} at the paper's ΔES").format(
             a=kn_change["ES"], b=kn_change["PS"], c=kn_change["NS"]),
         tr("not comparable: one model on each side, no interval for the paper's"),
         tr("the edit along its knob (section 5)")],
        [tr("a subject edit carries over, PS"), f"{MENG_2022['rome'][2]}",
         tr("{a:.0f} at p(new) 0.9, at most {b:.0f} at any scale").format(
             a=score[ROME_SITE]["PS"], b=carried),
         tr("not comparable: the corpus' C holds the paraphrase itself; the paper's, from "
            "Wikipedia, no CounterFact prompt"),
         tr("every scale; v* to 1,000 steps (section 6); the corpus' C only")],
    ]  # fmt: skip
    hase = [tr("Hase et al. 2023"), tr("a fact's tracing effect predicts its edit's success"),
            tr("no: linear ρ {r:+.2f}, 652 facts").format(r=HASE_2023["rho"]),
            tr("could not tell: Spearman ρ {a:+.1f} and {b:+.1f}, power at most {p:.0%}").format(
                a=round(rho[ROME_SITE], 1) + 0.0, b=round(rho[PLAIN_SUBJECT], 1) + 0.0, p=power),
            tr("not contradicted"),
            tr("at the subject only: by construction nothing to predict at the last word")]  # fmt: skip
    return [[tr("Meng et al. 2022"), *row] for row in meng] + [hase]
