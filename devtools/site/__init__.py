"""The course as a static website (``make site``): both editions' executed notebooks as HTML pages,
formulas as MathML, and every live demo as precomputed frames that a few lines of JavaScript swap,
so the sliders work with no kernel and no network.

    python -m devtools.site [OUT]      # OUT defaults to "site"

OUT/index.html is the course home; OUT/<edition>/<notebook>.html a page per notebook and
OUT/<edition>/glossary.html every lesson's glossary; OUT/frames/<edition>/<demo>/<n>.png the demos'
frames; OUT/assets/ the one stylesheet and script; OUT/site-report.json what the demos add.
``texts`` holds what the parts share, ``frames`` the demos, ``pages`` the HTML. A frame drawn
with a missing glyph or an untranslated text fails the build (``frames.drawing_problems``).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from course_lib.core._validate import int_at_least
from devtools.site.frames import demo_outputs, frame_keys, render_demos
from devtools.site.pages import write_assets, write_home, write_pages
from devtools.site.texts import (
    EDITIONS,
    FULL_PRODUCT_LIMIT,
    NOTEBOOKS,
    OWNED,
    REPORT,
    SIZE_LIMIT,
    WIDGET_STATE,
    WIDGET_VIEW,
    SiteError,
    math_to_placeholders,
    notebooks,
    restore_math,
)

__all__ = [
    "EDITIONS",
    "FULL_PRODUCT_LIMIT",
    "NOTEBOOKS",
    "REPORT",
    "SIZE_LIMIT",
    "WIDGET_STATE",
    "WIDGET_VIEW",
    "SiteError",
    "build",
    "frame_keys",
    "main",
    "summary",
    "math_to_placeholders",
    "restore_math",
]


def build(out: Path, source: Path = NOTEBOOKS, limits: dict[str, int] | None = None) -> dict:
    """Build the whole site into ``out``; returns the report (also written to OUT/site-report.json).

    ``limits``: per edition, the most combinations a demo may have to get a frame for every one
    (``FULL_PRODUCT_LIMIT`` for an edition not named); 0 gives every demo one control at a time.
    """
    limits = {e: FULL_PRODUCT_LIMIT for e in EDITIONS} | (limits or {})
    for edition, limit in limits.items():
        if edition not in EDITIONS:
            raise ValueError(f"limits: edition must be one of {list(EDITIONS)}, got {edition!r}")
        int_at_least(f"limits[{edition!r}]", limit, 0)
    import nbformat

    from course_lib.core.widgets import all_demos, demo_class

    start = time.perf_counter()
    by_class = {demo_class(demo): demo for demo in all_demos()}
    books = {
        e: [(p, nbformat.read(p, as_version=4)) for p in notebooks(source, e)] for e in EDITIONS
    }
    demos = {p: demo_outputs(nb, p, by_class) for e in EDITIONS for p, nb in books[e]}  # fail early
    out.mkdir(parents=True, exist_ok=True)
    for target in (out / name for name in OWNED):
        if target.is_dir():
            shutil.rmtree(target)
        target.unlink(missing_ok=True)
    write_assets(out)
    counts, rows, titles = {"math_failures": [], "images_without_alt": 0}, [], {}
    for edition in EDITIONS:
        shown = {id(d): d for p, _ in books[edition] for d in demos[p].values()}
        manifests, edition_rows = render_demos(list(shown.values()), edition, out, limits[edition])
        problems = [f"{r['demo']}, {p}" for r in edition_rows for p in r["problems"]]
        if problems:
            raise SiteError(f"{edition} frames drawn wrong:\n" + "\n".join(problems[:20]))
        rows += edition_rows
        titles[edition] = write_pages(
            edition, books[edition], demos, manifests, out, source, counts
        )
    lessons = sum(1 for p, _ in books["en"] if p.name[:2] != "00")  # the index is not one
    write_home(out, titles, lessons)
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file() and f.name != REPORT)
    report = {"demos": rows, "total_bytes": total, "frames_bytes": sum(r["bytes"] for r in rows)}
    report |= {"math_failures": counts["math_failures"]}
    report |= {"images_without_alt": counts["images_without_alt"]}
    report |= {"build_seconds": round(time.perf_counter() - start, 1)}
    (out / REPORT).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    if total > SIZE_LIMIT:
        raise SiteError(f"the site is {total / 2**20:.1f} MiB, over {SIZE_LIMIT / 2**20:.0f} MiB")
    return report


def summary(report: dict, out: Path) -> list[str]:
    """What a build prints after each demo's line: formulas, alt texts, sizes and time."""
    lines = [f"formula kept as LaTeX: {failure}" for failure in report["math_failures"]]
    lines.append(f"formulas kept as LaTeX: {len(report['math_failures'])}")
    lines.append(
        f"images without stored alt text (given their heading): {report['images_without_alt']}"
    )
    lines.append(f"demo frames: {report['frames_bytes'] / 2**20:.1f} MiB")
    lines.append(
        f"site: {report['total_bytes'] / 2**20:.1f} MiB in {out}/, "
        f"built in {report['build_seconds']:.0f} s"
    )
    return lines


def main(argv: list[str]) -> None:
    out = Path(argv[0] if argv else "site")
    print("\n".join(summary(build(out), out)))
