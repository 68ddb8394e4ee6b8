"""Render benchmark results (the JSON-ready dict ``run.py`` builds) as a Markdown report."""

from __future__ import annotations

from typing import Any

from benchmarks.nbval_passes import nbval_pass_section

MIB = 1024**2


def fmt(value: float | None, digits: int = 1) -> str:
    """A number rounded for a table; an em dash where nothing was measured."""
    return "—" if value is None else f"{value:.{digits}f}"


def pct(value: float | None) -> str:
    return "—" if value is None else f"±{100 * value / 2:.0f} %"


def label(verdict: dict[str, Any] | None) -> str:
    if not verdict or verdict.get("met") is None:
        return "n/a"
    return "met" if verdict["met"] else "**missed**"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table (pipes in cells are escaped); every row must fill the header."""
    for row in rows:
        if len(row) != len(header):
            raise ValueError(f"row has {len(row)} cells for {len(header)} columns: {row}")
    clean = [[str(cell).replace("|", "\\|") for cell in row] for row in rows]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in clean]


def machine_section(machine: dict[str, Any], settings: dict[str, Any]) -> list[str]:
    rows = [[key.replace("_", " "), str(value)] for key, value in machine.items()]
    rows += [[key.replace("_", " "), str(value)] for key, value in settings.items()]
    return ["## Machine and settings", "", *table(["what", "value"], rows), ""]


def notebook_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for nb in results["notebooks"]:
        slowest = "; ".join(
            f"[{c['index']}] {fmt(c['seconds'], 2)} s `{c['line']}`" for c in nb["slowest_cells"]
        )
        peak = nb["peak_bytes"]["median"]
        rows.append([
            f"`{nb['name']}`", fmt(nb["wall_s"]["median"]), pct(nb["wall_s"]["noise"]), fmt(nb["cpu_s"]),
            fmt(nb["ratio"], 2), label(nb["goals"]["wall"]),
            fmt(None if peak is None else peak / MIB, 0), label(nb["goals"]["peak"]), slowest,
        ])  # fmt: skip
    return rows


def notebook_section(results: dict[str, Any]) -> list[str]:
    floor = results.get("floor")
    if floor is None:
        return ["## Notebooks", "", "Not measured in this run.", ""]
    head = [
        "## Notebooks",
        "",
        f"Floor (a fresh kernel that only imports `course_lib` and `torch`): "
        f"**{fmt(floor['wall_s']['median'], 2)} s** {pct(floor['wall_s']['noise'])} "
        f"(kernel CPU {fmt(floor['cpu_s'], 2)} s), peak {fmt((floor['peak_bytes']['median'] or 0) / MIB, 0)} MiB.",
        "",
    ]
    if not results["notebooks"]:
        return [*head, "No notebooks found.", ""]
    header = [
        "notebook",
        "wall s",
        "noise",
        "kernel CPU s",
        "÷ floor",
        "≤ 60 s",
        "peak MiB",
        "≤ 1 GiB",
        "slowest cells",
    ]
    course = results["course"]
    tail = [
        "",
        f"Whole course: {fmt(course['total_s'])} s for {len(results['notebooks'])} notebook(s) "
        f"= {fmt(course['ratio'], 2)} × the sum of their floors ({fmt(course['floors_s'])} s); "
        f"goal {course['goal']['goal']}: {label(course['goal'])}.",
        "",
    ]
    return [*head, *table(header, notebook_rows(results)), *tail]


def control_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for c in results["controls"]:
        goals = c["goals"]
        first_goal = goals["first"]["goal"].replace("p95 ", "")
        rows.append([
            f"`{c['demo']}`", f"`{c['control']}`", "yes" if c["trains"] else "no", str(c["n"]),
            f"{fmt(c['first']['median'])} / {fmt(c['first']['p95'])}",
            f"{first_goal}: {label(goals['first'])}",
            f"{fmt(c['warm']['median'])} / {fmt(c['warm']['p95'])}", label(goals["warm"]),
            fmt(c["cached"]["p95"], 3), label(goals["cached"]), label(goals["busy"]),
            f"{c['slowest_first']['value']}: {fmt(c['slowest_first']['ms'])}",
            fmt(c["first_cpu"]["median"]), fmt(c["floor_ms"]["median"]), fmt(c["ratio_first"]),
            fmt(c["ratio_warm"]), f"{pct(c['first']['noise'])} / {pct(c['warm']['noise'])}",
        ])  # fmt: skip
    return rows


def control_section(results: dict[str, Any]) -> list[str]:
    if results.get("controls") is None:
        return ["## Controls", "", "Not measured in this run.", ""]
    if not results["controls"]:
        return [
            "## Controls",
            "",
            "No demos found (`course_lib.widgets.all_demos()` is empty).",
            "",
        ]
    header = [
        "demo", "control", "trains", "values", "first visit ms (median / p95)", "goal",
        "re-render ms (median / p95)", "≤ 100 ms", "cached p95 ms", "≤ 100 ms", "busy text",
        "slowest first visit (value: ms)",
        "first visit CPU ms (median)", "floor ms", "first ÷ floor", "re-render ÷ floor",
        "noise (first / re-render)",
    ]  # fmt: skip
    return ["## Controls", "", *table(header, control_rows(results)), ""]


def misses(results: dict[str, Any]) -> list[str]:
    """One line per missed goal."""
    found = []
    for nb in results.get("notebooks", []):
        for key, verdict in nb["goals"].items():
            if verdict["met"] is False:
                found.append(
                    f"notebook `{nb['name']}` {key}: {verdict['value']:.3g} vs {verdict['goal']}"
                )
    course = results.get("course")
    if course and course["goal"]["met"] is False:
        found.append(f"whole course: {course['ratio']:.2f} × floors vs {course['goal']['goal']}")
    for c in results.get("controls") or []:
        for key, verdict in c["goals"].items():
            if verdict["met"] is False:
                value = "" if verdict["value"] is None else f"{verdict['value']:.3g} ms vs "
                found.append(
                    f"control `{c['demo']}.{c['control']}` {key}: {value}{verdict['goal']}"
                )
    return found


def checked(results: dict[str, Any]) -> int:
    """How many goals were judged (met or missed) in these results."""
    verdicts = [v for nb in results.get("notebooks", []) for v in nb["goals"].values()]
    verdicts += [v for c in results.get("controls") or [] for v in c["goals"].values()]
    if results.get("course"):
        verdicts.append(results["course"]["goal"])
    return sum(v["met"] is not None for v in verdicts)


def comparison_section(results: dict[str, Any], baseline: dict[str, Any] | None) -> list[str]:
    """Before/after for every number present in both runs: notebook walls and control p95s."""
    if not baseline:
        return []
    rows = []
    before_nb = {nb["name"]: nb for nb in baseline.get("notebooks", [])}
    for nb in results.get("notebooks", []):
        if nb["name"] in before_nb:
            old, new = before_nb[nb["name"]]["wall_s"]["median"], nb["wall_s"]["median"]
            rows.append([f"`{nb['name']}` wall s", fmt(old, 2), fmt(new, 2), f"{new / old:.2f} ×"])
    before_c = {(c["demo"], c["control"]): c for c in baseline.get("controls") or []}
    for c in results.get("controls") or []:
        old_c = before_c.get((c["demo"], c["control"]))
        for mode in ("first", "warm") if old_c else ():
            old, new = old_c[mode]["p95"], c[mode]["p95"]
            ratio = f"{new / old:.2f} ×" if old else "—"
            rows.append([f"`{c['demo']}.{c['control']}` {mode} p95 ms", fmt(old), fmt(new), ratio])
    if not rows:
        return []
    return [
        "## Before / after",
        "",
        *table(["what", "before", "after", "after ÷ before"], rows),
        "",
    ]


def load_warning(machine: dict[str, Any]) -> list[str]:
    """A note when other work kept the cores busy: wall times are then inflated."""
    cores = machine.get("cores_usable") or 1
    loads = [machine.get(key, "") for key in ("load_average_at_start", "load_average_at_end")]
    busiest = max(
        (float(str(load).split(" / ")[0]) for load in loads if load and load != "unknown"),
        default=0.0,
    )
    if busiest <= cores:
        return []
    return [
        f"**The machine was busy**: a 1-minute load average of {busiest:.1f} on {cores} usable cores. "
        "Wall times are inflated by waiting for a core; the CPU times beside them are less affected.",
        "",
    ]  # fmt: skip


def render(results: dict[str, Any], baseline: dict[str, Any] | None = None) -> str:
    """The whole RESULTS.md."""
    found = misses(results)
    lines = [
        "# How long a learner waits",
        "",
        f"Written by `{results['command']}` on {results['date']}. Every number is the median of "
        f"{results['settings']['repeat']} repetitions; noise is ± half the spread (max − min) of "
        "the repetitions' medians, relative to their median. Times exclude nothing a learner waits "
        "for: a notebook's wall time runs from kernel start to kernel shutdown.",
        "",
        f"**{len(found)} goal(s) missed** of {checked(results)} checked (listed under *Goals missed*).",
        "",
        *load_warning(results["machine"]),
        *machine_section(results["machine"], results["settings"]),
        *notebook_section(results),
        *control_section(results),
        *nbval_pass_section(results),
        *comparison_section(results, baseline),
        "## Goals missed",
        "",
        *([f"- {line}" for line in found] or ["None."]),
        "",
        *(
            ["## Errors", "", *[f"- {e}" for e in results["errors"]], ""]
            if results["errors"]
            else []
        ),
        "## How it is measured",
        "",
        *results["method"],
        "",
    ]
    return "\n".join(lines)
