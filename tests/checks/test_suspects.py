"""The one helper every checker names a mistake with: the first listed suspect that the answer
equals wins, within the checker's tolerance and only at the same shape; an answer that matches no
suspect gets None (the checker then says what differs). And no checker loops over its suspects on
its own."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import torch

from course_lib.core.checks import first_suspect

SUSPECTS = {"b1 is missing": np.array([1.0, 2.0]), "b2 is missing": np.array([1.0, 2.0 + 1e-9])}


def test_the_first_matching_suspect_names_the_mistake():
    assert first_suspect(np.array([1.0, 2.0]), SUSPECTS) == "b1 is missing"  # both match: first
    assert first_suspect(torch.tensor([1.0, 2.0]), SUSPECTS) == "b1 is missing"


def test_no_suspect_within_tolerance_or_of_another_shape_gives_none():
    assert first_suspect(np.array([1.0, 2.1]), SUSPECTS) is None
    assert first_suspect(np.array([[1.0, 2.0]]), SUSPECTS) is None
    assert first_suspect(np.array([1.0, 2.001]), SUSPECTS, atol=1e-2) == "b1 is missing"


def test_suspects_from_a_generator_are_built_only_until_one_matches():
    built = []

    def suspects():
        for hint, value in (("unnormalised", 1.0), ("normalised twice", 2.0), ("never", 3.0)):
            built.append(hint)  # a training run, in lesson 8's checker
            yield hint, np.array([value])

    assert first_suspect(np.array([2.0]), suspects()) == "normalised twice"
    assert built == ["unnormalised", "normalised twice"]


def test_a_checker_may_compare_with_its_own_rule():
    runs = [("the last step differs", [1.0, 2.0]), ("the first step differs", [0.0, 2.0])]
    same_start = lambda got, wrong: got[0] == wrong[0]  # noqa: E731
    assert first_suspect([0.0, 5.0], runs, same=same_start) == "the first step differs"
    assert first_suspect([9.0, 2.0], runs, same=same_start) is None
    assert first_suspect(np.array([1.0]), [("", np.array([1.0]))]) == ""  # an empty hint is a match


def test_every_checker_names_its_suspects_through_the_helper():
    root = Path(__file__).resolve().parents[2] / "course_lib"
    checkers = sorted(root.glob("core/checks/*.py")) + sorted(root.glob("lessons/*/checks.py"))
    assert len(checkers) >= 10, checkers  # the core's and every lesson's with exercises
    loops = []
    for path in checkers:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.For) and "suspect" in ast.unparse(node.iter):
                loops.append(f"{path.relative_to(root)}:{node.lineno}")
    assert [loop for loop in loops if not loop.startswith("core/checks/__init__.py")] == [], loops
    assert len(loops) == 1  # first_suspect's own loop
