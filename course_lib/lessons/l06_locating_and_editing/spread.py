"""Lesson 6's fresh-run quantities: the two-phrasing model's first steps, one edit of the stored
sweep made again, and its edits along their knobs (``course_lib/data/edit_curves.npz``): one edit
made again, and what the lesson prints of all 144, each as named arrays
(``course_lib.core.experiments.spread``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from course_lib.core.experiments.spread import Arrays, Quantity, lm_first_losses

SLICE_EDIT = 51  # fact 17, its first new answer
# an edit's counts: which prompts it takes, the facts it keeps, where its v* search ended
SLICE_DISCRETE = ("efficacy", "top-1", "paraphrase", "paraphrase top-1", "neighbourhood",
                  "other entities kept", "same entity kept", "steps", "stopped")  # fmt: skip


def _slice_arrays(result, i: int) -> Arrays:
    """Everything the file holds of edit ``i`` of ``result``, by name."""
    from course_lib.core.experiments.edit_measures import METRICS
    from course_lib.lessons.l06_locating_and_editing.experiments.edit_curves import ROME_SITE

    out = {}
    for method, rows in result.curves.items():
        out |= {f"{method} | curve | {name}": rows[i, :, j] for j, name in enumerate(METRICS)}
        matched = result.matched[method][i]
        out |= {
            f"{method} | matched | {name}": matched[j : j + 1] for j, name in enumerate(METRICS)
        }
        out[f"{method} | knob"] = result.knob[method][i : i + 1]
    for site, found in result.search.items():
        # where ROME's search keeps its best v* is chaotic (it circles its minimum: the stored
        # batch of 144 edits puts fact 17's 150 steps from a batch of one), so its loss there is
        # compared, not its step
        keys = [k for k in found if not (k == "steps" and site == ROME_SITE)]
        out |= {f"{site} | {key}": found[key][i : i + 1].astype(float) for key in keys}
        rows = result.checkpoint[site][:, i]
        out |= {f"{site} | checkpoint | {name}": rows[:, j] for j, name in enumerate(METRICS)}
    return out


def slice_quantity() -> tuple[Callable, Callable]:
    """Fact 17's first edit made again by every method along its knob, against the file."""

    def fresh() -> Arrays:
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_curves as EC
        from course_lib.lessons.l06_locating_and_editing.experiments import editing

        model, corpus = editing.paraphrased_model()
        edit = EC.all_edits(corpus)[SLICE_EDIT]
        return _slice_arrays(EC.curves(model, corpus, [edit]), 0)

    def stored() -> Arrays:
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_curves as EC

        return _slice_arrays(EC.stored(), SLICE_EDIT)

    return fresh, stored


# ---- what lesson 6 prints of all 144 edits

SCORES = ("S", "ES", "PS", "NS", "other entities kept", "same entity kept", "paraphrase",
          "filler loss change")  # fmt: skip


