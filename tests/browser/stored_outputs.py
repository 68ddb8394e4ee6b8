"""A lesson's outputs after Run All in JupyterLab against the ones committed with it, compared as
nbval compares them (notebooks/sanitize.cfg applied; images, widget models, metadata, execution
counts and tracebacks left out; cells marked NBVAL_IGNORE_OUTPUT or NBVAL_SKIP skipped). Run
All in the browser executes each lesson natively already, so this comparison is the lesson's
native nbval check: conftest.py deselects nbval's own items for the notebooks the browser suite
runs, and the portability pass still runs the English notebooks as another CPU would."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from nbval.plugin import get_sanitize_patterns

SANITIZE = Path(__file__).resolve().parents[2] / "notebooks" / "sanitize.cfg"
SKIPPED_KEYS = {
    "metadata",
    "traceback",
    "prompt_number",
    "output_type",
    "name",
    "execution_count",
    "transient",
    "application/vnd.jupyter.widget-view+json",
    "image/png",
    "image/jpeg",
}
MARKERS = {"NBVAL_IGNORE_OUTPUT", "NBVAL_SKIP"}
TAGS = {"nbval-ignore-output", "nbval-skip"}


def sanitizer(config: Path = SANITIZE):
    """The sanitize file's regex-replace pairs as one function on strings."""
    pairs = get_sanitize_patterns(config.read_text(encoding="utf-8"))

    def sanitize(text: str) -> str:
        for regex, replace in pairs:
            text = re.sub(regex, replace, text)
        return text

    return sanitize


def compared(cell: dict) -> bool:
    """False for a cell whose outputs nbval does not compare (a marker alone on a comment line,
    or the matching tag)."""
    source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
    lines = {line.strip().lstrip("#").strip() for line in source.splitlines()}
    tags = set(cell.get("metadata", {}).get("tags", []))
    return not (lines & MARKERS or tags & TAGS)


def _text(value) -> object:
    return "".join(value) if isinstance(value, list) else value


def flatten(outputs: list[dict], sanitize) -> dict[str, list]:
    """nbval's view of a cell's outputs: per key (a stream's name, an output's MIME type or other
    field), its values in order; consecutive stream outputs of one name joined, as both
    JupyterLab and nbval's reading of them join them."""
    merged: list[dict] = []
    for output in outputs:
        if output.get("output_type") == "stream":
            last = merged[-1] if merged else {}
            if last.get("output_type") == "stream" and last["name"] == output["name"]:
                last["text"] += _text(output["text"])
                continue
            output = {**output, "text": _text(output["text"])}
        merged.append(output)
    flat: dict[str, list] = defaultdict(list)
    for output in merged:
        if output.get("output_type") == "stream":
            flat[output["name"]].append(sanitize(output["text"]))
            continue
        for key, value in output.items():
            if key in SKIPPED_KEYS:
                continue
            items = value.items() if key == "data" else [(key, value)]
            for name, item in items:
                if name not in SKIPPED_KEYS:
                    item = _text(item)
                    flat[name].append(sanitize(item) if isinstance(item, str) else item)
    return dict(flat)


def differences(ran: list[dict], stored: list[dict], name: str, sanitize=None) -> list[str]:
    """Per code cell (``ran`` and ``stored``: the notebook's code cells, each with its "source"
    and "outputs", in order), what differs between the two, naming the notebook and the cell."""
    sanitize = sanitize or sanitizer()
    if [c["source"] for c in ran] != [_text(c["source"]) for c in stored]:
        return [f"{name}: the code cells that ran are not the committed ones"]
    problems = []
    for index, (now, then) in enumerate(zip(ran, stored, strict=True)):
        if not compared(then):
            continue
        got, want = flatten(now["outputs"], sanitize), flatten(then["outputs"], sanitize)
        if got != want:
            first = _text(then["source"]).splitlines()[0][:60] if then["source"] else ""
            problems.append(
                f"{name} code cell {index} ({first!r}): outputs differ from the committed ones\n"
                f"  committed: {want}\n  now:       {got}"
            )
    return problems
