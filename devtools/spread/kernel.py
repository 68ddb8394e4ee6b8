"""Run at a notebook kernel's start (an IPython startup file, ``notebooks.py``): apply the variant
``FFN_SPREAD_VARIANT`` names, and record every number a lesson prints through ``show`` and
``claim`` with its raw value and its format, and every claim's verdict, in the JSON-lines file
``FFN_SPREAD_RECORD`` names. A claim that fails is recorded and printed with ✘ rather than raised,
so the rest of the lesson still runs and every failure of a variant is found in one run."""

from __future__ import annotations

import json
import numbers
import os
import string

import numpy as np

RECORD_ENV = "FFN_SPREAD_RECORD"


def printed_numbers(template: str, fields: dict) -> list[dict]:
    """Each number ``template`` prints from ``fields``: its field (``r.hits``, ``paper[0]``), its
    format spec and its raw value; fields that are not numbers are left out."""
    found = []
    formatter = string.Formatter()
    for _, name, spec, _ in formatter.parse(template):
        if not name:
            continue
        value, _ = formatter.get_field(name, (), fields)
        if isinstance(value, np.ndarray) and value.size == 1:
            value = value.item()
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
            continue
        found.append({"field": name, "spec": spec, "value": float(value),
                      "text": format(value, spec)})  # fmt: skip
    return found


def table_numbers(rows: list[list], specs: list[str] | None) -> list[dict]:
    """Each number a table shows, by its (row, column), with its column's format (a table without
    formats shows its cells as they are, so its numbers are recorded with the empty format)."""
    found = []
    for i, row in enumerate(rows):
        for j, (cell, spec) in enumerate(zip(row, specs or [""] * len(row), strict=True)):
            if isinstance(cell, numbers.Real) and not isinstance(cell, bool | np.bool_):
                found.append({"field": f"{i},{j}", "spec": spec, "value": float(cell),
                              "text": format(cell, spec)})  # fmt: skip
    return found


def _cell() -> int:
    from IPython import get_ipython

    shell = get_ipython()
    return int(shell.execution_count) if shell is not None else -1


def _writer(path: str):
    def write(entry: dict) -> None:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"cell": _cell(), **entry}) + "\n")

    return write


def install(path: str) -> None:
    """Wrap ``course_lib.core.claims.show`` and ``claim`` so that each call is recorded in ``path``."""
    from course_lib.core import claims

    write = _writer(path)
    show, claim = claims.show, claims.claim

    def recorded_show(template, /, **fields):
        write({"kind": "show", "template": template, "numbers": printed_numbers(template, fields)})
        return show(template, **fields)

    def recorded_claim(statement, holds, shown="", /, **fields):
        numbers_ = printed_numbers(statement, fields) + printed_numbers(shown, fields)
        write({"kind": "claim", "template": statement, "holds": bool(holds), "numbers": numbers_})
        if not holds:  # go on: every failure of the variant is wanted, not only the first
            print(f"✘ {statement}")
            return None
        return claim(statement, holds, shown, **fields)

    def recorded_table(headers, rows, specs=None):
        write(
            {
                "kind": "table",
                "template": " | ".join(headers),
                "numbers": table_numbers(rows, specs),
            }
        )
        return table(headers, rows, specs)

    table = claims.show_table
    claims.show, claims.claim, claims.show_table = recorded_show, recorded_claim, recorded_table


def start() -> None:
    from devtools.spread.variants import apply_from_environment

    apply_from_environment()
    if os.environ.get(RECORD_ENV):
        install(os.environ[RECORD_ENV])


if __name__ != "__main__":  # imported by the startup file
    pass
