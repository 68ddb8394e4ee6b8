"""course_lib.core.widgets (Control, Demo, redraw, build, all_demos) and course_lib.core.plots (new_figure,
figure_png, the palette): the framework every lesson's live demo stands on."""

from __future__ import annotations

import sys
import textwrap

import ipywidgets as w
import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure

from course_lib.core.model.ffn import ACTIVATIONS
from course_lib.core.plots import COLORS, PALETTE, figure_png, new_figure, tint
from course_lib.core.widgets import Control, Demo, all_demos, build, idle_schedule, redraw

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class Recorder:
    """A data function that remembers every call and returns the values it was given."""

    def __init__(self, fail_on=None):
        self.calls: list[dict] = []
        self.fail_on = fail_on

    def __call__(self, **values) -> dict:
        self.calls.append(values)
        if self.fail_on is not None and self.fail_on in values.values():
            raise RuntimeError(f"cannot draw {self.fail_on}")
        return values


class LineView:
    """A live view: one figure built once; each update moves its line to the data's d_ff."""

    built = 0

    def __init__(self) -> None:
        LineView.built += 1
        self.figure = new_figure(2, 1.5, dpi=40, layout=None)
        ax = self.figure.add_subplot()
        (self.line,) = ax.plot([0, 1], [0, 0])
        ax.set_ylim(0, 40)

    def update(self, data: dict) -> Figure:
        self.line.set_ydata([0, data["d_ff"]])
        self.line.set_color("red" if data.get("activation") == "gelu" else "blue")
        return self.figure


def make_demo(fail_on=None) -> tuple[Demo, Recorder]:
    data = Recorder(fail_on)
    controls = (
        Control("d_ff", (8, 16, 32), 16),
        Control("activation", ("relu", "gelu"), "relu", kind="dropdown"),
    )
    return Demo("test demo", controls, data=data, view=LineView), data


def widget_parts(box):
    controls_row, status, image = box.children
    return {c.description: c for c in controls_row.children}, status, image


# --- Control ----------------------------------------------------------------------------------


def test_control_rejects_an_unknown_kind_listing_the_kinds():
    with pytest.raises(
        ValueError, match=r"kind must be one of \['slider', 'dropdown', 'toggle'\], got 'knob'"
    ):
        Control("d_ff", (1, 2), 1, kind="knob")


@pytest.mark.parametrize("values", [(), (4,)])
def test_control_needs_at_least_two_values(values):
    with pytest.raises(ValueError, match=r"control 'd_ff' needs at least 2 values"):
        Control("d_ff", values, 4)


def test_control_rejects_a_default_that_is_not_among_its_values():
    with pytest.raises(ValueError, match=r"default 5 of 'd_ff' is not among its values"):
        Control("d_ff", (4, 8), 5)


def test_control_keeps_what_it_was_given():
    control = Control("activation", ("relu", "gelu"), "gelu", kind="toggle")
    assert (control.name, tuple(control.values), control.default, control.kind) == (
        "activation",
        ("relu", "gelu"),
        "gelu",
        "toggle",
    )


def test_a_control_is_shown_by_its_name_unless_a_label_names_it_in_words():
    from course_lib.core.i18n import N_, set_language

    plain = Control("d_ff", (8, 16), 8)
    worded = Control("residual", ("a", "b"), "a", kind="toggle", label=N_("on"))
    assert plain.title() == "d_ff" and worded.title() == "on"
    set_language("zh")
    try:
        assert worded.title() == "开"  # the label, in the learner's language
    finally:
        set_language("en")
    assert worded.name == "residual"  # the data function's keyword stays the name


def test_a_built_control_reads_its_label():
    demo = Demo(
        "labelled demo",
        (Control("d_ff", (8, 16, 32), 16, label="width of the layer"),),
        data=Recorder(),
        view=LineView,
    )
    (widget,) = build(demo, schedule=None).children[0].children
    assert widget.description == "width of the layer"


# --- Demo -------------------------------------------------------------------------------------


def test_demo_defaults_are_each_controls_default():
    demo, _ = make_demo()
    assert demo.defaults() == {"d_ff": 16, "activation": "relu"}


def test_demo_figure_draws_the_defaults_overridden_by_the_given_values():
    demo, data = make_demo()
    fig = demo.figure(activation="gelu")
    assert list(fig.axes[0].lines[0].get_ydata()) == [0, 16]
    assert data.calls == [{"d_ff": 16, "activation": "gelu"}]


def test_demo_owns_one_live_figure_until_its_cache_is_cleared():
    demo, _ = make_demo()
    before = LineView.built
    first = demo.figure(d_ff=8)
    assert demo.figure(d_ff=32) is first  # updated in place, not rebuilt
    assert list(first.axes[0].lines[0].get_ydata()) == [0, 32]
    assert LineView.built == before + 1
    demo.png(d_ff=8)
    demo.clear_cache()
    assert not demo.is_cached(d_ff=8)
    assert demo.figure() is not first and LineView.built == before + 2


