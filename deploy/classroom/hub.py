"""A real JupyterHub on this machine for the classroom benchmark (``classroom_ramp.py``) and its
test: learners log in, get a single-user server each and open the course's notebooks as they would
on The Littlest JupyterHub, so what a class costs is observed rather than computed.

Everything stays on this machine and inside one temporary folder: the hub, its proxy
(configurable-http-proxy, from npm) and every server listen on 127.0.0.1 at free ports; secrets are
generated per run; the database, the pid files and each learner's home live under the folder.
Learners are ``DummyAuthenticator`` users served by ``SimpleLocalProcessSpawner`` as the current OS
user, each home seeded with a copy of ``notebooks/`` (both editions) and run with this project's
venv (its ``jupyterhub-singleuser``), so a learner gets the course as installed by ``make setup``.

``running_hub()`` starts it and, on exit, stops every server through the hub's API, then the hub
and its proxy, and raises if any process it started is still alive (after killing it).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[2]
NOTEBOOKS = PROJECT / "notebooks"
ADMIN_SERVICE = "classroom"
# What the benchmark's own service may do: create learners and their tokens, start and stop their
# servers, and read a server's pid (admin:server_state, part of admin:servers) to find its kernels.
ADMIN_SCOPES = ["admin:users", "admin:servers", "tokens", "list:users", "read:users"]
PROXY_NPM_FOLDER = "chp"  # `npm install --prefix $(VENV)/chp configurable-http-proxy` (Makefile)
INSTALL_PROXY = "npm install --prefix .venv/chp configurable-http-proxy (or `make setup`)"


class HubError(RuntimeError):
    """The hub did not start, did not answer, or left processes behind."""


# --- where the programs are ------------------------------------------------------------------


def venv_program(name: str) -> Path | None:
    """``name`` in this Python's venv (bin/), else on PATH; None when neither has it."""
    candidate = Path(sys.prefix) / "bin" / name
    if candidate.exists():
        return candidate
    found = shutil.which(name)
    return Path(found) if found else None


def proxy_command() -> Path | None:
    """configurable-http-proxy as the Makefile installs it (npm, into the venv), else on PATH."""
    local = (
        Path(sys.prefix) / PROXY_NPM_FOLDER / "node_modules" / ".bin" / "configurable-http-proxy"
    )
    if local.exists():
        return local
    found = shutil.which("configurable-http-proxy")
    return Path(found) if found else None


def missing_programs() -> list[str]:
    """What a hub needs and this machine lacks, each with how to install it; empty when ready."""
    missing = []
    if venv_program("jupyterhub") is None or venv_program("jupyterhub-singleuser") is None:
        missing.append("jupyterhub (pip install -e '.[dev]', or `make setup`)")
    if proxy_command() is None:
        missing.append(f"configurable-http-proxy ({INSTALL_PROXY})")
    if shutil.which("node") is None:
        missing.append("node (the proxy runs on Node.js)")
    return missing


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- the hub's configuration -------------------------------------------------------------------


def settings_for(root: Path) -> dict[str, Any]:
    """Ports, secrets and paths of one hub under ``root``: written as JSON beside the config file,
    which hands them to ``configure``. Everything random is made here, once per hub."""
    proxy, singleuser = proxy_command(), venv_program("jupyterhub-singleuser")
    if proxy is None or singleuser is None:
        raise HubError(f"cannot start a hub, missing: {missing_programs()}")
    return {
        "port": free_port(),
        "hub_port": free_port(),
        "proxy_api_port": free_port(),
        "cookie_secret": secrets.token_hex(32),
        "proxy_token": secrets.token_hex(32),
        "admin_token": secrets.token_hex(32),
        "proxy_command": str(proxy),
        "singleuser": str(singleuser),
        "root": str(root),
        "homes": str(root / "homes"),
        "notebooks": str(NOTEBOOKS),
        "matplotlib": str(root / "matplotlib"),
        "as_root": hasattr(os, "geteuid") and os.geteuid() == 0,
    }


