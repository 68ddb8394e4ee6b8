"""The site's pages: a notebook made ready for export (formulas, images with alt text, demos),
nbconvert with the course's template, navigation between lessons and editions, the glossary
page, the home page and the shared assets."""

from __future__ import annotations

import base64
import copy
import functools
import html
import posixpath
import re
import shutil
from pathlib import Path

from course_lib.core.i18n import tr
from course_lib.core.progress import PROGRESS_CLASS
from course_lib.core.questions import question
from devtools.site.frames import demo_html
from devtools.site.quiz import asked, progress_html, question_html
from devtools.site.texts import (
    ASSETS,
    EDITION_NAME,
    EDITIONS,
    GLOSSARY_HEADINGS,
    HTML_LANG,
    WIDGET_STATE,
    WIDGET_VIEW,
    math_to_placeholders,
    restore_math,
    title_of,
    word,
)


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


NBVAL_MARKER = re.compile(r"^# NBVAL_[A-Z_]+$")


def for_readers(source: str) -> str:
    """A code cell as a reader of the site sees it: without nbval's markers and the comment lines
    that follow one (they tell the test runner, not the reader, why an output is not compared)."""
    kept, skipping = [], False
    for line in source.splitlines():
        if NBVAL_MARKER.match(line.strip()):
            skipping = True
            continue
        if skipping and line.lstrip().startswith("#"):
            continue
        skipping = False
        kept.append(line)
    return "\n".join(kept)


def progress_bar_html(output: dict, state: dict) -> str | None:
    """A long cell's progress bar (``course_lib.core.progress``) as the page shows it: the bar as
    it stood when the cell finished, read from the stored widget state (its description, a native
    ``<progress>`` and "n/total"); None when ``output`` is not such a bar."""
    model_id = output.get("data", {}).get(WIDGET_VIEW, {}).get("model_id")
    box = state.get(model_id, {}).get("state", {})
    if PROGRESS_CLASS not in box.get("_dom_classes", []):
        return None
    children = [
        state.get(str(child).removeprefix("IPY_MODEL_"), {}).get("state", {})
        for child in box.get("children", [])
    ]
    if len(children) != 3:
        return None
    left, bar, right = children

    def text(model: dict) -> str:  # tqdm writes HTML-escaped text with figure spaces
        return html.escape(
            html.unescape(str(model.get("value", ""))).replace("\u2007", " ").strip()
        )

    value, top = float(bar.get("value", 0)), float(bar.get("max", 1) or 1)
    return (
        f'<div class="{PROGRESS_CLASS}"><span>{text(left)}</span> '
        f'<progress value="{value:g}" max="{top:g}"></progress> <span>{text(right)}</span></div>'
    )


def prepare(nb, path: Path, page: str, out: Path, demos: dict, manifests: dict, counts: dict):
    """``nb`` ready for export: math as placeholders, images as files with alt text, demos as
    kernel-free HTML, progress bars drawn finished, no widget state, code without the test
    runner's markers."""
    nb = copy.deepcopy(nb)
    state = nb.metadata.pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    edition, stem = page.split("/")[0], Path(page).stem
    heading, math_found, questions, predicted = "", [], 0, None
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            cell.source = for_readers(cell.source)
            key = asked(cell.source)
            folded = cell.metadata.get("jupyter", {})
            if predicted and folded.get("outputs_hidden"):
                cell.metadata["reveal_after"] = predicted  # hidden until the reader answers
            elif folded.get("outputs_hidden") and folded.get("source_hidden"):
                cell.metadata["solution"] = True  # code and output behind one "show" button
            if key is not None:  # the notebook's widget becomes a form that answers in the page
                predicted = key if question(key).kind == "predict" else None
                form = question_html(key, edition)
                if not questions:  # the page's score, above its first question
                    form = progress_html(edition) + form
                cell.outputs = [
                    {"output_type": "display_data", "metadata": {}, "data": {"text/html": form}}
                ]
                questions += 1
                continue
        if cell.cell_type == "markdown":
            predicted = None  # a predict question's result ends where the prose resumes
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
            bar = (
                progress_bar_html(output, state) if WIDGET_VIEW in output.get("data", {}) else None
            )
            if bar is not None:
                output["data"] = {"text/html": bar}
                continue
            if "image/png" not in output.get("data", {}):
                continue
            name = f"img/{stem}-{index}-{k}.png"
            (out / edition / name).parent.mkdir(parents=True, exist_ok=True)
            (out / edition / name).write_bytes(base64.b64decode(output["data"]["image/png"]))
            meta = output.setdefault("metadata", {}).setdefault("image/png", {})
            if not str(meta.get("alt", "")).strip():
                meta["alt"] = tr("Figure: {what}", edition, what=heading)
                counts["images_without_alt"] += 1
            output["metadata"]["filenames"] = {"image/png": name}
    return nb, math_found


def navigation(edition: str, pages: list[tuple[str, str]], page: str, root: str) -> dict:
    """What the page template's header, list of lessons and previous/next links show for
    ``page`` (the markup itself lives in the template, site_assets/course_page)."""
    here = posixpath.basename(page)
    other = "zh" if edition == "en" else "en"
    names = [name for name, _ in pages]
    at = names.index(here)
    return {
        "ui": {
            key: word(edition, key) for key in ("lessons", "glossary", "menu", "previous", "next")
        },
        "home": {"href": f"{root}index.html", "title": pages[0][1]},
        "other": {
            "lang": HTML_LANG[other],
            "href": f"../{other}/{here}",
            "name": EDITION_NAME[other],
        },
        "lessons": [
            {"href": name, "title": title, "current": name == here} for name, title in pages[:-1]
        ],
        "glossary_current": here == "glossary.html",
        "prev": dict(zip(("href", "title"), pages[at - 1], strict=True)) if at > 0 else None,
        "next": (
            dict(zip(("href", "title"), pages[at + 1], strict=True))
            if at + 1 < len(pages)
            else None
        ),
    }


