"""Every quantity a test compares between a fresh run and a stored file: what the test computes
now (``fresh``) and what the file holds (``stored``), as named arrays.

The tests call these same functions, so the spread ``python -m devtools.spread`` measures is the
spread of exactly what each test compares (``devtools.spread.record.tolerance``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

Arrays = dict[str, np.ndarray]


@dataclass(frozen=True)
class Quantity:
    """``fresh()`` and ``stored()`` return the same names; ``discrete`` names hold counts or
    shares of counts (accuracy, an edit's efficacy), whose spread is a whole number of items;
    ``printed`` maps the names a lesson prints from the stored file to the formats it prints them
    with (and the bounds its claims hold them to), so that what it shows can be held against the
    spread of a rebuild."""

    name: str
    fresh: Callable[[], Arrays]
    stored: Callable[[], Arrays]
    discrete: tuple[str, ...] = ()
    printed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    whole_rebuild: bool = False  # measured for its printed digits only: a test re-runs a slice


# ---- lesson 5's and 6's language models: the first steps of a fresh run of their rebuild


def _lm_first_losses(settings_of: Callable, file_of: Callable, steps: int) -> Quantity:
    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import train_language_model

        return {"losses": train_language_model(replace(settings_of(), steps=steps))[1]}

    def stored() -> Arrays:
        from course_lib.core.experiments.memory import load_model

        return {"losses": load_model(file_of())[2][:steps]}

    return fresh, stored


def _memory_settings():
    from course_lib.core.experiments.memory import SETTINGS

    return SETTINGS


def _memory_file():
    from course_lib.core.experiments.memory import WEIGHTS_FILE

    return WEIGHTS_FILE


def _paraphrased_settings():
    from course_lib.lessons.l06_locating_and_editing.experiments.editing import PARAPHRASED

    return PARAPHRASED


def _paraphrased_file():
    from course_lib.lessons.l06_locating_and_editing.experiments.editing import PARAPHRASED_FILE

    return PARAPHRASED_FILE


def _moe(name: str):
    from course_lib.lessons.l07_mixture_of_experts.experiments import fact_experts as X

    return (lambda: X.settings_of(name, 0)), (lambda: X.model_file(name, 0))


# ---- lesson 6: the stored sweep of edits, one edit made again


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


def _filler_c(every: bool) -> tuple[Callable, Callable]:
    """The rank-one edit with C from filler: fact 17's first new answer, or (``every``) what
    lesson 6 prints of all 144 edits."""

    def arrays(rows: np.ndarray) -> Arrays:
        from course_lib.core.experiments import edit_measures
        from course_lib.core.experiments.edit_sweep import STRENGTHS

        if not every:
            return {name: rows[0, :, j] for j, name in enumerate(edit_measures.METRICS)}
        out = {}
        for j in range(STRENGTHS):
            score, mean = edit_measures.counterfact(rows[:, j]), rows[:, j].mean(axis=0)
            out |= {f"strength {j + 1} | {k}": np.array(score[k]) for k in ("ES", "PS", "NS")}
            for metric in ("p(new)", "other entities kept"):
                out[f"strength {j + 1} | {metric}"] = np.array(
                    mean[edit_measures.METRICS.index(metric)]
                )
        return out

    def fresh() -> Arrays:
        from course_lib.core.experiments import fact_edits
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_sweep as S
        from course_lib.lessons.l06_locating_and_editing.experiments import editing as ED

        model, corpus = ED.paraphrased_model()
        edits = S.stored_sweep().edits if every else [(17, fact_edits.new_answer(corpus, 17))]
        return arrays(S.sweep_filler_c(model, corpus, edits))

    def stored() -> Arrays:
        from course_lib.core.experiments.edit_sweep import TARGETS
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_sweep as S

        rows = S.stored_filler_c()
        return arrays(rows if every else rows[17 * TARGETS : 17 * TARGETS + 1])

    return fresh, stored


FILLER_C_PRINTED = {f"strength {j + 1} | {metric}": specs for j in range(6)
                    for metric, specs in (("ES", (".0f",)), ("PS", (".0f",)), ("NS", (".0f",)),
                                          ("p(new)", (".2f",)),
                                          ("other entities kept", (".2f",)))}  # fmt: skip


def _sweep_arrays(sweep, edit: int) -> Arrays:
    from course_lib.core.experiments.edit_measures import METRICS

    out = {}
    for method, rows in sweep.results.items():
        out |= {f"{method} | {name}": rows[edit, :, j] for j, name in enumerate(METRICS)}
        out[f"{method} | changed"] = sweep.changed[method][edit].astype(float)
    return out


SWEEP_DISCRETE = ("efficacy", "top-1", "paraphrase", "paraphrase top-1", "neighbourhood",
                  "other entities kept", "same entity kept", "changed")  # fmt: skip
TABLE_DISCRETE = (*SWEEP_DISCRETE, "ES", "PS", "NS", "S", "reached")
# what lesson 6 prints of each method's row, with its formats (and its claims' bounds)
TABLE_PRINTED = {"p(new)": (".2f", ".1f"), "ES": (".0f",), "PS": (".0f",), "NS": (".0f",),
                 "S": (".0f",), "other entities kept": (".2f",), "filler loss change": ("+.2f",),
                 "efficacy": (".2f",), "paraphrase": (".2f",), "same entity kept": (".2f",),
                 "reached": (".0f",)}  # fmt: skip


def _sweep_table(sweep) -> Arrays:
    """What lesson 6 prints of the sweep: each method's means and CounterFact scores at its own
    strength, at matched p(new) (and how many edits reach it), and at each strength (its curves)."""
    from course_lib.core.experiments import edit_measures
    from course_lib.core.experiments import edit_sweep as S

    out = {}

    def row(label: str, method: str, rows: np.ndarray) -> None:
        mean, score = rows.mean(axis=0), edit_measures.counterfact(rows)
        for metric in ("p(new)", "other entities kept", "filler loss change", "efficacy",
                       "paraphrase", "same entity kept"):  # fmt: skip
            out[f"{label} | {method} | {metric}"] = np.array(
                mean[edit_measures.METRICS.index(metric)]
            )
        for k in ("ES", "PS", "NS", "S"):
            out[f"{label} | {method} | {k}"] = np.array(score[k])

    for m in S.METHODS:
        row("own strength", m.name, S.at_default(sweep, m.name))
        rows, reached = S.at_least(sweep, m.name, 0.9)
        row("matched", m.name, rows)
        out[f"matched | {m.name} | reached"] = np.array(float(reached.sum()))
        for j in range(S.STRENGTHS):
            row(f"strength {j + 1}", m.name, sweep.results[m.name][:, j])
    return out


def _whole_sweep() -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.edit_sweep import sweep_edits
        from course_lib.lessons.l06_locating_and_editing.experiments import editing as ED

        model, corpus = ED.paraphrased_model()
        return _sweep_table(sweep_edits(model, corpus, range(len(corpus.facts))))

    def stored() -> Arrays:
        from course_lib.lessons.l06_locating_and_editing.experiments import edit_sweep as S

        return _sweep_table(S.stored_sweep())

    return fresh, stored


def _table_printed() -> dict[str, tuple[str, ...]]:
    from course_lib.core.experiments import edit_sweep as S

    labels = ["own strength", "matched", *(f"strength {j + 1}" for j in range(S.STRENGTHS))]
    return {f"{label} | {m.name} | {metric}": specs for label in labels for m in S.METHODS
            for metric, specs in TABLE_PRINTED.items()
            if metric != "reached" or label == "matched"}  # fmt: skip


# ---- lessons 2, 3 and 6: small networks on the 2-D tasks


def _train_result(result, index: int = 0) -> Arrays:
    from course_lib.core.experiments.stored_runs import FIELDS

    arrays = {name: getattr(result, name).numpy() for name in FIELDS}
    return arrays | {"losses": np.asarray(result.losses), "accuracy": np.asarray(result.accuracy)}


def _stored_run(task: str, d_ff: int, activation: str) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.stored_runs import LR, N_POINTS, STEPS
        from course_lib.core.experiments.training import train_mlp
        from course_lib.core.threads import torch_threads

        with torch_threads(1):
            return _train_result(train_mlp(task, d_ff, activation, (0,), STEPS, LR, N_POINTS))

    def stored() -> Arrays:
        from course_lib.core.experiments.stored_runs import LR, N_POINTS, STEPS, stored_or_trained

        return _train_result(stored_or_trained(task, d_ff, activation, 0, STEPS, LR, N_POINTS))

    return fresh, stored


def _trained_width(d_ff: int, activation: str) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l03_triangle_regions.experiments import train_widths

        return _width(train_widths.__wrapped__(activation, (d_ff,))[d_ff])

    def stored() -> Arrays:
        from course_lib.lessons.l03_triangle_regions.experiments import stored_trained

        return _width(stored_trained(d_ff, activation))

    return fresh, stored


def _width(result) -> Arrays:
    arrays = {name: getattr(result, name).numpy() for name in ("W1", "b1", "W2", "b2")}
    return arrays | {"losses": np.asarray(result.losses), "accuracy": np.asarray(result.accuracy)}


def _router_run(experts: int, k: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        runs = M.train_routers(num_experts=experts, k=k, alphas=(0.1,), seeds=(1,), **M.TRAINING)
        return _router(runs, 0, 0)

    def stored() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        runs = M.stored_router_runs(experts, k)
        return _router(runs, runs.alphas.index(0.1), runs.seeds.index(1))

    return fresh, stored


def _router(runs, a: int, s: int) -> Arrays:
    from course_lib.lessons.l07_mixture_of_experts import experiments as M

    arrays = {name: runs.weights[a][s][name].numpy() for name in M.WEIGHTS}
    return arrays | {"load": runs.load[a, s], "accuracy": np.asarray(runs.accuracy[a, s])}


def _xor_sweep() -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.sweeps import (
            load_sweep,
            sweep_widths,
        )

        stored = load_sweep("xor")
        return {
            "accuracy": sweep_widths("xor", stored.widths[:4], ("relu",), stored.seeds).accuracy[0]
        }

    def stored() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.sweeps import load_sweep

        sweep = load_sweep("xor")
        return {"accuracy": sweep.accuracy[sweep.activations.index("relu"), :4]}

    return fresh, stored


def _dense_run(d_ff: int, seed: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        return _router(M.train_dense(d_ff, seeds=(seed,)), 0, 0)

    def stored() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts import experiments as M

        runs = M.stored_dense_runs(d_ff)
        return _router(runs, 0, runs.seeds.index(seed))

    return fresh, stored


def _warmup_race(placement: str, warmup: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l04_sublayer_connection.experiments import warmup_race

        return _race_arrays(warmup_race.__wrapped__(placement, warmup))

    def stored() -> Arrays:
        from course_lib.lessons.l04_sublayer_connection.experiments import (
            RACES,
            stored_warmup_races,
        )

        return _race_arrays(stored_warmup_races()[RACES.index((placement, warmup))])

    return fresh, stored


def _race_arrays(race) -> Arrays:
    """The race's first steps, before the stalling seeds part from the learning ones
    (``RACE_STEPS_COMPARED``), and what each seed ends with."""
    first = {f"loss at step {step}": race.losses[:, step] for step in RACE_STEPS_COMPARED}
    return first | {"accuracy": race.accuracy, "learned": race.learned}


def _ratio_sweep(students: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.teacher import (
            ratio_sweep,
            stored_ratio_sweep,
        )

        ratios = stored_ratio_sweep().ratios[:students]
        return {"unexplained": ratio_sweep.__wrapped__(ratios=ratios).unexplained}

    def stored() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.teacher import (
            stored_ratio_sweep,
        )

        return {"unexplained": stored_ratio_sweep().unexplained[:students]}

    return fresh, stored


def _depths(depths: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.stacking import (
            DEPTHS_BUDGET,
            DEPTHS_TASK,
            compare_depths,
            stored_depths,
        )

        chosen = stored_depths().depths[:depths]
        result = compare_depths.__wrapped__(DEPTHS_TASK, chosen, DEPTHS_BUDGET)
        return {"accuracy": result.accuracy}

    def stored() -> Arrays:
        from course_lib.lessons.l02_dimension_expansion.experiments.stacking import stored_depths

        return {"accuracy": stored_depths().accuracy[:depths]}

    return fresh, stored


# ---- lesson 5's sparsity sweep: its first steps


def sparsity_runs() -> list[tuple[int, int]]:
    """The sweep's runs a test rebuilds: every seed at the two narrowest widths (cheap models,
    every seed's corpus and draw) and every width at the shipped model's seed (every shape)."""
    from course_lib.core.experiments.memory import SETTINGS as MODEL
    from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import SETTINGS

    seeds, widths = SETTINGS.seeds, SETTINGS.widths
    return sorted({(s, i) for s in range(len(seeds)) for i in (0, 1)}
                  | {(seeds.index(MODEL.seed), i) for i in range(len(widths))})  # fmt: skip


def _sparsity(initial: bool) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import (
            active_fraction,
            build_model,
            corpus_of,
            train_language_model,
        )
        from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import SETTINGS

        out = {}
        for s, i in sparsity_runs():
            run = SETTINGS.at(SETTINGS.widths[i], SETTINGS.seeds[s])
            if initial:
                model = build_model(run, len(corpus_of(run).vocabulary))
                out[f"seed {s}, width {i}"] = active_fraction(model, corpus_of(run))
            else:
                out[f"seed {s}, width {i}"] = train_language_model(replace(run, steps=3))[1]
        return out

    def stored() -> Arrays:
        from course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep import load_sweep

        sweep = load_sweep()
        return {f"seed {s}, width {i}": (sweep.initial[s, i] if initial else sweep.losses[s, i, :3])
                for s, i in sparsity_runs()}  # fmt: skip

    return fresh, stored


def _quantities() -> tuple[Quantity, ...]:
    lm = [
        Quantity(
            "lesson 5 model: first 8 losses", *_lm_first_losses(_memory_settings, _memory_file, 8)
        ),
        Quantity(
            "two-phrasing model: first 8 losses",
            *_lm_first_losses(_paraphrased_settings, _paraphrased_file, 8),
        ),  # fmt: skip
        *(
            Quantity(f"experts, {name}: first 8 losses", *_lm_first_losses(*_moe(name), 8))
            for name in ("equal total", "equal active")
        ),
    ]
    edits = [
        Quantity("edit sweep: fact 17, first answer", *_sweep_edit(17), SWEEP_DISCRETE),
        Quantity(
            "edit sweep: every edit, what lesson 6 prints",
            *_whole_sweep(),
            TABLE_DISCRETE,
            _table_printed(),
            whole_rebuild=True,
        ),
        Quantity(
            "edit sweep, C from filler: fact 17, first answer", *_filler_c(False), SWEEP_DISCRETE
        ),  # fmt: skip
        Quantity(
            "edit sweep, C from filler: every edit, what lesson 6 prints",
            *_filler_c(True),
            ("ES", "PS", "NS", "other entities kept"),
            FILLER_C_PRINTED,
            whole_rebuild=True,
        ),
    ]
    toys = [
        *(
            Quantity(f"stored run: {t} {d} {a}", *_stored_run(t, d, a), ("accuracy",))
            for t, d, a in STORED_RUN_CASES
        ),  # fmt: skip
        *(
            Quantity(f"trained width: {d} {a}", *_trained_width(d, a), ("accuracy",))
            for d, a in TRAINED_WIDTH_CASES
        ),  # fmt: skip
        *(
            Quantity(f"router run: {e} experts, top {k}", *_router_run(e, k), ("load", "accuracy"))
            for e, k in ROUTER_CASES
        ),  # fmt: skip
        Quantity("width sweep: xor, relu, 4 widths", *_xor_sweep(), ("accuracy",)),
        Quantity("ratio sweep: the two narrowest students", *_ratio_sweep(2)),
        Quantity("depth comparison: 1 and 2 layers", *_depths(2), ("accuracy",)),
        Quantity(
            "warmup race: post-norm, no warm-up", *_warmup_race("post", 0), ("accuracy", "learned")
        ),
        Quantity("dense run: 12 units, seed 1", *_dense_run(12, 1), ("load", "accuracy")),
    ]
    starts = [
        Quantity(
            "sparsity sweep: fractions at initialisation",
            *_sparsity(initial=True),
            tuple(f"seed {s}, width {i}" for s, i in sparsity_runs()),
        ),  # fmt: skip
        Quantity("sparsity sweep: first 3 losses", *_sparsity(initial=False)),
    ]
    return (*lm, *edits, *toys, *starts)


STORED_RUN_CASES = (("triangles", 6, "relu"), ("xor", 3, "tanh"), ("ring", 8, "gelu"),
                    ("spiral", 12, "gelu"))  # fmt: skip
TRAINED_WIDTH_CASES = ((6, "relu"), (12, "tanh"), (2, "gelu"))
ROUTER_CASES = ((2, 1), (4, 2))
# The race's losses compared up to step 20: a 1e-7 change of the inputs moves them by 2e-14 at
# step 0, 3e-13 at 5, 8e-11 at 10, 1e-7 at 20, then 0.02 at 40 and 0.3 at the last step, where a
# tolerance of 10 x the spread would hold nothing.
RACE_STEPS_COMPARED = (0, 5, 10, 20)
QUANTITIES = _quantities()
BY_NAME = {q.name: q for q in QUANTITIES}


# ---- lesson 7: the routers' loads over training and the shared-expert model; each a fresh run's
# first steps against the stored run's


def _load_history_first_steps(steps: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts.experiments import load_history as H

        out = {}
        for alpha in H.ALPHAS:
            run = H.train_with_load(replace(H.settings_of(alpha, H.SEEDS[0]), steps=steps))
            out |= {f"alpha {alpha} | {name}": getattr(run, name)
                    for name in ("first", "assigned", "losses")}  # fmt: skip
        return out

    def stored() -> Arrays:
        from course_lib.lessons.l07_mixture_of_experts.experiments import load_history as H

        runs = H.stored_histories()
        return {f"alpha {alpha} | {name}": getattr(runs, name)[a, 0, :steps]
                for a, alpha in enumerate(runs.alphas)
                for name in ("first", "assigned", "losses")}  # fmt: skip

    return fresh, stored


QUANTITIES = (
    *QUANTITIES,
    Quantity(
        "experts, shared expert: first 8 losses", *_lm_first_losses(*_moe("shared expert"), 8)
    ),
    Quantity(
        "load history: first 8 steps",
        *_load_history_first_steps(8),
        ("first", "assigned"),  # shares of the tokens: counts
    ),
)
BY_NAME = {q.name: q for q in QUANTITIES}


# ---- lesson 8: the toy models' first 100 steps and a whole 1× transcoder


def _toy_first_steps(steps: int) -> tuple[Callable, Callable]:
    """Both toy grids from every seed for ``steps`` + 1 steps, each setting's stored (best) seed
    kept: the loss at step 0 and at step ``steps``, as the stored curve keeps every 100th."""

    def fresh() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import toy
        from course_lib.lessons.l08_superposition.experiments import toy_grid as G

        out = {}
        for kind in ("superposition", "phase"):
            sparsity, importance, m, seeds = G._settings(kind)
            best = G.stored_grid(kind).seed_losses.reshape(len(sparsity), -1).argmin(1)
            curves = np.stack([toy.train_toy(m, sparsity, importance, seed=s, steps=steps + 1)
                               .losses[:, [0, steps]] for s in seeds])  # fmt: skip
            out[kind] = curves[best, np.arange(len(best))]
        return out

    def stored() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import toy_grid as G

        every = steps // G.CURVE_EVERY
        return {kind: G.stored_grid(kind).curve.reshape(-1, G.stored_grid(kind).curve.shape[-1])
                [:, [0, every]] for kind in ("superposition", "phase")}  # fmt: skip

    return fresh, stored


def _dictionary_first_losses(kind: str, steps: int) -> tuple[Callable, Callable]:
    """The 1× L1 dictionary of ``kind`` trained again for ``steps`` steps: its training losses,
    against the first ones its stored run kept. (Its 2,000 steps in full move L0 by up to 0.2
    under another CPU: chaotic, so only the start is compared.)"""

    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import stored_model
        from course_lib.core.threads import torch_threads
        from course_lib.lessons.l08_superposition.experiments import dictionary_runs as R
        from course_lib.lessons.l08_superposition.experiments import fact_dictionaries as F

        with torch_threads(1):
            rows = F.layer_rows(*stored_model())
            x, y = (rows.hidden, rows.hidden) if kind == "sae" else (rows.ffn_in, rows.ffn_out)
            _, losses = F.train_dictionary(x, y, rows.weight, 256, None, R.L1, R.SEED, steps)
        return {"losses": losses}

    def stored() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import dictionary_runs as R

        return {"losses": R.stored_dictionary(kind, "l1", 256).first_losses[:steps]}

    return fresh, stored


def _feature_edit(fact: int) -> tuple[Callable, Callable]:
    """Lesson 8's edits through a feature, a unit and the rank-one update: ``fact`` rewritten to
    its first new answer by every method at every scale, and every method's gates."""

    def arrays(found: dict, edit: int) -> Arrays:
        from course_lib.core.experiments.edit_measures import METRICS
        from course_lib.lessons.l08_superposition.experiments import feature_edit as FE

        out = {}
        for m in FE.METHODS:
            rows = found[f"results|{m}"][edit]
            out |= {f"{m} | {name}": rows[:, j] for j, name in enumerate(METRICS)}
            out[f"{m} | changed"] = found[f"changed|{m}"][edit]
            out[f"{m} | gates"] = found[f"gates|{m}"]
        return out

    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import stored_model
        from course_lib.lessons.l08_superposition.experiments import feature_edit as FE

        return arrays(FE.sweep_feature_edits(*stored_model(), [fact], answers=1), 0)

    def stored() -> Arrays:
        from course_lib.lessons.l08_superposition.experiments import feature_edit as FE

        return arrays(FE.stored_feature_edits(), fact * FE.TARGETS)

    return fresh, stored


QUANTITIES = (
    *QUANTITIES,
    Quantity("toy grids: losses at steps 0 and 100", *_toy_first_steps(100)),
    Quantity("SAE, 256 features, L1: first 20 losses", *_dictionary_first_losses("sae", 20)),
    Quantity(
        "transcoder, 256 features, L1: first 20 losses",
        *_dictionary_first_losses("transcoder", 20),
    ),
    Quantity("feature edits: fact 5, first answer", *_feature_edit(5), SWEEP_DISCRETE),
)
BY_NAME = {q.name: q for q in QUANTITIES}


# ---- lesson 9: the bilingual fact model's first steps


def _bilingual_first_losses(dictionary: bool, steps: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import train_language_model
        from course_lib.lessons.l09_two_languages.experiments import bilingual, bilingual_model

        settings = replace(bilingual_model.settings_of(0), steps=steps)
        corpus = bilingual.bilingual_corpus(dictionary=dictionary)
        return {"losses": train_language_model(settings, corpus=corpus)[1]}

    def stored() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import bilingual_model

        with np.load(bilingual_model.model_file(0, dictionary)) as data:
            return {"losses": data["losses"][:steps]}

    return fresh, stored


def _bilingual_experts_first_losses(steps: int) -> tuple[Callable, Callable]:
    def fresh() -> Arrays:
        from course_lib.core.experiments.memory import train_language_model
        from course_lib.lessons.l09_two_languages.experiments import bilingual, experts

        settings = replace(experts.settings_of(0), steps=steps)
        return {"losses": train_language_model(settings, corpus=bilingual.bilingual_corpus())[1]}

    def stored() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import experts

        with np.load(experts.model_file(0)) as data:
            return {"losses": data["losses"][:steps]}

    return fresh, stored


def _cross_edit(fact: int) -> tuple[Callable, Callable]:
    """Lesson 9's stored edits across languages: ``fact`` of seed 0's model (no dictionary)
    rewritten with its English prompt and with its Chinese one, by every method at every
    strength, and the model's reading before the edit."""

    def arrays(language: str, results: dict[str, np.ndarray], before: np.ndarray) -> Arrays:
        from course_lib.core.experiments.edit_measures import METRICS

        out = {f"{language} | {method} | {name}": rows[:, j]
               for method, rows in results.items() for j, name in enumerate(METRICS)}  # fmt: skip
        return out | {f"{language} | before": before}

    def fresh() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import bilingual_model, cross_edits

        model, out = bilingual_model.stored_model(0), {}
        for language in ("en", "zh"):
            s = cross_edits.sweep(model, language, facts=[fact])
            out |= arrays(language, {m: rows[0] for m, rows in s.results.items()}, s.before[0])
        return out

    def stored() -> Arrays:
        from course_lib.core.experiments.edit_sweep import METHODS
        from course_lib.lessons.l09_two_languages.experiments import cross_edits

        out = {}
        for language in ("en", "zh"):
            before = cross_edits.before(language)[0, fact]
            results = {m.name: cross_edits.results(m.name, language)[0, fact] for m in METHODS}
            out |= arrays(language, results, before)
        return out

    return fresh, stored


def _cross_edit_control(fact: int, language: str) -> tuple[Callable, Callable]:
    """Lesson 9's stored control of its edits: ``fact`` of seed 0's model rewritten with its
    ``language`` prompt, each control method at each strength, measured on the other facts."""

    def arrays(results: dict[str, np.ndarray]) -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments.cross_edits import CONTROL_MEASURES

        return {f"{method} | {name}": rows[:, j] for method, rows in results.items()
                for j, name in enumerate(CONTROL_MEASURES)}  # fmt: skip

    def fresh() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import bilingual_model, cross_edits

        rows = cross_edits.control_sweep(bilingual_model.stored_model(0), language, [fact])
        return arrays({method: r[0] for method, r in rows.items()})

    def stored() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import cross_edits

        return arrays({m: cross_edits.control(m, language)[0, fact]
                       for m in cross_edits.CONTROL_METHODS})  # fmt: skip

    return fresh, stored


def _random_units(seed: int, language: str, draws: int) -> tuple[Callable, Callable]:
    """Lesson 9's stored baseline for Tang et al.'s test: each language's loss rise when as many
    random units as ``language``'s selection holds are zeroed, its first ``draws`` draws (a draw
    is the same whether more follow: one local generator, ten draws per forward pass)."""

    def fresh() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import bilingual, bilingual_model
        from course_lib.lessons.l09_two_languages.experiments import one_memory as M

        model, corpus = bilingual_model.stored_model(seed), bilingual.bilingual_corpus()
        units = M.language_specific(M.activation_probability(model, corpus))[language]
        return {
            f"rise, {asked}": M.random_units_rise(model, corpus, len(units), asked, draws)
            for asked in ("en", "zh")
        }

    def stored() -> Arrays:
        from course_lib.lessons.l09_two_languages.experiments import bilingual, bilingual_model
        from course_lib.lessons.l09_two_languages.experiments import one_memory as M

        model, corpus = bilingual_model.stored_model(seed), bilingual.bilingual_corpus()
        units = M.language_specific(M.activation_probability(model, corpus))[language]
        return {
            f"rise, {asked}": M.stored_random_rise(seed, language, len(units), asked)[:draws]
            for asked in ("en", "zh")
        }

    return fresh, stored


QUANTITIES = (
    *QUANTITIES,
    Quantity("bilingual edits: seed 0, fact 5, both languages", *_cross_edit(5), SWEEP_DISCRETE),
    Quantity(
        "bilingual random units: seed 0, Chinese selection, first 10 draws",
        *_random_units(0, "zh", 10),
    ),
    Quantity(
        "bilingual edits' control: seed 0, fact 27, English",
        *_cross_edit_control(27, "en"),
        ("relation's other facts answering the new word, other language",),
    ),
    Quantity("bilingual experts: first 8 losses", *_bilingual_experts_first_losses(8)),
    Quantity("bilingual model: first 8 losses", *_bilingual_first_losses(False, 8)),
    Quantity("bilingual model, dictionary: first 8 losses", *_bilingual_first_losses(True, 8)),
)
BY_NAME = {q.name: q for q in QUANTITIES}


# ---- lesson 10's real model: slices of its stored pass, dictionary and retrieval, run again


def _real_pass_slice() -> tuple[Callable, Callable]:
    """Lesson 10's pass over the corpus: the first paragraphs of each language run again, each
    one's share of GELU outputs above zero in every layer."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"active share": activations.slice_shares(stored_corpus())}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import activations
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        rows = activations.slice_rows(len(stored_corpus().english))
        return {"active share": activations.stored()["text_share"][rows]}

    return fresh, stored


def _real_dictionary_first_losses(steps: int) -> tuple[Callable, Callable]:
    """Lesson 10's dictionary trained again for ``steps`` steps on the slice's layer-6 units."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import dictionary
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"losses": dictionary.slice_losses(stored_corpus(), steps)}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import dictionary

        return {"losses": dictionary.stored()[0]["slice_losses"][:steps]}

    return fresh, stored


def _real_retrieval(pairs: int) -> tuple[Callable, Callable]:
    """Lesson 10's retrieval, nothing zeroed: the similarities of its first ``pairs`` pairs."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import language_units as L
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"cos": L.similarities(stored_corpus(), L.stored()["pairs"][:pairs])}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import language_units as L

        return {"cos": L.stored()["base"][:pairs, :pairs]}

    return fresh, stored


def _real_controls_slice() -> tuple[Callable, Callable]:
    """Lesson 10's second pass (the controls): the first paragraphs of each language run again,
    how often each unit fires on their Latin-script and Han tokens."""

    def fresh() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls
        from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus

        return {"fires": controls.slice_fires(stored_corpus()).astype(float)}

    def stored() -> Arrays:
        from course_lib.lessons.l10_real_multilingual_ffn.experiments import controls

        return {"fires": controls.stored()["slice_fires_by_script"].astype(float)}

    return fresh, stored


QUANTITIES = (
    *QUANTITIES,
    Quantity("real model pass: first 6 paragraphs of each language", *_real_pass_slice()),
    Quantity("real model controls: first 6 paragraphs of each language", *_real_controls_slice()),
    Quantity(
        "real model dictionary: first 8 losses on the slice", *_real_dictionary_first_losses(8)
    ),
    Quantity("real model retrieval: first 10 pairs", *_real_retrieval(10)),
)
BY_NAME = {q.name: q for q in QUANTITIES}
