"""A claim prints one line when it holds and fails the cell when it does not."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.claims import ClaimFailed, claim, table_markdown


def test_a_claim_that_holds_prints_one_checked_line(capsys):
    returned = claim("pre-norm's gradient falls with depth", 0.12 < 0.24, "0.24 -> 0.12")
    assert capsys.readouterr().out == "✔ pre-norm's gradient falls with depth: 0.24 -> 0.12\n"
    assert returned is None  # nothing for a notebook to echo after the printed line


def test_in_chinese_a_claims_measured_part_stands_in_brackets(capsys):
    from course_lib.core.i18n import set_language, zh

    set_language("zh")
    try:
        claim("fewer units than edges: no seed solves it", True, "d_ff 2 to 5")
    finally:
        set_language("en")
    statement = zh.MESSAGES["fewer units than edges: no seed solves it"]
    assert capsys.readouterr().out == f"✔ {statement}（d_ff 从 2 到 5）\n"


def test_a_claim_without_a_measurement_prints_the_statement_alone(capsys):
    claim("every row sums to 1", np.bool_(True))
    assert capsys.readouterr().out == "✔ every row sums to 1\n"


def test_a_claim_that_fails_raises_and_prints_nothing(capsys):
    with pytest.raises(ClaimFailed, match="six units find every edge: 4 of 6"):
        claim("six units find every edge", 4 == 6, "4 of 6")
    assert capsys.readouterr().out == ""


def test_a_failed_claim_is_an_assertion_error():
    assert issubclass(ClaimFailed, AssertionError)


@pytest.mark.parametrize("holds", [1, 0.0, "yes", None, np.array([True, True]), torch.tensor(True)])
def test_holds_must_be_a_bool(holds):
    with pytest.raises(TypeError, match="holds must be a bool"):
        claim("a statement", holds)


@pytest.mark.parametrize("statement", ["", "   ", None, 3])
def test_statement_must_be_non_empty_text(statement):
    with pytest.raises(TypeError, match="statement must be a non-empty str"):
        claim(statement, True)


def test_shown_must_be_text():
    with pytest.raises(TypeError, match="shown must be a str, got float"):
        claim("a statement", True, 0.5)


def _documented(x):
    """A docstring: English prose the lesson does not show.

    Over two paragraphs."""
    # a comment line
    y = x + 1  # a trailing comment
    return f"{y} # not a comment"


def test_source_code_drops_the_docstring_and_comments_but_keeps_the_code():
    from course_lib.core.claims import source_code

    expected = 'def _documented(x):\n    y = x + 1\n    return f"{y} # not a comment"'
    assert source_code(_documented) == expected
    with pytest.raises(TypeError, match="function must be a function or method, got int"):
        source_code(3)


def test_show_source_displays_the_code_as_a_python_block(monkeypatch):
    import IPython.display

    from course_lib.core.claims import show_source

    shown = []
    monkeypatch.setattr(IPython.display, "display", shown.append)
    show_source(_documented)
    (markdown,) = shown
    assert markdown.data.startswith("```python\ndef _documented(x):\n")
    assert markdown.data.endswith('return f"{y} # not a comment"\n```')


def test_a_table_formats_numbers_by_their_column_and_escapes_pipes():
    text = table_markdown(["edit", "p(new)"], [["a|b", 0.987], ["c", 0.5]], ["", ".2f"])
    assert text.splitlines() == [
        "| edit | p(new) |",
        "|---|---|",
        "| a\\|b | 0.99 |",
        "| c | 0.50 |",
    ]


def test_a_table_without_specs_shows_every_cell_as_text():
    assert table_markdown(["a", "b"], [["x", "y"]]).splitlines()[-1] == "| x | y |"


def test_a_table_with_a_short_row_names_the_widths():
    with pytest.raises(ValueError, match="rows of \\[1\\]"):
        table_markdown(["a", "b"], [["x"]], ["", ""])
