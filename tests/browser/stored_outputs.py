"""A lesson's outputs after Run All in JupyterLab against the ones committed with it, compared as
nbval compares them (notebooks/sanitize.cfg applied; images, widget models, metadata, execution
counts and tracebacks left out; cells marked NBVAL_IGNORE_OUTPUT or NBVAL_SKIP skipped). The
browser suite's kernels compute as another CPU would (labserver.other_cpu), so for an English
lesson this comparison is the portability pass's check (`make portability`), done on the Run All
the browser needs anyway; nbval runs the Chinese edition natively, and conftest.py deselects
nbval's items for the English notebooks compared here."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from nbformat import from_dict
from nbval.plugin import (
    coalesce_streams,
    find_comment_markers,
    find_metadata_tags,
    get_sanitize_patterns,
)

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
UNCOMPARED = {("check", False), ("skip", True)}  # NBVAL_IGNORE_OUTPUT, NBVAL_SKIP


def sanitizer(config: Path = SANITIZE):
    """The sanitize file's regex-replace pairs as one function on strings."""
    pairs = get_sanitize_patterns(config.read_text(encoding="utf-8"))

    def sanitize(text: str) -> str:
        for regex, replace in pairs:
            text = re.sub(regex, replace, text)
        return text

    return sanitize


def compared(cell: dict) -> bool:
    """False for a cell whose outputs nbval does not compare, by nbval's own reading of its
    markers (alone on a comment line) and tags."""
    markers = find_comment_markers(_text(cell["source"]))
    tags = find_metadata_tags(cell.get("metadata", {})) or ()
    return not UNCOMPARED & {*markers, *tags}


def _text(value) -> object:
    return "".join(value) if isinstance(value, list) else value


def flatten(outputs: list[dict], sanitize) -> dict[str, list]:
    """nbval's view of a cell's outputs: streams of one name joined (nbval's ``coalesce_streams``),
    then per key (a stream's name, an output's MIME type or other field) its values in order."""
    nodes = [from_dict({**o, "text": _text(o["text"])} if "text" in o else o) for o in outputs]
    flat: dict[str, list] = defaultdict(list)
    for output in coalesce_streams(nodes):
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
