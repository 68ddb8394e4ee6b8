"""The project's own files agree with each other: conda and pip name the same dependencies, CI
runs the command README gives, and the package says its version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import course_lib

ROOT = Path(__file__).parent.parent
# conda-forge names that differ from PyPI's
CONDA_TO_PYPI = {"pytorch": "torch"}
CONDA_ONLY = {"python", "pip"}


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ]", requirement.strip(), maxsplit=1)[0].lower()


def pyproject_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {_name(r) for r in project["dependencies"]}
    names |= {_name(r) for group in project["optional-dependencies"].values() for r in group}
    return names


def environment_dependencies() -> set[str]:
    names = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("\ndependencies:", 1)[1].splitlines():  # not the channels list
        item = re.match(r"^\s+-\s+([A-Za-z0-9_.\-]+)", line)
        if not item or item.group(1) in ("-e", "pip:") or line.strip().startswith("- -e"):
            continue
        name = _name(item.group(1))
        if name not in CONDA_ONLY:
            names.add(CONDA_TO_PYPI.get(name, name))
    return names


def test_environment_yml_and_pyproject_name_the_same_dependencies():
    assert environment_dependencies() == pyproject_dependencies()


def test_environment_yml_installs_the_project_itself():
    assert re.search(r"^\s+- -e \.\s*$", (ROOT / "environment.yml").read_text(), re.M)


def test_ci_runs_the_test_command_readme_gives():
    readme = (ROOT / "README.md").read_text()
    assert "make test" in readme.split("\n\n", 3)[1] + readme[:600], "README opens with make test"
    assert re.search(r"^make test$", (ROOT / ".ci" / "run").read_text(), re.M)


def test_torch_requirement_admits_the_cpu_build_the_makefile_installs():
    from course_lib.core.tools.install_torch import VERSION as pinned  # what `make` installs first

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    torch_req = next(r for r in project["dependencies"] if _name(r) == "torch")
    lower = re.search(r">=([\d.]+)", torch_req).group(1)
    as_tuple = lambda v: tuple(int(p) for p in v.split("."))  # noqa: E731
    assert as_tuple(lower) <= as_tuple(pinned)
    assert "<" not in torch_req or as_tuple(re.search(r"<([\d.]+)", torch_req).group(1)) > as_tuple(
        pinned
    )


def test_version_is_exposed():
    assert re.fullmatch(r"\d+\.\d+\.\d+", course_lib.__version__)


def test_readme_lists_every_lesson_of_both_editions():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    chinese = readme.split("## 中文版 (Chinese edition)", 1)
    assert len(chinese) == 2, "README has no '## 中文版 (Chinese edition)' section"
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert f"`{path.name}`" in chinese[0], f"README's lesson table lacks {path.name}"
        assert f"`zh/{path.name}`" in chinese[1], f"README's 中文 table lacks zh/{path.name}"
    assert "make lab LANG=zh" in chinese[1]


def test_environment_yml_installs_the_cpu_build_of_pytorch_for_a_small_binder_image():
    """repo2docker (Binder) and conda read environment.yml: a CUDA build would add gigabytes."""
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    pytorch = re.findall(r"^\s+- (pytorch\S*)", text, re.M)
    assert pytorch == ["pytorch>=2.3=*cpu*"], pytorch
    assert "conda-forge" in text
    for wrong in ("cuda", "pytorch-cuda", "nvidia", "- torch"):
        assert wrong not in text.lower().replace("pytorch", ""), f"environment.yml names {wrong}"