def configure(c: Any, settings: dict[str, Any]) -> None:
    """Set the hub's traitlets config ``c`` from ``settings`` (called by the generated config
    file, so the configuration is this reviewed code, not generated text)."""
    root = Path(settings["root"])
    c.JupyterHub.bind_url = f"http://127.0.0.1:{settings['port']}"
    c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{settings['hub_port']}"
    c.JupyterHub.cookie_secret = bytes.fromhex(settings["cookie_secret"])
    c.JupyterHub.db_url = f"sqlite:///{root / 'jupyterhub.sqlite'}"
    c.JupyterHub.pid_file = str(root / "jupyterhub.pid")
    c.JupyterHub.cleanup_servers = True
    c.JupyterHub.cleanup_proxy = True
    c.ConfigurableHTTPProxy.command = [settings["proxy_command"]]
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{settings['proxy_api_port']}"
    c.ConfigurableHTTPProxy.auth_token = settings["proxy_token"]
    c.ConfigurableHTTPProxy.pid_file = str(root / "proxy.pid")
    c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"
    c.Authenticator.allow_all = True
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = str(Path(settings["homes"]) / "{username}")
    c.Spawner.cmd = [settings["singleuser"]]
    # root may run the single-user server only when it says so (as `make lab` does)
    c.Spawner.args = ["--allow-root"] if settings["as_root"] else []
    c.Spawner.default_url = "/lab"
    c.Spawner.environment = {"LANG": "C.UTF-8"}
    # OpenMP's waiting, as whoever started the hub set it: a test session lets PyTorch's threads
    # sleep (conftest.py), `make classroom` leaves the learners' kernels as PyTorch starts them
    c.Spawner.env_keep.append("OMP_WAIT_POLICY")  # after the Spawner's own list
    c.Spawner.start_timeout = 300  # a loaded machine starts servers slowly: measured, not failed
    c.Spawner.http_timeout = 300
    c.Spawner.pre_spawn_hook = seed_home_hook(settings["notebooks"], settings["matplotlib"])
    c.JupyterHub.services = [{"name": ADMIN_SERVICE, "api_token": settings["admin_token"]}]
    c.JupyterHub.load_roles = [
        {"name": ADMIN_SERVICE, "scopes": ADMIN_SCOPES, "services": [ADMIN_SERVICE]}
    ]


def seed_home_hook(notebooks: str, matplotlib: str):
    """A pre-spawn hook that gives a learner's home what a course hub gives it: the notebooks (both
    editions, as nbgitpuller or a shared folder would) and matplotlib's font cache, which a real
    learner has built by the time of a later lesson. Kept when present: a learner's saved work
    survives a restart of their server."""

    def seed(spawner: Any) -> None:
        home = Path(spawner.home_dir)
        home.mkdir(parents=True, exist_ok=True)
        seed_home(home, Path(notebooks), Path(matplotlib))

    return seed


def seed_home(home: Path, notebooks: Path, matplotlib: Path) -> None:
    """Copy ``notebooks`` to ``home/notebooks`` and the font cache to ``home/.config/matplotlib``,
    each only if the learner does not have it yet."""
    if not (home / "notebooks").exists():
        shutil.copytree(
            notebooks,
            home / "notebooks",
            ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
        )
    config = home / ".config" / "matplotlib"
    if matplotlib and Path(matplotlib).is_dir() and not config.exists():
        shutil.copytree(matplotlib, config)


CONFIG_FILE = """\
# Written by deploy/classroom/hub.py for one run; the configuration itself is deploy.classroom.hub.configure.
import json
import sys

sys.path.insert(0, {project!r})
from deploy.classroom.hub import configure  # noqa: E402

configure(c, json.load(open({settings!r}, encoding="utf-8")))  # noqa: F821
"""


def write_config(root: Path, settings: dict[str, Any]) -> Path:
    """The config file and its settings under ``root``; returns the config file's path."""
    settings_path = root / "settings.json"
    settings_path.write_text(json.dumps(settings, indent=1), encoding="utf-8")
    settings_path.chmod(0o600)  # it holds the secrets
    config = root / "jupyterhub_config.py"
    config.write_text(
        CONFIG_FILE.format(project=str(PROJECT), settings=str(settings_path)), encoding="utf-8"
    )
    return config


