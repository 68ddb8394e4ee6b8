"""The static site's floor (benchmarks/site_floor.py): a page of blank frames made of the site's own
controls and script, which the benchmark moves as it moves every lesson page. Nothing is timed
here."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from PIL import Image

from benchmarks import site_floor

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from sitepage import targets  # noqa: E402  (the driver's moves, shared with the browser suite)


def test_the_floor_demo_has_a_frame_for_every_move_the_driver_makes():
    found = site_floor.manifest()
    assert len(found["frames"]) == 1 + site_floor.CONTROLS * (site_floor.VALUES - 1) == 17
    for k in range(site_floor.CONTROLS):
        for value in targets(0, site_floor.VALUES):  # one control at a time: the others at 0
            key = ",".join(str(value if j == k else 0) for j in range(site_floor.CONTROLS))
            assert key in found["index"], key
    assert sorted(found["index"].values()) == list(range(len(found["frames"])))


def test_the_floor_page_is_the_sites_own_demo_with_blank_frames(tmp_path):
    page = site_floor.write_floor_page(tmp_path)
    text = (tmp_path / page).read_text(encoding="utf-8")
    assert 'class="site-demo" data-demo="bench-floor" data-mode="one-at-a-time"' in text
    assert '<script src="../assets/demo.js" defer>' in text
    script = (tmp_path / "assets" / "demo.js").read_bytes()
    assert script == (ROOT / "devtools" / "site_assets" / "demo.js").read_bytes()
    data = json.loads(re.search(r'class="demo-manifest">(.*?)</script>', text).group(1))
    assert data["index"] == site_floor.manifest()["index"]
    frames = [tmp_path / "en" / frame["src"] for frame in data["frames"]]
    pictures = [Image.open(path) for path in frames]
    assert {picture.size for picture in pictures} == {site_floor.SIZE}
    assert len({picture.tobytes() for picture in pictures}) == len(frames)  # every move swaps
    assert all(len(picture.getcolors()) == 1 for picture in pictures)  # blank: one colour each


def test_the_floor_page_keeps_a_built_sites_assets(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "demo.js").write_text("// the built site's own")
    site_floor.write_floor_page(tmp_path)
    assert (tmp_path / "assets" / "demo.js").read_text() == "// the built site's own"
