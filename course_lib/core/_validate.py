"""Argument checks shared by the model code: each error names the argument, the value and what is
accepted."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable

import numpy as np


def positive_int(name: str, value: object) -> int:
    """Return ``value`` if it is an int > 0, else raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a positive int, got {value!r} ({type(value).__name__})")
    if value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value


def integer(name: str, value: object) -> int:
    """Return ``value`` if it is an int (a bool is not), else raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an int, got {value!r} ({type(value).__name__})")
    return int(value)


def int_at_least(name: str, value: object, minimum: int) -> int:
    """Return ``value`` if it is an int >= ``minimum``, else raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(
            f"{name} must be an int >= {minimum}, got {value!r} ({type(value).__name__})"
        )
    if value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")
    return int(value)


def flag(name: str, value: object) -> bool:
    """Return ``value`` if it is a bool, else raise naming ``name``."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be a bool, got {value!r} ({type(value).__name__})")
    return bool(value)


def positive_number(name: str, value: object) -> float:
    """Return ``value`` as a float if it is a finite number > 0, else raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{name} must be a number > 0, got {value!r} ({type(value).__name__})")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def probability(name: str, value: object) -> float:
    """Return ``value`` if it is a number in [0, 1), else raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a float in [0, 1), got {value!r} ({type(value).__name__})")
    if not 0.0 <= value < 1.0:
        raise ValueError(f"{name} must be a float in [0, 1), got {value!r}")
    return float(value)


def choice(name: str, value: object, accepted: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``accepted``, else raise listing them."""
    accepted = sorted(accepted)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {accepted}, got {value!r} ({type(value).__name__})")
    if value not in accepted:
        raise ValueError(f"{name} must be one of {accepted}, got {value!r}")
    return value


def grid_value(name: str, value: object, accepted: Iterable[float]) -> float:
    """Return ``value`` if it is a number among ``accepted`` (a control's grid), else raise
    listing them."""
    accepted = list(accepted)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be one of {accepted}, got {value!r} ({type(value).__name__})")
    if value not in accepted:
        raise ValueError(f"{name} must be one of {accepted}, got {value!r}")
    return value


def last_dim(name: str, shape: tuple[int, ...], expected: int) -> None:
    """Raise if the last dimension of ``shape`` is not ``expected``."""
    if len(shape) == 0 or shape[-1] != expected:
        raise ValueError(
            f"{name} must have last dimension {expected} (d_model), got shape {tuple(shape)}"
        )


def tensor_input(name: str, x: object, d_model: int, dims: int | None = None) -> None:
    """Raise unless ``x`` is a tensor whose last dimension is ``d_model`` (and that has ``dims``
    dimensions, (batch, seq_len, d_model), if given), naming ``name``."""
    if not hasattr(x, "dim") or not hasattr(x, "shape"):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if dims is not None and x.dim() != dims:
        raise ValueError(f"{name} must be (batch, seq_len, d_model), got shape {tuple(x.shape)}")
    last_dim(name, tuple(x.shape), d_model)


def checked_by(check: Callable[..., None]) -> Callable:
    """A method's argument checks, kept out of its body: ``check(self, *args, **kwargs)`` runs
    first and raises on a bad argument, so a ``forward`` reads like its formula."""

    def wrap(method: Callable) -> Callable:
        @functools.wraps(method)
        def checked(self, *args, **kwargs):
            check(self, *args, **kwargs)
            return method(self, *args, **kwargs)

        return checked

    return wrap
