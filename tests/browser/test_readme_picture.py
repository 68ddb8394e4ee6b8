"""README shows the course as the browser suite photographed it: the picture must be committed."""

from __future__ import annotations

import re

from browser_suite import PROJECT


def test_every_picture_readme_shows_is_committed_under_docs():
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert pictures, "README shows no picture of a lesson"
    for picture in pictures:
        assert picture.startswith("docs/"), picture
        assert (PROJECT / picture).is_file(), f"README shows {picture}, which does not exist"
