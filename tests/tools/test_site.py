"""devtools.site: the static site of both editions, built once for the test session."""

from __future__ import annotations

import io
import json
import math
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from PIL import Image

from course_lib.core.i18n import tr
from course_lib.core.widgets import all_demos, demo_class
from devtools import site
from devtools.lesson_tables import records
from tests.tools.site_build import TEST_LIMITS, built_site

EDITION_DIRS = {"en": site.NOTEBOOKS, "zh": site.NOTEBOOKS / "zh"}
RESOURCE_ATTRIBUTES = {
    "script": "src",
    "link": "href",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "object": "data",
}


class Page(HTMLParser):
    """A page as the tests read it: its tags with their attributes, its text, its manifests."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path, self.tags, self.text, self.manifests = path, [], [], []
        self._manifest = None
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script" and "demo-manifest" in dict(attrs).get("class", ""):
            self._manifest = []

    def handle_endtag(self, tag):
        if tag == "script" and self._manifest is not None:
            self.manifests.append(json.loads("".join(self._manifest)))
            self._manifest = None

    def handle_data(self, data):
        (self._manifest if self._manifest is not None else self.text).append(data)

    def all(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]

    def demos(self) -> dict[str, tuple[dict, dict]]:
        """slug -> (the demo element's attributes, its manifest), in page order."""
        elements = [a for a in self.all("div") if "site-demo" in a.get("class", "").split()]
        return {a["data-demo"]: (a, m) for a, m in zip(elements, self.manifests, strict=True)}


@pytest.fixture(scope="session")
def built() -> tuple[Path, dict, str]:
    return built_site()


@pytest.fixture(scope="session")
def pages(built) -> dict[str, Page]:
    """Every HTML page of the site by its path ("en/01_feed_forward.html")."""
    out = built[0]
    return {p.relative_to(out).as_posix(): Page(p) for p in sorted(out.rglob("*.html"))}


def expected_frames(demo, edition: str) -> tuple[str, int]:
    sizes = [len(c.values) for c in demo.controls]
    if math.prod(sizes) <= TEST_LIMITS.get(edition, site.FULL_PRODUCT_LIMIT):
        return "full", math.prod(sizes)
    return "one-at-a-time", 1 + sum(n - 1 for n in sizes)  # the defaults once, then each move


def test_every_notebook_of_both_editions_has_its_page_and_the_home_links_both(pages):
    for edition, folder in EDITION_DIRS.items():
        stems = [p.stem for p in sorted(folder.glob("*.ipynb"))]
        assert stems == [p.stem for p in sorted(EDITION_DIRS["en"].glob("*.ipynb"))]
        assert stems[0] == "00_index" and len(stems) > 1  # the index, then every lesson found
        for stem in [*stems, "glossary"]:
            assert f"{edition}/{stem}.html" in pages, f"no page for {edition}/{stem}"
    home = {a["href"] for a in pages["index.html"].all("a")}
    assert {"en/00_index.html", "zh/00_index.html"} <= home


def test_the_home_page_counts_the_lessons_the_site_has(pages):
    lessons = len([p for p in EDITION_DIRS["en"].glob("*.ipynb") if p.name[:2] != "00"])
    text = " ".join(" ".join(pages["index.html"].text).split())
    assert f"network, in {lessons} lessons." in text and f"共 {lessons} 课" in text


def test_every_local_link_resolves_and_every_page_has_the_editions_navigation(built, pages):
    out = built[0]
    for name, page in pages.items():
        for attrs in page.all("a"):
            href = attrs.get("href", "")
            if not href or href.startswith(("#", "http://", "https://", "mailto:")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), href.split("#")[0]))
            assert (out / target).is_file(), f"{name}: link {href!r} leads nowhere"
        if name == "index.html":
            continue
        edition, stem = name.split("/")[0], Path(name).stem
        other = "zh" if edition == "en" else "en"
        hrefs = [a.get("href") for a in page.all("a")]
        lessons = [f"{p.stem}.html" for p in sorted(EDITION_DIRS[edition].glob("*.ipynb"))]
        assert all(lesson in hrefs for lesson in [*lessons, "glossary.html"]), name
        assert f"../{other}/{stem}.html" in hrefs, f"{name} has no link to the other edition"
        order = [*lessons, "glossary.html"]
        at = order.index(f"{stem}.html")
        rel = {a.get("rel"): a.get("href") for a in page.all("a") if a.get("rel")}
        assert rel.get("prev") == (order[at - 1] if at else None), name
        assert rel.get("next") == (order[at + 1] if at + 1 < len(order) else None), name


