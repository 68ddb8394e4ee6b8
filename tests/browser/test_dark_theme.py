"""A lesson in JupyterLab's dark theme: its figures keep an opaque white background, so their black
text stays legible. The screenshot is artifacts/browser/dark-01_feed_forward.png.

The lesson is opened as committed, with its stored figures, not run again: what is tested is how
JupyterLab's dark theme shows a figure, and the browser suite's Run All of the same lesson
(test_lessons_in_browser.py) already proves that the code draws them; tests/plots/ prove every
figure's background is opaque white as drawn."""

from __future__ import annotations

import pytest
from browser_suite import ARTIFACTS, opened_lesson

pytestmark = pytest.mark.browser

LESSON = "stored/01_feed_forward.ipynb"
THEME = "(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})"
DARK = "() => document.body.dataset.jpThemeLight === 'false'"
LIGHT = "() => document.body.dataset.jpThemeLight === 'true'"

# The corner pixel of every figure shown in an output: a transparent figure would show the dark
# page through it (alpha 0), a themed one something dark.
CORNERS = """(path) => {
  const images = [...document.querySelectorAll('.jp-OutputArea-output img')]
    .filter((img) => img.complete && img.naturalWidth > 0);
  return images.map((img) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(img, 0, 0);
    return Array.from(context.getImageData(1, 1, 1, 1).data);
  });
}"""


def test_figures_stay_legible_in_the_dark_theme(lab_page, lab):
    with opened_lesson(lab_page, lab, LESSON, run_all=False) as lesson:
        lab_page.evaluate(THEME, "JupyterLab Dark")
        try:
            lab_page.wait_for_function(DARK, timeout=60_000)
            background = lab_page.evaluate(
                "() => getComputedStyle(document.querySelector('.jp-Notebook')).backgroundColor"
            )
            corners = lab_page.evaluate(CORNERS, lesson.path)
            lesson.screenshot(ARTIFACTS / "dark-01_feed_forward.png")
        finally:
            lab_page.evaluate(THEME, "JupyterLab Light")
            lab_page.wait_for_function(LIGHT, timeout=60_000)
    red, green, blue = (int(v) for v in background[background.index("(") + 1 : -1].split(",")[:3])
    assert red + green + blue < 3 * 100, f"the dark theme did not apply: {background}"
    assert len(corners) >= 3, f"only {len(corners)} figures found"  # cells off screen: lazy
    dark_or_clear = [c for c in corners if c[3] < 255 or min(c[:3]) < 200]
    assert not dark_or_clear, f"{len(dark_or_clear)} figures are transparent or dark: {corners}"
