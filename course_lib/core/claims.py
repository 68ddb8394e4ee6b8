"""Checked claims: a lesson's sentence about a result, tested in the cell that computed it; and
``show``, a lesson's labelled output, in the learner's language too.

``claim("post-norm learns fewer seeds", cold < warm, "{cold} of 3 against {warm} of 3", cold=1,
warm=3)`` prints one stable line, ``✔ post-norm learns fewer seeds: 1 of 3 against 3 of 3``, or
raises ``ClaimFailed`` so the cell fails (and with it nbval). A notebook's stored outputs then
prove what the lesson says, not digits that change from one CPU to another.

``statement`` and ``shown`` are templates, as gettext has them: each is looked up in the learner's
language first (``course_lib.core.i18n.tr``), then filled with ``fields``. So the Chinese edition runs
the same code and prints the same numbers in Chinese sentences, and tests/test_i18n.py finds every
template by reading the notebooks, as xgettext reads source files.
"""

from __future__ import annotations

import ast
import inspect
import io
import textwrap
import tokenize

import numpy as np

from course_lib.core.i18n import fields as i18n_fields
from course_lib.core.i18n import tr

__all__ = ["ClaimFailed", "claim", "show", "show_source", "show_table", "source_code"]


class ClaimFailed(AssertionError):
    """A lesson's statement about a result does not hold for what was just computed."""


def _require_fields(fields: dict, *templates: str) -> None:
    """TypeError unless ``fields`` fill exactly the fields the templates name."""
    named = set().union(*(i18n_fields(t) for t in templates))
    if set(fields) != named:
        raise TypeError(
            f"fields must be the templates' fields {sorted(named)}, got {sorted(fields)}"
        )


def claim(statement: str, holds: bool, shown: str = "", /, **fields) -> None:
    """Print ``✔ statement (shown)`` if ``holds``; raise ClaimFailed if not.

    ``statement`` and ``shown`` are templates (``"{hits} of 48"``), translated, then filled with
    ``fields`` (``hits=41``). ``holds`` must be a real bool (numpy's included): an array or tensor
    has no single truth. ``shown`` is what the learner should see measured, printed only with
    digits that hold on any CPU.
    """
    if not isinstance(statement, str) or not statement.strip():
        raise TypeError(f"statement must be a non-empty str, got {statement!r}")
    if not isinstance(shown, str):
        raise TypeError(f"shown must be a str, got {type(shown).__name__}")
    if not isinstance(holds, bool | np.bool_):
        raise TypeError(
            f"holds must be a bool (a comparison's result), got {type(holds).__name__}: {holds!r}"
        )
    _require_fields(fields, statement, shown)
    statement = tr(statement, **fields)
    shown = tr(shown, **fields) if shown else ""
    line = tr("{statement}: {shown}", statement=statement, shown=shown) if shown else statement
    if not holds:
        raise ClaimFailed(tr("the lesson says: {line}; this run does not confirm it", line=line))
    print(f"✔ {line}")


def show(template: str, /, **fields) -> None:
    """Print one labelled line in the learner's language: ``show("output shape: {shape}",
    shape=(2, 4, 512))``. Like a claim's texts, ``template`` is looked up first, then filled, so
    labels are translated and numbers keep the digits the template gives them in every edition."""
    if not isinstance(template, str):
        raise TypeError(f"template must be a str, got {type(template).__name__}")
    _require_fields(fields, template)
    print(tr(template, **fields))


def table_markdown(headers: list[str], rows: list[list], specs: list[str] | None = None) -> str:
    """A Markdown table: ``headers`` are templates looked up in the learner's language, each row's
    cells formatted by the column's spec (text cells as they are; no specs: every cell is text).
    Rendered as a table, it stays aligned whatever the width of its characters (Chinese ones are
    two columns wide)."""
    specs = [""] * len(headers) if specs is None else specs
    if len(headers) != len(specs) or any(len(row) != len(specs) for row in rows):
        raise ValueError(
            f"headers, specs and every row must have one entry per column, got "
            f"{len(headers)} headers, {len(specs)} specs and rows of {[len(r) for r in rows]}"
        )
    lines = ["| " + " | ".join(tr(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    for row in rows:
        cells = [(cell if isinstance(cell, str) else format(cell, spec)).replace("|", "\\|")
                 for cell, spec in zip(row, specs, strict=True)]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def show_table(headers: list[str], rows: list[list], specs: list[str] | None = None) -> None:
    """Show ``table_markdown(headers, rows, specs)`` as a table."""
    from IPython.display import Markdown, display

    display(Markdown(table_markdown(headers, rows, specs)))


def source_code(function) -> str:
    """``function``'s code as the course's module has it, without its docstring and comments:
    the English prose of a module is not the lesson's, and the code reads the same in every
    edition."""
    if not callable(function):
        raise TypeError(f"function must be a function or method, got {type(function).__name__}")
    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines()
    node = ast.parse(source).body[0]
    first = node.body[0] if node.body else None
    dropped = set()
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if isinstance(first.value.value, str):
            dropped = set(range(first.lineno - 1, first.end_lineno))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, column = token.start[0] - 1, token.start[1]
            lines[row] = lines[row][:column].rstrip()
            if not lines[row].strip():
                dropped.add(row)
    return "\n".join(line for i, line in enumerate(lines) if i not in dropped)


def show_source(function) -> None:
    """Show ``source_code(function)`` as a highlighted Python block: the code a lesson points at,
    the same in either edition."""
    from IPython.display import Markdown, display

    display(Markdown(f"```python\n{source_code(function)}\n```"))
