"""The lessons' exercises (练习): each says its kind in its heading, each lesson has three to five,
spread through the lesson, and none shows its answer above its task.

An exercise is a Markdown heading ``### Exercise N · <kind>: <title>`` (Chinese edition:
``### 练习 N · <kind>：<title>``) followed by its stub and, for a coding exercise, the solution in a
collapsed code cell; an *explain* exercise (or a predict one) asks a question of ``course_lib.core.questions`` with
``ask(...)``. The kinds:

- predict: the learner commits a number, a sign or a choice before the cell that computes it;
- build: the task says what the result must do, not how;
- find the bug: the stub runs but holds one planted mistake of the kind learners make;
- explain: a multiple-choice question whose wrong options are the common misconceptions.

"Shows its answer above its task": a line of the solution's code (or the expression it returns)
appears, spaces aside, in a cell above the task's heading, code or prose; for an explain exercise,
the right choice's text does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from course_lib.core.questions import QUESTIONS, question
from devtools.site.quiz import ASK

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if not p.name.startswith("00"))

KINDS = {"predict": "预测", "build": "搭建", "find the bug": "找错", "explain": "解释"}
ENGLISH_KIND = {chinese: english for english, chinese in KINDS.items()}
THINKING = ("predict", "build", "find the bug")  # the kinds that make the learner produce something
HEADING = {
    "en": re.compile(r"^### Exercise (\d+) · (predict|build|find the bug|explain): \S", re.M),
    "zh": re.compile(r"^### 练习 (\d+) · (预测|搭建|找错|解释)：\S", re.M),
}
LOOSE = re.compile(
    r"^(?:#+ |\*\*)(?:Exercise|练习) \d", re.M
)  # any exercise title, well formed or not
SHORTEST = 8  # characters, spaces removed: shorter solution lines (`b1 = 0`) prove nothing


@dataclass(frozen=True)
class Exercise:
    number: int
    kind: str  # English
    cell: int  # the heading's cell
    solution: str  # the collapsed solution's code, or the asked question's key
    stub: str = ""  # the code the learner starts from: a find-the-bug exercise's planted bug

    @property
    def asks(self) -> bool:
        """Whether the exercise is a question (``ask``), not code."""
        return self.solution in QUESTIONS


def _hidden(cell) -> bool:
    """A collapsed solution (or a predict question's folded result, which follows an ``ask``)."""
    return cell.cell_type == "code" and cell.metadata.get("jupyter", {}).get("source_hidden", False)


def exercises(cells, edition: str = "en") -> list[Exercise]:
    """The exercises of a notebook's cells, in order; ValueError on a malformed one."""
    found = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown" or not LOOSE.search(cell.source):
            continue
        match = HEADING[edition].search(cell.source)
        if match is None:
            title = LOOSE.search(cell.source).group(0)
            raise ValueError(f"cell {index}: exercise title {title!r} does not say its kind")
        kind = match.group(2) if edition == "en" else ENGLISH_KIND[match.group(2)]
        solution, stub = None, []
        for later in cells[index + 1 :]:
            if later.cell_type == "markdown" and LOOSE.search(later.source):
                break
            asked = ASK.findall(later.source) if later.cell_type == "code" else []
            if asked or _hidden(later):
                solution = asked[0] if asked else later.source
                break
            stub += [later.source] if later.cell_type == "code" else []
        if solution is None:
            raise ValueError(f"cell {index}: exercise {match.group(1)} has no solution or question")
        found.append(Exercise(int(match.group(1)), kind, index, solution, "\n".join(stub)))
    return found


def _squeezed(text: str) -> str:
    return re.sub(r"[\s`]+", "", text)


def answer_lines(exercise: Exercise) -> list[str]:
    """What would give the answer away: each line of the solution's code that the stub does not
    already hold, without comments, and the expression each ``return`` gives; for an explain
    exercise, the right choice's text."""
    if exercise.asks:
        q = question(exercise.solution)
        return [_squeezed(q.choices[q.answer].text)]
    given = {_squeezed(line.split("  #")[0]) for line in exercise.stub.splitlines()}
    lines = []
    for line in exercise.solution.splitlines():
        code = _squeezed(line.split("  #")[0])
        if code in given or code.endswith(":") or code.startswith(("check", "result=")):
            continue  # the stub's lines, a block's header (def, for, with), the checker's call
        lines += [code] + ([code.removeprefix("return")] if code.startswith("return") else [])
    return [line for line in lines if len(line) >= SHORTEST]


def _shown(cell) -> str:
    """What the learner reads of a cell: its source and its outputs' text (``show_source`` shows
    code as Markdown)."""
    texts = [cell.source]
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        texts += [output.get("text", ""), data.get("text/plain", ""), data.get("text/markdown", "")]
    return "\n".join(t if isinstance(t, str) else "".join(t) for t in texts)


def shown_above(cells, exercise: Exercise) -> list[tuple[int, str]]:
    """(cell index, answer line) for every answer line found in a cell above the exercise."""
    above = [(i, _squeezed(_shown(c))) for i, c in enumerate(cells[: exercise.cell])]
    return [(i, line) for line in answer_lines(exercise) for i, text in above if line in text]


def _cells(path: Path):
    return nbformat.read(path, as_version=4).cells


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_every_lesson_has_three_to_five_exercises_numbered_in_order(path: Path):
    found = exercises(_cells(path))
    assert 3 <= len(found) <= 5, f"{path.name}: {len(found)} exercises"
    assert [e.number for e in found] == list(range(1, len(found) + 1))
    chinese = exercises(_cells(NOTEBOOKS / "zh" / path.name), "zh")
    assert [(e.number, e.kind, e.cell) for e in chinese] == [
        (e.number, e.kind, e.cell) for e in found
    ], "the Chinese edition has the same exercises, of the same kinds, in the same cells"


def test_most_exercises_make_the_learner_predict_build_or_debug():
    kinds = {p.name: [e.kind for e in exercises(_cells(p))] for p in LESSONS}
    thinking = sum(kind in THINKING for ks in kinds.values() for kind in ks)
    assert thinking >= 18, f"{thinking} predict, build or find-the-bug exercises: {kinds}"
    for name, ks in kinds.items():
        assert any(k in THINKING for k in ks), f"{name}: no exercise makes the learner produce"


def test_explain_exercises_ask_explain_questions():
    for path in LESSONS:
        for e in exercises(_cells(path)):
            if e.kind == "explain":
                assert question(e.solution).kind == "explain", (path.name, e.number)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_every_solution_is_folded_code_and_output(path: Path):
    """A solution's checker line names the answer ("post-norm 1.0, pre-norm 3.0"), so its output
    is folded with its code, in both editions."""
    for edition, folder in (("en", NOTEBOOKS), ("zh", NOTEBOOKS / "zh")):
        cells = _cells(folder / path.name)
        for e in exercises(cells, edition):
            if not e.asks:
                cell = next(c for c in cells[e.cell :] if c.source == e.solution)
                assert cell.metadata["jupyter"].get("outputs_hidden"), (edition, e.number)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_no_exercise_shows_its_answer_above_its_task(path: Path):
    cells = _cells(path)
    for exercise in exercises(cells):
        assert answer_lines(exercise), f"exercise {exercise.number}: nothing to look for"
        assert not shown_above(cells, exercise), (
            f"{path.name} exercise {exercise.number}: its answer is shown above its task "
            f"(cell, line): {shown_above(cells, exercise)}"
        )


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_exercises_are_spread_through_the_lesson_not_all_at_the_end(path: Path):
    cells = _cells(path)
    found = exercises(cells)
    assert found, f"{path.name}: no exercise (three to five, spread through the lesson)"
    assert found[0].cell < len(cells) * 0.5, (
        f"{path.name}: the first exercise is in the second half"
    )


def _notebook(*cells):
    return [
        nbformat.v4.new_markdown_cell(c) if isinstance(c, str) else nbformat.v4.new_code_cell(**c)
        for c in cells
    ]


HIDDEN = {"jupyter": {"source_hidden": True}}
SOLUTION = "def f(x):\n    return torch.relu(x) - torch.relu(-x)  # the identity\n\n\ncheck_f(f)"


def test_the_answer_check_finds_a_solution_printed_above_its_task():
    task = "### Exercise 1 · build: the identity from ReLU\nWrite `f`."
    stub = {"source": "def f(x):\n    raise NotImplementedError\n\n\ncheck_f(f)"}
    hidden = {"source": SOLUTION, "metadata": HIDDEN}
    clean = _notebook("Some prose.", task, stub, hidden)
    (exercise,) = exercises(clean)
    assert exercise.kind == "build" and not shown_above(clean, exercise)
    for leak in (
        {"source": "y = torch.relu(x) - torch.relu(-x)"},  # the same expression, in code
        "Note that `torch.relu(x)  -  torch.relu(-x)` is x.",  # in prose, spaced differently
    ):
        leaky = _notebook(leak, task, stub, hidden)
        (exercise,) = exercises(leaky)
        assert shown_above(leaky, exercise) == [(0, "torch.relu(x)-torch.relu(-x)")]


def test_the_answer_check_finds_an_explain_questions_answer_above_it():
    q = question("position-wise")
    task = "### Exercise 2 · explain: position-wise"
    asked = {"source": 'ask("position-wise")'}
    (exercise,) = exercises(_notebook(task, asked))
    assert exercise.kind == "explain"
    leaky = _notebook(f"As we saw, {q.choices[q.answer].text}", task, asked)
    assert shown_above(leaky, exercises(leaky)[0])


def test_an_exercise_title_without_its_kind_or_solution_is_rejected():
    hidden = {"source": SOLUTION, "metadata": HIDDEN}
    with pytest.raises(ValueError, match="does not say its kind"):
        exercises(_notebook("### Exercise 1: the identity", hidden))
    with pytest.raises(ValueError, match="does not say its kind"):
        exercises(_notebook("**Exercise 3 — an edge.** Write it.", hidden))
    with pytest.raises(ValueError, match="has no solution or question"):
        exercises(_notebook("### Exercise 1 · build: x", {"source": "f(1)"}))
    chinese = _notebook("### 练习 1 · 找错：LayerNorm", hidden)
    assert exercises(chinese, "zh")[0].kind == "find the bug"


def test_a_find_the_bug_exercise_is_judged_by_its_fix_not_by_the_lines_it_keeps():
    task = "### Exercise 1 · find the bug: the scaled ReLU"
    stub = "def f(x):\n    raise NotImplementedError\n    scaled = torch.exp(x) * 2\n"
    stub += "    return torch.relu(-scaled)\n\n\ncheck_f(f)"
    fix = "def f(x):\n    scaled = torch.exp(x) * 2\n    return torch.relu(scaled)  # no minus\n"
    cells = [task, {"source": stub}, {"source": fix + "\n\ncheck_f(f)", "metadata": HIDDEN}]
    kept = {"source": "scaled = torch.exp(x) * 2  # the same line as the stub's"}
    clean = _notebook(kept, *cells)
    assert answer_lines(exercises(clean)[0]) == ["returntorch.relu(scaled)", "torch.relu(scaled)"]
    assert not shown_above(clean, exercises(clean)[0])
    printed = nbformat.v4.new_output("stream", text="the fix: torch.relu(scaled)\n")
    leaky = _notebook({"source": "print(fix)", "outputs": [printed]}, *cells)
    assert shown_above(leaky, exercises(leaky)[0]) == [(0, "torch.relu(scaled)")]


LESSON_NAMED = re.compile(r"course_lib\.lessons(?:\.| import )(\w+)")


def checks_topic(path: Path) -> str:
    """The lesson a notebook imports (``from course_lib.lessons import lNN_topic as lesson``),
    whose ``checks`` its exercises call: found in its own code, the only lesson it names."""
    notebook = nbformat.read(path, as_version=4)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    found = set(LESSON_NAMED.findall(code))
    assert len(found) == 1, f"{path.name} names lesson packages {sorted(found)}, not one"
    return found.pop()


PLANTED = "    raise NotImplementedError  # delete this line once you have fixed the bug below\n"


def _lesson_names(lesson: str) -> dict:
    """What a stub uses that its lesson defined in the cells above it, defined as the lesson does."""
    if lesson != "06_locating_and_editing":
        return {}
    import copy

    from course_lib.core.experiments import edit_methods, fact_edits
    from course_lib.lessons import l06_locating_and_editing

    model, corpus = l06_locating_and_editing.editing.paraphrased_model()
    prompts = corpus.prompts()[0]
    names = {"model": model, "corpus": corpus, "prompts": prompts, "copy": copy,
             "fact_edits": fact_edits, "edit_methods": edit_methods}  # fmt: skip
    return names | {"last": prompts.shape[1] - 1}


def _planted_bugs():
    for path in LESSONS:
        for e in exercises(_cells(path)):
            if e.kind == "find the bug":
                yield pytest.param(path, e, id=f"{path.name}-{e.number}")


@pytest.mark.parametrize(("path", "exercise"), list(_planted_bugs()))
def test_each_planted_bug_runs_and_its_checker_names_the_mistake(path, exercise, capsys):
    """With the `raise` line deleted, the stub as given runs, and its checker fails it with a
    hint naming the planted mistake, not with the fallback that only says the values differ."""
    import importlib

    import numpy as np
    import torch
    from torch import nn

    assert exercise.stub.count(PLANTED) == 1, "a find-the-bug stub starts with the raise line"
    lesson = importlib.import_module(f"course_lib.lessons.{checks_topic(path)}")
    names = {"torch": torch, "nn": nn, "np": np, "lesson": lesson} | _lesson_names(path.stem)
    exec(exercise.stub.replace(PLANTED, ""), names)
    verdict = capsys.readouterr().out.strip()
    assert verdict.startswith("✘") and "differ" not in verdict and "raised" not in verdict, verdict


def test_a_lessons_checkers_are_found_in_its_own_imports(tmp_path):
    found = {path.stem: checks_topic(path) for path in LESSONS}
    assert found["01_feed_forward"] == "l01_feed_forward"
    assert found["07_mixture_of_experts"] == "l07_mixture_of_experts"
    two = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from course_lib.lessons import l07_mixture_of_experts as lesson\n"
        "from course_lib.lessons.l01_feed_forward.checks import check_gpt"
    )])  # fmt: skip
    nbformat.write(two, tmp_path / "two.ipynb")
    with pytest.raises(AssertionError, match="not one"):
        checks_topic(tmp_path / "two.ipynb")
