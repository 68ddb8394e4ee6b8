"""The first install (course_lib/core/tools/install_torch.py, which `make lab` and `make test` run
before the course's packages): PyTorch's CPU build from PyTorch's CPU index where it answers,
pip's configured index at once where it does not, and one line saying which build came from where.
pip itself is faked: the tests record the command it would run."""

from __future__ import annotations

import http.server
import sys
import threading
from pathlib import Path

import pytest

from course_lib.core.tools import install_torch as T

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"


@pytest.fixture
def index_url():
    """A local stand-in for PyTorch's CPU index that lists torch."""

    class Index(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the name http.server calls)
            found = self.path.rstrip("/") == "/whl/cpu/torch"
            self.send_response(200 if found else 404)
            self.end_headers()
            self.wfile.write(b'<a href="torch-2.13.0+cpu.whl">torch</a>' if found else b"")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Index)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/whl/cpu"
    server.shutdown()


def _closed_port_url() -> str:
    import socket

    with socket.socket() as s:  # a port nothing listens on once this closes
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/whl/cpu"


def _install(monkeypatch, index: str, installed: list[str | None]):
    """Run main with ``FFN_TORCH_INDEX=index``, a fake pip and ``installed`` as what
    importlib.metadata reports before and after; (pip's commands, main's status)."""
    commands = []
    monkeypatch.setenv("FFN_TORCH_INDEX", index)
    versions = iter(installed)
    monkeypatch.setattr(T, "installed_torch", lambda: next(versions))
    monkeypatch.setattr(T, "nvidia_bytes", lambda: 0)
    status = T.main(run=lambda command: commands.append(command) or 0)
    return commands, status


def test_the_cpu_build_comes_from_the_cpu_index_when_it_answers(monkeypatch, capsys, index_url):
    assert T.reachable(index_url)
    commands, status = _install(monkeypatch, index_url, [None, "2.13.0+cpu"])
    assert status == 0 and len(commands) == 1
    command = commands[0]
    assert command[:3] == [sys.executable, "-m", "pip"] and "torch==2.13.0+cpu" in command
    assert command[command.index("--index-url") + 1] == index_url
    out = capsys.readouterr().out.splitlines()
    assert out[0] == T.FIRST_RUN
    assert out[-1] == f"PyTorch 2.13.0+cpu: the CPU build, from {index_url}."


def test_an_unreachable_index_falls_back_to_pips_own_index_at_once(monkeypatch, capsys):
    closed = _closed_port_url()
    assert not T.reachable(closed)
    assert T.PROBE_SECONDS <= 5, "an unreachable index may not hold the install up for long"
    commands, _ = _install(monkeypatch, closed, [None, "2.13.0+cpu"])
    assert commands == [[*commands[0][:6], "torch==2.13.0"]]
    assert "--index-url" not in commands[0]
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"PyTorch 2.13.0+cpu: the CPU build, from pip's configured index ({closed} did not answer)."
    )


def test_a_cuda_build_is_named_with_its_size_and_the_command_for_the_cpu_one(monkeypatch):
    monkeypatch.setattr(T, "nvidia_bytes", lambda: 3 * 2**30)
    line = T.report("2.13.0", "pip's configured index")
    assert line.startswith("PyTorch 2.13.0: a CUDA build, with 3.0 GB of NVIDIA libraries")
    assert f"pip install torch==2.13.0+cpu --index-url {T.CPU_INDEX}" in line


def test_an_installed_torch_of_this_version_is_left_alone(monkeypatch, capsys):
    commands, status = _install(monkeypatch, _closed_port_url(), ["2.13.0+cpu"])
    assert (commands, status) == ([], 0)
    assert capsys.readouterr().out == ""  # a second `make lab` says nothing and downloads nothing


def test_a_bad_argument_is_named():
    with pytest.raises(ValueError, match=r"install_torch takes no arguments, got \['--cuda'\]"):
        T.main(["--cuda"])


