"""The course as a static website (``make site``): both editions' executed notebooks as HTML pages,
formulas as MathML, and every live demo as precomputed frames that a few lines of JavaScript swap,
so the sliders work with no kernel and no network.

    python -m course_lib.tools.site [OUT]      # OUT defaults to "site"

OUT/index.html is the course home; OUT/<edition>/<notebook>.html a page per notebook and
OUT/<edition>/glossary.html every lesson's glossary; OUT/frames/<edition>/<demo>/<n>.png the demos'
frames; OUT/assets/ the one stylesheet and script; OUT/site-report.json what the demos add.
"""

from __future__ import annotations

import base64
import copy
import html
import io
import itertools
import json
import math
import posixpath
import re
import shutil
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
NOTEBOOKS = PROJECT / "notebooks"
ASSETS = Path(__file__).with_name("site_assets")
EDITIONS = ("en", "zh")  # "en": notebooks/*.ipynb, "zh": notebooks/zh/*.ipynb
HTML_LANG = {"en": "en", "zh": "zh-Hans"}
FULL_PRODUCT_LIMIT = 100  # a demo with at most this many combinations gets every one
SIZE_LIMIT = 50 * 1024 * 1024
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
REPORT = "site-report.json"
OWNED = ("index.html", REPORT, "assets", "frames", *EDITIONS)  # what a rebuild replaces in OUT
UI = {
    "en": {
        "lessons": "Lessons",
        "glossary": "Glossary",
        "previous": "Previous",
        "next": "Next",
        "other": "中文版",
        "show_code": "Show the code",
        "full": "Precomputed frames: every combination of the controls.",
        "one-at-a-time": "Precomputed frames: one control at a time; the others stay at their "
        "defaults. Run the notebook for every combination.",
        "glossary_intro": "The glossary of every lesson, on one page.",
        "home": "An interactive course on the Transformer's position-wise feed-forward network, "
        "in five lessons. Every figure and every slider works here in the browser, with no "
        "Python running; the notebooks let you change the code.",
        "edition": "English edition",
    },
    "zh": {
        "lessons": "课程",
        "glossary": "术语表",
        "previous": "上一课",
        "next": "下一课",
        "other": "English",
        "show_code": "显示代码",
        "full": "预先计算的画面：控件取值的每一种组合。",
        "one-at-a-time": "预先计算的画面：每次只改变一个控件，其余控件保持默认值。"
        "运行笔记本即可查看所有组合。",
        "glossary_intro": "各课的术语表，汇集在这一页。",
        "home": "关于 Transformer 逐位置前馈网络（FFN）的交互式课程，共五课。"
        "这里的每张图和每个滑块都能直接在浏览器中使用，无需运行 Python。",
        "edition": "中文版",
    },
}
GLOSSARY_HEADING = {"en": "### Glossary (术语表)", "zh": "### 术语表 (Glossary)"}
_CODE = re.compile(r"```.*?```|~~~.*?~~~|(`+).+?\1", re.S)
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$", re.S)


class SiteError(RuntimeError):
    """The site cannot be built as asked (a demo output with no demo, a site too large)."""


def notebooks(source: Path, edition: str) -> list[Path]:
    return sorted((source if edition == "en" else source / edition).glob("*.ipynb"))


