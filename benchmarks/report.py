"""RESULTS.md from pytest-benchmark's JSON (``results.json``): what pytest-benchmark does not do.
It times every benchmark, computes each one's statistics, saves the runs and compares them with
earlier ones (`make bench` prints its comparison with the previous run). Here its numbers are
picked out (by ``extra_info["kind"]``) and set beside the course's own: the floors they are
divided by, the goals they are judged against, the p95 over passes the goals define, and the
classroom's capacity."""

from __future__ import annotations

import datetime as dt
import statistics
from typing import Any

from benchmarks import classroom, goals
from benchmarks.controls import MODES
from benchmarks.make_test import make_test_section, suite_goal

MIB = 1024**2
NOTEBOOK_GOALS = {"cpu": "Run All", "peak": "peak memory"}  # each goal's name in the report


def fmt(value: float | None, digits: int = 1) -> str:
    """A number rounded for a table; an em dash where nothing was measured."""
    return "—" if value is None else f"{value:.{digits}f}"


def pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f} %"


def label(verdict: goals.Verdict | None) -> str:
    if verdict is None or verdict.met is None:
        return "n/a"
    return "met" if verdict.met else "**missed**"


def table(header: str, rows: list[list[str]]) -> list[str]:
    """A Markdown table: ``header`` names the columns between " | "; pipes in cells are escaped;
    every row must fill the header."""
    header = header.split(" | ")
    for row in rows:
        if len(row) != len(header):
            raise ValueError(f"row has {len(row)} cells for {len(header)} columns: {row}")
    clean = [[str(cell).replace("|", "\\|") for cell in row] for row in rows]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in clean]


def median(values: list[float | None] | None) -> float | None:
    """The median of the measured values; None when there are none."""
    found = [v for v in values or [] if v is not None]
    return statistics.median(found) if found else None


def p95(data: list[float] | None, per_repetition: int | None = None) -> float | None:
    """The 95th percentile of a benchmark's rounds (linear interpolation, as numpy's default);
    None when the rounds were not saved (``--benchmark-save`` without ``--benchmark-save-data``).

    With ``per_repetition`` (the values one pass over a control visits), the median over the
    passes of each pass's p95, as the course's goals define it: one slow round in one pass (a core
    taken by another process) does not decide a goal.
    """
    if not data:
        return None
    if per_repetition and len(data) > per_repetition:
        passes = [data[i : i + per_repetition] for i in range(0, len(data), per_repetition)]
        return statistics.median(p95(chunk) for chunk in passes)
    return data[0] if len(data) == 1 else statistics.quantiles(data, n=20, method="inclusive")[-1]


def noise(stats: dict[str, Any]) -> float | None:
    """The interquartile range of the rounds relative to their median; None from one round."""
    return stats["iqr"] / stats["median"] if stats["rounds"] > 1 and stats["median"] else None


