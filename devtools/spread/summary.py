"""From every variant's raw measurements to spreads: per quantity and name, the largest change
any variant made against the native run; per printed number, the same, with whether its printed
text changed and how far its value sits from the next rounding boundary."""

from __future__ import annotations

import hashlib

import numpy as np

from devtools.spread.record import gap_between, rounding_margin


def summarise(runs: list[dict], machine: dict) -> dict:
    """``runs``: the workers' results, the native one first."""
    native, others = runs[0], runs[1:]
    return {
        "machine": machine,
        "variants": [run["variant"] for run in runs],
        "quantities": {name: _quantity(name, native, others) for name in native["quantities"]},
        "notebooks": {path: _notebook(path, native, others) for path in native["notebooks"]},
    }


def _quantity(name: str, native: dict, others: list[dict]) -> dict:
    from devtools.spread.quantities import BY_NAME

    discrete, printed = BY_NAME[name].discrete, BY_NAME[name].printed
    out = {}
    for key, values in native["quantities"][name].items():
        base = np.array(values)
        changes = {
            run["variant"]: gap_between(run["quantities"][name][key], base) for run in others
        }
        stored = native["stored"].get(name, {}).get(key)
        out[key] = {
            "spread": max(changes.values(), default=0.0),
            "by variant": changes,
            "stored gap": None
            if stored is None
            else float(np.max(np.abs(np.array(stored) - base))),
            "discrete": key.split(" | ")[-1] in discrete,
        }
        if key in printed:  # what the lesson shows of the stored value, and its margins
            value = float(np.asarray(stored).ravel()[0])
            out[key]["printed"] = [_shown(value, spec) for spec in printed[key]]
    return out


def refresh_printed(summary: dict) -> dict:
    """``summary`` with what the lessons show of each stored value read again from the stored
    files and the quantities' formats (the spreads kept): after changing only how a table is
    printed, no variant needs to run again."""
    from devtools.spread.quantities import BY_NAME

    for name, keys in summary["quantities"].items():
        printed, stored = BY_NAME[name].printed, None
        for key, entry in keys.items():
            entry.pop("printed", None)
            if key in printed:
                stored = BY_NAME[name].stored() if stored is None else stored
                value = float(np.asarray(stored[key]).ravel()[0])
                entry["printed"] = [_shown(value, spec) for spec in printed[key]]
    return summary


def _shown(value: float, spec: str) -> dict:
    """A stored value as the lesson shows it: formatted by ``spec``, or held to a bound ``<x`` /
    ``>x`` by a claim (its margin: the distance to the bound, on the right side of it)."""
    if spec[:1] in "<>":
        bound = float(spec[1:])
        holds = value < bound if spec[0] == "<" else value > bound
        return {
            "spec": spec,
            "text": f"{spec[0]} {bound:.4g}",
            "margin": abs(value - bound) if holds else 0.0,
        }
    shown = int(round(value)) if spec.endswith("d") else value
    return {"spec": spec, "text": format(shown, spec), "margin": rounding_margin(value, spec)}


def _by_cell(records: list[dict]) -> dict[int, list[dict]]:
    cells: dict[int, list[dict]] = {}
    for record in records:
        cells.setdefault(record["cell"], []).append(record)
    return cells


def _notebook(path: str, native: dict, others: list[dict]) -> dict:
    base = native["notebooks"][path]
    cells = _by_cell(base["records"])
    variants = {run["variant"]: _by_cell(run["notebooks"][path]["records"]) for run in others}
    numbers, claims, diverged = [], [], []
    for cell, records in cells.items():
        for name, theirs in variants.items():
            if [r["template"] for r in theirs.get(cell, [])] != [r["template"] for r in records]:
                diverged.append({"cell": cell, "variant": name})
        for i, record in enumerate(records):
            if record["kind"] == "claim":
                failed = [name for name, theirs in variants.items()
                          if _nth(theirs, cell, i) and not _nth(theirs, cell, i)["holds"]]  # fmt: skip
                claims.append({"cell": cell, "template": record["template"],
                               "holds": record["holds"], "fails under": failed})  # fmt: skip
            for j, number in enumerate(record["numbers"]):
                numbers.append(
                    _number(
                        cell,
                        record,
                        number,
                        [(n, _nth(t, cell, i)) for n, t in variants.items()],
                        j,
                    )
                )
    text = {str(cell): hashlib.sha1(t.encode()).hexdigest() for cell, t in base["text"].items()}
    changed_text = sorted({name for run in others for name in [run["variant"]]
                           if run["notebooks"][path]["text"] != base["text"]})  # fmt: skip
    return {"numbers": numbers, "claims": claims, "diverged": diverged, "errors": base["errors"],
            "variant errors": {run["variant"]: run["notebooks"][path]["errors"] for run in others
                               if run["notebooks"][path]["errors"]},
            "text": text, "text changed under": changed_text}  # fmt: skip


def _nth(cells: dict[int, list[dict]], cell: int, i: int) -> dict | None:
    records = cells.get(cell, [])
    return records[i] if i < len(records) else None


def _number(cell: int, record: dict, number: dict, theirs: list, j: int) -> dict:
    changes, texts = {}, []
    for name, other in theirs:
        if other is None or j >= len(other["numbers"]):
            continue
        changes[name] = abs(other["numbers"][j]["value"] - number["value"])
        if other["numbers"][j]["text"] != number["text"]:
            texts.append(name)
    return {"cell": cell, "template": record["template"], "field": number["field"],
            "spec": number["spec"], "value": number["value"], "text": number["text"],
            "spread": max(changes.values(), default=0.0),
            "by variant": {k: v for k, v in changes.items() if v > 0},
            "margin": rounding_margin(number["value"], number["spec"]),
            "text changed under": texts}  # fmt: skip
