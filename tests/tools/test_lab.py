"""course_lib.core.tools.lab: JupyterLab starts on loopback with a token, and as root only with --allow-root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from course_lib.core.tools import lab


def token_of(arguments: list[str]) -> str:
    (token,) = [a.split("=", 1)[1] for a in arguments if a.startswith("--IdentityProvider.token=")]
    return token


@pytest.fixture
def as_user(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)


def test_lab_listens_on_loopback_only(as_user):
    arguments = lab.lab_arguments()
    assert "--ip=127.0.0.1" in arguments
    assert not any(a.startswith("--ip=") and a != "--ip=127.0.0.1" for a in arguments)


def test_lab_uses_the_given_token_and_port(as_user):
    arguments = lab.lab_arguments(port=8123, token="secret42")
    assert token_of(arguments) == "secret42"
    assert "--port=8123" in arguments
    assert "--no-browser" in arguments


def test_lab_makes_a_fresh_random_token_when_none_is_given(as_user):
    first, second = token_of(lab.lab_arguments()), token_of(lab.lab_arguments())
    assert len(first) >= 32 and len(second) >= 32
    assert first != second


@pytest.mark.parametrize("token", ["", None])
def test_lab_never_uses_an_empty_token(as_user, token):
    assert token_of(lab.lab_arguments(token=token)) != ""


def test_lab_without_a_port_lets_jupyter_choose_and_opens_no_browser(as_user):
    arguments = lab.lab_arguments()
    assert not any(a.startswith("--port") for a in arguments)
    assert "--no-browser" in arguments


def test_lab_opens_a_browser_only_when_asked(as_user):
    assert "--ServerApp.open_browser=True" in lab.lab_arguments(open_browser=True)
    assert "--ServerApp.open_browser=True" not in lab.lab_arguments()


def test_lab_main_opens_no_browser_on_ci(as_user, monkeypatch):
    calls = []
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr(os, "chdir", lambda path: None)
    monkeypatch.setattr(os, "execv", lambda exe, command: calls.append(command))
    lab.main()
    assert "--no-browser" in calls[0]


def test_lab_main_prints_the_url_with_the_token_it_passes(as_user, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(os, "chdir", lambda path: None)
    monkeypatch.setattr(os, "execv", lambda exe, command: calls.append(command))
    lab.main()
    token = next(a.split("=", 1)[1] for a in calls[0] if a.startswith("--IdentityProvider.token="))
    port = next(a.split("=", 1)[1] for a in calls[0] if a.startswith("--port="))
    assert (
        f"127.0.0.1:{port}/lab/tree/notebooks/00_index.ipynb?token={token}"
        in capsys.readouterr().out
    )
    assert "--ServerApp.log_level=WARN" in calls[0], "the server's log does not bury the URL"


def test_free_port_skips_a_port_in_use():
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        busy = server.getsockname()[1]
        assert lab.free_port(busy, tries=5) != busy


def test_lab_serves_the_project_folder_without_news(as_user):
    arguments = lab.lab_arguments()
    assert f"--ServerApp.root_dir={lab.PROJECT}" in arguments
    assert "--LabApp.news_url=None" in arguments
    assert (lab.PROJECT / "course_lib" / "core" / "tools" / "lab.py").is_file()


@pytest.mark.parametrize("euid, allowed", [(0, True), (1000, False)])
def test_lab_allows_root_exactly_when_running_as_root(monkeypatch, euid, allowed):
    monkeypatch.setattr(os, "geteuid", lambda: euid)
    assert ("--allow-root" in lab.lab_arguments()) is allowed


@pytest.mark.parametrize(
    "port, error",
    [
        (0, ValueError),
        (-1, ValueError),
        (70000, ValueError),
        ("8888", TypeError),
        (True, TypeError),
    ],
)
def test_lab_rejects_a_port_that_is_not_a_valid_tcp_port(as_user, port, error):
    with pytest.raises(error, match=rf"port must be an int in \[1, 65535\] or None, got {port!r}"):
        lab.lab_arguments(port=port)


def test_lab_main_execs_jupyter_lab_on_the_first_page(as_user, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(os, "chdir", lambda path: calls.append(("chdir", path)))
    monkeypatch.setattr(os, "execv", lambda exe, command: calls.append(("execv", command)))
    monkeypatch.setenv("LANG", "C.UTF-8")
    lab.main()
    (_, folder), (_, command) = calls
    assert folder == lab.PROJECT
    assert command[1:4] == ["-m", "jupyter", "lab"]
    assert command[-1] == "notebooks/00_index.ipynb"
    assert "--ip=127.0.0.1" in command
    assert "127.0.0.1" in capsys.readouterr().out


def test_isolated_dirs_point_every_config_dir_inside_home(tmp_path):
    env = lab.isolated_dirs(tmp_path)
    assert set(env) == set(lab.ISOLATED_DIRS)
    for folder in env.values():
        assert Path(folder).is_dir() and Path(folder).parent == tmp_path


@pytest.mark.parametrize(
    ("edition", "locale", "page"),
    [
        ("zh", "C.UTF-8", "notebooks/zh/00_index.ipynb"),
        ("en", "zh_CN.UTF-8", "notebooks/00_index.ipynb"),
        ("", "zh_CN.UTF-8", "notebooks/zh/00_index.ipynb"),
        ("", "zh", "notebooks/zh/00_index.ipynb"),
        (None, "en_GB.UTF-8", "notebooks/00_index.ipynb"),
    ],
)
def test_the_edition_or_the_locale_picks_the_index(monkeypatch, edition, locale, page):
    monkeypatch.setenv("LANG", locale)
    assert lab.first_page(edition) == page
    assert (lab.PROJECT / page).exists()


def test_an_unknown_edition_is_named_in_the_error():
    with pytest.raises(ValueError, match="edition must be 'en', 'zh' or empty, got 'fr'"):
        lab.first_page("fr")
    with pytest.raises(TypeError, match="edition must be"):
        lab.first_page(1)
