"""What a learner would notice, as lists of problems (empty = fine); each names the notebook."""

from __future__ import annotations

import ast

from lessonpage import LessonPage, control_name, exercise

NAMED_CONTROLS = ("d_ff", "activation")

# Every course_lib Demo's controls the notebook created, asked of its kernel after Run All: each
# control's keyword and what the learner reads beside it (its label in the notebook's language).
_DEMO_CONTROL_NAMES = (
    "sorted({(c.name, c.title()) for o in __import__('gc').get_objects()"
    " if type(o).__name__ == 'Demo' and type(o).__module__ == 'course_lib.core.widgets'"
    " for c in o.controls})"
)


def run_all_problems(lesson: LessonPage) -> list[str]:
    """Code cells without an execution count or with an error output, and widgets that failed."""
    problems = []
    for index, cell in enumerate(lesson.code_cells()):
        where = f"{lesson.name} code cell {index} ({cell['source']!r})"
        if cell["count"] is None:
            problems.append(f"{where}: never ran (no execution count)")
        problems += [f"{where}: error output {error}" for error in cell["errors"]]
    problems += [
        f"{lesson.name}: a widget failed to render: {text}" for text in lesson.widget_failures()
    ]
    return problems


def control_problems(lesson: LessonPage) -> tuple[list[str], list[str]]:
    """(problems, log): every control moved to two other values; its output must change cleanly."""
    problems, log = [], []
    for kind, control in lesson.controls():
        report = exercise(lesson, kind, control)
        where = f"{lesson.name}: {kind} {report.name!r}"
        seconds = ", ".join(f"{m.seconds:.2f}" for m in report.moves)
        lost = (
            f"; lost between browser and kernel, tried again: {report.lost}" if report.lost else ""
        )
        log.append(
            f"{where}: {report.start} -> {[m.value for m in report.moves]} ({seconds} s){lost}"
        )
        problems += [f"{where} moved to {m.value}: {m.problem}" for m in report.moves if m.problem]
        others = {m.value for m in report.moves} - {report.start}
        if len(others) < min(2, report.options - 1):
            problems.append(f"{where}: reached only {sorted(others)} from {report.start}")
    return problems, log


def stretched_images(lesson: LessonPage) -> list[str]:
    """Demo images shown wider than their PNG are upscaled, hence blurred; one with no width at all
    never loaded."""
    problems = []
    for index, size in enumerate(lesson.demo_image_sizes()):
        if size["natural"] == 0:
            problems.append(f"{lesson.name}: demo image {index} shows no picture (not decodable)")
        elif size["shown"] > size["natural"] + 1:
            problems.append(
                f"{lesson.name}: demo image {index} is {size['natural']} px wide but shown at "
                f"{size['shown']:.0f} px (stretched, so blurred)"
            )
    return problems


def naming_problems(lesson: LessonPage) -> list[str]:
    """d_ff and activation controls of the notebook's demos must be rendered under their labels
    in the notebook's language (d_ff, a symbol, under its name)."""
    titles = dict(ast.literal_eval(lesson.ask_kernel(_DEMO_CONTROL_NAMES)))
    rendered = {control_name(control) for _, control in lesson.controls()}
    return [
        f"{lesson.name}: its demos have a {name!r} control but none is rendered as "
        f"{titles[name]!r} (rendered: {sorted(rendered)})"
        for name in sorted(set(titles) & set(NAMED_CONTROLS))
        if titles[name] not in rendered
    ]
