"""No library function moves the learner's global random generators: a checker or an experiment
run between two draws leaves the second draw as it would have been, so a notebook's later random
numbers do not depend on which cells ran before or what a cache held. Library code seeds locally
(``torch.Generator``, ``np.random.default_rng``) or inside ``torch.random.fork_rng``; only
``course_lib.seed_everything``, which a notebook calls on purpose, seeds the global ones."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
import torch

PACKAGE = Path(__file__).resolve().parent.parent / "course_lib"
GLOBAL_SEEDING = {"manual_seed", "seed"}  # torch.manual_seed, np.random.seed, random.seed
ALLOWED = {("__init__.py", "seed_everything")}


def unguarded_seeding(tree: ast.AST, name: str) -> list[str]:
    """Calls that seed a global generator outside a ``with ...fork_rng(...)`` block and outside
    ``ALLOWED`` functions; ``torch.Generator().manual_seed`` (a local generator) is fine."""
    found = []

    def visit(node: ast.AST, guarded: bool, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.With) and any(
            "fork_rng" in ast.unparse(item.context_expr) for item in node.items
        ):
            guarded = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = ast.unparse(node.func.value)
            if (
                node.func.attr in GLOBAL_SEEDING
                and "Generator" not in target
                and target in ("torch", "np.random", "numpy.random", "random", "torch.random")
                and not guarded
                and (name, function) not in ALLOWED
            ):
                found.append(f"{name}:{node.lineno} {ast.unparse(node)} in {function}()")
        for child in ast.iter_child_nodes(node):
            visit(child, guarded, function)

    visit(tree, False, "")
    return found


def test_no_library_code_seeds_a_global_generator_outside_fork_rng():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += unguarded_seeding(tree, path.relative_to(PACKAGE).as_posix())
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("def f():\n    torch.manual_seed(0)\n", True),
        ("def f():\n    np.random.seed(0)\n", True),
        (
            "def f():\n    with torch.random.fork_rng(devices=[]):\n        torch.manual_seed(0)\n",
            False,
        ),
        ("def f():\n    g = torch.Generator().manual_seed(0)\n", False),
        ("def seed_everything():\n    torch.manual_seed(0)\n", False),
    ],
)
def test_the_scan_catches_global_seeding_and_lets_local_seeding_pass(source, caught):
    assert bool(unguarded_seeding(ast.parse(source), "__init__.py")) == caught


def draws_after(action) -> tuple[torch.Tensor, np.ndarray]:
    """The global generators' next draws after ``action``, from a fixed starting state."""
    torch.manual_seed(123)
    np.random.seed(123)
    action()
    return torch.rand(3), np.random.rand(3)


@pytest.mark.parametrize(
    "action",
    [
        "check_feed_forward",
        "depth_profile",
        "warmup_race",
        "connection_output_std",
        "build_model",
    ],
)
def test_checkers_and_experiments_leave_the_global_generators_where_they_were(action):
    from course_lib.core.experiments import memory
    from course_lib.core.model.ffn import FeedForward
    from course_lib.lessons.l01_feed_forward.checks import check_feed_forward
    from course_lib.lessons.l04_sublayer_connection.checks import connection_output_std
    from course_lib.lessons.l04_sublayer_connection.experiments import depth_profile, warmup_race

    actions = {
        "check_feed_forward": lambda: check_feed_forward(FeedForward),
        "depth_profile": lambda: depth_profile.__wrapped__(2, "pre", True, 5),
        "warmup_race": lambda: warmup_race.__wrapped__("pre", 2, 0.05, 3, 1, (0,)),
        "connection_output_std": lambda: connection_output_std(True),
        "build_model": lambda: memory.build_model(memory.SETTINGS, 40),
    }
    untouched = draws_after(lambda: None)
    after = draws_after(actions[action])
    assert torch.equal(after[0], untouched[0]) and np.array_equal(after[1], untouched[1]), action