def test_no_page_loads_anything_from_outside_the_site(pages):
    for name, page in pages.items():
        for tag, attribute in RESOURCE_ATTRIBUTES.items():
            for attrs in page.all(tag):
                value = attrs.get(attribute) or ""
                assert not value.startswith(("http:", "https:", "//")), f"{name}: <{tag}> {value}"
        scripts = [a.get("src") for a in page.all("script") if a.get("src")]
        sheets = [a["href"] for a in page.all("link") if a.get("rel") == "stylesheet"]
        root = "" if name == "index.html" else "../"
        assert scripts == [f"{root}assets/demo.js", f"{root}assets/quiz.js"], (name, scripts)
        assert sheets == [f"{root}assets/course.css"], (name, sheets)
        assert page.all("title") and "".join(page.text).strip(), name


def test_every_image_has_alt_text_and_exists(built, pages):
    out, report, printed = built
    images = 0
    for name, page in pages.items():
        for attrs in page.all("img"):
            images += 1
            assert (attrs.get("alt") or "").strip(), f"{name}: an image without alt: {attrs}"
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), attrs["src"]))
            assert (out / target).is_file(), f"{name}: image {attrs['src']} is missing"
    assert images > 2 * 30
    assert report["images_without_alt"] == 0  # the executed notebooks store every alt
    assert "images without stored alt text (given their heading): 0" in printed


def test_every_demo_is_on_its_page_in_both_editions_with_every_frame_its_mode_promises(
    built, pages
):
    out = built[0]
    for demo in all_demos():
        slug = demo_class(demo).removeprefix("course-demo--")
        fresh = Image.open(io.BytesIO(demo.png())).size
        for edition in site.EDITIONS:
            mode, count = expected_frames(demo, edition)
            found = [
                p.demos()[slug]
                for n, p in pages.items()
                if n.startswith(edition) and slug in p.demos()
            ]
            assert len(found) == 1, f"{demo.name} is on {len(found)} {edition} pages"
            element, manifest = found[0]
            assert element["data-mode"] == manifest["mode"] == mode, demo.name
            assert len(manifest["frames"]) == len(manifest["index"]) == count, demo.name
            for frame in manifest["frames"]:
                assert (out / edition / frame["src"]).resolve().is_file(), frame["src"]
                assert frame["alt"].strip(), f"{demo.name}: a frame without alt text"
            assert [c["name"] for c in manifest["controls"]] == [c.name for c in demo.controls]
            assert [c["label"] for c in manifest["controls"]] == [
                c.name if c.label is None else tr(c.label, edition) for c in demo.controls
            ], f"{demo.name}: each control under its label in the page's language"
            default_key = ",".join(str(c["default"]) for c in manifest["controls"])
            default_frame = manifest["frames"][manifest["index"][default_key]]
            with Image.open(out / edition / default_frame["src"]) as image:
                assert image.size == fresh, f"{demo.name}: defaults frame {image.size} != {fresh}"
        demo.clear_cache()


NOTES = {
    ("en", "full"): "Precomputed frames: every combination of the controls.",
    ("en", "one-at-a-time"): "Precomputed frames: one control at a time; the others stay at their "
    "defaults. Run the notebook for every combination.",
    ("zh", "full"): "每一种组合",
    ("zh", "one-at-a-time"): "每次只改变一个控件",
}


def test_each_demo_says_how_its_frames_were_chosen_and_a_move_changes_one_control_only(pages):
    for name, page in pages.items():
        text = " ".join(page.text)
        for slug, (_, manifest) in page.demos().items():
            assert NOTES[name[:2], manifest["mode"]] in text, f"{name}: {slug} lacks its note"
            if manifest["mode"] == "one-at-a-time":
                defaults = [c["default"] for c in manifest["controls"]]
                for key in manifest["index"]:
                    moved = [i for i, v in enumerate(map(int, key.split(","))) if v != defaults[i]]
                    assert len(moved) <= 1, f"{slug}: frame {key} moves two controls"


def test_chinese_pages_are_marked_chinese_and_use_chinese_navigation(pages):
    for name, page in pages.items():
        (html_tag,) = page.all("html")
        text = " ".join(page.text)
        if name.startswith("zh/"):
            assert html_tag["lang"] == "zh-Hans", name
            assert "课程" in text and "术语表" in text and "English" in text, name
            assert ("上一课" in text or "下一课" in text) and "Lessons" not in text, name
        else:
            assert html_tag["lang"] == "en", name
            if name != "index.html":
                assert "Lessons" in text and "中文版" in text and "课程" not in text, name