def test_make_installs_torch_with_this_script_before_the_course():
    """The Makefile's install rule brings pip up to a release that resolves the course's packages
    in half the time (docs/setup.md), runs the script, then installs the course; pip is not quiet
    there, so a first run shows pip's progress."""
    rule = MAKEFILE.read_text(encoding="utf-8").split("$(LAB_STAMP) $(STAMP):", 1)[1]
    rule = rule.split("\n\n", 1)[0]
    steps = [line.strip() for line in rule.splitlines()[1:]]
    pip_step = next(i for i, s in enumerate(steps) if s.endswith("'pip>=24.3' \\"))
    torch_step = next(
        i for i, s in enumerate(steps) if "course_lib/core/tools/install_torch.py" in s
    )
    course_step = next(i for i, s in enumerate(steps) if "-e '.$(EXTRAS)'" in s)
    assert pip_step < torch_step < course_step
    assert steps[pip_step + 1].startswith("|| echo"), "no newer pip: the install goes on"
    assert "--retries 0 --timeout 5" in steps[pip_step], "offline, one short try"
    assert not any("--quiet" in s or " -q " in s for s in steps)
    assert "torch==" not in rule, "one place says which torch: install_torch.VERSION"


def test_macos_takes_pypis_torch_which_has_no_cuda(monkeypatch, capsys, index_url):
    """PyTorch's CPU index tags no macOS wheel +cpu, and PyPI's macOS build is the CPU one."""
    monkeypatch.setattr(T.sys, "platform", "darwin")
    commands, _ = _install(monkeypatch, index_url, [None, "2.13.0"])
    assert commands[0][-1] == "torch==2.13.0" and "--index-url" not in commands[0]
    assert capsys.readouterr().out.splitlines()[-1] == (
        "PyTorch 2.13.0, from pip's configured index (macOS builds have no CUDA)."
    )


def test_the_install_leaves_out_the_grammar_jsonschema_compiles_in_every_process():
    """The Makefile uninstalls rfc3987-syntax after the course's packages: jsonschema then leaves
    out its one "iri" check instead of compiling 39 grammars in every process that imports it (a
    JupyterLab server, nbformat's reader), and a lesson still validates against the schema."""
    import importlib.util

    import nbformat

    assert "pip uninstall --disable-pip-version-check -y rfc3987-syntax" in MAKEFILE.read_text(
        encoding="utf-8"
    )
    assert importlib.util.find_spec("rfc3987_syntax") is None
    lesson = MAKEFILE.parent / "notebooks" / "01_feed_forward.ipynb"
    nbformat.validate(nbformat.read(lesson, as_version=4))


def test_make_lab_installs_the_course_and_jupyterlab_and_no_developer_tool():
    """A learner's `make lab` installs the project without its extras (no test tools, no hub, no
    npm); `make test` and the other commands install the development extras and the hub's proxy."""
    import tomllib

    makefile = MAKEFILE.read_text(encoding="utf-8")
    assert "$(LAB_STAMP): EXTRAS :=\n" in makefile and "$(STAMP): EXTRAS := [dev]\n" in makefile
    assert "$(LAB_STAMP) $(STAMP): pyproject.toml" in makefile
    lab = next(line for line in makefile.splitlines() if line.startswith("lab:"))
    assert "$(LAB_STAMP)" in lab
    for target in ("test", "suite", "classroom", "bench"):
        rule = next(line for line in makefile.splitlines() if line.startswith(f"{target}:"))
        assert "$(STAMP)" in rule.split("#")[0].replace("$(LAB_STAMP)", ""), target
    assert 'if [ "$@" != "$(STAMP)" ]; then :; elif command -v npm' in makefile
    project = tomllib.loads((MAKEFILE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    needed = {d.split(">")[0].split("=")[0] for d in project["project"]["dependencies"]}
    assert "jupyterlab" in needed and not needed & {"pytest", "jupyterhub", "playwright"}
