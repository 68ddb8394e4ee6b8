"""Every demo in the Chinese edition: its texts are Chinese and every glyph is drawn, for every
value of every control (nbval cannot see a widget callback's picture)."""

from __future__ import annotations

import logging
import re
import warnings

import pytest
from matplotlib.text import Text

from course_lib.i18n import MissingTranslation, set_language
from course_lib.plots import figure_png
from course_lib.widgets import all_demos

CJK = re.compile(r"[\u4e00-\u9fff]")
DEMOS = all_demos()


def texts(figure) -> list[str]:
    return [t.get_text() for t in figure.findobj(Text) if t.get_visible() and t.get_text()]


class GlyphLog(logging.Handler):
    """mathtext reports a missing glyph through logging, not a warning."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "glyph" in record.getMessage():
            self.messages.append(record.getMessage())


@pytest.fixture
def chinese():
    handler = GlyphLog()
    logging.getLogger("matplotlib").addHandler(handler)
    set_language("zh")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", MissingTranslation)
            warnings.filterwarnings("error", message=r"Glyph .* missing from font")
            yield handler
    finally:
        set_language("en")
        logging.getLogger("matplotlib").removeHandler(handler)


def test_there_are_demos_of_every_lesson():
    assert len(DEMOS) >= 10


@pytest.mark.parametrize("demo", DEMOS, ids=lambda d: d.name)
def test_every_frame_draws_chinese_text_with_every_glyph(demo, chinese):
    for values in demo.one_at_a_time():
        figure = demo.figure(**values)
        figure_png(figure)  # draws every text: a missing glyph warns here
        shown = texts(figure)
        assert any(CJK.search(text) for text in shown), f"{values}: no Chinese in {shown}"
    assert not chinese.messages, chinese.messages


@pytest.mark.parametrize("demo", DEMOS[:1], ids=lambda d: d.name)
def test_the_same_demo_draws_english_again_after_chinese(demo, chinese):
    demo.figure()
    set_language("en")
    shown = texts(demo.figure())
    assert shown and not any(CJK.search(text) for text in shown), shown


def test_the_glyph_check_catches_chinese_in_mathtext(chinese):
    from course_lib.plots import new_figure

    figure = new_figure()
    figure.suptitle("宽度 $d_{ff}$")
    figure_png(figure)
    assert chinese.messages, "mathtext's missing glyphs were not caught"
