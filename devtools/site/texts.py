"""What every part of the site shares: its places, its limits, the words of its pages in each
edition (from the catalogue, ``course_lib.core.i18n``), and formulas turned into MathML."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from course_lib.core.i18n import N_, language, set_language, tr

PROJECT = Path(__file__).resolve().parents[2]
NOTEBOOKS = PROJECT / "notebooks"
ASSETS = Path(__file__).resolve().parents[1] / "site_assets"
EDITIONS = ("en", "zh")  # "en": notebooks/*.ipynb, "zh": notebooks/zh/*.ipynb
HTML_LANG = {"en": "en", "zh": "zh-Hans"}
EDITION_NAME = {"en": "English", "zh": "中文版"}  # each edition's name in its own language
FULL_PRODUCT_LIMIT = 100  # a demo with at most this many combinations gets every one
SIZE_LIMIT = 50 * 1024 * 1024
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
REPORT = "site-report.json"
OWNED = ("index.html", REPORT, "assets", "frames", *EDITIONS)  # what a rebuild replaces in OUT
GLOSSARY_HEADING = {"en": "### Glossary (术语表)", "zh": "### 术语表"}
# each edition's glossary heading, then the ones it replaced (a lesson not yet renamed)
GLOSSARY_HEADINGS = {
    "en": ("### Glossary (术语表)",),
    "zh": ("### 术语表", "### 术语表（Glossary）"),
}
WORDS = {
    "lessons": N_("Lessons"),
    "glossary": N_("Glossary"),
    "menu": N_("Lessons and glossary"),
    "previous": N_("Previous"),
    "next": N_("Next"),
    "show_code": N_("Show the code"),
    "show_solution": N_("Show the solution"),
    "full": N_("Precomputed frames: every combination of the controls."),
    "one-at-a-time": N_(
        "Precomputed frames: one control at a time; the others stay at their defaults. "
        "Run the notebook for every combination."
    ),
    "glossary_intro": N_("The glossary of every lesson, on one page."),
    "check": N_("Check my answer"),
    "reveal_waiting": N_("The result is hidden until you answer the question above."),
    "reveal_show": N_("Show it now"),
    # {right} and {total} are filled in by the page's script (site_assets/quiz.js)
    "progress": N_("Questions on this page answered correctly: {right} of {total}"),
    "home": N_(
        "An interactive course on the Transformer's position-wise feed-forward network, in "
        "{lessons} lessons. Every figure and every slider works here in the browser, with no Python "
        "running; the notebooks let you change the code."
    ),
}
_CODE = re.compile(r"```.*?```|~~~.*?~~~|(`+).+?\1", re.S)
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$", re.S)


class SiteError(RuntimeError):
    """The site cannot be built as asked (a demo output with no demo, a site too large)."""


@contextmanager
def speaking(edition: str) -> Iterator[None]:
    """The catalogue's language set to ``edition``'s for the block, then back as it was: for a
    demo's frames, whose figures draw their texts in the learner's language as in a notebook.
    A text the site writes itself passes the edition to ``tr`` instead."""
    previous = language()
    set_language(edition)
    try:
        yield
    finally:
        set_language(previous)


def word(edition: str, key: str, **fields) -> str:
    """One of the pages' own ``WORDS`` in ``edition``'s language."""
    return tr(WORDS[key], edition, **fields)


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