def test_two_demos_never_share_a_live_figure():
    (a, _), (b, _) = make_demo(), make_demo()
    assert a.figure() is not b.figure()


def test_demo_rejects_an_unknown_control_naming_it():
    demo, _ = make_demo()
    with pytest.raises(
        TypeError, match="has no control 'width'; its controls: \\['d_ff', 'activation'\\]"
    ):
        demo.figure(width=3)


def test_redraw_draws_a_new_figure_for_every_update():
    def bars(data: dict) -> Figure:
        fig = new_figure(2, 1, dpi=30)
        fig.add_subplot().bar([0], [data["d_ff"]])
        return fig

    demo = Demo(
        "bars", (Control("d_ff", (1, 2), 1),), data=lambda d_ff: {"d_ff": d_ff}, view=redraw(bars)
    )
    one, two = demo.figure(d_ff=1), demo.figure(d_ff=2)
    assert one is not two
    assert [p.get_height() for p in two.axes[0].patches] == [2]


def test_demo_png_renders_once_per_distinct_values_and_caches():
    demo, data = make_demo()
    assert not demo.is_cached(d_ff=8)
    first = demo.png(d_ff=8)
    assert first.startswith(PNG_MAGIC)
    assert demo.is_cached(d_ff=8) and demo.is_cached(d_ff=8, activation="relu")
    assert not demo.is_cached(d_ff=32)
    assert demo.png(d_ff=8, activation="relu") is first
    demo.png(d_ff=32)
    demo.png(d_ff=8)
    assert data.calls == [
        {"d_ff": 8, "activation": "relu"},
        {"d_ff": 32, "activation": "relu"},
    ]


def test_demo_png_differs_between_values():
    demo, _ = make_demo()
    assert demo.png(d_ff=8) != demo.png(d_ff=32)


def test_one_at_a_time_covers_every_value_of_every_control_once():
    demo, _ = make_demo()
    grid = list(demo.one_at_a_time())
    assert grid == [
        {"d_ff": 8, "activation": "relu"},
        {"d_ff": 16, "activation": "relu"},
        {"d_ff": 32, "activation": "relu"},
        {"d_ff": 16, "activation": "relu"},
        {"d_ff": 16, "activation": "gelu"},
    ]


# --- build ------------------------------------------------------------------------------------


def test_build_returns_a_vbox_of_controls_status_and_image():
    demo, _ = make_demo()
    box = build(demo)
    assert isinstance(box, w.VBox)
    assert "course-demo" in box._dom_classes
    controls, status, image = widget_parts(box)
    assert set(controls) == {"d_ff", "activation"}
    assert isinstance(controls["d_ff"], w.SelectionSlider)
    assert isinstance(controls["activation"], w.Dropdown)
    assert list(controls["d_ff"].options) == [("8", 8), ("16", 16), ("32", 32)]
    assert controls["d_ff"].value == 16 and controls["activation"].value == "relu"
    assert "course-demo-image" in image._dom_classes
    assert "course-demo-status" in status._dom_classes
    assert status.value == "ready"
    assert image.value == demo.png()


def test_a_control_with_labels_shows_them_in_the_learners_language():
    from course_lib.core.i18n import N_, set_language

    toggle = Control("residual", ("on", "off"), "on", kind="toggle", labels=(N_("on"), N_("off")))
    demo = Demo("t", (Control("d_ff", (1, 2), 1), toggle), data=Recorder(), view=LineView)
    set_language("zh")
    try:
        controls, _, _ = widget_parts(build(demo))
    finally:
        set_language("en")
    assert list(controls["residual"].options) == [("开", "on"), ("关", "off")]
    assert controls["residual"].value == "on"  # the data function still gets the value
    assert toggle.shown() == ["on", "off"]


def test_a_control_needs_one_label_per_value():
    with pytest.raises(
        ValueError, match=r"labels must give one label per value of 'n' \(3\), got 2"
    ):
        Control("n", (1, 2, 3), 1, labels=("one", "two"))


def test_build_makes_toggle_buttons_for_a_toggle_control():
    demo = Demo("t", (Control("d_ff", (1, 2), 1, kind="toggle"),), data=Recorder(), view=LineView)
    controls, _, _ = widget_parts(build(demo))
    assert isinstance(controls["d_ff"], w.ToggleButtons)


def test_build_updates_sliders_while_they_are_dragged():
    demo, _ = make_demo()
    controls, _, _ = widget_parts(build(demo))
    assert controls["d_ff"].continuous_update is True


