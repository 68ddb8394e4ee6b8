"""The static site (``make site``) in Chromium, served over HTTP with no kernel: every page of both
editions loads cleanly, shows every image with its alt text, and every kernel-free demo answers
each control by swapping to the right precomputed frame, every question answers a reader's
choice with its own reply and keeps it, and every page fits a phone's 390 px without scrolling
sideways. How fast it swaps is recorded in
artifacts/browser/site-swaps/ and judged by the benchmark (benchmarks/test_site.py), never
here: a slower machine must not fail the suite. A demo whose script does not swap frames is caught.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_suite import ARTIFACTS, NOTEBOOKS, VIEWPORT, in_ci
from sitepage import (
    AXE,
    INSTALL_AXE,
    accessibility_problems,
    exercise_demos,
    open_page,
    question_problems,
    sideways_problems,
)
from siteserver import SiteServer

from tests.tools.site_build import built_site

pytestmark = pytest.mark.browser

PAGES = [
    "index.html",
    *(f"en/{p.stem}.html" for p in sorted(NOTEBOOKS.glob("*.ipynb"))),
    "en/glossary.html",
    *(f"zh/{p.stem}.html" for p in sorted((NOTEBOOKS / "zh").glob("*.ipynb"))),
    "zh/glossary.html",
]
SWAPS = ARTIFACTS / "site-swaps"
_IMAGE_PROBLEMS = """() => [...document.images].flatMap((img) => [
  ...(img.complete && img.naturalWidth > 0 ? [] : [`broken image ${img.getAttribute("src")}`]),
  ...((img.getAttribute("alt") || "").trim() ? [] : [`no alt on ${img.getAttribute("src")}`]),
])"""


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    with SiteServer(built_site()[0]) as server:
        yield server.url


@pytest.mark.parametrize("path", PAGES)
def test_site_page_loads_cleanly_and_every_demo_control_swaps_its_frame(browser, site_url, path):
    reader = browser.browser.new_context(viewport=VIEWPORT)
    page, errors = open_page(reader, f"{site_url}/{path}")  # a new reader: nothing answered yet
    try:
        assert page.evaluate(_IMAGE_PROBLEMS) == []
        barriers = accessibility_problems(page)  # as loaded: nothing answered or moved yet
        assert not barriers, "\n".join(barriers)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = "index" if path == "index.html" else path.replace("/", "-").removesuffix(".html")
        page.screenshot(path=str(ARTIFACTS / f"site-{name}.png"))
        problems = question_problems(page)  # every question answered wrong, then right
        assert not problems, "\n".join(problems)
        problems, swaps = exercise_demos(page)  # after the answers: they reveal hidden demos
        SWAPS.mkdir(parents=True, exist_ok=True)
        (SWAPS / f"{name}.json").write_text(json.dumps({"page": path, "swaps": swaps}, indent=1))
        if page.locator(".site-demo").count():
            page.locator(".site-demo").first.screenshot(
                path=str(ARTIFACTS / f"site-{name}-demo.png")
            )
        assert not problems, "\n".join(problems)
        assert not errors, "\n".join(errors)
        sideways = sideways_problems(page)  # last: it turns the page into a phone's
        page.screenshot(path=str(ARTIFACTS / f"site-{name}-phone.png"))
        assert not sideways, "\n".join(sideways)
    finally:
        reader.close()


@pytest.fixture(scope="session", autouse=True)
def axe_installed():
    if not AXE.exists():
        message = f"axe-core missing for the site's accessibility check: {INSTALL_AXE}"
        pytest.fail(message) if in_ci() else pytest.skip(message)


def test_the_accessibility_check_catches_a_button_without_a_name(browser, tmp_path: Path):
    broken = tmp_path / "site"
    shutil.copytree(built_site()[0], broken)
    page_file = broken / "en" / "01_feed_forward.html"
    text = page_file.read_text(encoding="utf-8")
    page_file.write_text(text.replace("<main", "<button></button><main", 1), encoding="utf-8")
    with SiteServer(broken) as server:
        page, _ = open_page(browser, f"{server.url}/en/01_feed_forward.html")
        try:
            problems = accessibility_problems(page)
        finally:
            page.close()
    assert any("button-name" in p for p in problems), problems


def test_the_phone_check_catches_a_page_wider_than_the_screen(browser, tmp_path: Path):
    wide = tmp_path / "site"
    shutil.copytree(built_site()[0], wide)
    css = wide / "assets" / "course.css"
    css.write_text(css.read_text(encoding="utf-8") + "\nmain { min-width: 40rem; }\n")
    with SiteServer(wide) as server:
        page, _ = open_page(browser, f"{server.url}/en/01_feed_forward.html")
        try:
            problems = sideways_problems(page)
        finally:
            page.close()
    assert problems and "scrolls sideways by" in problems[0], problems


def test_the_swap_check_catches_a_demo_whose_script_never_changes_the_frame(
    browser, tmp_path: Path
):
    broken = tmp_path / "site"
    shutil.copytree(built_site()[0], broken)
    script = broken / "assets" / "demo.js"
    text = script.read_text(encoding="utf-8")
    assert "img.src = frame.src;" in text
    script.write_text(text.replace("img.src = frame.src;", ""), encoding="utf-8")
    with SiteServer(broken) as server:
        page, errors = open_page(browser, f"{server.url}/en/04_sublayer_connection.html")
        try:
            problems, _ = exercise_demos(page)
        finally:
            page.close()
    assert problems and all("the frame did not change" in p for p in problems), problems
    assert not errors


PHONE = {"width": 390, "height": 844}  # CSS pixels, as sideways_problems takes a phone's


@pytest.mark.parametrize("path", ["en/05_ffn_memory.html", "zh/07_mixture_of_experts.html"])
def test_at_a_phones_width_a_lesson_opens_at_its_title_with_the_course_menu_folded(
    browser, site_url, path
):
    """The course navigation folds into one line at a phone's width (a first screen of links
    above the title before), opens when tapped, and is the open sidebar on a laptop's screen."""
    reader = browser.browser.new_context(viewport=PHONE)
    page, errors = open_page(reader, f"{site_url}/{path}")
    try:
        fold = ".site-nav-fold"
        assert page.evaluate(f"document.querySelector('{fold}').open") is False
        title = page.locator("main h1").first.bounding_box()
        assert title["y"] + title["height"] < PHONE["height"] / 2, "the title is below the fold"
        assert not page.locator(f"{fold} a").first.is_visible()
        page.click(f"{fold} > summary")
        assert page.locator(f"{fold} a[aria-current='page']").is_visible()
        page.set_viewport_size(VIEWPORT)
        assert page.evaluate(f"document.querySelector('{fold}').open") is True
        assert not page.locator(f"{fold} > summary").is_visible()
        assert not errors, "\n".join(errors)
    finally:
        reader.close()


def test_the_makefile_installs_the_pinned_axe_core():
    from sitepage import AXE_VERSION

    makefile = (NOTEBOOKS.parent / "Makefile").read_text(encoding="utf-8")
    assert f"axe-core@{AXE_VERSION} " in makefile