def build_font_cache(folder: Path) -> None:
    """matplotlib's font cache built once into ``folder``, for every learner's home to copy (a
    cold cache costs each learner's first lesson seconds that a class pays only once)."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-c", "import matplotlib.font_manager"],
        env={**os.environ, "MPLCONFIGDIR": str(folder)},
        check=True,
        capture_output=True,
        timeout=300,
    )


# --- the running hub ---------------------------------------------------------------------------


def hub_environment(root: Path) -> dict[str, str]:
    """The hub's environment: this one without Jupyter's folder variables (a test session sets
    them; each learner's server must use its own home), with the venv and node on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPYTHON"))}
    env.pop("MPLCONFIGDIR", None)
    env["PATH"] = os.pathsep.join([str(Path(sys.prefix) / "bin"), env.get("PATH", "")])
    env["HOME"] = str(root)  # the hub's own files (none expected) land in the folder too
    return env


@dataclass
class Hub:
    """A running hub: its public URL (the proxy), the admin service's token and REST helpers."""

    root: Path
    settings: dict[str, Any]
    process: subprocess.Popen
    log_path: Path
    tokens: dict[str, str] = field(default_factory=dict)  # learner -> their own API token
    started_pids: set[int] = field(default_factory=set)  # every server pid seen, for the exit check

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.settings['port']}"

    @property
    def admin_token(self) -> str:
        return self.settings["admin_token"]

    def log_text(self, last: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-last:] if self.log_path.exists() else ""

    def api(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """(status, decoded JSON or None) of a hub REST call (``path`` after /hub/api) with the
        admin token, or ``token``; HTTP errors are returned, not raised."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}/hub/api{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {token or self.admin_token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
        try:
            return status, json.loads(raw) if raw else None
        except json.JSONDecodeError:
            return status, raw.decode(errors="replace")

    def wait_ready(self, timeout: float = 120) -> None:
        """Block until the hub's API answers through the proxy with the admin token."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise HubError(
                    f"jupyterhub exited with {self.process.returncode}:\n{self.log_text()}"
                )
            try:
                status, _ = self.api("GET", "/user")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.3)
        raise HubError(f"the hub's API did not answer within {timeout} s:\n{self.log_text()}")

    def add_learners(self, names: list[str]) -> dict[str, str]:
        """Create the users that do not exist yet and give each its own API token (a learner acts
        with its own token, as after logging in); returns name -> token for ``names``."""
        new = [name for name in names if name not in self.tokens]
        if new:
            status, body = self.api("POST", "/users", {"usernames": new})
            if status not in (201, 409):
                raise HubError(f"creating users {new} failed: {status} {body}")
        for name in new:
            status, body = self.api(
                "POST", f"/users/{name}/tokens", {"note": "classroom learner", "expires_in": 86400}
            )
            if status != 201:
                raise HubError(f"a token for {name!r} failed: {status} {body}")
            self.tokens[name] = body["token"]
        return {name: self.tokens[name] for name in names}

    def server(self, name: str) -> dict[str, Any] | None:
        """The learner's default server as the hub reports it (with its ``state``), or None."""
        status, body = self.api("GET", f"/users/{name}")
        if status != 200:
            raise HubError(f"reading user {name!r} failed: {status} {body}")
        return (body.get("servers") or {}).get("")

    def server_pid(self, name: str) -> int | None:
        """The pid of the learner's single-user server (LocalProcessSpawner keeps it in state)."""
        server = self.server(name)
        pid = ((server or {}).get("state") or {}).get("pid")
        if pid:
            self.started_pids.add(int(pid))
        return int(pid) if pid else None

    def running_servers(self) -> dict[str, dict[str, Any]]:
        """name -> server model, for every user with a server running or pending."""
        status, body = self.api("GET", "/users?state=active")
        if status != 200:
            raise HubError(f"listing users failed: {status} {body}")
        return {
            user["name"]: user["servers"][""] for user in body if user.get("servers", {}).get("")
        }

    def stop_servers(self, names: list[str] | None = None, timeout: float = 120) -> None:
        """Stop the learners' servers (all running ones when ``names`` is None) through the API and
        wait until the hub reports none of them running."""
        targets = list(self.running_servers()) if names is None else list(names)
        for name in targets:
            self.server_pid(name)  # remembered for the exit check
            status, body = self.api("DELETE", f"/users/{name}/server")
            if status not in (202, 204, 400, 404):  # 400: not running
                raise HubError(f"stopping {name!r}'s server failed: {status} {body}")
        deadline, still = time.monotonic() + timeout, set(targets)
        while time.monotonic() < deadline:
            still = set(self.running_servers()) & set(targets)
            if not still:
                return
            time.sleep(0.5)
        raise HubError(f"servers still running {timeout} s after being stopped: {sorted(still)}")