@functools.cache
def _exporter():
    """One HTML exporter for every page: loading its templates took half of each page's time."""
    from nbconvert import HTMLExporter, TemplateExporter
    from nbconvert.filters.highlight import Highlight2HTML
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    class PageExporter(HTMLExporter):
        """nbconvert's HTML exporter without its last pass, which parses the whole page again
        with BeautifulSoup (40 % of a page's time) to give a stock alt text to images without
        one and a tabindex to JupyterLab's cell wrappers: every image of the site has its own
        alt text (``images_without_alt`` counts those given their heading), and the classic
        cells of this template have no such wrappers."""

        def from_notebook_node(self, nb, resources=None, **kw):
            info = nb.metadata.get("language_info", {})
            lexer = info.get("pygments_lexer", info.get("name"))
            resources = self._init_resources(resources)
            self.register_filter(
                "highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self)
            )
            self.register_filter(
                "filter_data_type",
                WidgetsDataTypeFilter(
                    notebook_metadata=self._nb_metadata, parent=self, resources=resources
                ),
            )
            return TemplateExporter.from_notebook_node(self, nb, resources, **kw)

    exporter = PageExporter(template_name="course_page", extra_template_basedirs=[str(ASSETS)])
    exporter.exclude_input_prompt = exporter.exclude_output_prompt = True
    return exporter


def export(nb, site: dict) -> str:
    """The page's HTML. A wide table or a long code line scrolls sideways inside the page
    (course.css), so each table and each block of code takes the keyboard's focus too: a reader
    without a mouse can scroll it with the arrow keys (axe-core's rule scrollable-region-focusable)."""
    body, _ = _exporter().from_notebook_node(nb, resources={"site": site})
    body = re.sub(r'(<div class="[^"]*\bhighlight\b[^"]*">)<pre>', r'\1<pre tabindex="0">', body)
    return body.replace("<table>", '<table tabindex="0">')


def glossary_notebook(edition: str, lessons: list[tuple[Path, object]]):
    """A notebook of markdown cells: each lesson's glossary table under a link to the lesson."""
    import nbformat

    cells = [f"# {word(edition, 'glossary')}\n\n{word(edition, 'glossary_intro')}"]
    for path, nb in lessons:
        for cell in nb.cells:
            text = cell.source if cell.cell_type == "markdown" else ""
            lines = text.split("\n")
            found = [i for i, line in enumerate(lines) if line in GLOSSARY_HEADINGS[edition]]
            if found:
                table = "\n".join(lines[found[0] + 1 :]).split("\n#", 1)[0]
                cells.append(f"## [{title_of(nb)}]({path.name})\n\n{table}")
    glossary = nbformat.v4.new_notebook()
    glossary.cells = [nbformat.v4.new_markdown_cell(text) for text in cells]
    return glossary


def write_home(out: Path, titles: dict[str, str], lessons: int) -> None:
    """The site's front page: the course in both languages, ``lessons`` lessons long, and a link
    to each edition's index."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    editions = "".join(
        f'<li><a href="{e}/00_index.html" lang="{HTML_LANG[e]}">{EDITION_NAME[e]}: '
        f"{html.escape(titles[e])}</a></li>"
        for e in EDITIONS
    )
    text = (
        f"# {titles['en']}\n\n{word('en', 'home', lessons=lessons)}\n\n"
        f'<p lang="zh-Hans">{word("zh", "home", lessons=lessons)}</p>\n\n'
        f'<ul class="home-editions">{editions}</ul>'
    )
    nb.cells = [nbformat.v4.new_markdown_cell(text)]
    site = {"lang": "en", "title": titles["en"], "root": "", "show_code": "", "lessons": None}
    (out / "index.html").write_text(export(nb, site), encoding="utf-8")


def write_assets(out: Path) -> None:
    from pygments.formatters import HtmlFormatter

    (out / "assets").mkdir(parents=True, exist_ok=True)
    css = (ASSETS / "course.css").read_text(encoding="utf-8")
    css += "\n/* code colours (Pygments) */\n" + HtmlFormatter().get_style_defs(".highlight")
    (out / "assets" / "course.css").write_text(css, encoding="utf-8")
    for script in ("demo.js", "quiz.js"):
        shutil.copyfile(ASSETS / script, out / "assets" / script)


def write_pages(
    edition: str, books: list, demos: dict, manifests: dict, out: Path, source: Path, counts: dict
) -> str:
    """Every page of ``edition``, the glossary last; returns the edition's course title."""
    pages = [(p.stem + ".html", title_of(nb)) for p, nb in books]
    pages.append(("glossary.html", word(edition, "glossary")))
    folder = source if edition == "en" else source / edition
    glossary = (folder / "glossary.ipynb", glossary_notebook(edition, books))
    (out / edition).mkdir(exist_ok=True)
    for (path, nb), (name, title) in zip([*books, glossary], pages, strict=True):
        page = f"{edition}/{name}"
        prepared, math_found = prepare(nb, path, page, out, demos.get(path, {}), manifests, counts)
        site = {
            "lang": HTML_LANG[edition],
            "root": "../",
            "show_code": word(edition, "show_code"),
            "show_solution": word(edition, "show_solution"),
            "reveal": {k: word(edition, k) for k in ("reveal_waiting", "reveal_show")},
            "title": title if name == "00_index.html" else f"{title} · {pages[0][1]}",
            **navigation(edition, pages, page, "../"),
        }
        body = restore_math(export(prepared, site), math_found)
        (out / page).write_text(fix_links(body, path.parent, source, page), encoding="utf-8")
    return pages[0][1]
