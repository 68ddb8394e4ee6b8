"""JupyterLab for the browser suite: started with the options `make lab` uses (course_lib.core.tools.lab),
in isolated config/runtime folders, and stopped with every kernel it started. The suite's server
runs its kernels as another CPU computes (``other_cpu``), so each lesson's Run All is also its
check that the committed outputs hold on a machine whose kernels differ from this one's."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from course_lib.core.tools.lab import isolated_dirs, lab_arguments

USER_SETTINGS = {
    # every cell in the DOM (no virtual scrolling), so the suite sees every output and widget
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    # no "get notified about Jupyter news?" pop-up over the screenshots
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false"},
}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


OTHER_CPU_FILE = Path(__file__).resolve().parents[1] / "other_cpu.mk"


def other_cpu() -> dict[str, str]:
    """The environment that makes PyTorch and the BLAS compute as another CPU would: the
    ``OTHER_CPU`` line of tests/other_cpu.mk, which the Makefile includes too."""
    for line in OTHER_CPU_FILE.read_text(encoding="utf-8").splitlines():
        if line.startswith("OTHER_CPU :="):
            return dict(item.split("=", 1) for item in line.split(":=", 1)[1].split())
    raise ValueError(f"{OTHER_CPU_FILE} has no 'OTHER_CPU :=' line")


def isolated_environment(home: Path) -> dict[str, str]:
    """os.environ with Jupyter, IPython and matplotlib writing under ``home`` only."""
    env = {**os.environ, **isolated_dirs(home)}
    for name, values in USER_SETTINGS.items():
        settings = home / "jupyter-config" / "lab" / "user-settings" / f"{name}.jupyterlab-settings"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(values))
    env.pop("JUPYTER_TOKEN", None)
    return env


class LabServer:
    """A running ``jupyter lab``: its URL, token and the REST calls the suite needs."""

    def __init__(
        self,
        home: Path,
        token: str,
        root: Path | None = None,
        expose_app: bool = False,
        environment: dict[str, str] | None = None,
    ):
        """``environment``: variables added to the server's (and so its kernels') environment."""
        self.home, self.token, self.port = home, token, free_port()
        self._stopping: list[threading.Thread] = []  # shutdown_kernels(wait=False) still at work
        self.stop_errors: list[str] = []  # what those threads could not do
        home.mkdir(parents=True, exist_ok=True)
        self.arguments = lab_arguments(self.port, token)
        if root is not None:  # serve the lesson copies instead of the project folder
            self.arguments = [
                a for a in self.arguments if not a.startswith("--ServerApp.root_dir=")
            ]
            self.arguments.append(f"--ServerApp.root_dir={root}")
        extra = ["--expose-app-in-browser"] if expose_app else []
        self.log = (home / f"lab-{self.port}.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", *self.arguments, *extra],
            env=isolated_environment(home) | (environment or {}),
            cwd=home,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.url = f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60) -> None:
        """Block until the REST API answers with the token."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"jupyter lab exited with {self.process.returncode}: {self.log_text()}"
                )
            try:
                self.request("GET", "/api/status")
                return
            except (OSError, urllib.error.URLError):
                time.sleep(0.2)
        raise TimeoutError(f"jupyter lab not ready after {timeout} s: {self.log_text()}")

    def log_text(self, last: int = 2000) -> str:
        if not self.log.closed:
            self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-last:]

    def request(self, method: str, path: str, with_token: bool = True) -> tuple[int, bytes]:
        """(status, body) of an HTTP request to the server; HTTP errors are returned, not raised."""
        headers = {"Authorization": f"token {self.token}"} if with_token else {}
        request = urllib.request.Request(self.url + path, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def shutdown_kernels(self, wait: bool = True) -> None:
        """Stop every session and kernel the server runs now (what closing a lesson leaves
        behind). With ``wait=False`` it returns once they are listed and stops them in the
        background, while the next lesson opens: the server answers a kernel's DELETE only once
        the kernel has exited, about 2 s. ``stop`` waits for those still stopping. Not for a
        notebook opened again at once: JupyterLab would reconnect it to the session being stopped."""
        listed = []
        for kind in ("sessions", "kernels"):
            status, body = self.request("GET", f"/api/{kind}")
            listed += (
                [f"/api/{kind}/{item['id']}" for item in json.loads(body)] if status == 200 else []
            )

        def stop_listed() -> None:
            for path in listed:  # a kernel whose session went first answers 404: already gone
                try:
                    self.request("DELETE", path)
                except OSError as error:  # the next ones still go; stop() deletes what is left
                    self.stop_errors.append(f"DELETE {path}: {error}")

        if wait:
            stop_listed()
            return
        stopping = threading.Thread(target=stop_listed, name="stop-kernels", daemon=True)
        stopping.start()
        self._stopping.append(stopping)

    def stop(self) -> list[int]:
        """Stop kernels, then the server; kill what outlives it and return those process ids."""
        for stopping in self._stopping:
            stopping.join(timeout=30)
            if stopping.is_alive():
                self.stop_errors.append("a background kernel stop still runs after 30 s")
        if self.process.poll() is None:
            try:
                self.shutdown_kernels()
            except OSError:
                pass
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        deadline = time.monotonic() + 5
        while self.leftover_processes() and time.monotonic() < deadline:
            time.sleep(0.2)
        survivors = self.leftover_processes()
        for pid in survivors:
            os.kill(pid, signal.SIGKILL)
        self.log.close()
        return survivors

    def leftover_processes(self) -> list[int]:
        """Processes (kernels) whose command line names this server's private folders."""
        marker = str(self.home).encode()
        found = []
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                if marker in (entry / "cmdline").read_bytes() and int(entry.name) != os.getpid():
                    found.append(int(entry.name))
            except OSError:
                continue
        return found