def printed_numbers(result) -> dict[str, float]:
    """Every number lesson 6 prints from the file (its tables and its claims' fields), by the
    names ``printed_formats`` gives their formats."""
    from course_lib.core.experiments.edit_measures import METRICS, counterfact
    from course_lib.lessons.l06_locating_and_editing.experiments import edit_curves as EC
    from course_lib.lessons.l06_locating_and_editing.papers import MENG_2022

    out: dict[str, float] = {}
    p_new = METRICS.index("p(new)")

    def scores(label: str, rows: np.ndarray) -> None:
        score = counterfact(rows)
        for key in SCORES:
            value = score[key] if key in score else rows[:, METRICS.index(key)].mean()
            out[f"{label} | {key}"] = float(value)

    for site, found in result.search.items():
        steps, stopped = found["steps"], found["stopped"]
        out[f"search | {site} | stopped"] = float(stopped.sum())
        out[f"search | {site} | median steps"] = float(np.median(steps[stopped]))
        out[f"search | {site} | improving"] = float((steps > 900).sum())
        for c, rows in zip(EC.CHECKPOINTS, result.checkpoint[site], strict=True):
            out[f"{c} steps | {site} | p(new)"] = float(rows[:, p_new].mean())
            scores(f"{c} steps | {site}", rows)
        facts = result.checkpoint[site][-1][:, p_new].reshape(-1, 3).mean(axis=1)
        out[f"per fact | {site} | lowest p(new)"] = float(facts.min())
        out[f"per fact | {site} | highest p(new)"] = float(facts.max())
    for scale in (1.0, 1.5):
        _, ns, ps = EC.mean_curve(result, EC.RANK_ONE)
        j = EC.SCALES.index(scale)
        out[f"scale {scale:g} | {EC.RANK_ONE} | NS"] = float(ns[j])
        out[f"scale {scale:g} | {EC.RANK_ONE} | PS"] = float(ps[j])
    subject = (EC.ROME_SITE, EC.PLAIN_SUBJECT)
    out["every scale | subject | PS"] = float(
        max(EC.mean_curve(result, m)[2].max() for m in subject)
    )
    six = (EC.RANK_ONE, EC.ROME_SITE, EC.PLAIN_SUBJECT, EC.COURSE_KN, EC.FINE_TUNING, EC.BOUNDED)
    reach = {m: EC.reaching(result, m) for m in result.matched}
    common = np.all([reach[m] for m in six], axis=0)
    out["matched | common edits"] = float(common.sum())
    out |= {f"matched | {m} | reach": float(reach[m].sum()) for m in result.matched}
    for method in (*six, EC.FILLER_C):
        scores(f"matched | {method}", result.matched[method][common])
    for method in (EC.RANK_ONE, EC.FILLER_C):
        scores(f"full update | {method}", result.curves[method][common, EC.SCALES.index(1.0)])
    kn = dict(zip(("S", "ES", "PS", "NS"), MENG_2022["kn"], strict=True))
    for method in (EC.MENG_KN, EC.COURSE_KN):
        scores(
            f"own setting | {method}", result.curves[method][:, EC.BY_NAME[method].grid.index(1)]
        )
        at = EC.at_score(result, method, "ES", kn["ES"])
        out |= {f"at the paper's ES | {method} | {k}": float(v) for k, v in at.items()}
    both = reach[EC.ROME_SITE] & reach[EC.PLAIN_SUBJECT]
    out["matched | both subject edits"] = float(both.sum())
    for method in subject:
        scores(f"matched, both | {method}", result.matched[method][both])
    return out


# the digits each printed name is shown with, or the bounds its claims hold it to
FORMATS = {"p(new)": (".2f",), "S": (".0f",), "ES": (".0f",), "PS": (".0f",), "NS": (".0f",),
           "other entities kept": (".2f",), "same entity kept": (".2f",), "paraphrase": (".2f",),
           "filler loss change": ("+.2f", "+.3f"), "knob": (".2f",), "lowest p(new)": (".2f",),
           "highest p(new)": (".2f",), "stopped": (".0f",), "median steps": (".0f",),
           "improving": (".0f",), "reach": (".0f",), "common edits": (".0f",),
           "both subject edits": (".0f",)}  # fmt: skip
COUNTS = ("stopped", "median steps", "improving", "reach", "common edits", "both subject edits",
          "ES", "PS", "NS", "S")  # fmt: skip


