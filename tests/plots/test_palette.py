"""One colour-blind-safe palette (Okabe–Ito) across the course, on an opaque white background."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import pytest
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D

from course_lib.core import plots
from course_lib.core.plots import COLORS, GREY, PALETTE
from course_lib.core.widgets import all_demos

PLOTS = Path(plots.__file__).parent
ALLOWED = {to_hex(c) for c in (*PALETTE, GREY, *COLORS.values(), "white", "black")}
NAMED = re.compile(r"""color\w*\s*=\s*["'](?!none["'])(?!#)[a-zA-Z:]+[0-9]*["']|["']C\d["']""")


def colour_problems(source: str) -> list[str]:
    """Colours written in a plotting module instead of taken from the palette."""
    found = re.findall(r"#[0-9A-Fa-f]{6}\b", source) + NAMED.findall(source)
    return [f"{c!r}" for c in found]


@pytest.mark.parametrize("path", sorted(PLOTS.glob("*.py")), ids=lambda p: p.name)
def test_plots_take_every_colour_from_the_palette(path):
    if path.name == "__init__.py":
        return  # where the palette is defined
    assert not colour_problems(path.read_text(encoding="utf-8")), path.name


def test_the_colour_check_rejects_hex_named_and_cycle_colours():
    assert colour_problems('ax.plot(x, color="#1f77b4")')
    assert colour_problems('ax.plot(x, color="red")')
    assert colour_problems('ax.plot(x, color="tab:blue")')
    assert colour_problems('ax.plot(x, "C0")')
    assert not colour_problems('ax.plot(x, color=COLORS["relu"], facecolor="none")')


def test_a_plot_without_a_colour_gets_the_palette_and_a_white_background():
    cycle = [to_hex(c) for c in matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]]
    assert cycle == [to_hex(c) for c in PALETTE]
    assert to_hex(matplotlib.rcParams["figure.facecolor"]) == "#ffffff"
    assert to_hex(matplotlib.rcParams["savefig.facecolor"]) == "#ffffff"


@pytest.mark.parametrize("demo", all_demos(), ids=lambda d: d.name)
def test_every_line_a_demo_draws_has_a_palette_colour(demo):
    figure = demo.figure()
    assert to_hex(figure.get_facecolor()) == "#ffffff"
    data_lines = [line for ax in figure.axes for line in ax.lines]  # not grid or tick lines
    assert all(isinstance(line, Line2D) for line in data_lines)
    for line in data_lines:
        if line.get_visible() and len(line.get_xdata()):
            assert to_hex(line.get_color()) in ALLOWED, (line.get_label(), line.get_color())