def title_of(nb) -> str:
    """The notebook's first level-1 heading, as plain text."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return re.sub(r"[`*]", "", line[2:]).strip()
    return "?"


# -- math ---------------------------------------------------------------------------------------


def math_to_placeholders(text: str, found: list[str], failures: list[str]) -> str:
    """``text`` with each ``$…$``/``$$…$$`` outside code replaced by a placeholder; its MathML
    (or, if it does not convert, its LaTeX in <code>) is appended to ``found``."""
    from latex2mathml.converter import convert

    def one(match: re.Match) -> str:
        latex, display = (match.group(1), "block") if match.group(1) else (match.group(2), "inline")
        try:
            markup = convert(latex.strip(), display=display)
            markup = markup.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "")
            unknown = re.search(r">(\\[A-Za-z]+)<", markup)  # a command it does not know
            if unknown:
                raise ValueError(f"unknown command {unknown.group(1)}")
        except Exception as error:  # latex2mathml raises many kinds
            failures.append(f"{match.group(0)!r}: {type(error).__name__}: {error}")
            markup = f'<code class="math-failed">{html.escape(match.group(0))}</code>'
        found.append(markup)
        return f"MATHPLACEHOLDER{len(found) - 1}X"

    pieces, last = [], 0
    for code in _CODE.finditer(text):
        pieces += [_MATH.sub(one, text[last : code.start()]), code.group(0)]
        last = code.end()
    return "".join([*pieces, _MATH.sub(one, text[last:])])


def restore_math(body: str, found: list[str]) -> str:
    return re.sub(r"MATHPLACEHOLDER(\d+)X", lambda m: found[int(m.group(1))], body)


# -- demos --------------------------------------------------------------------------------------


def demo_outputs(nb, path: Path, by_class: dict) -> dict[int, object]:
    """Code cell index -> the Demo whose widget its output shows; SiteError if one has none."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    found = {}
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if WIDGET_VIEW not in output.get("data", {}):
                continue
            model_id = output["data"][WIDGET_VIEW].get("model_id")
            classes = state.get(model_id, {}).get("state", {}).get("_dom_classes", [])
            demos = [by_class[c] for c in classes if c in by_class]
            if not demos:
                raise SiteError(
                    f"{path} cell {index}: its widget output (model {model_id}) shows no known "
                    f"demo (classes {classes}; known: {sorted(by_class)})"
                )
            found[index] = demos[0]
    return found


def frame_keys(demo) -> tuple[str, list[tuple[int, ...]]]:
    """("full", every index combination) or ("one-at-a-time", each control's values from the
    defaults, without repeats)."""
    sizes = [len(c.values) for c in demo.controls]
    if math.prod(sizes) <= FULL_PRODUCT_LIMIT:
        return "full", list(itertools.product(*(range(n) for n in sizes)))
    keys = []
    for values in demo.one_at_a_time():
        key = tuple(list(c.values).index(values[c.name]) for c in demo.controls)
        if key not in keys:
            keys.append(key)
    return "one-at-a-time", keys


def shrink(png: bytes) -> bytes:
    """The PNG with a 256-colour palette: a third of the bytes, the same picture to the eye."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    buffer = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
        buffer, format="PNG", optimize=True
    )
    return buffer.getvalue()


def render_frames(demo, edition: str, out: Path) -> dict:
    """Every frame of ``demo`` in ``edition``'s language under OUT/frames/: its manifest."""
    from PIL import Image

    from course_lib.i18n import set_language
    from course_lib.plots import describe
    from course_lib.widgets import demo_class

    slug = demo_class(demo).removeprefix("course-demo--")
    folder = out / "frames" / edition / slug
    folder.mkdir(parents=True, exist_ok=True)
    mode, keys = frame_keys(demo)
    defaults = tuple(list(c.values).index(c.default) for c in demo.controls)
    manifest = {"slug": slug, "mode": mode, "frames": [], "bytes": 0}
    set_language(edition)
    try:
        for n, key in enumerate(keys):
            values = {c.name: c.values[i] for c, i in zip(demo.controls, key, strict=True)}
            png = shrink(demo.png(**values))
            alt = describe(demo.figure(**values))  # the live figure shows these values now
            (folder / f"{n}.png").write_bytes(png)
            manifest["frames"].append({"src": f"../frames/{edition}/{slug}/{n}.png", "alt": alt})
            manifest["bytes"] += len(png)
            if key == defaults:
                manifest["size"] = Image.open(io.BytesIO(png)).size
    finally:
        set_language("en")
        demo.clear_cache()  # the PNGs are on disk; trained models stay in their lru_cache
    manifest["controls"] = [
        {"name": c.name, "kind": c.kind, "values": [str(v) for v in c.values], "default": i}
        for c, i in zip(demo.controls, defaults, strict=True)
    ]
    manifest["index"] = {",".join(map(str, key)): n for n, key in enumerate(keys)}
    return manifest