def names_folder(pid: int, root: Path) -> bool:
    """Whether process ``pid``'s command line, environment or working folder names ``root``: what
    every process of a hub shares (each server's HOME, and so its kernels', is under it)."""
    entry = Path("/proc") / str(pid)
    for name in ("cmdline", "environ"):
        try:
            if str(root).encode() in (entry / name).read_bytes():
                return True
        except OSError:
            continue
    try:
        return os.readlink(entry / "cwd").startswith(str(root))
    except OSError:
        return False


def processes_of(root: Path, roots: set[int]) -> set[int]:
    """Pids of live processes that belong to this hub: any process that names the hub's folder
    ``root`` (kernels and servers whose parent has gone too), and ``roots`` with their descendants
    while they still name it. A pid seen earlier is checked again before it counts: it may have
    been reused by another process since."""
    import psutil

    found = {int(e.name) for e in Path("/proc").glob("[0-9]*") if names_folder(int(e.name), root)}
    for pid in roots:
        if not names_folder(pid, root):
            continue
        try:
            found |= {pid, *(child.pid for child in psutil.Process(pid).children(recursive=True))}
        except psutil.Error:
            continue
    found.discard(os.getpid())
    return {pid for pid in found if psutil.pid_exists(pid)}


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (zombies count as gone)."""
    import psutil

    living = set()
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                living.add(pid)
        except psutil.Error:
            continue
    return living


def describe(pids: set[int]) -> list[str]:
    """``pid: command line`` of each process, for an error message."""
    import psutil

    lines = []
    for pid in sorted(pids):
        try:
            lines.append(f"{pid}: {' '.join(psutil.Process(pid).cmdline())[:200]}")
        except psutil.Error:
            lines.append(f"{pid}: (gone)")
    return lines


def stop_hub(hub: Hub, timeout: float = 60) -> list[str]:
    """Stop every learner's server through the API, then the hub (which stops its proxy); kill
    whatever of theirs outlives that. Returns the survivors that had to be killed, described."""
    problems = []
    try:
        if hub.process.poll() is None:
            hub.stop_servers(timeout=timeout)
    except (HubError, OSError) as error:
        problems.append(f"stopping the servers through the API: {error}")
    tracked = processes_of(hub.root, {hub.process.pid, *hub.started_pids})
    if hub.process.poll() is None:
        hub.process.send_signal(signal.SIGTERM)
        try:
            hub.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            problems.append(f"jupyterhub did not exit within {timeout} s of SIGTERM")
    deadline = time.monotonic() + 15
    while alive(tracked | processes_of(hub.root, set())) and time.monotonic() < deadline:
        time.sleep(0.2)
    survivors = alive(tracked | processes_of(hub.root, set()))
    if survivors:
        problems.append("processes outlived the hub: " + "; ".join(describe(survivors)))
        for pid in survivors:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    if hub.process.poll() is None:
        hub.process.kill()
    hub.process.wait()
    return problems


@contextmanager
def running_hub(workdir: Path | None = None, keep: bool = False) -> Iterator[Hub]:
    """A hub started in a new temporary folder (or ``workdir``), ready when yielded; on exit every
    server, the hub and its proxy are stopped and a process that outlived them raises HubError.
    ``keep`` leaves the folder (logs, homes) for a look afterwards."""
    if workdir is not None and not isinstance(workdir, Path):
        raise TypeError(f"workdir must be a pathlib.Path or None, got {workdir!r}")
    missing = missing_programs()
    if missing:
        raise HubError(f"cannot start a hub, missing: {missing}")
    root = Path(tempfile.mkdtemp(prefix="ffn-hub-", dir=workdir))
    try:
        settings = settings_for(root)
        build_font_cache(Path(settings["matplotlib"]))
        config = write_config(root, settings)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)  # nothing started yet: only the folder to remove
        raise
    log_path = root / "jupyterhub.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(venv_program("jupyterhub")), "-f", str(config), "--log-level=WARN"],
            cwd=root,
            env=hub_environment(root),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    hub = Hub(root=root, settings=settings, process=process, log_path=log_path)
    failed = False
    try:
        hub.wait_ready()
        yield hub
    except BaseException:
        failed = True
        raise
    finally:
        problems = stop_hub(hub)
        if not keep and not problems:
            shutil.rmtree(root, ignore_errors=True)
        if problems and failed:  # the original error propagates; these are said beside it
            print(f"the hub did not stop cleanly (log in {root}): {problems}", file=sys.stderr)
        elif problems:
            raise HubError(f"the hub did not stop cleanly (log in {root}): {problems}")