def of_kind(results: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [b for b in results.get("benchmarks", []) if b["extra_info"].get("kind") == kind]


# --- summaries: pytest-benchmark's benchmarks to the report's rows ---------------------------


def slowest_cells(cells_per_round: list[list], count: int = 3) -> list[tuple[int, str, float]]:
    """The ``count`` cells with the largest median time over rounds: (index, line, seconds)."""
    times: dict[int, list[float]] = {}
    lines: dict[int, str] = {}
    for cells in cells_per_round:
        for index, line, seconds in cells:
            times.setdefault(index, []).append(seconds)
            lines[index] = line
    ranked = sorted(times, key=lambda i: statistics.median(times[i]), reverse=True)[:count]
    return [(i, lines[i], statistics.median(times[i])) for i in ranked]


def run_summary(bench: dict[str, Any]) -> dict[str, Any]:
    """A notebook's (or the floor's) wall time, noise, kernel CPU and peak memory (medians)."""
    info = bench["extra_info"]
    return {
        "wall_s": bench["stats"]["median"],
        "noise": noise(bench["stats"]),
        "cpu_s": median(info.get("cpu_s")),
        "peak_bytes": median(info.get("peak_bytes")),
    }


def notebook_summary(bench: dict[str, Any], floor: dict[str, Any] | None) -> dict[str, Any]:
    """A notebook's row: its figures, their ratios to the floor's (the floor kernel's CPU judged,
    its wall time for reading) and its goals."""
    row = {"name": bench["extra_info"]["notebook"], **run_summary(bench)}
    floor = floor or {}
    row["ratio"] = goals.ratio(row["wall_s"], floor.get("wall_s"))
    row["goals"] = goals.notebook_goals(row["cpu_s"], floor.get("cpu_s"), row["peak_bytes"])
    row["cpu_ratio"] = row["goals"]["cpu"].value
    row["cpu_at_reference_s"] = goals.at_reference(row["cpu_ratio"])
    row["slowest"] = slowest_cells(bench["extra_info"].get("cells", []))
    return row


def slowest_value(bench: dict[str, Any]) -> tuple[str, float] | None:
    """The visited value whose median over rounds is largest (round i visits value i mod n)."""
    values, data = bench["extra_info"].get("values"), bench["stats"].get("data")
    if not values or not data:
        return None
    times = [1000 * statistics.median(data[i :: len(values)]) for i in range(len(values))]
    worst = max(range(len(values)), key=times.__getitem__)
    return values[worst], times[worst]


def control_summary(modes: dict[str, dict[str, Any]], floor: dict[str, Any] | None) -> dict:
    """One control's row from its benchmarks per mode (``shown``, ``first``, ``warm``, ``cached``,
    ``zh``)."""
    info = next(iter(modes.values()))["extra_info"]
    row = {key: info[key] for key in ("demo", "control")}
    row["n"] = len(info["values"])
    floor_ms = 1000 * floor["stats"]["median"] if floor else None
    for mode in MODES:
        stats = modes[mode]["stats"] if mode in modes else None
        found = p95(stats.get("data"), row["n"]) if stats else None
        row[mode] = {
            "median": 1000 * stats["median"] if stats else None,
            "p95": None if found is None else 1000 * found,
            "noise": noise(stats) if stats else None,
        }
    row["floor_ms"] = floor_ms
    first = modes.get("first")
    row["first_cpu_ms"] = median(first["extra_info"].get("cpu_ms")) if first else None
    row["slowest_first"] = slowest_value(first) if first else None
    p95s = [row[mode]["p95"] for mode in MODES]
    row["goals"] = goals.control_goals(floor_ms, *p95s)
    return row


def course_summary(notebooks: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The whole course's wall time and kernel CPU, for reading: the goals are per notebook."""
    if not notebooks:
        return None
    cpus = [nb["cpu_s"] for nb in notebooks]
    return {
        "wall_s": sum(nb["wall_s"] for nb in notebooks),
        "cpu_s": None if None in cpus else sum(cpus),
    }


def first_extra_info(results: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """What the run's first benchmark of ``kind`` recorded beside its time; None without one."""
    found = of_kind(results, kind)
    return found[0]["extra_info"] if found else None


def summarize(results: dict[str, Any]) -> dict[str, Any]:
    """The report's rows from pytest-benchmark's JSON (benchmarks told apart by extra_info's kind)."""
    floors = of_kind(results, "notebook floor")
    floor = run_summary(floors[0]) if floors else None
    notebooks = [notebook_summary(b, floor) for b in of_kind(results, "notebook")]
    control_floors = {b["extra_info"]["demo"]: b for b in of_kind(results, "control floor")}
    grouped: dict[tuple[str, str], dict[str, dict]] = {}
    for bench in of_kind(results, "control"):
        info = bench["extra_info"]
        grouped.setdefault((info["demo"], info["control"]), {})[info["mode"]] = bench
    controls = [
        control_summary(modes, control_floors.get(key[0])) for key, modes in grouped.items()
    ]
    parts = [{**b["extra_info"], "median_s": b["stats"]["median"]} for b in of_kind(results, "make test")]  # fmt: skip
    make_test_floor = of_kind(results, "make test floor")
    site = [b["extra_info"] for b in of_kind(results, "site swaps") if b["extra_info"].get("moves")]
    return {
        "floor": floor, "notebooks": notebooks, "course": course_summary(notebooks), "controls": controls,
        "make_test": parts, "make_test_floor_s": make_test_floor[0]["stats"]["median"] if make_test_floor else None,
        "site": site, "site_floor": first_extra_info(results, "site floor"),
        "errors": results.get("course", {}).get("failures", []),
        "notebooks_measured": bool(floors or notebooks), "controls_measured": bool(controls or control_floors),
    }  # fmt: skip


def site_floor_ms(summary: dict[str, Any]) -> float | None:
    """The floor page's median swap in this run; None when the floor was not measured."""
    return (summary.get("site_floor") or {}).get("median_ms")


def verdicts(summary: dict[str, Any]) -> list[tuple[str, goals.Verdict]]:
    """Every goal checked, each with what it is about."""
    found = [
        (f"notebook `{nb['name']}` {NOTEBOOK_GOALS[key]}", v)
        for nb in summary["notebooks"]
        for key, v in nb["goals"].items()
    ]
    floor_ms = site_floor_ms(summary)
    found += [(f"site page `{row['page']}` swaps", goals.site_swap_goal(row["median_ms"], floor_ms))
              for row in summary.get("site", [])]  # fmt: skip
    if (verdict := suite_goal(summary["make_test"], summary.get("make_test_floor_s"))) is not None:
        found.append(("make test from a fresh clone", verdict))
    for c in summary["controls"]:
        found += [
            (f"control `{c['demo']}.{c['control']}` {MODES[key]}", v)
            for key, v in c["goals"].items()
        ]
    return found


def misses(summary: dict[str, Any]) -> list[str]:
    """One line per missed goal: what was measured, against the goal."""
    return [f"{what}: {v.shown} vs {v.goal}" for what, v in verdicts(summary) if v.met is False]


def merge(base: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """``base`` with every group that ``part`` measured replaced whole by ``part``'s benchmarks
    (a group holds its floor, so each ratio stays within one run), and ``part``'s commit, time
    and load recorded under ``course["re-measured"]`` for the report to state. Both runs must come
    from the same CPU: a report names one machine."""
    cpus = [run.get("machine_info", {}).get("cpu", {}).get("brand_raw") for run in (base, part)]
    if cpus[0] != cpus[1]:
        raise ValueError(f"part was measured on {cpus[1]!r}, base on {cpus[0]!r}: one report names one machine")  # fmt: skip
    groups = {bench.get("group") for bench in part.get("benchmarks", [])}
    if not groups:
        raise ValueError("part holds no benchmark: nothing to merge")
    merged = {**base, "course": dict(base.get("course", {}))}
    merged["benchmarks"] = [
        *(bench for bench in base.get("benchmarks", []) if bench.get("group") not in groups),
        *part["benchmarks"],
    ]
    commit, course = part.get("commit_info") or {}, part.get("course", {})
    named = commit.get("id", "unknown")[:12] + (" (dirty)" if commit.get("dirty") else "")
    earlier = base.get("course", {}).get("re-measured", [])
    merged["course"]["re-measured"] = [
        *(entry for entry in earlier if entry["group"] not in groups),
        *(
            {
                "group": group,
                "commit": named,
                "datetime": part.get("datetime", ""),
                "load_average_at_start": course.get("load_average_at_start", "unknown"),
                "load_average_at_end": course.get("load_average_at_end", "unknown"),
            }
            for group in sorted(groups, key=str)
        ),
    ]
    return merged


# --- sections -----------------------------------------------------------------------------


def machine_section(results: dict[str, Any]) -> list[str]:
    machine, course = results.get("machine_info", {}), results.get("course", {})
    commit = results.get("commit_info") or {}
    rows = [
        ["cpu", machine.get("cpu", {}).get("brand_raw", machine.get("processor", "unknown"))],
        *machine.get("course", {}).items(),
        ["python", machine.get("python_version", "unknown")],
        ["commit", commit.get("id", "unknown")[:12] + (" (dirty)" if commit.get("dirty") else "")],
        *[(key, course.get(key, "unknown")) for key in ("load_average_at_start", "load_average_at_end")],
        *course.get("settings", {}).items(),
    ]  # fmt: skip
    rows = [[str(key).replace("_", " "), str(value)] for key, value in rows]
    for entry in course.get("re-measured", []):
        when = dt.datetime.fromisoformat(entry["datetime"]).strftime("%Y-%m-%d %H:%M UTC")
        rows.append([
            f"re-measured: {entry['group']}",
            f"commit {entry['commit']}, {when}, load average {entry['load_average_at_start']} at start, "
            f"{entry['load_average_at_end']} at end",
        ])  # fmt: skip
    return ["## Machine and settings", "", *table("what | value", rows), ""]


def judged(verdict: goals.Verdict, digits: int = 1) -> str:
    """A ratio and its verdict in one cell: "23.6: met"."""
    return f"{fmt(verdict.value, digits)}: {label(verdict)}"


def floor_line(floor: dict[str, Any]) -> str:
    speed = goals.ratio(floor["cpu_s"], goals.FLOOR_CPU_S_AT_REFERENCE)
    return (
        f"Floor (a fresh kernel that only imports `course_lib` and `torch`): **{fmt(floor['wall_s'], 2)} s** "
        f"(IQR {pct(floor['noise'])}), kernel CPU **{fmt(floor['cpu_s'], 2)} s** "
        f"({fmt(speed, 2)} × its {goals.FLOOR_CPU_S_AT_REFERENCE:g} s on the reference machine), "
        f"peak {fmt((floor['peak_bytes'] or 0) / MIB, 0)} MiB."
    )  # fmt: skip


def notebook_goal_line() -> str:
    return (
        f"Goal: every notebook's Run All within {goals.NOTEBOOK_CPU_S:g} s of kernel CPU on the reference "
        f"machine ({goals.CLASS_LEARNERS} learners pressing Run All at once on {goals.CLASS_CORES} cores "
        f"each done within {goals.CLASSROOM_RUN_ALL_S:g} s), judged as its kernel CPU ÷ the floor kernel's "
        f"≤ {goals.NOTEBOOK_CPU_RATIO:g} ({goals.NOTEBOOK_CPU_S:g} s ÷ {goals.FLOOR_CPU_S_AT_REFERENCE:g} s); "
        "and its kernel's peak memory ≤ 1 GiB. Wall time and its ratio to the floor's are for reading."
    )  # fmt: skip


def notebook_section(summary: dict[str, Any]) -> list[str]:
    floor = summary["floor"]
    if not summary["notebooks_measured"]:
        return ["## Notebooks", "", "Not measured in this run.", ""]
    head = ["## Notebooks", "", notebook_goal_line(), ""]
    if floor:
        head += [floor_line(floor), ""]
    if not summary["notebooks"]:
        return [*head, "No notebook measured.", ""]
    rows = []
    for nb in summary["notebooks"]:
        slowest = "; ".join(f"[{i}] {fmt(s, 2)} s `{line}`" for i, line, s in nb["slowest"])
        peak = None if nb["peak_bytes"] is None else nb["peak_bytes"] / MIB
        rows.append([
            f"`{nb['name']}`", fmt(nb["wall_s"]), pct(nb["noise"]), fmt(nb["ratio"], 2), fmt(nb["cpu_s"]),
            judged(nb["goals"]["cpu"], 2), fmt(nb["cpu_at_reference_s"]), fmt(peak, 0), label(nb["goals"]["peak"]), slowest,
        ])  # fmt: skip
    header = (
        f"notebook | wall s | IQR ÷ median | wall ÷ floor | kernel CPU s | kernel CPU ÷ floor's (≤ {goals.NOTEBOOK_CPU_RATIO:g}) | "
        f"kernel CPU s as on the reference machine (≤ {goals.NOTEBOOK_CPU_S:g}) | peak MiB | ≤ 1 GiB | slowest cells"
    )  # fmt: skip
    lines = [*head, *table(header, rows), ""]
    course = summary["course"]
    if course:
        lines += [
            f"Whole course, for reading: {fmt(course['wall_s'])} s of wall time and {fmt(course['cpu_s'])} s "
            f"of kernel CPU for {len(summary['notebooks'])} notebook(s).",
            "",
        ]  # fmt: skip
    return lines


def control_goal_line() -> str:
    return (
        f"Goals, each p95 as a ratio to its demo's floor (an empty figure of the demo's size encoded as PNG, "
        f"this run): a demo shown within {goals.DEMO_SHOWN_RATIO:g} × and every reply to a move within "
        f"{goals.CONTROL_RATIO:g} ×, that is 1 s and 100 ms at the reference machine's floor of "
        f"{goals.CONTROL_FLOOR_MS_AT_REFERENCE:g} ms."
    )  # fmt: skip


def control_section(summary: dict[str, Any]) -> list[str]:
    if not summary["controls_measured"]:
        return ["## Controls", "", "Not measured in this run.", ""]
    rows = []
    for c in summary["controls"]:
        shown, first, warm, cached, zh, found = (c[mode] for mode in (*MODES, "goals"))
        slowest = "—" if c["slowest_first"] is None else "{}: {:.1f}".format(*c["slowest_first"])
        rows.append([
            f"`{c['demo']}`", f"`{c['control']}`", str(c["n"]), fmt(c["floor_ms"], 2),
            f"{fmt(shown['median'])} / {fmt(shown['p95'])}", judged(found["shown"]),
            f"{fmt(first['median'])} / {fmt(first['p95'])}", judged(found["first"]),
            f"{fmt(warm['median'])} / {fmt(warm['p95'])}", judged(found["warm"]),
            f"{fmt(cached['median'], 3)} / {fmt(cached['p95'], 3)}", judged(found["cached"], 3),
            f"{fmt(zh['median'])} / {fmt(zh['p95'])}", judged(found["zh"]),
            slowest, fmt(c["first_cpu_ms"]), f"{pct(first['noise'])} / {pct(warm['noise'])}",
        ])  # fmt: skip
    shown, reply = (
        f"p95 ÷ floor (≤ {goals.DEMO_SHOWN_RATIO:g})",
        f"p95 ÷ floor (≤ {goals.CONTROL_RATIO:g})",
    )
    header = (
        f"demo | control | values | floor ms | demo shown ms (median / p95) | {shown} | first visit ms (median / p95) | {reply} | "
        f"re-render ms (median / p95) | {reply} | cached ms (median / p95) | {reply} | re-render in Chinese ms (median / p95) | {reply} | "
        "slowest first visit (value: ms) | first visit CPU ms (median) | IQR ÷ median (first / re-render)"
    )  # fmt: skip
    return ["## Controls", "", control_goal_line(), "", *table(header, rows), ""]


def load_warning(results: dict[str, Any]) -> list[str]:
    """A note when other work kept the cores busy: wall times are then inflated."""
    cores = results.get("machine_info", {}).get("course", {}).get("cores_usable") or 1
    course = results.get("course", {})
    loads = [course.get(key, "") for key in ("load_average_at_start", "load_average_at_end")]
    busiest = max((float(load.split()[0]) for load in loads if load[:1].isdigit()), default=0.0)
    if busiest <= cores:
        return []
    return [
        f"**The machine was busy**: a 1-minute load average of {busiest:.1f} on {cores} usable cores. "
        "Every time is inflated by waiting for a core (kernel CPU too, by contention); the goals are "
        "ratios to floors measured in this run, which the same load stretches.",
        "",
    ]


def learner_from(results: dict[str, Any], summary: dict[str, Any]) -> classroom.Learner | None:
    """One learner of the English edition (the Chinese one costs the same code), or None."""
    servers = of_kind(results, "server memory")
    lessons = [nb for nb in summary["notebooks"] if "/" not in nb["name"] and nb["cpu_s"]]
    if not servers or not lessons or any(nb["peak_bytes"] is None for nb in lessons):
        return None
    return classroom.Learner(
        server_bytes=max(b["extra_info"]["rss_bytes"] for b in servers),
        kernel_peak_bytes={nb["name"]: nb["peak_bytes"] for nb in lessons},
        kernel_cpu_s={nb["name"]: nb["cpu_s"] for nb in lessons},
        wall_s={nb["name"]: nb["wall_s"] for nb in lessons},
    )


def classroom_section(results: dict[str, Any], summary: dict[str, Any]) -> list[str]:
    learner = learner_from(results, summary)
    if learner is None:
        return ["## Classroom", "", "Not measured in this run (needs the notebooks and `classroom`).", ""]  # fmt: skip
    rows = []
    for machine, (cores, ram) in classroom.MACHINES.items():
        found = classroom.capacity(learner, cores, ram)
        rows.append([machine, str(found["memory"]), str(found["memory_every_lesson_open"]),
                     str(found["cpu_all_run_at_once"]), f"**{found['learners']}**"])  # fmt: skip
    heaviest = learner.heaviest
    return [
        "## Classroom",
        "",
        f"Per learner: a single-user Jupyter server of {fmt(learner.server_bytes / MIB, 0)} MiB; "
        f"one lesson's kernel peaks at {fmt(max(learner.kernel_peak_bytes.values()) / MIB, 0)} MiB "
        f"(so {fmt(learner.one_lesson_bytes / MIB, 0)} MiB with one lesson open, "
        f"{fmt(learner.all_lessons_bytes / MIB, 0)} MiB with all {len(learner.kernel_peak_bytes)} "
        f"notebooks' kernels left running); the whole course's Run All takes "
        f"{fmt(learner.course_cpu_s, 1)} s of kernel CPU, the heaviest notebook (`{heaviest}`) "
        f"{fmt(learner.kernel_cpu_s[heaviest], 1)} s.",
        "",
        *table(
            "machine | learners by memory (one lesson open) | by memory (every lesson left open) | "
            f"by CPU (all Run All `{heaviest}` at once, each done within {goals.CLASSROOM_RUN_ALL_S:.0f} s) | "
            "concurrent learners",
            rows,
        ),
        "",
        f"Memory leaves {classroom.RESERVED_BYTES // classroom.GIB} GiB to the system and the hub. "
        "Concurrent learners is the smaller of the one-lesson memory limit and the CPU limit.",
        "",
    ]


def site_section(summary: dict[str, Any]) -> list[str]:
    """The site's frame swaps per page, as each page measured them, beside the floor page's."""
    rows, floor = summary.get("site", []), summary.get("site_floor")
    if not rows:
        return []
    floor_ms = site_floor_ms(summary)
    lines = ["## The static site's demos", ""]
    lines.append(
        f"Goal: each page's median swap within {goals.SITE_SWAP_RATIO:g} × the floor's, that is one frame "
        f"at 60 Hz (16 ms) at the reference machine's floor of about {goals.SITE_FLOOR_MS_AT_REFERENCE:g} ms. "
        + ("Floor (a page of blank frames with the site's own controls and script, the same browser): "
           f"median **{fmt(floor_ms, 2)} ms** over {floor['moves']} moves, slowest {fmt(floor['max_ms'])} ms."
           if floor_ms is not None else "The floor was not measured: nothing is judged.")
    )  # fmt: skip
    lines += ["", f"| page | moves | median swap ms | slowest swap ms | median ÷ floor (≤ {goals.SITE_SWAP_RATIO:g}) |",
              "|---|---|---|---|---|"]  # fmt: skip
    for row in rows:
        verdict = goals.site_swap_goal(row["median_ms"], floor_ms)
        lines.append(f"| `{row['page']}` | {row['moves']} | {row['median_ms']:.1f} | "
                     f"{row['max_ms']:.1f} | {judged(verdict)} |")  # fmt: skip
    return [*lines, ""]


def render(results: dict[str, Any]) -> str:
    """The whole RESULTS.md."""
    summary = summarize(results)
    found = misses(summary)
    checked = sum(v.met is not None for _, v in verdicts(summary))
    course = results.get("course", {})
    when = dt.datetime.fromisoformat(results["datetime"]).strftime("%Y-%m-%d %H:%M UTC")
    errors = summary["errors"]
    lines = [
        "# How long a learner waits",
        "",
        f"Written by `{course.get('command', 'make bench')}` on {when}, timed by pytest-benchmark "
        f"{results.get('version', '')}. Every time is a median or a 95th percentile (p95) over a "
        "benchmark's rounds; noise is the interquartile range (IQR) of the rounds relative to their "
        "median. Times exclude nothing a learner waits for: a notebook's wall time runs from kernel "
        "start to kernel shutdown. Every goal on a time is a ratio to a floor measured in this run "
        "(`benchmarks/goals.py`), its limit the absolute goal it replaces at the floor of the "
        "reference machine, so a slower or busier machine meets the goals a faster one meets.",
        "",
        f"**{len(found)} goal(s) missed** of {checked} checked (listed under *Goals missed*).",
        "",
        *load_warning(results),
        *machine_section(results),
        *notebook_section(summary),
        *control_section(summary),
        *site_section(summary),
        *make_test_section(summary["make_test"], summary["make_test_floor_s"]),
        *classroom_section(results, summary),
        "## Goals missed",
        "",
        *([f"- {line}" for line in found] or ["None."]),
        "",
        *(["## Errors", "", *[f"- {e}" for e in errors], ""] if errors else []),
        "## How it is measured",
        "",
        "`benchmarks/README.md` says how each number is taken; the settings of this run are in the "
        "first table. pytest-benchmark keeps every run in `artifacts/benchmarks/` and compares it "
        "with the one before (`pytest-benchmark compare` shows any two).",
        "",
    ]
    return "\n".join(lines)
