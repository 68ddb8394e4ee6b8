"""A learner's single-user Jupyter server, as a hub starts it: its memory once it serves the
course (the kernels' memory and CPU come from ``test_notebooks.py``)."""

from __future__ import annotations

import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "tests" / "browser"))


def tree_rss(pid: int) -> int:
    import psutil

    process = psutil.Process(pid)
    return sum(p.memory_info().rss for p in [process, *process.children(recursive=True)])


@pytest.mark.measures("classroom")
def test_single_user_server_memory(benchmark, settings):
    from labserver import LabServer

    home = Path(tempfile.mkdtemp(prefix="bench-server-"))
    server = LabServer(home, secrets.token_hex(16), root=PROJECT / "notebooks")
    samples: list[int] = []
    try:
        server.wait_ready()
        server.request("GET", "/lab/tree/00_index.ipynb")  # the page a learner opens first
        time.sleep(1.0)
        benchmark.pedantic(
            lambda: samples.append(tree_rss(server.process.pid)), rounds=settings.repeat
        )
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)
    benchmark.group = "classroom"
    benchmark.extra_info.update(kind="server memory", rss_bytes=max(samples))
