"""How `make suite` shares its work (conftest.py): each notebook's code runs once natively and once
as another CPU computes, not more."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BROWSER = "tests/browser/test_lessons_in_browser.py::test_run_all_gives_the_committed_outputs"


@pytest.fixture
def project_conftest(request):
    """The project's conftest.py as pytest loaded it (not a second copy)."""
    for plugin in request.config.pluginmanager.get_plugins():
        if Path(getattr(plugin, "__file__", None) or "/").resolve() == ROOT / "conftest.py":
            return plugin
    pytest.fail("the project's conftest.py is not loaded")


class Item:
    """What the collection hook reads of a pytest item."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


COLLECTED = [
    Item(f"{BROWSER}[01_feed_forward.ipynb]"),
    Item(f"{BROWSER}[zh/01_feed_forward.ipynb]"),
    Item(f"{BROWSER}[02_dimension_expansion.ipynb]"),
    Item("notebooks/01_feed_forward.ipynb::Cell 0"),
    Item("notebooks/zh/01_feed_forward.ipynb::Cell 0"),
    Item("notebooks/02_dimension_expansion.ipynb::Cell 0"),  # its Chinese edition not collected
    Item("notebooks/03_triangle_regions.ipynb::Cell 0"),  # not run in the browser
    Item("notebooks/zh/03_triangle_regions.ipynb::Cell 0"),
]


def test_nbval_leaves_an_english_notebook_to_the_browser_only_if_its_chinese_edition_runs(
    project_conftest, monkeypatch
):
    monkeypatch.setattr(project_conftest, "CHROMIUM", Path(__file__))  # a file that exists
    assert project_conftest.compared_in_browser(COLLECTED) == {"notebooks/01_feed_forward.ipynb"}


def test_without_chromium_nbval_runs_every_notebook(project_conftest, monkeypatch):
    monkeypatch.setattr(project_conftest, "CHROMIUM", ROOT / "no-such-browser")
    assert project_conftest.compared_in_browser(COLLECTED) == set()


def test_the_browser_suite_and_the_makefile_simulate_the_same_other_cpu():
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    try:
        from labserver import other_cpu
    finally:
        sys.path.remove(str(ROOT / "tests" / "browser"))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "include tests/other_cpu.mk" in makefile
    assert "$(OTHER_CPU) $(PY) -m pytest $(PORTABILITY)" in makefile
    assert other_cpu() == {
        "ATEN_CPU_CAPABILITY": "default",
        "MKL_CBWR": "COMPATIBLE",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
    }


PRODUCTS = """
import hashlib, torch
g = torch.Generator().manual_seed(0)
a, b = (torch.randn(n, 64, generator=g, dtype=torch.float64) for n in (192, 256))
for _ in range(2):
    print(hashlib.sha1((a @ b.T).numpy().tobytes()).hexdigest())
"""


def test_the_other_cpu_changes_what_mkl_computes():
    """MKL_CBWR=COMPATIBLE sends MKL down its generic path: a float64 product comes out with other
    last bits than on the path MKL picks for this processor, so the other-CPU pass exercises the
    BLAS too (without it, a difference in MKL went unseen until it reached another machine)."""
    import os
    import subprocess
    import sys

    def products(**env: str) -> list[str]:
        """The product's hash, computed twice in one process with ``env``."""
        clean = {
            k: v for k, v in os.environ.items() if k not in ("MKL_CBWR", "ATEN_CPU_CAPABILITY")
        }
        run = subprocess.run([sys.executable, "-c", PRODUCTS], env=clean | env, check=True,
                             capture_output=True, text=True)  # fmt: skip
        return run.stdout.split()

    native, compatible = products(), products(MKL_CBWR="COMPATIBLE")
    assert len(set(native)) == len(set(compatible)) == 1  # the same path gives the same bits
    assert compatible != native
