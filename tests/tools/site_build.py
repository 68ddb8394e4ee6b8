"""The course site, built once per test run into a temporary folder: tests/tools/test_site.py and
the browser suite (tests/browser/test_site_in_browser.py) share it.

Every value of every control of every demo is drawn in both languages, the others at their
defaults: that is where a value that fails to draw, a missing glyph or an untranslated text shows
(the build fails on them, ``frames.drawing_problems``). Every combination is drawn only for the
demos of at most ``TEST_LIMITS["en"]`` combinations in English, so the browser drives the full
mode's page script on a demo with three controls (the router, 3 x 2 x 3). ``make site`` draws every
combination of the other English demos too; those pictures differ from the ones drawn here only in
which values meet, and tests/tools/test_site.py computes every one of them and updates its view
(``test_every_shipped_combination_computes_and_updates_its_view``), without drawing and encoding
the 184 frames more that ``make site`` draws in English. The Chinese frames differ from the
English ones only in their words, so they are drawn one control at a time."""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import json
import shutil
import tempfile
from pathlib import Path

from devtools import site

# per edition, as site.build takes them: every combination of a demo with at most 18 (the
# router: 3 x 2 x 3) in English, the other demos one control at a time
TEST_LIMITS = {"en": 18, "zh": 0}


@functools.cache
def built_site() -> tuple[Path, dict, str]:
    """(the site's folder, its site-report.json, what the build printed)."""
    folder = Path(tempfile.mkdtemp(prefix="ffn-course-site-"))
    atexit.register(shutil.rmtree, folder, True)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        report = site.build(folder / "site", limits=TEST_LIMITS)
        print("\n".join(site.summary(report, folder / "site")))
    print(printed.getvalue())  # shown with pytest -s: frames, bytes and time per demo
    report = json.loads((folder / "site" / site.REPORT).read_text(encoding="utf-8"))
    return folder / "site", report, printed.getvalue()
