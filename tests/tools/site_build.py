"""The course site, built once per test run into a temporary folder: tests/tools/test_site.py and
the browser suite (tests/browser/test_site_in_browser.py) share it.

The English edition is built as ``make site`` builds it, every frame of every demo (every
combination of a demo's controls where it ships them): the only place each shipped combination is
drawn, so a combination that fails to draw fails here. The Chinese edition's demos get one control
at a time (``TEST_LIMITS``): its frames differ from the English ones only in their words; every
control value is still drawn in Chinese (as tests/widgets/test_demos_in_chinese.py draws them,
with its glyph check), while each combination's drawing is checked by the English frames. Drawing
every combination again in Chinese took 73 of the build's 167 s. The Chinese pages, notes and
controls are checked in that mode, the English ones in the shipped one."""

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

TEST_LIMITS = {"zh": 0}  # per edition, as site.build takes them: the Chinese demos one at a time


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