def demo_html(manifest: dict, edition: str) -> str:
    """The demo's controls (native inputs: keyboard-operable), its frame and its manifest."""
    slug, esc = manifest["slug"], html.escape
    rows = []
    for k, control in enumerate(manifest["controls"]):
        cid, values, default = f"{slug}-{k}", control["values"], control["default"]
        if control["kind"] == "slider":
            field = (
                f'<input type="range" id="{cid}" data-control="{k}" min="0" '
                f'max="{len(values) - 1}" step="1" value="{default}" '
                f'aria-valuetext="{esc(values[default])}"><output for="{cid}">'
                f"{esc(values[default])}</output>"
            )
        else:
            options = "".join(
                f'<option value="{i}"{" selected" if i == default else ""}>{esc(v)}</option>'
                for i, v in enumerate(values)
            )
            field = f'<select id="{cid}" data-control="{k}">{options}</select>'
        rows.append(
            f'<div class="demo-control"><label for="{cid}">{esc(control["name"])}</label>'
            f"{field}</div>"
        )
    default_key = ",".join(str(c["default"]) for c in manifest["controls"])
    first = manifest["frames"][manifest["index"][default_key]]
    width, height = manifest["size"]
    data = {k: manifest[k] for k in ("mode", "controls", "index", "frames")}
    data_json = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return (
        f'<div class="site-demo" data-demo="{slug}" data-mode="{manifest["mode"]}" '
        f'data-ready="false"><div class="demo-controls">{"".join(rows)}</div>'
        f'<img class="demo-frame" src="{first["src"]}" alt="{esc(first["alt"])}" '
        f'width="{width}" height="{height}">'
        f'<p class="demo-note">{esc(UI[edition][manifest["mode"]])}</p>'
        f'<script type="application/json" class="demo-manifest">'
        f"{data_json}</script></div>"
    )


# -- pages --------------------------------------------------------------------------------------


def site_path(target: Path, source: Path) -> str | None:
    """The site path ("en/01_x.html") of a notebook under ``source``, None if outside it."""
    try:
        parts = target.resolve().relative_to(source.resolve()).parts
    except ValueError:
        return None
    edition, rest = (parts[0], parts[1:]) if parts[0] in EDITIONS[1:] else ("en", parts)
    return posixpath.join(edition, *rest[:-1], Path(rest[-1]).stem + ".html")


def fix_links(body: str, folder: Path, source: Path, page: str) -> str:
    """Links to notebooks (``01_x.ipynb``, ``../00_index.ipynb``) become links to their pages."""

    def one(match: re.Match) -> str:
        target = site_path(folder / (match.group(1) + ".ipynb"), source)
        if target is None:
            return match.group(0)
        fragment = match.group(2) or ""
        return f'href="{posixpath.relpath(target, posixpath.dirname(page))}{fragment}"'

    return re.sub(r'href="([^":#]+)\.ipynb(#[^"]*)?"', one, body)


