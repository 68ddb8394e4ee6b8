"""Start JupyterLab for the course: 127.0.0.1 only, token authentication on, first lesson open.

``python -m course_lib.lab`` is what ``make lab`` runs; the browser suite starts its server with
``lab_arguments`` too, so what it checks (403 without the token, loopback only) is what learners get.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
FIRST_PAGE = "notebooks/00_index.ipynb"


def lab_arguments(port: int | None = None, token: str | None = None) -> list[str]:
    """Command-line arguments for ``jupyter lab``: loopback, a token, no news pop-up."""
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)):
        raise TypeError(f"port must be an int in [1, 65535] or None, got {port!r}")
    if port is not None and not 1 <= port <= 65535:
        raise ValueError(f"port must be an int in [1, 65535] or None, got {port!r}")
    arguments = [
        "--no-browser" if os.environ.get("CI") or port else "--ServerApp.open_browser=True",
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


def main() -> None:
    """Replace this process with JupyterLab, opening the course index."""
    command = [sys.executable, "-m", "jupyter", "lab", *lab_arguments(), FIRST_PAGE]
    print("Starting JupyterLab on 127.0.0.1; open the URL with the token printed below.")
    os.chdir(PROJECT)
    os.execv(sys.executable, command)


if __name__ == "__main__":
    main()
