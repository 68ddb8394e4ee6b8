"""A notebook open in JupyterLab, driven the way a learner does: Run All, then every control."""

from __future__ import annotations

import ast
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

IDLE = "Python 3 (ipykernel) | Idle"
OPEN_TIMEOUT_MS = 90_000
RUN_ALL_TIMEOUT_MS = 600_000
# Liveness limits, not speed goals (those are the benchmark's): a demo's first frame of a value
# takes well under a second on an idle machine, and CI may be many times slower with both cores busy
OUTPUT_TIMEOUT_MS = 60_000

# The panel of the notebook at `path`, found among the main-area widgets.
_PANEL = """(path) => {
  for (const w of window.jupyterapp.shell.widgets('main')) {
    if (w.context && w.context.path === path) return w;
  }
  throw new Error('notebook not open: ' + path);
}"""

_OPEN = """async (path) => {
  const panel = await window.jupyterapp.commands.execute(
    'docmanager:open', {path, factory: 'Notebook', kernel: {name: 'python3'}});
  await panel.context.ready;
  await panel.sessionContext.ready;
  await panel.sessionContext.session.kernel.info;
  return panel.id;
}"""

_RUN_ALL = f"""async (path) => {{
  window.jupyterapp.shell.activateById(({_PANEL})(path).id);
  await window.jupyterapp.commands.execute('notebook:run-all-cells');
}}"""

_KERNEL_IDLE = """(path) => {
  for (const w of window.jupyterapp.shell.widgets('main')) {
    if (w.context && w.context.path === path) {
      const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
      return !!kernel && kernel.status === 'idle' && kernel.connectionStatus === 'connected';
    }
  }
  return false;
}"""

_CELLS = f"""(path) => ({_PANEL})(path).content.widgets
  .filter((cell) => cell.model.type === 'code')
  .map((cell) => ({{
    count: cell.model.executionCount,
    errors: cell.model.outputs.toJSON()
      .filter((o) => o.output_type === 'error')
      .map((o) => o.ename + ': ' + o.evalue),
    source: cell.model.sharedModel.getSource().split('\\n')[0].slice(0, 60),
  }}))"""

# Every code cell's source and outputs as nbformat JSON, images left out (never compared).
_OUTPUTS = f"""(path) => ({_PANEL})(path).content.widgets
  .filter((cell) => cell.model.type === 'code')
  .map((cell) => ({{
    source: cell.model.sharedModel.getSource(),
    outputs: cell.model.outputs.toJSON().map((o) => {{
      if (!o.data) return o;
      const data = Object.fromEntries(
        Object.entries(o.data).filter(([mime]) => !mime.startsWith('image/')));
      return {{...o, data}};
    }}),
  }}))"""

_ASK_KERNEL = f"""async ([path, expression]) => {{
  const kernel = ({_PANEL})(path).sessionContext.session.kernel;
  const future = kernel.requestExecute(
    {{code: '', silent: true, store_history: false, user_expressions: {{answer: expression}}}});
  const reply = await future.done;
  const answer = reply.content.user_expressions.answer;
  if (answer.status !== 'ok') throw new Error(answer.ename + ': ' + answer.evalue);
  return answer.data['text/plain'];
}}"""

# What a control drives: a course demo's image (and status line), else everything its cell shows.
_DRIVEN = """(control) => {
  const demo = control.closest('.course-demo');
  if (demo) {
    const image = demo.querySelector('.course-demo-image');
    const status = demo.querySelector('.course-demo-status');
    return {output: image ? image.src : '', problem: /error|错误/i.test(status ? status.innerText : '')
      ? status.innerText : ''};
  }
  const area = control.closest('.jp-OutputArea') || control.parentElement;
  const shown = [...area.querySelectorAll('img')].map((i) => i.src)
    .concat([...area.querySelectorAll('.widget-output, .widget-html-content')].map((e) => e.innerText));
  const errors = [...area.querySelectorAll('.widget-output [data-mime-type="application/vnd.jupyter.stderr"]')];
  return {output: JSON.stringify(shown), problem: errors.map((e) => e.innerText).join('\\n')};
}"""

_POLL_MS = 100  # how often a waiting move looks at its output again
_CHANGED_NOW = f"""(control, before) => {{
  const now = ({_DRIVEN})(control);
  return now.output !== before.output || (now.problem !== '' && now.problem !== before.problem);
}}"""

