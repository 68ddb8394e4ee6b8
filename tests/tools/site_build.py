"""The course site, built once per test run into a temporary folder: tests/tools/test_site.py and
the browser suite (tests/browser/test_site_in_browser.py) share it."""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import json
import shutil
import tempfile
from pathlib import Path

from course_lib.tools import site


@functools.cache
def built_site() -> tuple[Path, dict, str]:
    """(the site's folder, its site-report.json, what the build printed)."""
    folder = Path(tempfile.mkdtemp(prefix="ffn-course-site-"))
    atexit.register(shutil.rmtree, folder, True)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        site.main([str(folder / "site")])
    print(printed.getvalue())  # shown with pytest -s: frames, bytes and time per demo
    report = json.loads((folder / "site" / site.REPORT).read_text(encoding="utf-8"))
    return folder / "site", report, printed.getvalue()
