"""Exercise checkers (练习检查): compare a learner's code with the reference and explain a miss.

Every checker prints one line and returns a ``CheckResult``:
``passed``, ``failed`` (with a hint naming the likely mistake) or ``not attempted`` (the stub still
raises ``NotImplementedError``, so Run All never breaks). One submodule per lesson topic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core.i18n import tr


class Hint(AssertionError):
    """Raised inside a check with the message the learner should read."""


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: str  # "passed", "failed" or "not attempted"
    message: str

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def _ipython_display_(self) -> None:
        """Show nothing as a cell's value: ``run_check`` has printed the line already."""

    def __str__(self) -> str:
        mark = {"passed": "✔", "failed": "✘", "not attempted": "…"}[self.status]
        return f"{mark} " + tr("{name}: {message}", name=tr(self.name), message=self.message)


def run_check(name: str, check: Callable[[], str | None]) -> CheckResult:
    """Run ``check()``; it returns a success note or raises ``Hint`` with what went wrong.

    ``name`` is English, marked with ``N_``; the line shows it in the learner's language. Notes and
    hints are built with ``tr`` where they are raised."""
    try:
        note = check()
        result = CheckResult(name, "passed", note or tr("passed, well done."))
    except NotImplementedError:
        message = tr("not attempted yet (the stub still raises NotImplementedError)")
        result = CheckResult(name, "not attempted", message)
    except Hint as hint:
        result = CheckResult(name, "failed", str(hint))
    except Exception as error:  # a learner's bug: report it instead of a traceback
        message = tr("your code raised {kind}: {error}", kind=type(error).__name__, error=error)
        result = CheckResult(name, "failed", message)
    print(result)
    return result


def require_return(value, statement: str = "return"):
    """``value`` itself, or a Hint if the learner's function returned None (a forgotten return)."""
    if value is None:
        raise Hint(
            tr("your function returned None: did you forget `{statement}`?", statement=statement)
        )
    return value


def close(actual, expected, atol: float = 1e-6, rtol: float = 1e-5) -> bool:
    """True if two arrays/tensors have the same shape and values within tolerance."""
    a = (
        actual.detach().cpu().double().numpy()
        if isinstance(actual, torch.Tensor)
        else np.asarray(actual, dtype=float)
    )
    e = (
        expected.detach().cpu().double().numpy()
        if isinstance(expected, torch.Tensor)
        else np.asarray(expected, dtype=float)
    )
    return a.shape == e.shape and bool(np.allclose(a, e, atol=atol, rtol=rtol))


def first_suspect(
    got,
    suspects: Mapping[str, object] | Iterable[tuple[str, object]],
    atol: float = 1e-6,
    same: Callable[[object, object], bool] | None = None,
) -> str | None:
    """The hint of the first suspect that ``got`` equals, or None. A checker lists its typical
    wrong answers in order, each keyed by the hint that names its mistake, written with ``tr`` (in
    the learner's language, fields filled): a dict, or (hint, wrong answer) pairs. Pairs may come
    from a generator, so that a wrong answer costly to build (a training run) is built only when
    every suspect before it failed to match. ``same(got, wrong)`` compares them (default:
    ``close`` within ``atol``)."""
    for hint, wrong in suspects.items() if isinstance(suspects, Mapping) else suspects:
        if same(got, wrong) if same is not None else close(got, wrong, atol=atol):
            return hint
    return None


def require_close(
    got, expected, suspects: Callable[[], dict[str, object]], otherwise: str, atol: float = 1e-6
) -> None:
    """Return if ``got`` equals ``expected`` (``close``); else raise the Hint of the first typical
    wrong answer it equals (``first_suspect`` over ``suspects()``, built only then), or
    ``otherwise``."""
    if not close(got, expected, atol=atol):
        raise Hint(first_suspect(got, suspects(), atol=atol) or otherwise)


def require_shape(got, expected, template: str) -> None:
    """Return if ``got`` has ``expected``'s shape; else raise the Hint ``template`` (marked with
    ``N_``), in the learner's language, its fields {got} and {expected} the two shapes."""
    if shape_of(got) != tuple(expected.shape):
        raise Hint(tr(template, got=shape_of(got), expected=tuple(expected.shape)))


def shape_of(value) -> tuple[int, ...]:
    return tuple(value.shape) if hasattr(value, "shape") else np.shape(value)
