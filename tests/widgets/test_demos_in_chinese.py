"""Every demo in the Chinese edition: its texts are Chinese and every glyph is drawn, for every
value of every control (nbval cannot see a widget callback's picture). The site's build draws
every frame of every demo in Chinese, one control at a time at least, and fails on a frame with a
missing glyph, an untranslated text or no Chinese at all (``frames.drawing_problems``,
``frames.in_own_script``); tests/tools/test_site.py builds it. Here: those checks catch what they
must, and a demo returns to English after Chinese."""

from __future__ import annotations

import pytest

from course_lib.core.i18n import set_language, tr
from course_lib.core.plots import figure_png, new_figure
from course_lib.core.widgets import all_demos
from devtools.site.frames import drawing_problems, in_own_script

DEMOS = all_demos()


@pytest.fixture
def chinese():
    set_language("zh")
    try:
        yield
    finally:
        set_language("en")


def test_there_are_demos_of_every_lesson():
    assert len(DEMOS) >= 10


def test_the_same_demo_draws_english_again_after_chinese(chinese):
    demo = DEMOS[0]
    assert in_own_script(demo.figure(), "zh")
    set_language("en")
    demo.clear_cache()
    assert not in_own_script(demo.figure(), "zh")


def test_a_chinese_demo_frame_draws_without_problems_and_in_chinese(chinese):
    demo = DEMOS[0]
    with drawing_problems() as problems:
        figure = demo.figure()
        figure_png(figure)
    assert problems == [] and in_own_script(figure, "zh")


def test_the_glyph_check_catches_chinese_in_mathtext(chinese):
    figure = new_figure()
    figure.suptitle("宽度 $d_{ff}$")
    with drawing_problems() as problems:
        figure_png(figure)
    assert problems and all("glyph" in p.lower() for p in problems), problems


def test_the_check_catches_a_text_without_a_translation(chinese):
    figure = new_figure()
    with drawing_problems() as problems:
        figure.suptitle(tr("a title no catalogue holds"))
        figure_png(figure)
    assert len(problems) == 1 and "a title no catalogue holds" in problems[0]


def test_a_figure_in_english_only_is_not_in_the_chinese_script():
    figure = new_figure()
    figure.suptitle("d_ff = 64: relu")
    assert not in_own_script(figure, "zh") and in_own_script(figure, "en")
    figure.add_subplot().set_xlabel("宽度")  # one Chinese label anywhere is enough
    assert in_own_script(figure, "zh")