# Widgets that failed to render (e.g. "model not found" after a version mismatch) say so in place.
_WIDGET_FAILURES = """(notebook) => [...notebook.querySelectorAll('.jp-OutputArea-output')]
  .map((o) => o.innerText).filter((t) => /Error displaying widget|Error rendering|model not found/i.test(t))
  .map((t) => t.slice(0, 200))"""

# A widget output says "Loading widget..." until its model arrives; after an ipywidgets /
# jupyterlab_widgets mismatch it never does.
_WIDGETS_SETTLED = """(notebook) => ![...notebook.querySelectorAll('.jp-OutputArea-output')]
  .some((o) => o.innerText.trim().startsWith('Loading widget'))"""
WIDGET_RENDER_TIMEOUT_MS = 60_000  # liveness: a widget that has not rendered by then never will

CONTROL_SELECTORS = {
    "slider": ".widget-slider",
    "dropdown": ".widget-dropdown",
    "toggle": ".widget-toggle-buttons",
}


@dataclass
class Move:
    """One change of one control, and what its output did."""

    value: str
    problem: str = ""
    seconds: float = 0.0  # from the learner's action until the output changed and the kernel idled


@dataclass
class ControlReport:
    kind: str
    name: str
    start: str
    moves: list[Move] = field(default_factory=list)
    options: int = 0
    lost: list[str] = field(default_factory=list)  # moves the kernel never received (see exercise)


class LessonPage:
    """One notebook opened in the suite's JupyterLab page (one at a time), as File > Open does."""

    def __init__(self, page: Page, path: str):
        self.page, self.path, self.name = page, path, Path(path).name

    def open(self) -> None:
        panel_id = self.page.evaluate(_OPEN, self.path)
        self.notebook = self.page.locator(f'[id="{panel_id}"] .jp-Notebook')
        self.wait_idle(OPEN_TIMEOUT_MS)

    def close(self) -> None:
        """Close the tab without the "save changes?" dialog (the copy is thrown away)."""
        self.page.evaluate(f"(path) => ({_PANEL})(path).dispose()", self.path)

    def wait_idle(self, timeout_ms: float) -> None:
        """Until the kernel is connected and idle, and the status bar says so."""
        self.page.wait_for_function(_KERNEL_IDLE, arg=self.path, timeout=timeout_ms)
        self.page.locator("#jp-main-statusbar").get_by_text(IDLE, exact=True).wait_for(
            timeout=timeout_ms
        )

    def run_all(self) -> None:
        """Run All, as the menu does; resolves once every cell has run (or one failed)."""
        self.page.evaluate(_RUN_ALL, self.path)
        self.wait_idle(RUN_ALL_TIMEOUT_MS)

    def code_cells(self) -> list[dict]:
        """Per code cell: its execution count, its error outputs and its first line."""
        return self.page.evaluate(_CELLS, self.path)

    def outputs(self) -> list[dict]:
        """Per code cell: its whole source and its outputs (nbformat JSON, images left out)."""
        return self.page.evaluate(_OUTPUTS, self.path)

    def widget_failures(self) -> list[str]:
        """What widget outputs show instead of a widget (once each has rendered or failed)."""
        handle = self.notebook.element_handle()
        try:
            self.page.wait_for_function(
                _WIDGETS_SETTLED, arg=handle, timeout=WIDGET_RENDER_TIMEOUT_MS
            )
        except PlaywrightTimeout:
            seconds = WIDGET_RENDER_TIMEOUT_MS / 1000
            return [f"a widget still shows 'Loading widget...' after {seconds:.0f} s"]
        return self.notebook.evaluate(_WIDGET_FAILURES)

    def demo_image_sizes(self) -> list[dict]:
        """Per demo image: its PNG's width and the width it is shown at, in CSS pixels, read once
        the image is decoded (a PNG still loading is 0 px wide on a slow machine; one that cannot
        be decoded stays 0 px and fails the check)."""
        return self.notebook.evaluate(
            """async (notebook) => {
              const images = [...notebook.querySelectorAll('.course-demo-image')];
              await Promise.all(images.map((img) => img.decode().catch(() => null)));
              return images.map((img) =>
                ({natural: img.naturalWidth, shown: img.getBoundingClientRect().width}));
            }"""
        )

    def ask_kernel(self, expression: str) -> str:
        """The repr of ``expression`` evaluated silently in the lesson's kernel (no execution count)."""
        return self.page.evaluate(_ASK_KERNEL, [self.path, expression])

    def controls(self) -> list[tuple[str, Locator]]:
        """Every rendered control as (kind, locator), in page order within each kind."""
        found = []
        for kind, selector in CONTROL_SELECTORS.items():
            every = self.notebook.locator(selector)
            found += [(kind, every.nth(i)) for i in range(every.count())]
        return found

    def screenshot(self, path: Path) -> None:
        """The lesson as a learner sees it, scrolled to its first demo (if it has one)."""
        demos = self.notebook.locator(".course-demo")
        if demos.count():
            demos.first.evaluate(
                "(demo) => demo.closest('.jp-Cell').scrollIntoView({block: 'start'})"
            )
        self.page.wait_for_timeout(300)  # let the scroll and layout settle
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path))


