"""Install PyTorch's CPU build into the running Python, before the course's other packages.

``make lab`` and ``make test`` run it with the course's ``.venv`` Python (it imports nothing from
the course, which is not installed yet)::

    python course_lib/core/tools/install_torch.py

The default package index (PyPI) serves PyTorch's CUDA build for Linux, several GB of NVIDIA
libraries that no lesson uses; PyTorch's own CPU index serves the CPU build, about 190 MB. So the
CPU index is used wherever it answers within ``PROBE_SECONDS``; where it does not (no internet, an
offline mirror), pip's configured index is used at once, with no retries; on macOS, where PyPI's
build has no CUDA, that index always. One line then says which build was installed and from where.
``FFN_TORCH_INDEX`` names another index to try first.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence

VERSION = "2.13.0"  # the release every lesson's outputs were recorded with
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
PYPI = "https://pypi.org/simple"  # torch's own requirements, should the CPU index lack one
PROBE_SECONDS = 5.0  # how long an unreachable index may delay the install, at most
# sizes measured with `pip download` of torch==2.13.0+cpu and '.[dev]', and of fresh installs (README)
FIRST_RUN = (
    "First run: installing PyTorch's CPU build (about 190 MB to download), then JupyterLab and the "
    "course's other packages (at most 260 MB); the finished .venv takes about 1.2 GB of disk "
    "(1.6 GB with the development tools of make test). Later runs start in seconds."
)


def reachable(index: str, timeout: float = PROBE_SECONDS) -> bool:
    """Whether ``index`` (a PEP 503 simple index) lists torch, asked once with ``timeout``."""
    try:
        with urllib.request.urlopen(f"{index.rstrip('/')}/torch/", timeout=timeout) as answer:
            return answer.status == 200
    except (OSError, ValueError):  # URLError, a timeout, a refused connection, a bad URL
        return False


def install_command(index: str | None, version: str = VERSION) -> list[str]:
    """pip's command: the ``+cpu`` release from ``index``, or ``version`` from pip's own index
    (``index`` None). The other packages torch needs come from the same indexes pip knows."""
    pip = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-compile"]
    if index is None:
        return [*pip, f"torch=={version}"]
    return [*pip, f"torch=={version}+cpu", "--index-url", index, "--extra-index-url", PYPI]


def installed_torch() -> str | None:
    """The installed torch's version (``2.13.0+cpu`` for the CPU build), or None."""
    importlib.invalidate_caches()
    try:
        return importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return None


def nvidia_bytes() -> int:
    """Bytes of the installed NVIDIA packages that a CUDA build of torch pulls in."""
    total = 0
    for dist in importlib.metadata.distributions():
        if (dist.metadata["Name"] or "").lower().startswith("nvidia-"):
            total += sum(f.size or 0 for f in dist.files or [] if f.hash)
    return total


def report(version: str | None, source: str) -> str:
    """The one line that says which build was installed, and from where."""
    if version is None:
        return "PyTorch was not installed: see pip's message above."
    if version.endswith("+cpu"):
        return f"PyTorch {version}: the CPU build, from {source}."
    cuda = nvidia_bytes()
    if cuda:
        return (
            f"PyTorch {version}: a CUDA build, with {cuda / 2**30:.1f} GB of NVIDIA libraries, from "
            f"{source}. The lessons need only the CPU build: pip install torch=={VERSION}+cpu "
            f"--index-url {CPU_INDEX}"
        )
    return f"PyTorch {version}, from {source}."


def main(
    argv: Sequence[str] = (),
    run: Callable[[list[str]], int] = lambda command: subprocess.run(command).returncode,
    probe: Callable[[str], bool] = reachable,
) -> int:
    """Install torch unless this version is already there; print what was installed. Returns
    pip's exit status (0 when nothing needed installing)."""
    if list(argv):
        raise ValueError(f"install_torch takes no arguments, got {list(argv)!r}")
    present = installed_torch()
    if present is not None and present.split("+")[0] == VERSION:
        return 0
    if present is None:
        print(FIRST_RUN, flush=True)
    index = os.environ.get("FFN_TORCH_INDEX") or CPU_INDEX
    if (
        sys.platform == "darwin"
    ):  # PyPI's macOS torch has no CUDA, and the CPU index has no +cpu tag
        source = "pip's configured index (macOS builds have no CUDA)"
        status = run(install_command(None))
    elif probe(index):
        source = index
        status = run(install_command(index))
    else:
        source = f"pip's configured index ({index} did not answer)"
        status = run(install_command(None))
    print(report(installed_torch(), source), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
