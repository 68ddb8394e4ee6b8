"""A stored result as one compressed .npz: its arrays, and its settings under ``setting|<name>``
(the settings a rebuild needs, so the file says how it was made)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "data"  # course_lib/data: every stored result


def save_npz(path: Path, arrays: dict[str, object], settings: dict[str, object]) -> int:
    """Write ``arrays`` and ``settings`` to ``path``; returns the file's size in bytes."""
    stored = {name: np.asarray(value) for name, value in arrays.items()}
    stored |= {f"setting|{name}": np.array(value) for name, value in settings.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **stored)
    return path.stat().st_size


def load_npz(path: Path, what: str, module: str) -> tuple[dict[str, np.ndarray], dict[str, object]]:
    """(arrays, settings) of a file ``save_npz`` wrote: a setting stored as a 0-d array comes
    back as a Python scalar, a 1-d one as a tuple. A missing file names its rebuild command."""
    if not path.exists():
        raise FileNotFoundError(
            f"path must name a stored {what}, got {path}; rebuild it with python -m {module}"
        )
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if not k.startswith("setting|")}
        settings = {
            k.split("|", 1)[1]: tuple(data[k].tolist()) if data[k].ndim else data[k].item()
            for k in data.files
            if k.startswith("setting|")
        }
    return arrays, settings


def rebuild(save: Callable[[], int], path: Path, what: str) -> None:
    """A rebuild command's body: run ``save`` (which writes ``path`` and returns its size) and say
    what it trained, how long it took and where the file is."""
    began = time.perf_counter()
    size = save()
    print(f"trained {what} in {time.perf_counter() - began:.0f} s; {size / 1024:.0f} KiB in {path}")
