"""Start JupyterLab for the course: 127.0.0.1 only, token authentication on, first lesson open.

``python -m course_lib.core.tools.lab`` is what ``make lab`` runs; the browser suite starts its server with
``lab_arguments`` too, so what it checks (403 without the token, loopback only) is what learners get.
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[3]
FIRST_PAGES = {"en": "notebooks/00_index.ipynb", "zh": "notebooks/zh/00_index.ipynb"}
FIRST_PAGE = FIRST_PAGES["en"]


def first_page(edition: str | None) -> str:
    """The index to open: ``edition`` "en" or "zh"; empty or None picks by the locale, so a
    learner whose LANG is zh_CN.UTF-8 (or who runs ``make lab LANG=zh``) gets the Chinese index."""
    if edition is not None and not isinstance(edition, str):
        raise TypeError(f"edition must be 'en', 'zh' or empty, got {edition!r}")
    if not edition:
        edition = "zh" if os.environ.get("LANG", "").lower().startswith("zh") else "en"
    if edition not in FIRST_PAGES:
        raise ValueError(f"edition must be 'en', 'zh' or empty, got {edition!r}")
    return FIRST_PAGES[edition]


ISOLATED_DIRS = {
    "JUPYTER_RUNTIME_DIR": "jupyter-runtime",
    "JUPYTER_CONFIG_DIR": "jupyter-config",
    "JUPYTER_DATA_DIR": "jupyter-data",
    "IPYTHONDIR": "ipython",
    "MPLCONFIGDIR": "matplotlib",
}


def isolated_dirs(home: Path) -> dict[str, str]:
    """Environment variables that make Jupyter, IPython and matplotlib write under ``home`` only
    (tests use them so nothing lands in the user's home directory); the folders are created."""
    env = {}
    for variable, folder in ISOLATED_DIRS.items():
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[variable] = str(home / folder)
    return env


def lab_arguments(
    port: int | None = None, token: str | None = None, open_browser: bool = False
) -> list[str]:
    """Command-line arguments for ``jupyter lab``: loopback, a token, no news pop-up."""
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)):
        raise TypeError(f"port must be an int in [1, 65535] or None, got {port!r}")
    if port is not None and not 1 <= port <= 65535:
        raise ValueError(f"port must be an int in [1, 65535] or None, got {port!r}")
    arguments = [
        "--ServerApp.open_browser=True" if open_browser else "--no-browser",
        "--ip=127.0.0.1",
        f"--ServerApp.root_dir={PROJECT}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--IdentityProvider.token={token or secrets.token_hex(24)}",
    ]
    if port is not None:
        arguments.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        arguments.append("--allow-root")  # JupyterLab refuses to run as root without it
    return arguments


def free_port(start: int = 8888, tries: int = 50) -> int:
    """The first port from ``start`` on that nothing listens on at 127.0.0.1."""
    for port in range(start, start + tries):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError(f"no free port in {start}..{start + tries - 1}")


def main(edition: str | None = None) -> None:
    """Replace this process with JupyterLab, opening the course index; print the URL with its token.

    JupyterLab hides a token it was given from its own log, so the URL is printed here.
    """
    page = first_page(edition)
    port, token = free_port(), secrets.token_hex(24)
    open_browser = not os.environ.get("CI")
    arguments = [*lab_arguments(port, token, open_browser), "--ServerApp.port_retries=0"]
    # warnings and errors only, so that the URL below stays the last line a learner sees
    arguments += ["--ServerApp.log_level=WARN", "--LabApp.log_level=WARN"]
    print(f"\nThe course: http://127.0.0.1:{port}/lab/tree/{page}?token={token}\n", flush=True)
    os.chdir(PROJECT)
    os.execv(sys.executable, [sys.executable, "-m", "jupyter", "lab", *arguments, page])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
