"""What a learner installs: the wheel holds the course's package and its data, and nothing of the
developer tools (devtools/: the site builder, the editions' sync, the notebook executor), which
read the repository and run from a clone. Every course_lib module a notebook imports is in it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory) -> list[str]:
    # Built from a copy of what setuptools reads (every top-level file and package of the clone),
    # so the build's own folders never land in the repository.
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for item in ROOT.iterdir():
        if item.name.startswith(".") or item.name in ("artifacts", "build", "site"):
            continue
        if item.is_dir():
            shutil.copytree(item, source / item.name, ignore=skip)
        else:
            shutil.copy2(item, source / item.name)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation"]
        + ["--disable-pip-version-check", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        cwd=out,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = out.glob("ffn_course-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_wheel_holds_the_course_package_and_no_developer_tool(wheel_files):
    tops = {name.split("/")[0] for name in wheel_files}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"course_lib"}, tops
    for tool in ("devtools", "site_assets", "editions.py", "notebooks.py", "site/"):
        assert not any(tool in name for name in wheel_files), tool
    assert "course_lib/core/tools/lab.py" in wheel_files  # make lab's launcher is the learner's
    assert "course_lib/core/tools/lab_overrides.json" in wheel_files
    assert {p.name for p in (ROOT / "course_lib" / "data").glob("*.npz")} == {
        Path(n).name for n in wheel_files if n.startswith("course_lib/data/")
    }


def test_every_module_a_notebook_imports_is_in_the_wheel(wheel_files):
    imported = set()
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                imported |= set(re.findall(r"^\s*from (course_lib[\w.]*) import", source, re.M))
                imported |= set(re.findall(r"^\s*import (course_lib[\w.]*)", source, re.M))
    assert len(imported) > 10
    for module in sorted(imported):
        path = module.replace(".", "/")
        assert f"{path}.py" in wheel_files or f"{path}/__init__.py" in wheel_files, module