def control_name(control: Locator) -> str:
    label = control.locator(".widget-label").first
    return label.inner_text().strip() if label.count() else "(unlabelled)"


def exercise(lesson: LessonPage, kind: str, control: Locator) -> ControlReport:
    """Move ``control`` to at least two other values; record after each move what its output did.
    A move whose output never changed is a problem, unless a message was lost between browser and
    kernel: the kernel, asked then, holds another value for the control (the move never reached
    Python), or its demo's picture in the kernel is not the one the browser shows (the new picture
    never reached the page). Both were seen under heavy load, a few times in many runs. Such a move
    is logged as lost and the next value is tried; a control with fewer than two clean moves still
    fails (``control_problems``), and so does a demo whose kernel-side picture stayed as it was."""
    report = ControlReport(kind, control_name(control), _value(kind, control))
    control.scroll_into_view_if_needed()
    for step in _steps(kind, control, report):
        before = control.evaluate(_DRIVEN)
        value_before = _value(kind, control)
        start = time.perf_counter()
        step()
        value = _value(kind, control)
        if value == value_before:
            continue  # this key did nothing here (a slider already at its end)
        problem = _wait_for_output(lesson, control, before)
        if problem and (
            move_lost(kernel_labels(lesson), report.name, value)
            or picture_lost(kernel_pictures(lesson), shown_picture(control))
        ):
            report.lost.append(value)
            continue
        report.moves.append(Move(value, problem, time.perf_counter() - start))
        if len({m.value for m in report.moves} - {report.start}) >= 2:
            break
    return report


def _wait_for_output(lesson: LessonPage, control: Locator, before: dict) -> str:
    """'' when the driven output changed cleanly; otherwise what went wrong. The control is found
    anew on every look (a view JupyterLab draws again replaces its elements)."""
    deadline = time.perf_counter() + OUTPUT_TIMEOUT_MS / 1000
    while not control.evaluate(_CHANGED_NOW, before):
        if time.perf_counter() > deadline:
            seconds = OUTPUT_TIMEOUT_MS / 1000
            return f"its output did not change within {seconds:.0f} s ({_where(lesson, control)})"
        control.page.wait_for_timeout(_POLL_MS)
    try:  # the callback may still be sending its status line: the kernel is idle once it is done
        lesson.wait_idle(OUTPUT_TIMEOUT_MS)
    except PlaywrightTimeout:
        return f"its kernel did not idle within {OUTPUT_TIMEOUT_MS / 1000:.0f} s"
    return control.evaluate(_DRIVEN)["problem"]


# The SHA-256 (first 16 hex digits) of every live demo picture in the kernel, and of the one the
# browser shows beside a control: did the picture the kernel drew reach the page?
_KERNEL_PICTURES = (
    "sorted(__import__('hashlib').sha256(w.value).hexdigest()[:16]"
    " for w in __import__('gc').get_objects() if type(w).__name__ == 'Image'"
    " and getattr(w, 'comm', None) is not None and 'course-demo-image' in w._dom_classes)"
)
_SHOWN_PICTURE = """async (control) => {
  const demo = control.closest('.course-demo');
  const image = demo && demo.querySelector('.course-demo-image');
  if (!image || !image.src) return null;
  const bytes = await (await fetch(image.src)).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 16);
}"""


def kernel_pictures(lesson: LessonPage) -> list[str] | None:
    """``_KERNEL_PICTURES`` asked of the lesson's kernel; None if it does not answer in time."""
    answer = _ask_in_time(lesson, _KERNEL_PICTURES)
    return None if answer is None else ast.literal_eval(answer)


def shown_picture(control: Locator) -> str | None:
    """The digest of the picture shown in ``control``'s demo; None outside a demo or unreadable."""
    try:
        return control.evaluate(_SHOWN_PICTURE)
    except Exception:  # noqa: BLE001 (an unreadable picture proves nothing: the problem stands)
        return None


