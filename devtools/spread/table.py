"""docs/spread.md: the measured spread as tables a reader can check a tolerance against."""

from __future__ import annotations

from pathlib import Path

from devtools.spread.record import FACTOR
from devtools.spread.variants import BY_NAME


def _g(x: float | None) -> str:
    return "–" if x is None else ("0" if x == 0 else f"{x:.1e}")


def _largest(changes: dict[str, float]) -> str:
    if not changes or max(changes.values()) == 0:
        return "none"
    return max(changes, key=changes.get)


def survives(entry: dict, shown: dict) -> bool:
    """Whether what a lesson shows of a stored value (``shown``: its format and margin) stays the
    same under a rebuild's spread."""
    if entry["spread"] == 0:
        return True
    if shown["margin"] is None:
        return False
    factor = 1 if entry["discrete"] else FACTOR
    return shown["margin"] > factor * entry["spread"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def write_table(summary: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(table_lines(summary)) + "\n", encoding="utf-8")


def table_lines(summary: dict) -> list[str]:
    m = summary["machine"]
    lines = [
        "# How much the course's fragile numbers move between machines",
        "",
        f"Measured by `make spread` on {m['date']}: {m['cpu']} (ATen {m['capability']}), "
        f"torch {m['torch']}. Every quantity is computed natively, then under each variant below; "
        "its **spread** is the largest change any variant made. Regenerate this page and "
        "`tests/spread.json` with `make spread` after changing a lesson or a stored file.",
        "",
        "| variant | what differs |",
        "|---|---|",
        *(f"| {name} | {BY_NAME[name].description} |" for name in summary["variants"]),
        "",
        "## Stored results against a fresh run",
        "",
        f"A test that compares a fresh run with a stored file allows **{FACTOR} × the spread** "
        "(`devtools.spread.record.tolerance`); a count (an accuracy, an edit's efficacy or the "
        "share of facts kept) allows its spread itself, in whole items, since counts do not drift "
        "by degrees. The last column is what this machine's fresh run differs from the file by.",
        "",
        "| compared | name | spread | largest under | tolerance | fresh − stored here |",
        "|---|---|---|---|---|---|",
    ]
    for quantity, keys in summary["quantities"].items():
        for key, entry in keys.items():
            tol = entry["spread"] if entry["discrete"] else FACTOR * entry["spread"]
            lines.append(f"| {quantity} | {_cell(key)}{' (count)' if entry['discrete'] else ''} | "
                         f"{_g(entry['spread'])} | {_largest(entry['by variant'])} | {_g(tol)} | "
                         f"{_g(entry['stored gap'])} |")  # fmt: skip
    lines += [
        "",
        "## Stored results a lesson prints",
        "",
        "A stored table prints the same on every machine, but a rebuild on another would move it "
        "by its spread. Its digits survive when its margin exceeds "
        f"{FACTOR} × the spread (a count: when its margin exceeds its spread, or nothing moved it).",
        "",
        "| stored | name | format | printed | spread | margin | survives |",
        "|---|---|---|---|---|---|---|",
    ]
    for quantity, keys in summary["quantities"].items():
        for key, entry in keys.items():
            for shown in entry.get("printed", []):
                ok = "yes" if survives(entry, shown) else "**no**"
                lines.append(f"| {quantity} | {_cell(key)} | `{shown['spec']}` | {shown['text']} | "
                             f"{_g(entry['spread'])} | {_g(shown['margin'])} | {ok} |")  # fmt: skip
    lines += [
        "",
        "## Printed numbers that any variant moved",
        "",
        "Every number a lesson prints through `show` or `claim`, recomputed under each variant. "
        "Listed here: those that moved at all. A number's **margin** is how far it sits from the "
        "value where its printed digits would change; a number is printed to the digits that "
        f"survive when every variant prints the same text and its margin exceeds {FACTOR} × its "
        "spread (a count: when every variant prints the same count).",
        "",
        "| lesson | cell | printed by | field | spec | printed | spread | margin | survives |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for notebook, entry in summary["notebooks"].items():
        moved = [n for n in entry["numbers"] if n["spread"] > 0]
        for n in sorted(moved, key=lambda n: (n["cell"], n["field"])):
            ok = not n["text changed under"] and (
                n["margin"] is None or n["margin"] > FACTOR * n["spread"]
            )
            template = _cell(n["template"])
            lines.append(f"| {Path(notebook).stem} | {n['cell']} | {template[:60]} | "
                         f"`{n['field']}` | `{n['spec'] or '–'}` | {n['text']} | "
                         f"{_g(n['spread'])} | {_g(n['margin'])} | {'yes' if ok else '**no**'} |")  # fmt: skip
    lines += ["", "## Claims", ""]
    failing = [
        (nb, c) for nb, e in summary["notebooks"].items() for c in e["claims"] if c["fails under"]
    ]
    total = sum(len(e["claims"]) for e in summary["notebooks"].values())
    lines.append(f"{total} claims checked under every variant; {len(failing)} fail under any.")
    for notebook, c in failing:
        lines.append(f"- {Path(notebook).stem}, cell {c['cell']}: “{c['template']}” fails under "
                     f"{', '.join(c['fails under'])}")  # fmt: skip
    return lines
