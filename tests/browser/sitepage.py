"""Driving a page of the static site (``make site``) as a learner does: open it, then move every
control of every kernel-free demo. Shared by the browser suite (does each move show the right
frame?) and the benchmark (how long does each swap take?)."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

# A liveness limit, not a speed goal: a swap that has not come after this long never will.
READY_WAIT_MS = 60_000  # a demo's frames loaded (the largest, 1 MB in 60 frames)
SWAP_WAIT_MS = 60_000
PAGE_READY_MS = 120_000
ALL_READY = (
    "() => [...document.querySelectorAll('.site-demo')].every((d) => d.dataset.ready !== 'false')"
)
_STATE = """(demo) => ({
  src: demo.querySelector("img.demo-frame").getAttribute("src"),
  swapMs: Number(demo.querySelector("img.demo-frame").dataset.swapMs),
  swaps: Number(demo.dataset.swaps || 0),
})"""


def targets(start: int, count: int) -> list[int]:
    """Two moves of one step each from ``start``: two other values where the control has them,
    else to its other value and back."""
    step = 1 if start + 1 < count else -1
    first = start + step
    second = first + step if 0 <= first + step < count else start
    return [first, second]


def move(page, demo, control, target: int) -> dict | None:
    """One step of ``control`` to ``target`` (a key press, or select_option); the demo's state
    once its frame swap finished, None if no swap came."""
    before = demo.evaluate(_STATE)
    if control.evaluate("(el) => el.type === 'range'"):
        control.focus()
        current = int(control.input_value())
        page.keyboard.press("ArrowRight" if target > current else "ArrowLeft")
    else:
        control.select_option(index=target)
    try:
        page.wait_for_function(
            "([demo, n]) => Number(demo.dataset.swaps || 0) > n",
            arg=[demo.element_handle(), before["swaps"]],
            timeout=SWAP_WAIT_MS,
        )
    except PlaywrightTimeout:
        return None
    return {**demo.evaluate(_STATE), "before": before["src"]}


def exercise_demos(page) -> tuple[list[str], list[dict]]:
    """(problems, swaps): every control of every demo on ``page`` moved to two other values with
    the keyboard (ranges) or select_option (selects). A problem is a move that showed no new frame,
    a control that shows another value, or (one control at a time) other controls not back at
    their defaults. ``swaps`` has one row per move with the page's own measured swap time: data for
    the benchmark, judged nowhere here."""
    problems, swaps = [], []
    for demo in page.locator(".site-demo").all():
        slug = demo.get_attribute("data-demo")
        try:  # its frames load in the background: a large demo on a busy machine takes a while
            page.wait_for_function(
                "(d) => d.dataset.ready !== 'false'",
                arg=demo.element_handle(),
                timeout=READY_WAIT_MS,
            )
        except PlaywrightTimeout:
            pass  # reported below, as it stands
        if demo.get_attribute("data-ready") != "true":
            problems.append(
                f"{slug}: frames not ready (data-ready={demo.get_attribute('data-ready')})"
            )
            continue
        one_at_a_time = demo.get_attribute("data-mode") == "one-at-a-time"
        defaults = demo.evaluate(
            "(d) => JSON.parse(d.querySelector('script.demo-manifest').textContent)"
            ".controls.map((c) => c.default)"
        )
        controls = demo.locator("[data-control]").all()
        for k, control in enumerate(controls):
            name = demo.locator(f"label[for='{control.get_attribute('id')}']").inner_text()
            count = int(control.evaluate("(el) => el.type === 'range' ? +el.max + 1 : el.length"))
            start = int(control.input_value())
            for previous, target in itertools.pairwise([start, *targets(start, count)]):
                where = f"{slug}: {name} {previous} -> {target}"
                state = move(page, demo, control, target)
                if state is None:
                    problems.append(f"{where}: no frame swap happened")
                    continue
                swaps.append({"demo": slug, "control": name, "move": f"{previous} -> {target}",
                              "ms": state["swapMs"]})  # fmt: skip
                if int(control.input_value()) != target:
                    problems.append(f"{where}: the control shows {control.input_value()}")
                if state["src"] == state["before"]:
                    problems.append(f"{where}: the frame did not change ({state['src']})")
                others = [int(c.input_value()) for j, c in enumerate(controls) if j != k]
                if one_at_a_time and others != [d for j, d in enumerate(defaults) if j != k]:
                    problems.append(f"{where}: the other controls are not at their defaults")
    return problems, swaps


def open_page(browser, url: str) -> tuple[object, list[str]]:
    """``url`` opened in a new tab, with every console error and failed request collected."""
    page, errors = browser.new_page(), []
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url} ({r.failure})"))
    page.on(
        "response",
        lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
    )
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_function(ALL_READY, timeout=PAGE_READY_MS)
    return page, errors


PHONE = {"width": 390, "height": 844}  # a common phone's screen, in CSS pixels
_SIDEWAYS = """() => {
  const width = document.documentElement.clientWidth;
  const clips = (el) => ["auto", "scroll", "hidden"].includes(getComputedStyle(el).overflowX);
  const outside = [...document.querySelectorAll("body *")].filter((el) => {
    if (el.getBoundingClientRect().right <= width + 1) return false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (clips(a)) return false;  // it scrolls inside its own block
    }
    return true;
  });
  return {
    scroll: document.documentElement.scrollWidth - width,
    outside: outside.slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
  };
}"""


def sideways_problems(page) -> list[str]:
    """What makes ``page`` scroll sideways on a phone (it is resized to ``PHONE``)."""
    page.set_viewport_size(PHONE)
    found = page.evaluate(_SIDEWAYS)
    if found["scroll"] <= 0:
        return []
    return [f"scrolls sideways by {found['scroll']} px at 390 px wide: {found['outside']}"]


_QUESTIONS = """() => [...document.querySelectorAll("form.site-question")].map((form) => ({
  key: form.dataset.question,
  data: JSON.parse(form.querySelector("script.question-data").textContent),
  choices: form.querySelectorAll("input[type=radio]").length,
}))"""
_READY = "() => document.documentElement.dataset.questionsReady === 'true'"
_PROGRESS = """() => { const p = document.querySelector(".quiz-progress");
  return p ? {right: Number(p.dataset.right), text: p.textContent} : null; }"""


_REVEALS = """(key) => [...document.querySelectorAll(`.reveal-after[data-question="${key}"]`)]
  .map((box) => ({shown: box.querySelector(".output_wrapper").offsetParent !== null,
                  note: !box.querySelector(".reveal-note").hidden}))"""


def _reveal_problems(page, key: str, shown: bool) -> list[str]:
    """A predict question's results must be hidden behind a note before it is answered, and
    shown once it is (or once the reader asks to see them)."""
    boxes = page.evaluate(_REVEALS, key)
    notes = 0 if shown else 1  # one note per unanswered question, whatever its results
    if boxes and ({b["shown"] for b in boxes} != {shown} or sum(b["note"] for b in boxes) != notes):
        state = "answered" if shown else "unanswered"
        return [f"{key}: its results, {state}, show as {boxes}"]
    return []


def _answer(page, key: str, choice: int) -> dict:
    form = page.locator(f'form.site-question[data-question="{key}"]')
    form.locator(f'input[value="{choice}"]').check()
    form.locator("button[type=submit]").click()
    return {
        "reply": form.locator(".question-reply").text_content(),
        "result": form.get_attribute("data-result"),
    }


def question_problems(page) -> list[str]:
    """Answer each question of ``page`` once wrong, then right, as a reader would, then reload:
    each reply must be the question's own, the page's count must follow, and the answers must
    still be there after the reload (the browser's local storage). A predict question's results
    stay hidden until it is answered (the first one's are shown by its "show" button instead).
    Empty when all is well."""
    questions, problems = page.evaluate(_QUESTIONS), []
    # a reader's answers are kept per question, shared by the two editions' pages: a page opened
    # in a context that answered before starts again from none (a fresh context has none)
    if questions and page.evaluate("() => localStorage.length"):
        page.evaluate("() => localStorage.clear()")
        page.reload()
        page.wait_for_function(_READY)
    for n, q in enumerate(questions):
        answer, replies = q["data"]["answer"], q["data"]["replies"]
        wrong = (answer + 1) % q["choices"]
        problems += _reveal_problems(page, q["key"], shown=False)
        if n == 0 and page.evaluate(_REVEALS, q["key"]):  # "show it now", without answering
            note = page.locator(f'.reveal-after[data-question="{q["key"]}"] .reveal-note button')
            note.first.click()
            problems += _reveal_problems(page, q["key"], shown=True)
        got = _answer(page, q["key"], wrong)
        problems += _reveal_problems(page, q["key"], shown=True)
        if got != {"reply": f"✘ {replies[wrong]}", "result": "wrong"}:
            problems.append(f"{q['key']}: a wrong answer showed {got}")
        got = _answer(page, q["key"], answer)
        if got != {"reply": f"✔ {replies[answer]}", "result": "right"}:
            problems.append(f"{q['key']}: the right answer showed {got}")
        progress = page.evaluate(_PROGRESS)
        if progress is None or progress["right"] != n + 1:
            problems.append(f"{q['key']}: the page's count says {progress} after {n + 1} right")
    if questions:
        page.reload()
        page.wait_for_function(_READY)
        progress = page.evaluate(_PROGRESS)
        if progress is None or progress["right"] != len(questions):
            problems.append(f"after a reload the page's count says {progress}")
        for q in questions:  # answered before: shown at once
            problems += _reveal_problems(page, q["key"], shown=True)
    return problems


AXE_VERSION = "4.14.1"  # pinned: the Makefile installs exactly this one
AXE = Path(sys.prefix) / "axe" / "node_modules" / "axe-core" / "axe.min.js"
INSTALL_AXE = f"npm install --prefix .venv/axe axe-core@{AXE_VERSION} (or `make setup`)"
_AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter((v) => ["critical", "serious"].includes(v.impact))
  .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)"""


def accessibility_problems(page) -> list[str]:
    """axe-core's critical and serious violations on ``page`` (WCAG 2 A and AA and axe's best
    practices), one line each: what, and where."""
    if not AXE.exists():
        raise FileNotFoundError(f"axe-core {AXE_VERSION} is not installed: {INSTALL_AXE}")
    installed = json.loads((AXE.parent / "package.json").read_text(encoding="utf-8"))["version"]
    if installed != AXE_VERSION:
        raise RuntimeError(f"axe-core {installed} installed, {AXE_VERSION} pinned: {INSTALL_AXE}")
    page.add_script_tag(path=str(AXE))
    return page.evaluate(_AXE_RUN)
