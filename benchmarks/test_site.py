"""The static site's kernel-free demos: how long each move takes to show its frame, as the page
itself measures it (``img.decode()`` after the swap). The browser suite checks that every move
swaps the right frame; the speed is judged here, against one frame at 60 Hz (goals.py)."""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "tests" / "browser"))

DEMO_PAGES = [
    f"{edition}/{p.stem}.html"
    for edition, folder in (("en", PROJECT / "notebooks"), ("zh", PROJECT / "notebooks" / "zh"))
    for p in sorted(folder.glob("*.ipynb"))
]


@pytest.fixture(scope="module")
def site_pages():
    """The site built into a temporary folder, served on 127.0.0.1, and Chromium to read it."""
    from browser_suite import CHROMIUM, CHROMIUM_FLAGS
    from playwright.sync_api import sync_playwright
    from siteserver import SiteServer

    from devtools import site

    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    out = Path(tempfile.mkdtemp(prefix="bench-site-")) / "site"
    site.build(out)
    with SiteServer(out) as server, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        yield context, server.url
        context.close()
        chromium.close()


@pytest.mark.measures("site")
@pytest.mark.parametrize("path", DEMO_PAGES)
def test_site_swaps(benchmark, settings, site_pages, path):
    from sitepage import exercise_demos, open_page

    context, url = site_pages
    swaps: list[dict] = []

    def drive() -> None:
        page, _ = open_page(context, f"{url}/{path}")
        try:
            swaps.extend(exercise_demos(page)[1])
        finally:
            page.close()

    benchmark.group = "site"
    benchmark.pedantic(drive, rounds=settings.repeat)
    times = [s["ms"] for s in swaps]
    benchmark.extra_info.update(
        kind="site swaps",
        page=path,
        moves=len(times),
        median_ms=statistics.median(times) if times else None,
        max_ms=max(times) if times else None,
    )