def test_build_updates_the_image_when_a_control_moves():
    demo, data = make_demo()
    controls, status, image = widget_parts(build(demo))
    controls["d_ff"].value = 32
    assert data.calls[-1] == {"d_ff": 32, "activation": "relu"}
    assert image.value == demo.png(d_ff=32)
    assert status.value.startswith("updated in ")
    controls["activation"].value = "gelu"
    assert data.calls[-1] == {"d_ff": 32, "activation": "gelu"}
    assert image.value == demo.png(d_ff=32, activation="gelu")


def test_build_shows_the_busy_text_while_an_uncached_value_renders():
    demo, data = make_demo()
    demo.busy_text = "drawing…"
    controls, status, _ = widget_parts(build(demo, schedule=None))
    seen = []
    compute = demo.data
    demo.data = lambda **values: seen.append(status.value) or compute(**values)
    controls["d_ff"].value = 8
    controls["d_ff"].value = 16  # cached since build: no render, no busy text
    assert seen == ["<i>drawing…</i>"]
    assert status.value.startswith("updated in ")
    assert [call["d_ff"] for call in data.calls] == [16, 8]


class Later:
    """A schedule that keeps callbacks until the test runs them: the kernel's idle time, by hand."""

    def __init__(self):
        self.waiting = []

    def __call__(self, callback):
        self.waiting.append(callback)

    def run(self) -> int:
        ran = 0
        while self.waiting:
            self.waiting.pop(0)()
            ran += 1
        return ran


def test_neighbours_are_the_moved_controls_next_values_nearest_first():
    demo = Demo(
        "n", (Control("d_ff", (1, 2, 4, 8, 16), 4), Control("a", ("x", "y"), "x")), dict, LineView
    )
    assert demo.neighbours({"d_ff": 4}, "d_ff") == [{"d_ff": 8, "a": "x"}, {"d_ff": 2, "a": "x"}]
    assert [v["d_ff"] for v in demo.neighbours({"d_ff": 4}, "d_ff", reach=2)] == [8, 2, 16, 1]
    assert demo.neighbours({"d_ff": 16, "a": "y"}, "d_ff") == [{"d_ff": 8, "a": "y"}]
    assert demo.neighbours({"a": "x"}, "a") == [{"d_ff": 4, "a": "y"}]


def test_after_a_move_the_next_values_are_drawn_in_idle_time_so_the_next_step_is_a_cache_hit():
    demo, data = make_demo()
    later = Later()
    box = build(demo, schedule=later)
    controls, _, image = widget_parts(box)
    controls["d_ff"].value = 8  # the smallest: its one neighbour, 16, was drawn at build
    assert later.waiting == [] and box.prefetch.drawn == []
    controls["activation"].value = "gelu"  # a move that leaves d_ff=8 with gelu undrawn beside it
    assert later.run() == 0  # its only neighbour (relu) is drawn already
    controls["d_ff"].value = 16
    assert [call["d_ff"] for call in data.calls] == [16, 8, 8, 16]
    assert later.run() == 1 and box.prefetch.drawn == [{"d_ff": 32, "activation": "gelu"}]
    calls = len(data.calls)
    controls["d_ff"].value = 32  # drawn while the learner looked: no render now
    assert len(data.calls) == calls and image.value == demo.png(d_ff=32, activation="gelu")


def test_the_next_move_drops_what_is_still_queued_and_one_frame_is_drawn_per_turn():
    data = Recorder()
    demo = Demo("q", (Control("d_ff", tuple(range(1, 10)), 1),), data=data, view=LineView)
    later = Later()
    box = build(demo, schedule=later)
    box.prefetch.reach = 2
    controls, _, _ = widget_parts(box)
    controls["d_ff"].value = 5  # queues 6, 4, 7, 3
    assert len(later.waiting) == 1
    later.waiting.pop(0)()  # one turn of the event loop: one frame, then the next turn asked for
    assert [v["d_ff"] for v in box.prefetch.drawn] == [6] and len(later.waiting) == 1
    controls["d_ff"].value = 9  # the learner moved on: 4, 7, 3 are dropped, 8 and 7 queued
    later.run()
    assert [v["d_ff"] for v in box.prefetch.drawn] == [6, 8, 7]
    assert [call["d_ff"] for call in data.calls] == [1, 5, 6, 9, 8, 7]


def test_a_neighbour_that_fails_to_draw_is_skipped_and_its_error_waits_for_the_learner():
    demo, _ = make_demo(fail_on=32)
    later = Later()
    box = build(demo, schedule=later)
    controls, status, _ = widget_parts(box)
    controls["d_ff"].value = 8
    controls["d_ff"].value = 16  # drawn at build; its neighbour 32 fails to draw
    assert later.run() == 1 and box.prefetch.drawn == []
    assert status.value.startswith("updated in ")
    with pytest.raises(RuntimeError, match="cannot draw 32"):
        controls["d_ff"].value = 32
    assert "cannot draw 32" in status.value