def picture_lost(kernel: list[str] | None, shown: str | None) -> bool:
    """True when the kernel answered and none of its demo pictures is the one the browser shows:
    the kernel drew the move, and its picture never reached the page."""
    return kernel is not None and shown is not None and shown not in kernel


# Every open selection widget's (description, selected label) in the kernel, as the learner reads
# them beside the control and in it: did the move reach Python?
_KERNEL_CONTROLS = (
    "sorted((w.description, w.label) for w in __import__('gc').get_objects()"
    " if type(w).__name__ in ('Dropdown', 'SelectionSlider', 'ToggleButtons')"
    " and getattr(w, 'comm', None) is not None)"
)
_ASK_TIMEOUT_MS = 10_000


def kernel_labels(lesson: LessonPage) -> list[tuple[str, str]] | None:
    """``_KERNEL_CONTROLS`` asked of the lesson's kernel; None if it does not answer in time."""
    answer = _ask_in_time(lesson, _KERNEL_CONTROLS)
    return None if answer is None else [tuple(pair) for pair in ast.literal_eval(answer)]


def _ask_in_time(lesson: LessonPage, expression: str) -> str | None:
    """``expression``'s repr from the lesson's kernel, or None without an answer in time."""
    try:
        return lesson.page.evaluate(
            f"""async ([path, expression]) => Promise.race([
              ({_ASK_KERNEL})([path, expression]),
              new Promise((resolve) => setTimeout(() => resolve(null), {_ASK_TIMEOUT_MS}))])""",
            [lesson.path, expression],
        )
    except Exception:  # noqa: BLE001 (no answer is an answer here: nothing is called lost)
        return None


def move_lost(labels: list[tuple[str, str]] | None, name: str, value: str) -> bool:
    """True when the kernel answered, has a control named ``name``, and none of those holds
    ``value``: the move the browser shows never reached it. The browser writes spaces in labels
    as no-break spaces."""
    if labels is None:
        return False
    name = name.replace("\xa0", " ")
    held = [label.replace("\xa0", " ") for described, label in labels if described == name]
    return bool(held) and value.replace("\xa0", " ") not in held


def _where(lesson: LessonPage, control: Locator) -> str:
    """What a stuck move left behind: the demo's status line, the kernel's state, and the values
    the kernel's widgets hold (asked with a time limit: a busy kernel answers only when free)."""
    status = control.evaluate(
        "(c) => { const d = c.closest('.course-demo');"
        " const s = d && d.querySelector('.course-demo-status'); return s ? s.innerText : ''; }"
    )
    kernel = lesson.page.evaluate(
        f"(path) => {{ const k = ({_PANEL})(path).sessionContext.session.kernel;"
        " return k ? k.status + '/' + k.connectionStatus : 'no kernel'; }",
        lesson.path,
    )
    values = kernel_labels(lesson)
    pictures, shown = kernel_pictures(lesson), shown_picture(control)
    return (
        f"status line {status!r}; kernel {kernel}; the kernel's controls: {values or 'no answer'};"
        f" picture shown {shown}, the kernel's demo pictures {pictures or 'no answer'}"
    )


def _value(kind: str, control: Locator) -> str:
    if kind == "slider":
        return control.locator(".widget-readout").inner_text().strip()
    if kind == "dropdown":
        select = control.locator("select")
        return select.evaluate(
            "(s) => s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''"
        )
    return control.locator("button.mod-active").inner_text().strip()


def _steps(kind: str, control: Locator, report: ControlReport):
    """Callables that each change the control the way a learner would."""
    if kind == "slider":
        handle = control.locator(".noUi-handle").first
        low, now, top = (
            float(handle.get_attribute(f"aria-value{a}")) for a in ("min", "now", "max")
        )
        first = "ArrowRight" if now < top else "ArrowLeft"
        report.options = round(top - low) + 1  # exact for selection sliders (positions 0..n-1)
        return [
            lambda key=key: (handle.focus(), handle.press(key)) for key in (first, "End", "Home")
        ]
    if kind == "dropdown":
        select = control.locator("select")
        labels = [o.strip() for o in select.locator("option").all_inner_texts()]
        report.options = len(labels)
        others = [label for label in labels if label != report.start][:4]  # 2, and 2 spare
        return [lambda label=label: select.select_option(label=label) for label in others]
    buttons = control.locator("button")
    labels = [b.strip() for b in buttons.all_inner_texts()]
    report.options = len(labels)
    others = [i for i, label in enumerate(labels) if label != report.start][:4]
    return [lambda i=i: buttons.nth(i).click() for i in others]
