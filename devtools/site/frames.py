"""The kernel-free demos: every live demo of a notebook found by its widget, its frames rendered
in the page's language (every combination up to ``FULL_PRODUCT_LIMIT``, else one control at a
time), shrunk to a palette, and the native controls that swap them."""

from __future__ import annotations

import html
import io
import itertools
import json
import logging
import math
import re
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from course_lib.core.progress import PROGRESS_CLASS
from course_lib.core.widgets.quiz import QUESTION_CLASS
from devtools.site.texts import (
    FULL_PRODUCT_LIMIT,
    WIDGET_STATE,
    WIDGET_VIEW,
    SiteError,
    speaking,
    word,
)


def demo_outputs(nb, path: Path, by_class: dict) -> dict[int, object]:
    """Code cell index -> the Demo whose widget its output shows; SiteError if one has none."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    found = {}
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if WIDGET_VIEW not in output.get("data", {}):
                continue
            model_id = output["data"][WIDGET_VIEW].get("model_id")
            classes = state.get(model_id, {}).get("state", {}).get("_dom_classes", [])
            if QUESTION_CLASS in classes:
                continue  # a question: the page shows it as a form (devtools.site.quiz)
            if PROGRESS_CLASS in classes:
                continue  # a long cell's progress bar: drawn finished (pages.progress_bar_html)
            demos = [by_class[c] for c in classes if c in by_class]
            if not demos:
                raise SiteError(
                    f"{path} cell {index}: its widget output (model {model_id}) shows no known "
                    f"demo (classes {classes}; known: {sorted(by_class)})"
                )
            found[index] = demos[0]
    return found


def frame_keys(demo, limit: int = FULL_PRODUCT_LIMIT) -> tuple[str, list[tuple[int, ...]]]:
    """("full", every index combination) if there are at most ``limit``, else ("one-at-a-time",
    each control's values from the defaults, without repeats)."""
    sizes = [len(c.values) for c in demo.controls]
    if math.prod(sizes) <= limit:
        return "full", list(itertools.product(*(range(n) for n in sizes)))
    keys = []
    for values in demo.one_at_a_time():
        key = tuple(list(c.values).index(values[c.name]) for c in demo.controls)
        if key not in keys:
            keys.append(key)
    return "one-at-a-time", keys


def shrink(figure) -> bytes:
    """The figure as a PNG with a 256-colour palette: a third of the bytes of matplotlib's own
    PNG, the same picture to the eye. Drawn to raw RGBA pixels (the same pixels as
    ``figure_png``'s), so the picture is encoded once, not twice."""
    from PIL import Image

    raw = io.BytesIO()
    figure.savefig(raw, format="rgba")
    size = figure.canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", size, raw.getvalue(), "raw", "RGBA", 0, 1).convert("RGB")
    buffer = io.BytesIO()
    # zlib's default level: optimize=True (level 9) saves 6 % of the bytes at 7 times the time
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(buffer, format="PNG")
    return buffer.getvalue()


SCRIPTS = {"zh": re.compile(r"[\u4e00-\u9fff]")}  # an edition's own script, where not Latin


def in_own_script(figure, edition: str) -> bool:
    """Whether some visible text of ``figure`` is written in ``edition``'s script (always true
    for an edition in Latin script)."""
    from matplotlib.text import Text

    if edition not in SCRIPTS:
        return True
    texts = [t.get_text() for t in figure.findobj(Text) if t.get_visible()]
    return any(SCRIPTS[edition].search(text) for text in texts)


class _GlyphLog(logging.Handler):
    """mathtext reports a missing glyph through matplotlib's logger, not a warning."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "glyph" in record.getMessage().lower():
            self.messages.append(record.getMessage())


@contextmanager
def drawing_problems() -> Iterator[list[str]]:
    """What goes wrong in drawing a frame that its picture would hide from a reader: a missing
    glyph (a box where a character should be) and a text the catalogue cannot translate (English
    on a Chinese page). The list fills in when the block ends."""
    from course_lib.core.i18n import MissingTranslation

    found: list[str] = []
    log = _GlyphLog()
    logging.getLogger("matplotlib").addHandler(log)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield found
    finally:
        logging.getLogger("matplotlib").removeHandler(log)
    found += log.messages
    found += [
        str(w.message)
        for w in caught
        if issubclass(w.category, MissingTranslation) or "glyph" in str(w.message).lower()
    ]


def render_frames(demo, edition: str, out: Path, limit: int = FULL_PRODUCT_LIMIT) -> dict:
    """Every frame of ``demo`` in ``edition``'s language under OUT/frames/ (every combination up
    to ``limit`` of them, else one control at a time): its manifest."""
    from PIL import Image

    from course_lib.core.plots import describe
    from course_lib.core.widgets import demo_class

    slug = demo_class(demo).removeprefix("course-demo--")
    folder = out / "frames" / edition / slug
    folder.mkdir(parents=True, exist_ok=True)
    mode, keys = frame_keys(demo, limit)
    defaults = tuple(list(c.values).index(c.default) for c in demo.controls)
    manifest = {"slug": slug, "mode": mode, "frames": [], "bytes": 0, "problems": []}
    try:
        # The page's language for all of the demo's frames: its live view is built once in it
        # and then updated, as in a notebook (entering the language per frame rebuilt it each time).
        with speaking(edition):
            for n, key in enumerate(keys):
                values = {c.name: c.values[i] for c, i in zip(demo.controls, key, strict=True)}
                # the frame's texts and its alt text, drawn once for both
                with drawing_problems() as problems:
                    figure = demo.figure(**values)
                    png, alt = shrink(figure), describe(figure)
                if not in_own_script(figure, edition):
                    problems.append(f"no text in the {edition} edition's language")
                manifest["problems"] += [f"{values}: {problem}" for problem in problems]
                (folder / f"{n}.png").write_bytes(png)
                manifest["frames"].append(
                    {"src": f"../frames/{edition}/{slug}/{n}.png", "alt": alt}
                )
                manifest["bytes"] += len(png)
                if key == defaults:
                    manifest["size"] = Image.open(io.BytesIO(png)).size
    finally:
        demo.clear_cache()  # the PNGs are on disk; trained models stay in their lru_cache
    with speaking(edition):  # a value that is a word reads in the page's language
        manifest["controls"] = [
            dict(name=c.name, label=c.title(), kind=c.kind, values=c.shown(), default=i)
            for c, i in zip(demo.controls, defaults, strict=True)
        ]
    manifest["index"] = {",".join(map(str, key)): n for n, key in enumerate(keys)}
    return manifest


def demo_html(manifest: dict, edition: str) -> str:
    """The demo's controls (native inputs: keyboard-operable), its frame and its manifest."""
    slug, esc = manifest["slug"], html.escape
    rows = []
    for k, control in enumerate(manifest["controls"]):
        cid, values, default = f"{slug}-{k}", control["values"], control["default"]
        if control["kind"] == "slider":
            field = (
                f'<input type="range" id="{cid}" data-control="{k}" min="0" '
                f'max="{len(values) - 1}" step="1" value="{default}" '
                f'aria-valuetext="{esc(values[default])}"><output for="{cid}">'
                f"{esc(values[default])}</output>"
            )
        else:
            options = "".join(
                f'<option value="{i}"{" selected" if i == default else ""}>{esc(v)}</option>'
                for i, v in enumerate(values)
            )
            field = f'<select id="{cid}" data-control="{k}">{options}</select>'
        rows.append(
            f'<div class="demo-control"><label for="{cid}">{esc(control.get("label", control["name"]))}</label>'
            f"{field}</div>"
        )
    default_key = ",".join(str(c["default"]) for c in manifest["controls"])
    first = manifest["frames"][manifest["index"][default_key]]
    width, height = manifest["size"]
    data = {k: manifest[k] for k in ("mode", "controls", "index", "frames")}
    data_json = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return (
        f'<div class="site-demo" data-demo="{slug}" data-mode="{manifest["mode"]}" '
        f'data-ready="false"><div class="demo-controls">{"".join(rows)}</div>'
        f'<img class="demo-frame" src="{first["src"]}" alt="{esc(first["alt"])}" '
        f'width="{width}" height="{height}">'
        f'<p class="demo-note">{esc(word(edition, manifest["mode"]))}</p>'
        f'<script type="application/json" class="demo-manifest">'
        f"{data_json}</script></div>"
    )


def render_demos(
    demos: list, edition: str, out: Path, limit: int = FULL_PRODUCT_LIMIT
) -> tuple[dict, list[dict]]:
    """Every frame of each demo in ``edition`` (``render_frames``): {id(demo): manifest}, and a
    report row per demo."""
    manifests, rows = {}, []
    for demo in demos:
        began = time.perf_counter()
        manifest = manifests[id(demo)] = render_frames(demo, edition, out, limit)
        row = {"demo": demo.name, "slug": manifest["slug"], "edition": edition}
        row |= {"mode": manifest["mode"], "frames": len(manifest["frames"])}
        row |= {"bytes": manifest["bytes"], "seconds": round(time.perf_counter() - began, 1)}
        row |= {"problems": manifest["problems"]}
        rows.append(row)
        print(
            f"{edition} {demo.name}: {row['mode']}, {row['frames']} frames, "
            f"{row['bytes'] / 1024:.0f} KiB, {row['seconds']:.1f} s"
        )
    return manifests, rows
