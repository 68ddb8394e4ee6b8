"""The static site's kernel-free demos: how long each move takes to show its frame, as the page
itself measures it (``img.decode()`` after the swap), beside the floor: the same measurement on a
page of blank frames (``site_floor.py``) in the same browser. The browser suite checks that every
move swaps the right frame; the speed is judged here, each page's median swap as a ratio to the
floor's (goals.py)."""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

import pytest

from benchmarks.site_floor import write_floor_page

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "tests" / "browser"))

DEMO_PAGES = [
    f"{edition}/{p.stem}.html"
    for edition, folder in (("en", PROJECT / "notebooks"), ("zh", PROJECT / "notebooks" / "zh"))
    for p in sorted(folder.glob("*.ipynb"))
]
FLOOR_VISITS = 5  # per round: 16 moves each, 80 for the floor's median


@pytest.fixture(scope="module")
def site_pages():
    """The site built into a temporary folder with the floor page beside its lessons, served on
    127.0.0.1, and Chromium to read it."""
    from browser_suite import CHROMIUM, CHROMIUM_FLAGS
    from playwright.sync_api import sync_playwright
    from siteserver import SiteServer

    from devtools import site

    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    out = Path(tempfile.mkdtemp(prefix="bench-site-")) / "site"
    site.build(out)
    write_floor_page(out)
    with SiteServer(out) as server, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        yield context, server.url
        context.close()
        chromium.close()


def swaps_on(context, url: str) -> list[float]:
    """The page at ``url`` opened and every control of its demos moved: each swap's time (ms)."""
    from sitepage import exercise_demos, open_page

    page, _ = open_page(context, url)
    try:
        return [swap["ms"] for swap in exercise_demos(page)[1]]
    finally:
        page.close()


def record(benchmark, kind: str, page: str, times: list[float]) -> None:
    benchmark.extra_info.update(
        kind=kind,
        page=page,
        moves=len(times),
        median_ms=statistics.median(times) if times else None,
        max_ms=max(times) if times else None,
    )


@pytest.mark.measures("site")
def test_site_floor(benchmark, settings, site_pages):
    from benchmarks.site_floor import PAGE

    context, url = site_pages
    times: list[float] = []
    benchmark.group = "site"
    rounds = FLOOR_VISITS * settings.repeat
    benchmark.pedantic(lambda: times.extend(swaps_on(context, f"{url}/{PAGE}")), rounds=rounds)
    record(benchmark, "site floor", PAGE, times)


@pytest.mark.measures("site")
@pytest.mark.parametrize("path", DEMO_PAGES)
def test_site_swaps(benchmark, settings, site_pages, path):
    context, url = site_pages
    times: list[float] = []
    benchmark.group = "site"
    benchmark.pedantic(lambda: times.extend(swaps_on(context, f"{url}/{path}")), rounds=settings.repeat)  # fmt: skip
    record(benchmark, "site swaps", path, times)
