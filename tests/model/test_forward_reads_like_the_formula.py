"""Every forward method of the model package opens with its formula: argument checks run before
it through ``_validate.checked_by``, never as the body's first lines (nanoGPT's forwards read the
same way). The scan is tested against the forms it must reject."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from course_lib.core import _validate

MODEL = Path(__file__).resolve().parents[2] / "course_lib" / "core" / "model"
CHECKS = {name for name in dir(_validate) if not name.startswith("_")} | {"isinstance"}
METHODS = {"forward", "hidden"}


def opens_with_a_check(function: ast.FunctionDef) -> bool:
    """Whether the body's first statement (after a docstring) raises or calls an argument check."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if not body:
        return False
    first = body[0]
    if isinstance(first, ast.If | ast.For) and any(
        isinstance(n, ast.Raise) for n in ast.walk(first)
    ):
        return True
    calls = [n for n in ast.walk(first) if isinstance(n, ast.Call)]
    return any(ast.unparse(c.func).split(".")[-1] in CHECKS - {"checked_by"} for c in calls)


def forwards(tree: ast.AST) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in METHODS]


def test_every_forward_of_the_model_opens_with_its_formula():
    found = []
    for path in sorted(MODEL.glob("*.py")):
        for function in forwards(ast.parse(path.read_text(encoding="utf-8"))):
            if opens_with_a_check(function):
                found.append(f"{path.name}:{function.lineno} {function.name}")
    assert not found, found


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        (
            "def forward(self, x):\n    if x.dim() != 3:\n        raise ValueError()\n    return x",
            True,
        ),
        ("def forward(self, x):\n    last_dim('x', x.shape, 4)\n    return x", True),
        ("def forward(self, x):\n    '''Doc.'''\n    tensor_input('x', x, 4)\n    return x", True),
        ("@checked_by(_check)\ndef forward(self, x):\n    return self.linear(x)", False),
        ("def forward(self, x):\n    h = self.linear1(x)\n    return h", False),
    ],
)
def test_the_scan_flags_a_check_before_the_math(source, flagged):
    (function,) = forwards(ast.parse(source))
    assert opens_with_a_check(function) == flagged
