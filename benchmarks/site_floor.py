"""The static site's floor: a page of the built site with one kernel-free demo whose frames are
blank. It has the site's own controls, style sheet and script (``devtools/site``), is served by the
same server and driven by the same driver as every lesson page (``tests/browser/sitepage.py``), so
a move on it costs what any move costs before its picture does: the key press, the script, the
swap and the decode of a frame of the course's usual size. ``test_site.py`` times it in the same
browser as the lesson pages, and each page's swaps are judged as a ratio to it (``goals.py``)."""

from __future__ import annotations

import itertools
from pathlib import Path

PAGE = "en/bench-floor.html"
SLUG = "bench-floor"
SIZE = (640, 400)  # pixels: the course's default figure (plots.new_figure, 6.4 × 4 in at 100 dpi)
CONTROLS = 8  # sliders of three values each: the driver moves each twice, 16 moves per visit
VALUES = 3


def frame_keys(controls: int = CONTROLS, values: int = VALUES) -> list[tuple[int, ...]]:
    """The frames' control indices, one control at a time from the defaults (all 0), as the site
    keys a demo with too many combinations (``devtools.site.frames.frame_keys``)."""
    keys = [(0,) * controls]
    for k, value in itertools.product(range(controls), range(1, values)):
        keys.append(tuple(value if j == k else 0 for j in range(controls)))
    return keys


def manifest(controls: int = CONTROLS, values: int = VALUES) -> dict:
    """The floor demo's manifest, in the form ``devtools.site.frames.render_frames`` gives."""
    keys = frame_keys(controls, values)
    return {
        "slug": SLUG,
        "mode": "one-at-a-time",
        "size": SIZE,
        "controls": [
            {
                "name": f"c{k}",
                "kind": "slider",
                "values": [str(v) for v in range(values)],
                "default": 0,
            }
            for k in range(controls)
        ],  # fmt: skip
        "index": {",".join(map(str, key)): n for n, key in enumerate(keys)},
        "frames": [
            {"src": f"../frames/en/{SLUG}/{n}.png", "alt": "a blank frame"}
            for n in range(len(keys))
        ],
    }


def write_floor_page(out: Path) -> str:
    """The floor page and its blank frames in the site built at ``out`` (its ``assets/`` are the
    site's own, written here when the site is not built); returns the page's path in the site."""
    from PIL import Image

    from devtools.site.frames import demo_html
    from devtools.site.pages import write_assets

    if not (out / "assets" / "demo.js").exists():
        write_assets(out)
    found = manifest()
    folder = out / "frames" / "en" / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(len(found["frames"])):
        # a shade of its own per frame: every move swaps to another picture, as on a lesson page
        Image.new("RGB", SIZE, (255 - n, 255, 255)).save(folder / f"{n}.png")
    (out / PAGE).parent.mkdir(parents=True, exist_ok=True)
    (out / PAGE).write_text(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>floor</title>'
        '<link rel="stylesheet" href="../assets/course.css"><script src="../assets/demo.js" defer>'
        f"</script></head><body><main>{demo_html(found, 'en')}</main></body></html>\n",
        encoding="utf-8",
    )
    return PAGE