def test_formulas_became_mathml_and_no_dollar_formula_is_left(pages, built):
    for edition in site.EDITIONS:
        lesson = pages[f"{edition}/01_feed_forward.html"]
        source = lesson.path.read_text(encoding="utf-8")
        assert '<math display="block"><mrow><mtext>FFN</mtext>' in source, edition
        assert "$$" not in " ".join(lesson.text)
    assert built[1]["math_failures"] == []


def test_math_in_code_stays_and_a_formula_that_fails_is_kept_as_latex_code():
    found, failures = [], []
    text = "see `$x$` and $y_1$\n\n```\nprint('$z$')\n```\n$$x^$$ and $\\nosuch{x}$"
    marked = site.math_to_placeholders(text, found, failures)
    assert "`$x$`" in marked and "print('$z$')" in marked
    assert "$y_1$" not in marked and "<msub>" in found[0]
    assert len(failures) == 2 and "nosuch" in failures[1]
    assert found[1] == '<code class="math-failed">$$x^$$</code>'
    assert site.restore_math(marked, found).count("<math") == 1


def test_glossary_gathers_every_lessons_table_under_a_link_to_the_lesson(pages):
    for edition in site.EDITIONS:
        glossary = pages[f"{edition}/glossary.html"]
        lessons = [EDITION_DIRS[edition] / lesson.notebook for lesson in records()]
        assert len(glossary.all("table")) == len(lessons) > 0
        hrefs = [a.get("href") for a in glossary.all("a")]
        for lesson in lessons:
            assert hrefs.count(f"{lesson.stem}.html") >= 2, f"{edition}: no link to {lesson}"
        assert "前馈网络" in " ".join(glossary.text)


def test_the_report_matches_the_files_and_the_site_stays_under_50_mb(built):
    out, report, printed = built
    on_disk = sum(f.stat().st_size for f in out.rglob("*") if f.is_file() and f.name != site.REPORT)
    assert report["total_bytes"] == on_disk < site.SIZE_LIMIT == 50 * 2**20
    assert len(report["demos"]) == 2 * len(all_demos())
    for row in report["demos"]:
        frames = out / "frames" / row["edition"] / row["slug"]
        files = list(frames.glob("*.png"))
        assert len(files) == row["frames"] and sum(f.stat().st_size for f in files) == row["bytes"]
        demo = next(d for d in all_demos() if d.name == row["demo"])
        assert row["mode"] == expected_frames(demo, row["edition"])[0]
    assert "built in" in printed and report["build_seconds"] > 0


def test_a_widget_output_that_is_no_demo_fails_the_build_naming_notebook_and_cell(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# A lesson"),
        nbformat.v4.new_code_cell(
            "build(demo)",
            outputs=[
                nbformat.v4.new_output(
                    "display_data",
                    data={
                        site.WIDGET_VIEW: {"model_id": "m1", "version_major": 2, "version_minor": 0}
                    },
                )
            ],
        ),
    ]
    notebook.metadata["widgets"] = {
        site.WIDGET_STATE: {
            "state": {
                "m1": {"state": {"_dom_classes": ["course-demo", "course-demo--no-such-demo"]}}
            }
        }
    }
    (tmp_path / "notebooks" / "zh").mkdir(parents=True)
    nbformat.write(notebook, tmp_path / "notebooks" / "01_fake.ipynb")
    with pytest.raises(site.SiteError, match=r"01_fake\.ipynb cell 1: .*course-demo--no-such-demo"):
        site.build(tmp_path / "out", source=tmp_path / "notebooks")
    assert not (tmp_path / "out").exists(), "the build wrote files before it failed"


def test_the_test_build_draws_a_several_control_demo_in_full_and_the_rest_one_at_a_time(built):
    modes = {(row["edition"], row["mode"]) for row in built[1]["demos"]}
    assert modes == {("en", "full"), ("en", "one-at-a-time"), ("zh", "one-at-a-time")}
    by_name = {d.name: d for d in all_demos()}
    full = [by_name[row["demo"]] for row in built[1]["demos"] if row["mode"] == "full"]
    assert any(len(demo.controls) >= 2 for demo in full), "the full mode is not driven"