def _names() -> list[str]:
    """The names ``printed_numbers`` gives, from the lesson's methods, sites and checkpoints."""
    from course_lib.lessons.l06_locating_and_editing.experiments import edit_curves as EC

    def scores(label: str) -> list[str]:
        return [f"{label} | {key}" for key in SCORES]

    names = []
    for site in EC.SITES:
        names += [f"search | {site} | {k}" for k in ("stopped", "median steps", "improving")]
        for c in EC.CHECKPOINTS:
            names += [f"{c} steps | {site} | p(new)", *scores(f"{c} steps | {site}")]
        names += [f"per fact | {site} | lowest p(new)", f"per fact | {site} | highest p(new)"]
    names += [f"scale {s} | {EC.RANK_ONE} | {k}" for s in ("1", "1.5") for k in ("NS", "PS")]
    names += ["every scale | subject | PS", "matched | common edits"]
    names += [f"matched | {m.name} | reach" for m in EC.METHODS]
    six = (EC.RANK_ONE, EC.ROME_SITE, EC.PLAIN_SUBJECT, EC.COURSE_KN, EC.FINE_TUNING, EC.BOUNDED)
    for method in (*six, EC.FILLER_C):
        names += scores(f"matched | {method}")
    for method in (EC.RANK_ONE, EC.FILLER_C):
        names += scores(f"full update | {method}")
    for method in (EC.MENG_KN, EC.COURSE_KN):
        names += scores(f"own setting | {method}")
        names += [f"at the paper's ES | {method} | {k}" for k in ("S", "ES", "PS", "NS", "knob")]
    names += ["matched | both subject edits"]
    for method in (EC.ROME_SITE, EC.PLAIN_SUBJECT):
        names += scores(f"matched, both | {method}")
    return names


def whole_quantity() -> tuple[Callable, Callable]:
    """All 144 edits made again (the file's rebuild), for the digits lesson 6 prints of them."""

    def fresh() -> Arrays:
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_curves as EC
        from course_lib.lessons.l06_locating_and_editing.experiments import editing

        model, corpus = editing.paraphrased_model()
        result = EC.curves(model, corpus, EC.all_edits(corpus))
        return {k: np.array(v) for k, v in printed_numbers(result).items()}

    def stored() -> Arrays:
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_curves as EC

        return {k: np.array(v) for k, v in printed_numbers(EC.stored()).items()}

    return fresh, stored


def printed_formats() -> dict[str, tuple[str, ...]]:
    """Each printed name's formats, by the last part of its name."""
    return {name: FORMATS[name.split(" | ")[-1]] for name in _names()
            if name.split(" | ")[-1] in FORMATS}  # fmt: skip


def _paraphrased_settings():
    from course_lib.lessons.l06_locating_and_editing.experiments.editing import PARAPHRASED

    return PARAPHRASED


def _paraphrased_file():
    from course_lib.lessons.l06_locating_and_editing.experiments.editing import PARAPHRASED_FILE

    return PARAPHRASED_FILE


def _sweep_edit(fact: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.edit_sweep import sweep_edits
        from course_lib.lessons.l06_locating_and_editing.experiments import editing as ED

        model, corpus = ED.paraphrased_model()
        return _sweep_arrays(sweep_edits(model, corpus, [fact], answers=1), 0)

    def stored() -> Arrays:
        from course_lib.core.experiments.edit_sweep import TARGETS
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_sweep as S

        return _sweep_arrays(S.stored_sweep(), fact * TARGETS)

    return fresh, stored


def _sweep_arrays(sweep, edit: int) -> Arrays:
    from course_lib.core.experiments.edit_measures import METRICS

    out = {}
    for method, rows in sweep.results.items():
        out |= {f"{method} | {name}": rows[edit, :, j] for j, name in enumerate(METRICS)}
        out[f"{method} | changed"] = sweep.changed[method][edit].astype(float)
    return out


SWEEP_DISCRETE = ("efficacy", "top-1", "paraphrase", "paraphrase top-1", "neighbourhood",
                  "other entities kept", "same entity kept", "changed")  # fmt: skip


QUANTITIES = (
    Quantity(
        "two-phrasing model: first 8 losses",
        *lm_first_losses(_paraphrased_settings, _paraphrased_file, 8),
    ),
    Quantity("edit sweep: fact 17, first answer", *_sweep_edit(17), SWEEP_DISCRETE),
    Quantity("edit curves: fact 17, first answer", *slice_quantity(), SLICE_DISCRETE),
    # WHOLE_CURVES (below) is not among them until it is measured: a rebuild of lesson 6's
    # 144 edits takes about 19 minutes here, once under each of the 8 variants
)
WHOLE_CURVES = Quantity(
    "edit curves: every edit, what lesson 6 prints",
    *whole_quantity(),
    COUNTS,
    printed_formats(),
    whole_rebuild=True,
)