def test_the_idle_schedule_runs_a_callback_on_the_event_loop_and_is_none_without_one():
    import asyncio
    import threading

    outside = []
    thread = threading.Thread(target=lambda: outside.append(idle_schedule()))
    thread.start()
    thread.join()
    assert outside == [None]  # a thread with no event loop: no prefetch

    async def kernel_like() -> list[str]:
        ran = []
        schedule = idle_schedule(delay=0.01)
        schedule(lambda: ran.append("drawn"))
        assert ran == []  # not now: when the loop is idle
        await asyncio.sleep(0.05)
        return ran

    inside = []  # in a thread of its own: this worker's main thread may run a loop already
    thread = threading.Thread(target=lambda: inside.append(asyncio.run(kernel_like())))
    thread.start()
    thread.join()
    assert inside == [["drawn"]]


def test_build_with_no_schedule_draws_nothing_ahead():
    demo, data = make_demo()
    box = build(demo, schedule=None)
    controls, _, _ = widget_parts(box)
    controls["d_ff"].value = 32
    assert box.prefetch.drawn == [] and [call["d_ff"] for call in data.calls] == [16, 32]


def test_build_shows_the_error_in_the_status_when_render_raises():
    demo, _ = make_demo(fail_on=8)
    controls, status, image = widget_parts(build(demo))
    before = image.value
    with pytest.raises(RuntimeError, match="cannot draw 8"):
        controls["d_ff"].value = 8
    assert "error: RuntimeError: cannot draw 8" in status.value
    assert image.value == before


# --- all_demos --------------------------------------------------------------------------------


@pytest.fixture
def lesson_folder(tmp_path, monkeypatch):
    """Point the lessons package at a temporary folder of lesson packages."""
    import course_lib.lessons as lessons

    monkeypatch.setattr(lessons, "__path__", [str(tmp_path)])
    yield tmp_path
    for name in [n for n in sys.modules if n.startswith("course_lib.lessons.tmp_")]:
        del sys.modules[name]


def test_all_demos_is_empty_without_lesson_packages(lesson_folder):
    assert all_demos() == []


def test_all_demos_collects_each_lessons_demos_in_lesson_order(lesson_folder):
    source = """
        from course_lib.core.widgets import Control, Demo
        def demos():
            return [Demo({name!r}, (Control("d_ff", (1, 2), 1),), data=dict, view=object)]
    """
    for name in ("tmp_l02_b", "tmp_l01_a", "tmp_l03_without_demos"):
        (lesson_folder / name).mkdir()
        (lesson_folder / name / "__init__.py").write_text("")
    for name in ("tmp_l02_b", "tmp_l01_a"):
        (lesson_folder / name / "demos.py").write_text(textwrap.dedent(source.format(name=name)))
    (lesson_folder / "tmp_l03_without_demos" / "experiments.py").write_text("VALUE = 1\n")
    assert [demo.name for demo in all_demos()] == ["tmp_l01_a", "tmp_l02_b"]


# --- plots ------------------------------------------------------------------------------------


def test_new_figure_is_not_registered_with_pyplot():
    before = plt.get_fignums()
    fig = new_figure(3, 2, dpi=50)
    assert plt.get_fignums() == before
    assert tuple(fig.get_size_inches()) == (3, 2) and fig.dpi == 50
    assert fig.get_layout_engine() is not None


def test_figure_png_returns_png_bytes_of_the_figures_size():
    fig = new_figure(2, 1, dpi=50)
    fig.add_subplot().plot([0, 1], [1, 0])
    data = figure_png(fig)
    assert data.startswith(PNG_MAGIC)
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (100, 50)
    big = figure_png(fig, dpi=100)
    assert int.from_bytes(big[16:20], "big") == 200


def test_colors_give_every_activation_its_own_colour():
    assert set(ACTIVATIONS) <= set(COLORS)
    activation_colours = [COLORS[name] for name in ACTIVATIONS]
    assert len(set(activation_colours)) == len(activation_colours)


def test_the_palette_is_okabe_itos_and_every_concept_colour_comes_from_it():
    assert PALETTE[:3] == ("#0072B2", "#D55E00", "#009E73")
    assert len(set(PALETTE)) == len(PALETTE) == 8
    assert all(c in PALETTE or c.upper() in ("#7F7F7F", "#333333") for c in COLORS.values())


def test_tint_mixes_a_colour_with_white():
    assert tint("#0072B2", 0.0) == (1.0, 1.0, 1.0)
    assert tint("#0072B2", 1.0) == pytest.approx((0.0, 0x72 / 255, 0xB2 / 255))