def test_every_shipped_combination_computes_and_updates_its_view():
    """Every combination ``make site`` draws (site.frame_keys at the shipped limit): its data
    computes and its view takes it. The test build draws every value of every control, not every
    combination (site_build.py says why)."""
    for demo in all_demos():
        mode, keys = site.frame_keys(demo)
        for key in keys:
            values = {c.name: c.values[i] for c, i in zip(demo.controls, key, strict=True)}
            figure = demo.figure(**values)
            assert figure.axes, f"{demo.name} at {values}: nothing drawn"
        demo.clear_cache()


def test_frame_keys_give_every_combination_up_to_the_limit_and_one_at_a_time_beyond():
    demo = next(d for d in all_demos() if len(d.controls) >= 2)
    sizes = [len(c.values) for c in demo.controls]
    mode, keys = site.frame_keys(demo, math.prod(sizes))
    assert mode == "full" and len(keys) == len(set(keys)) == math.prod(sizes)
    mode, keys = site.frame_keys(demo, 0)
    assert mode == "one-at-a-time" and len(keys) == 1 + sum(n - 1 for n in sizes)


@pytest.mark.parametrize(
    ("limits", "error", "message"),
    [
        ({"fr": 0}, ValueError, r"limits: edition must be one of \['en', 'zh'\], got 'fr'"),
        ({"zh": -1}, ValueError, r"limits\['zh'\] must be an int >= 0, got -1"),
        ({"zh": True}, TypeError, r"limits\['zh'\] must be an int >= 0, got True"),
        ({"en": "all"}, TypeError, r"limits\['en'\] must be an int >= 0, got 'all'"),
    ],
)
def test_build_rejects_limits_it_cannot_use_naming_them(tmp_path, limits, error, message):
    with pytest.raises(error, match=message):
        site.build(tmp_path / "out", limits=limits)
    assert not (tmp_path / "out").exists()


def test_no_frame_of_either_edition_was_drawn_with_a_problem(built):
    rows = built[1]["demos"]
    assert {row["edition"] for row in rows} == set(site.EDITIONS)
    assert all(row["problems"] == [] for row in rows)


def test_a_frame_drawn_wrong_fails_the_build_naming_the_demo_and_the_problem(tmp_path, monkeypatch):
    import devtools.site as built_module

    def wrong(demos, edition, out, limit):
        row = {"demo": "width", "problems": ["{'d_ff': 8}: Glyph 23485 missing from font(s)"]}
        return {}, [row]

    (tmp_path / "notebooks" / "zh").mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "notebooks" / "01_empty.ipynb")
    monkeypatch.setattr(built_module, "render_demos", wrong)
    with pytest.raises(
        site.SiteError, match=r"en frames drawn wrong:\nwidth, \{'d_ff': 8\}: Glyph"
    ):
        site.build(tmp_path / "out", source=tmp_path / "notebooks")


def test_no_page_shows_the_test_runners_markers(pages):
    for path, page in pages.items():
        text = "".join(page.text)
        assert "NBVAL_" not in text and "nbval cannot compare" not in text, path


def test_for_readers_drops_a_marker_and_its_reason_but_keeps_the_code():
    from devtools.site.pages import for_readers

    source = "# NBVAL_IGNORE_OUTPUT\n# A live widget; nbval cannot compare it\nbuild(demo)  # kept"
    assert for_readers(source) == "build(demo)  # kept"
    assert for_readers("x = 1\n# a reader's comment\ny = 2") == "x = 1\n# a reader's comment\ny = 2"


FORM = re.compile(
    r'<form\b[^>]*\bdata-question="([a-z0-9-]+)"[^>]*>.*?class="question-data"[^>]*>(.*?)</script>',
    re.S,
)


def test_every_question_is_a_form_with_the_notebooks_choices_and_replies(built):
    from course_lib.core.questions import QUESTIONS, question
    from devtools.site.texts import speaking

    out, seen = built[0], {"en": [], "zh": []}
    for edition in seen:
        for path in sorted((out / edition).glob("[0-9]*.html")):
            text = path.read_text(encoding="utf-8")
            forms = FORM.findall(text)
            assert text.count('class="quiz-progress"') == (1 if forms else 0), path
            for key, data in forms:
                data, q = json.loads(data.replace("<\\/", "</")), question(key)
                with speaking(edition):
                    replies = [q.reply(i)[1] for i in range(len(q.choices))]
                assert data == {"answer": q.answer, "replies": replies}, (path, key)
                seen[edition].append(key)
    assert sorted(seen["en"]) == sorted(seen["zh"]) == sorted(QUESTIONS)


