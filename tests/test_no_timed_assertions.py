"""No test and no lesson claim may fail because a machine is slower: a measured duration is data
for the benchmark (``make bench``), never a pass/fail bound. Read as code (ast), so a new test or
claim that compares a time with a limit fails here, whatever it names its variables.

A value is *timed* when it comes from a clock (``time.perf_counter()`` and its kin, ``timeit``,
``datetime.now()``), from a field the pages fill with a measured time (``swapMs``), from another
timed value, or when a name says it holds a duration (``seconds``, ``elapsed``, ``*_seconds``,
``*_ms``): a helper that times its work and returns the seconds hides the clock from this check. A comparison with a timed value is a *bound* when it decides an ``assert``,
a ``claim(...)``, or an ``if`` whose branch raises, fails or records a problem. A ``while`` loop
that waits for a deadline is a liveness limit, not a verdict on speed, and is allowed.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLOCKS = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time", "time",
          "time_ns", "timeit", "repeat", "now", "utcnow"}  # fmt: skip
TIMED_FIELDS = {"swapMs", "swap_ms", "swapMaxMs"}
ASSIGNMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)
DURATION_NAME = re.compile(r"^(seconds|elapsed|duration|.+_seconds|.+_ms)$")
VERDICT_CALLS = {"claim", "fail", "append", "extend"}


def _is_clock(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    owner = func.value if isinstance(func, ast.Attribute) else None
    owner_name = getattr(owner, "id", getattr(owner, "attr", ""))
    return name in CLOCKS and (owner is None or owner_name in {"time", "timeit", "datetime"})


def _is_timed_field(node: ast.AST) -> bool:
    key = node.slice if isinstance(node, ast.Subscript) else None
    if isinstance(key, ast.Constant) and key.value in TIMED_FIELDS:
        return True
    return isinstance(node, ast.Attribute) and node.attr in TIMED_FIELDS


def _mentions(node: ast.AST, timed: set[str]) -> bool:
    return any(
        _is_clock(n) or _is_timed_field(n) or (isinstance(n, ast.Name) and n.id in timed)
        for n in ast.walk(node)
    )


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.NamedExpr):
        targets = [node.target]
    else:
        return []
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def timed_names(tree: ast.AST) -> set[str]:
    """Every name that holds a timed value somewhere in ``tree`` (to a fixed point)."""
    timed: set[str] = {
        name
        for node in ast.walk(tree)
        if isinstance(node, ASSIGNMENTS)
        for name in _targets(node)
        if DURATION_NAME.match(name)
    }
    while True:
        found = {
            name
            for node in ast.walk(tree)
            if isinstance(node, ASSIGNMENTS)
            and node.value is not None
            and _mentions(node.value, timed)
            for name in _targets(node)
        }
        if found <= timed:
            return timed
        timed |= found


def _decides_a_verdict(body: list[ast.stmt]) -> bool:
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in VERDICT_CALLS:
                return True
    return False


def timed_bounds(source: str) -> list[int]:
    """Line numbers where a timed value is compared to decide a test's or a claim's verdict."""
    tree = ast.parse(source)
    timed = timed_names(tree)

    def bound_in(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Compare) and _mentions(n, timed) for n in ast.walk(node))

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and bound_in(node.test):
            lines.append(node.lineno)
        elif isinstance(node, ast.If) and bound_in(node.test) and _decides_a_verdict(node.body):
            lines.append(node.lineno)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "claim":
            if any(bound_in(arg) for arg in node.args[1:2]):
                lines.append(node.lineno)
    return sorted(set(lines))


def notebook_code(path: Path) -> str:
    """A notebook's code cells as one module (IPython magics left out)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    return "\n".join(
        line
        for cell in code
        for line in cell.splitlines()
        if not line.lstrip().startswith(("%", "!"))
    )


SOURCES = sorted(
    [*ROOT.glob("tests/**/*.py"), *ROOT.glob("deploy/**/tests/*.py"), ROOT / "conftest.py", *ROOT.glob("course_lib/**/*.py"),
     *ROOT.glob("notebooks/**/*.ipynb")]
)  # fmt: skip


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_test_and_no_claim_bounds_a_measured_duration(path: Path):
    if ".ipynb_checkpoints" in path.parts:
        pytest.skip("a checkpoint copy, not a lesson")
    source = notebook_code(path) if path.suffix == ".ipynb" else path.read_text(encoding="utf-8")
    assert timed_bounds(source) == [], (
        f"{path.relative_to(ROOT)} bounds a measured duration (lines of its code: "
        f"{timed_bounds(source)}); give the time to the benchmark (benchmarks/) instead"
    )


# --- the check rejects the forms that made `make test` depend on the machine ------------------

OLD_LESSON_5 = """
start = time.perf_counter()
model, settings, losses = M.load_model()
seconds = time.perf_counter() - start
claim("loading the shipped model takes well under a second", seconds < 0.5, "below 0.5 s")
"""
OLD_SITE_TEST = """
def check(state, where, problems):
    times = [] if state is None else [state["swapMs"]]
    if not statistics.median(times) < SWAP_LIMIT_MS:
        problems.append(f"{where}: swaps took {times} ms (median over the limit)")
"""
PLAIN_ASSERT = """
t0 = time.time()
run()
elapsed = time.time() - t0
assert elapsed < 2.0
"""
DEADLINE_LOOP = """
deadline = time.monotonic() + timeout
while time.monotonic() < deadline:
    if ready():
        return
    time.sleep(0.1)
raise TimeoutError("not ready")
"""
HIDDEN_CLOCK = """
seconds = execute_notebook(path)
assert 0 < seconds < 60
"""
RECORDED_ONLY = """
start = time.perf_counter()
step()
moves.append(Move(value, problem, time.perf_counter() - start))
assert problem == ""
"""


@pytest.mark.parametrize(
    ("source", "lines"),
    [(OLD_LESSON_5, [5]), (OLD_SITE_TEST, [4]), (PLAIN_ASSERT, [5]), (HIDDEN_CLOCK, [3])],
    ids=["claim on a load time", "problem on a swap time", "assert on elapsed", "hidden clock"],
)
def test_the_check_finds_a_bound_on_a_measured_duration(source: str, lines: list[int]):
    assert timed_bounds(source) == lines


@pytest.mark.parametrize("source", [DEADLINE_LOOP, RECORDED_ONLY], ids=["deadline", "recorded"])
def test_the_check_allows_a_deadline_and_a_recorded_time(source: str):
    assert timed_bounds(source) == []
