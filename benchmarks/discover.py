"""Find what to measure, never from a hand-written list: notebooks, demos, caches."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any


def notebooks(folder: Path) -> list[Path]:
    """Every ``*.ipynb`` directly in ``folder``, sorted by name (checkpoints are skipped)."""
    if not folder.is_dir():
        raise ValueError(f"notebook folder {str(folder)!r} is not a directory")
    return sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))


def matches(name: str, only: Iterable[str]) -> bool:
    """True when no filter is given or ``name`` contains one of the ``only`` substrings."""
    only = list(only)
    return not only or any(part.lower() in name.lower() for part in only)


def load_module(path: Path) -> ModuleType:
    """Import a Python file by path (used for demo modules outside the package)."""
    if not path.is_file():
        raise ValueError(f"demo module {str(path)!r} is not a file")
    name = f"_bench_extra_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def demos(extra_files: Iterable[Path] = ()) -> list[Any]:
    """Every demo of ``course_lib.widgets.all_demos()``, then those of each extra file's ``demos()``."""
    from course_lib.widgets import all_demos

    found = list(all_demos())
    for path in extra_files:
        module = load_module(Path(path))
        if not callable(getattr(module, "demos", None)):
            raise ValueError(f"demo module {str(path)!r} defines no demos() function")
        found.extend(module.demos())
    return found


def caches(modules: Iterable[ModuleType]) -> list[Any]:
    """Every memoised function (``functools.lru_cache``/``cache``: has ``cache_clear``) that the
    modules define at top level or as class attributes, each once."""
    found: dict[int, Any] = {}
    for module in modules:
        for value in list(vars(module).values()):
            candidates = [value]
            if isinstance(value, type) and value.__module__ == module.__name__:
                candidates += list(vars(value).values())
            for item in candidates:
                if callable(getattr(item, "cache_clear", None)) and callable(item):
                    found.setdefault(id(item), item)
    return list(found.values())


def project_modules(prefixes: Iterable[str] = ("course_lib", "_bench_extra_")) -> list[ModuleType]:
    """The loaded modules of the project (and of extra demo files), whose caches a first visit
    must not find warm."""
    prefixes = tuple(prefixes)
    return [
        m for name, m in list(sys.modules.items()) if m is not None and name.startswith(prefixes)
    ]


def clear_caches(modules: Iterable[ModuleType] | None = None) -> int:
    """Empty every memoised function of the project; returns how many were cleared."""
    found = caches(project_modules() if modules is None else modules)
    for item in found:
        item.cache_clear()
    return len(found)