REVEAL = re.compile(r'<div class="reveal-after" data-question="([a-z0-9-]+)">')


def test_a_predict_questions_results_wait_for_its_answer_and_nothing_else_does(built):
    """Every predict question's folded results are wrapped for the page's script to hide until
    the reader answers (site_assets/quiz.js); an explain question's prose is not."""
    from course_lib.core.questions import QUESTIONS, question
    from devtools.site.texts import word

    out, wrapped = built[0], {"en": [], "zh": []}
    for edition, keys in wrapped.items():
        for path in sorted((out / edition).glob("[0-9]*.html")):
            text = path.read_text(encoding="utf-8")
            keys += REVEAL.findall(text)
            assert text.count(word(edition, "reveal_waiting")) == len(REVEAL.findall(text))
    predict = {k for k in QUESTIONS if question(k).kind == "predict"}
    assert set(wrapped["en"]) == set(wrapped["zh"]) == predict
    assert wrapped["en"] == wrapped["zh"]


def test_every_exercise_solution_sits_behind_one_button_with_its_output(built):
    """A solution's checker line names the answer, so the page folds code and output together."""
    from tests.test_exercises import exercises

    out = built[0]
    for edition in ("en", "zh"):
        for path in [EDITION_DIRS[edition] / lesson.notebook for lesson in records()]:
            found = exercises(nbformat.read(path, as_version=4).cells, edition)
            coding = [e for e in found if not e.asks]
            text = (out / edition / f"{path.stem}.html").read_text(encoding="utf-8")
            boxes = re.findall(
                r'<details class="hidden-source solution">(.*?)</details>', text, re.S
            )
            assert len(boxes) == len(coding), (edition, path.name)
            assert all("✔" in box for box in boxes), "each holds its checker's passing line"


def test_code_is_shown_as_text_even_where_it_reads_as_html(tmp_path: Path):
    """The pages highlight code with Pygments and skip nbconvert's sanitising pass over it (it had
    nothing to remove): markup in a code cell must still reach the reader as text, never as tags."""
    from devtools.site.pages import export

    source = 'html = "</pre></div><script>alert(1)</script><img src=x onerror=alert(2)>"'
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nb.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    fields = {"lang": "en", "title": "t", "root": "", "show_code": "", "lessons": None}
    (tmp_path / "page.html").write_text(export(nb, fields), encoding="utf-8")
    page = Page(tmp_path / "page.html")
    assert [a.get("src") for a in page.all("script")] == ["assets/demo.js", "assets/quiz.js"]
    assert page.all("img") == []
    assert "<script>alert(1)</script><img src=x onerror=alert(2)>" in "".join(page.text)


def test_every_progress_bar_is_drawn_finished_in_both_editions_never_as_widget_text(pages):
    """A long cell's bar (course_lib.core.progress) is on its page as a finished <progress> with
    its description in the page's language; never the widget's text/plain or a box's repr."""
    from course_lib.core.progress import PROGRESS_CLASS

    bars = 0
    for path, page in pages.items():
        text = "".join(page.text)
        assert "HBox(" not in text and "|          |" not in text, path
        for attrs in page.all("div"):
            bars += PROGRESS_CLASS in attrs.get("class", "").split()
        for attrs in page.all("progress"):
            assert attrs["value"] == attrs["max"], f"{path}: a bar drawn unfinished {attrs}"
    assert bars >= 10, f"only {bars} progress bars found on the pages"


def test_a_progress_bar_is_read_from_the_stored_widget_state():
    from course_lib.core.progress import PROGRESS_CLASS
    from devtools.site.pages import progress_bar_html

    view = {"data": {site.WIDGET_VIEW: {"model_id": "box"}}}
    state = {
        "box": {
            "state": {
                "_dom_classes": [PROGRESS_CLASS],
                "children": ["IPY_MODEL_l", "IPY_MODEL_b", "IPY_MODEL_r"],
            }
        },  # fmt: skip
        "l": {"state": {"value": "训练 &lt;x&gt;\u2007"}},
        "b": {"state": {"value": 7.0, "max": 7.0}},
        "r": {"state": {"value": "\u20077/7"}},
    }
    html_text = progress_bar_html(view, state)
    assert '<progress value="7" max="7">' in html_text
    assert "<span>训练 &lt;x&gt;</span>" in html_text and "<span>7/7</span>" in html_text
    state["box"]["state"]["_dom_classes"] = ["a-demo"]
    assert progress_bar_html(view, state) is None