def prepare(nb, path: Path, page: str, out: Path, demos: dict, manifests: dict, counts: dict):
    """``nb`` ready for export: math as placeholders, images as files with alt text, demos as
    kernel-free HTML, no widget state."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    edition, stem = page.split("/")[0], Path(page).stem
    heading, math_found = "", []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            headings = re.findall(r"^#+\s+(.+)$", cell.source, re.M)
            heading = re.sub(r"[`*$]", "", headings[-1]).strip() if headings else heading
            cell.source = math_to_placeholders(cell.source, math_found, counts["math_failures"])
        if index in demos:
            html_text = demo_html(manifests[id(demos[index])], edition)
            cell.outputs = [
                {"output_type": "display_data", "metadata": {}, "data": {"text/html": html_text}}
            ]
            continue
        for k, output in enumerate(cell.get("outputs", [])):
            if "image/png" not in output.get("data", {}):
                continue
            name = f"img/{stem}-{index}-{k}.png"
            (out / edition / name).parent.mkdir(parents=True, exist_ok=True)
            (out / edition / name).write_bytes(base64.b64decode(output["data"]["image/png"]))
            meta = output.setdefault("metadata", {}).setdefault("image/png", {})
            if not str(meta.get("alt", "")).strip():
                meta["alt"] = f"Figure: {heading}" if edition == "en" else f"图：{heading}"
                counts["images_without_alt"] += 1
            output["metadata"]["filenames"] = {"image/png": name}
    return nb, math_found


def navigation(edition: str, pages: list[tuple[str, str]], page: str, root: str) -> dict:
    """The header, the list of lessons and the previous/next links of ``page``."""
    ui, esc, here = UI[edition], html.escape, posixpath.basename(page)
    other = "zh" if edition == "en" else "en"
    other_lang = HTML_LANG[other]
    current = {name: ' aria-current="page"' if name == here else "" for name, _ in pages}
    items = "".join(
        f'<li><a href="{name}"{current[name]}>{esc(t)}</a></li>' for name, t in pages[:-1]
    )
    nav = (
        f'<nav class="site-nav" aria-label="{ui["lessons"]}"><h2>{ui["lessons"]}</h2>'
        f'<ol>{items}</ol><h2>{ui["glossary"]}</h2><ol><li><a href="glossary.html"'
        f"{current['glossary.html']}>{ui['glossary']}</a></li></ol></nav>"
    )
    header = (
        f'<header class="site-header"><a class="site-home" href="{root}index.html">'
        f'{esc(pages[0][1])}</a><a class="other-edition" lang="{other_lang}" '
        f'hreflang="{other_lang}" href="../{other}/{here}">{ui["other"]}</a></header>'
    )
    names = [name for name, _ in pages]
    at = names.index(here)
    links = []
    if at > 0:
        prev_name, prev_title = pages[at - 1]
        links.append(f'<a rel="prev" href="{prev_name}">← {ui["previous"]}: {esc(prev_title)}</a>')
    if at + 1 < len(pages):
        next_name, next_title = pages[at + 1]
        links.append(f'<a rel="next" href="{next_name}">{ui["next"]}: {esc(next_title)} →</a>')
    pager = (
        f'<nav class="pager" aria-label="{ui["previous"]} / {ui["next"]}">{"".join(links)}</nav>'
    )
    return {"nav": nav, "header": header, "pager": pager}


def export(nb, site: dict) -> str:
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="course_page", extra_template_basedirs=[str(ASSETS)])
    exporter.exclude_input_prompt = exporter.exclude_output_prompt = True
    body, _ = exporter.from_notebook_node(nb, resources={"site": site})
    return body


def glossary_notebook(edition: str, lessons: list[tuple[Path, object]]):
    """A notebook of markdown cells: each lesson's glossary table under a link to the lesson."""
    import nbformat

    cells = [f"# {UI[edition]['glossary']}\n\n{UI[edition]['glossary_intro']}"]
    for path, nb in lessons:
        for cell in nb.cells:
            text = cell.source if cell.cell_type == "markdown" else ""
            if GLOSSARY_HEADING[edition] in text:
                table = text.split(GLOSSARY_HEADING[edition], 1)[1].split("\n#", 1)[0]
                cells.append(f"## [{title_of(nb)}]({path.name})\n{table}")
    glossary = nbformat.v4.new_notebook()
    glossary.cells = [nbformat.v4.new_markdown_cell(text) for text in cells]
    return glossary


def write_home(out: Path, titles: dict[str, str]) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook()
    editions = "".join(
        f'<li><a href="{e}/00_index.html" lang="{HTML_LANG[e]}">{UI[e]["edition"]}: '
        f"{html.escape(titles[e])}</a></li>"
        for e in EDITIONS
    )
    text = (
        f'# {titles["en"]}\n\n{UI["en"]["home"]}\n\n<p lang="zh-Hans">{UI["zh"]["home"]}</p>\n\n'
        f'<ul class="home-editions">{editions}</ul>'
    )
    nb.cells = [nbformat.v4.new_markdown_cell(text)]
    site = {"lang": "en", "title": titles["en"]}
    site |= dict.fromkeys(("root", "header", "nav", "pager", "show_code"), "")
    (out / "index.html").write_text(export(nb, site), encoding="utf-8")


