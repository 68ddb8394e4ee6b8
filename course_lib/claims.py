"""Checked claims: a lesson's sentence about a result, tested in the cell that computed it.

``claim("post-norm learns fewer seeds without warm-up", 1 < 3, "1 of 3 seeds, 3 of 3 with it")``
prints one stable line, ``✔ post-norm learns fewer seeds without warm-up: 1 of 3 seeds, …``, or
raises ``ClaimFailed`` so the cell fails (and with it nbval). A notebook's stored outputs then
prove what the lesson says, not digits that change from one CPU to another. In the Chinese edition
the line is printed in Chinese: ``statement`` and ``shown`` are looked up in the catalogue
(``course_lib.i18n.translate``), so both editions run the same code.
"""

from __future__ import annotations

import numpy as np

from course_lib.i18n import tr, translate

__all__ = ["ClaimFailed", "claim"]


class ClaimFailed(AssertionError):
    """A lesson's statement about a result does not hold for what was just computed."""


def claim(statement: str, holds: bool, shown: str = "") -> None:
    """Print ``✔ statement: shown`` if ``holds``; raise ClaimFailed if not.

    ``holds`` must be a real bool (numpy's included): an array or tensor has no single truth.
    ``shown`` is what the learner should see measured, printed only with digits that hold on any CPU.
    """
    if not isinstance(statement, str) or not statement.strip():
        raise TypeError(f"statement must be a non-empty str, got {statement!r}")
    if not isinstance(shown, str):
        raise TypeError(f"shown must be a str, got {type(shown).__name__}")
    if not isinstance(holds, bool | np.bool_):
        raise TypeError(
            f"holds must be a bool (a comparison's result), got {type(holds).__name__}: {holds!r}"
        )
    statement, shown = translate(statement), translate(shown)
    line = tr("{statement}: {shown}", statement=statement, shown=shown) if shown else statement
    if not holds:
        raise ClaimFailed(tr("the lesson says: {line}; this run does not confirm it", line=line))
    print(f"✔ {line}")