def write_assets(out: Path) -> None:
    from pygments.formatters import HtmlFormatter

    (out / "assets").mkdir(parents=True, exist_ok=True)
    css = (ASSETS / "course.css").read_text(encoding="utf-8")
    css += "\n/* code colours (Pygments) */\n" + HtmlFormatter().get_style_defs(".highlight")
    (out / "assets" / "course.css").write_text(css, encoding="utf-8")
    shutil.copyfile(ASSETS / "demo.js", out / "assets" / "demo.js")


# -- the build ----------------------------------------------------------------------------------


def render_demos(demos: list, edition: str, out: Path) -> tuple[dict, list[dict]]:
    """Every frame of each demo in ``edition``: {id(demo): manifest}, and a report row per demo."""
    manifests, rows = {}, []
    for demo in demos:
        began = time.perf_counter()
        manifest = manifests[id(demo)] = render_frames(demo, edition, out)
        row = {"demo": demo.name, "slug": manifest["slug"], "edition": edition}
        row |= {"mode": manifest["mode"], "frames": len(manifest["frames"])}
        row |= {"bytes": manifest["bytes"], "seconds": round(time.perf_counter() - began, 1)}
        rows.append(row)
        print(
            f"{edition} {demo.name}: {row['mode']}, {row['frames']} frames, "
            f"{row['bytes'] / 1024:.0f} KiB, {row['seconds']:.1f} s"
        )
    return manifests, rows


def write_pages(
    edition: str, books: list, demos: dict, manifests: dict, out: Path, source: Path, counts: dict
) -> str:
    """Every page of ``edition``, the glossary last; returns the edition's course title."""
    pages = [(p.stem + ".html", title_of(nb)) for p, nb in books]
    pages.append(("glossary.html", UI[edition]["glossary"]))
    folder = source if edition == "en" else source / edition
    glossary = (folder / "glossary.ipynb", glossary_notebook(edition, books))
    (out / edition).mkdir(exist_ok=True)
    for (path, nb), (name, title) in zip([*books, glossary], pages, strict=True):
        page = f"{edition}/{name}"
        prepared, math_found = prepare(nb, path, page, out, demos.get(path, {}), manifests, counts)
        site = {
            "lang": HTML_LANG[edition],
            "root": "../",
            "show_code": UI[edition]["show_code"],
            "title": title if name == "00_index.html" else f"{title} · {pages[0][1]}",
            **navigation(edition, pages, page, "../"),
        }
        body = restore_math(export(prepared, site), math_found)
        (out / page).write_text(fix_links(body, path.parent, source, page), encoding="utf-8")
    return pages[0][1]


def build(out: Path, source: Path = NOTEBOOKS) -> dict:
    """Build the whole site into ``out``; returns the report (also written to OUT/site-report.json)."""
    import nbformat

    from course_lib.widgets import all_demos, demo_class

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
        manifests, edition_rows = render_demos(list(shown.values()), edition, out)
        rows += edition_rows
        titles[edition] = write_pages(
            edition, books[edition], demos, manifests, out, source, counts
        )
    write_home(out, titles)
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file() and f.name != REPORT)
    report = {"demos": rows, "total_bytes": total, "frames_bytes": sum(r["bytes"] for r in rows)}
    report |= {"math_failures": counts["math_failures"]}
    report |= {"images_without_alt": counts["images_without_alt"]}
    report |= {"build_seconds": round(time.perf_counter() - start, 1)}
    (out / REPORT).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    if total > SIZE_LIMIT:
        raise SiteError(f"the site is {total / 2**20:.1f} MiB, over {SIZE_LIMIT / 2**20:.0f} MiB")
    return report


def main(argv: list[str]) -> None:
    out = Path(argv[0] if argv else "site")
    report = build(out)
    for failure in report["math_failures"]:
        print(f"formula kept as LaTeX: {failure}")
    print(f"formulas kept as LaTeX: {len(report['math_failures'])}")
    print(f"images without stored alt text (given their heading): {report['images_without_alt']}")
    print(f"demo frames: {report['frames_bytes'] / 2**20:.1f} MiB")
    print(
        f"site: {report['total_bytes'] / 2**20:.1f} MiB in {out}/, "
        f"built in {report['build_seconds']:.0f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
