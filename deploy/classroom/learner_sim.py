"""One simulated learner on the hub (``hub.py``): logs in with its own token, starts its server,
opens a lesson, runs every code cell, moves the lesson's demo controls and saves the notebook,
speaking the Jupyter kernel protocol over the server's websocket as JupyterLab does, so the
kernels, the servers and the proxy do the work a class gives them without a browser per learner.

What it keeps (``LearnerResult``): the Run All wall time, each control's reply time (message sent
to the kernel idle again, the new picture sent), every error output or failed execute_reply, the
kernel's and the server's peak memory (VmHWM), a kernel that died (reported, never restarted by
us) and whether the saved notebook reads back with the lesson's cells.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from benchmarks.notebook_timer import first_line, high_water_mark

SELECTION_MODELS = ("SelectionSliderModel", "DropdownModel", "ToggleButtonsModel")
DEMO_CLASS = "course-demo"  # course_lib.core.widgets.build marks every demo's VBox with it
ERROR_STYLE = "color:#c00"  # course_lib.core.widgets.build shows a failed update in this colour
OUTPUT_TYPES = ("stream", "display_data", "execute_result", "error", "update_display_data")
DEATH_STATES = ("restarting", "autorestarting", "dead")


def run_coroutine(coroutine: Any) -> Any:
    """``asyncio.run(coroutine)`` in a thread of its own, so it works where this thread already
    runs an event loop (pytest with Playwright's sync API, Jupyter): the learners' loop is theirs."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="learners") as pool:
        return pool.submit(asyncio.run, coroutine).result()


class KernelDied(RuntimeError):
    """The kernel died (the server reported it restarting or dead, or the channel closed)."""


class LearnerError(RuntimeError):
    """A step of the learner's visit failed: the message says which and what the server said."""


# --- pure parts: the demo controls in the widget state, where to move them ---------------------


@dataclass(frozen=True)
class DemoControl:
    """A demo's control as the kernel described it in its comm_open: enough to move it and to
    recognise the demo's answer (its Image and status widgets)."""

    demo: str  # the demo's CSS class, e.g. "course-demo--ffn-width-and-activation"
    name: str  # the control's description, e.g. "d_ff"
    comm_id: str
    model: str  # SelectionSliderModel, DropdownModel or ToggleButtonsModel
    index: int
    labels: tuple[str, ...]
    image_id: str
    status_id: str


def _ref(value: str) -> str:
    return value.removeprefix("IPY_MODEL_")


def demo_controls(widgets: dict[str, dict[str, Any]]) -> list[DemoControl]:
    """Every control of every live demo in ``widgets`` (comm id -> widget state). A demo is the
    VBox ``course_lib.core.widgets.build`` makes: [HBox of controls, status HTML, Image]."""
    if not isinstance(widgets, dict):
        raise TypeError(f"widgets must be a dict of comm id -> widget state, got {widgets!r}")
    found = []
    for state in widgets.values():
        classes = state.get("_dom_classes") or []
        if state.get("_model_name") != "VBoxModel" or DEMO_CLASS not in classes:
            continue
        demo = next((c for c in classes if c.startswith(DEMO_CLASS + "--")), DEMO_CLASS)
        children = [widgets.get(_ref(ref), {}) | {"_id": _ref(ref)} for ref in state["children"]]
        image = next((c["_id"] for c in children if c.get("_model_name") == "ImageModel"), None)
        status = next((c["_id"] for c in children if c.get("_model_name") == "HTMLModel"), None)
        boxes = [c for c in children if c.get("_model_name") == "HBoxModel"]
        if image is None or status is None or not boxes:
            continue
        for ref in boxes[0].get("children", []):
            control = widgets.get(_ref(ref), {})
            if control.get("_model_name") in SELECTION_MODELS:
                found.append(
                    DemoControl(
                        demo=demo,
                        name=control.get("description", ""),
                        comm_id=_ref(ref),
                        model=control["_model_name"],
                        index=int(control.get("index", 0)),
                        labels=tuple(control.get("_options_labels", ())),
                        image_id=image,
                        status_id=status,
                    )
                )
    return found


def move_targets(index: int, count: int, moves: int) -> list[int]:
    """The positions a learner moves a control to from ``index`` among ``count`` options, as the
    browser suite does: one step, then the far end, then the near end; each differs from the
    position before it. At most ``moves`` of them."""
    for name, value in (("index", index), ("count", count), ("moves", moves)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {value!r}")
    if count < 2:
        raise ValueError(f"count must be >= 2 (a control has at least 2 options), got {count!r}")
    if not 0 <= index < count:
        raise ValueError(f"index must be in [0, {count - 1}] for count {count}, got {index!r}")
    if moves < 0:
        raise ValueError(f"moves must be >= 0, got {moves!r}")
    step = index + 1 if index < count - 1 else index - 1
    targets, now = [], index
    for target in (step, count - 1, 0, step):
        if len(targets) == moves:
            break
        if target != now:
            targets.append(target)
            now = target
    return targets


# --- results -----------------------------------------------------------------------------------


@dataclass
class Move:
    """One control move: where it went, the reply time (None when none came) and any problem."""

    demo: str
    control: str
    value: str
    reply_s: float | None
    problem: str = ""


@dataclass
class LearnerResult:
    """Everything one learner's visit measured; ``errors`` empty means nothing went wrong."""

    name: str
    lesson: str
    spawn_s: float | None = None
    run_all_s: float | None = None
    cells_run: int = 0
    code_cells: int = 0
    slowest_cells: list[tuple[int, str, float]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    kernel_peak_bytes: int | None = None
    server_peak_bytes: int | None = None
    kernel_cpu_s: float | None = None  # the kernel's CPU time from its start to Run All's end
    kernel_died: str = ""
    saved_intact: bool | None = None
    errors: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# --- the kernel protocol over the websocket ------------------------------------------------------


@dataclass
class Exchange:
    """One request and what the kernel sent with it as parent: done when the kernel is idle again
    for it (and, for a shell request, its reply came)."""

    msg_id: str
    needs_reply: bool
    messages: list[dict[str, Any]] = field(default_factory=list)
    reply: dict[str, Any] | None = None
    idle: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def check(self) -> None:
        if self.idle and (self.reply is not None or not self.needs_reply):
            self.done.set()


def decode(frame: str | bytes) -> dict[str, Any]:
    """A websocket frame from jupyter_server: JSON text, or its binary form with buffers."""
    if isinstance(frame, str):
        return json.loads(frame)
    from jupyter_server.services.kernels.connection.base import deserialize_binary_message

    return deserialize_binary_message(frame)


class KernelConnection:
    """The kernel's channels through the proxy, one reader task dispatching replies and iopub
    messages to their request; comm_open and widget updates kept as the widget state."""

    def __init__(self, socket: Any, session: str, username: str) -> None:
        self.socket, self.session, self.username = socket, session, username
        self.pending: dict[str, Exchange] = {}
        self.widgets: dict[str, dict[str, Any]] = {}
        self.died = ""
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            frame = await self.socket.read_message()
            if frame is None:
                self._die(self.died or "the kernel's websocket closed")
                return
            self._dispatch(decode(frame))

    def _die(self, why: str) -> None:
        self.died = self.died or why
        for exchange in self.pending.values():
            exchange.done.set()

    def _dispatch(self, msg: dict[str, Any]) -> None:
        kind, content = msg["header"].get("msg_type"), msg.get("content", {})
        if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.widgets[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
        elif kind == "comm_msg" and content.get("data", {}).get("method") == "update":
            self.widgets.setdefault(content["comm_id"], {}).update(content["data"].get("state", {}))
        elif kind == "status" and content.get("execution_state") in DEATH_STATES:
            self._die(f"the kernel was reported {content['execution_state']}")
        exchange = self.pending.get(msg.get("parent_header", {}).get("msg_id", ""))
        if exchange is None:
            return
        if msg.get("channel") == "shell":
            exchange.reply = content
        elif kind == "status" and content.get("execution_state") == "idle":
            exchange.idle = True
        else:
            exchange.messages.append(msg)
        exchange.check()

    def message(self, msg_type: str, content: dict[str, Any], channel: str = "shell") -> dict:
        header = {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "username": self.username,
            "session": self.session,
            "date": datetime.now(UTC).isoformat(),
            "version": "5.3",
        }
        return {
            "header": header,
            "parent_header": {},
            "metadata": {},
            "content": content,
            "channel": channel,
            "buffers": [],
        }

    async def request(
        self, msg_type: str, content: dict[str, Any], timeout: float, needs_reply: bool = True
    ) -> Exchange:
        """Send a shell message and wait until the kernel is done with it; KernelDied if it died,
        TimeoutError after ``timeout`` s."""
        if self.died:
            raise KernelDied(self.died)
        msg = self.message(msg_type, content)
        exchange = Exchange(msg["header"]["msg_id"], needs_reply)
        self.pending[exchange.msg_id] = exchange
        try:
            await self.socket.write_message(json.dumps(msg))
            await asyncio.wait_for(exchange.done.wait(), timeout)
        finally:
            self.pending.pop(exchange.msg_id, None)
        if self.died:
            raise KernelDied(self.died)
        return exchange

    def close(self) -> None:
        self.reader.cancel()
        self.socket.close()


def outputs_of(exchange: Exchange) -> list[Any]:
    """The notebook outputs (nbformat) a cell's execution produced, as JupyterLab stores them."""
    from nbformat.v4 import output_from_msg

    outputs = []
    for msg in exchange.messages:
        if msg["header"]["msg_type"] in ("stream", "display_data", "execute_result", "error"):
            outputs.append(output_from_msg(msg))
    return outputs


def problems_of(exchange: Exchange) -> tuple[list[str], list[str]]:
    """(errors, stderr texts) of a request: error outputs and a reply whose status is not ok."""
    errors, stderr = [], []
    for msg in exchange.messages:
        kind, content = msg["header"]["msg_type"], msg["content"]
        if kind == "error":
            errors.append(f"{content.get('ename')}: {content.get('evalue')}")
        elif kind == "stream" and content.get("name") == "stderr":
            stderr.append(content.get("text", "")[:500])
    status = (exchange.reply or {}).get("status", "ok")
    if exchange.needs_reply and status != "ok":
        reply = exchange.reply or {}
        errors.append(f"execute_reply {status}: {reply.get('ename', '')} {reply.get('evalue', '')}")
    return errors, stderr


# --- one learner -------------------------------------------------------------------------------


class LearnerSim:
    """One learner: ``hub_url`` (the proxy), its user ``name`` and own ``token``, the ``lesson``
    path in its home (``notebooks/02_dimension_expansion.ipynb``). ``server_pid`` looks up its
    server's pid (the hub's admin API), to find the kernel among the server's processes."""

    def __init__(
        self,
        hub_url: str,
        name: str,
        token: str,
        lesson: str,
        server_pid: Callable[[str], int | None] | None = None,
        cell_timeout: float = 600,
        move_timeout: float = 120,
    ) -> None:
        for label, value in (("hub_url", hub_url), ("name", name), ("token", token)):
            if not isinstance(value, str) or not value:
                raise TypeError(f"{label} must be a non-empty str, got {value!r}")
        if not isinstance(lesson, str) or not lesson.endswith(".ipynb"):
            raise ValueError(f"lesson must be a notebook path ending in .ipynb, got {lesson!r}")
        self.hub_url, self.name, self.token, self.lesson = hub_url, name, token, lesson
        self.server_pid_lookup = server_pid
        self.cell_timeout, self.move_timeout = cell_timeout, move_timeout
        self.result = LearnerResult(name=name, lesson=lesson)
        self.kernel: KernelConnection | None = None
        self.notebook: dict[str, Any] | None = None
        self.session_id = self.kernel_id = ""
        self.server_pid: int | None = None
        self.kernel_pid: int | None = None
        self.executed: dict[int, tuple[int | None, list[Any]]] = {}

    # HTTP through the proxy, with the learner's own token
    async def call(
        self, method: str, path: str, body: Any = None, timeout: float = 120
    ) -> tuple[int, Any]:
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        request = HTTPRequest(
            self.hub_url + path,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
            body=None if body is None else json.dumps(body),
            allow_nonstandard_methods=True,
            request_timeout=timeout,
        )
        response = await AsyncHTTPClient().fetch(request, raise_error=False)
        if response.code == 599:  # no HTTP answer at all (timeout, refused)
            raise LearnerError(f"{method} {path}: {response.error}")
        text = response.body.decode(errors="replace") if response.body else ""
        try:
            return response.code, json.loads(text) if text else None
        except json.JSONDecodeError:
            return response.code, text

    def user_path(self, api: str) -> str:
        return f"/user/{quote(self.name)}/api/{api}"

    async def start_server(self, timeout: float = 600) -> None:
        """Start the learner's server through the hub and wait until it answers via the proxy."""
        started = time.perf_counter()
        status, body = await self.call("POST", f"/hub/api/users/{quote(self.name)}/server")
        if status not in (201, 202, 400):  # 400: already running
            raise LearnerError(f"starting the server: {status} {body}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, body = await self.call("GET", f"/hub/api/users/{quote(self.name)}")
            server = (body or {}).get("servers", {}).get("") if status == 200 else None
            if server and server.get("ready"):
                status, _ = await self.call("GET", self.user_path("status"))
                if status == 200:
                    self.result.spawn_s = time.perf_counter() - started
                    if self.server_pid_lookup is not None:
                        self.server_pid = await asyncio.to_thread(self.server_pid_lookup, self.name)
                    return
            await asyncio.sleep(0.5)
        raise LearnerError(f"the server was not ready within {timeout} s")

    async def open_lesson(self) -> None:
        """What opening the notebook in JupyterLab does: read it, start a session (a kernel in
        the notebook's folder), connect to its channels and wait for kernel_info."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        status, body = await self.call("GET", self.user_path(f"contents/{quote(self.lesson)}"))
        if status != 200:
            raise LearnerError(f"reading {self.lesson}: {status} {body}")
        self.notebook = body["content"]
        self.result.code_cells = sum(c["cell_type"] == "code" for c in self.notebook["cells"])
        session = {
            "path": self.lesson,
            "name": self.lesson.rsplit("/", 1)[-1],
            "type": "notebook",
            "kernel": {"name": "python3"},
        }
        status, body = await self.call("POST", self.user_path("sessions"), session)
        if status != 201:
            raise LearnerError(f"starting a session for {self.lesson}: {status} {body}")
        self.session_id, self.kernel_id = body["id"], body["kernel"]["id"]
        client_session = uuid.uuid4().hex
        url = self.hub_url.replace("http", "ws", 1) + self.user_path(
            f"kernels/{self.kernel_id}/channels?session_id={client_session}"
        )
        socket = await websocket_connect(
            HTTPRequest(url, headers={"Authorization": f"token {self.token}"}),
            max_message_size=256 * 1024**2,
        )
        self.kernel = KernelConnection(socket, client_session, self.name)
        await self.kernel.request("kernel_info_request", {}, timeout=self.cell_timeout)
        if self.server_pid is not None:  # found once: a restarted kernel keeps its id, not its pid
            self.kernel_pid = kernel_pid(self.server_pid, self.kernel_id)

    async def run_all(self) -> None:
        """Every code cell in order, each after the previous one replied; stops at the first
        error, as Run All does. Records the wall time from the first request to the last reply."""
        if self.kernel is None or self.notebook is None:
            raise LearnerError("run_all needs the lesson open (open_lesson first)")
        started, times = time.perf_counter(), []
        for index, cell in enumerate(self.notebook["cells"]):
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            content = {"code": source, "silent": False, "store_history": True,
                       "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}  # fmt: skip
            cell_start = time.perf_counter()
            exchange = await self.kernel.request("execute_request", content, self.cell_timeout)
            times.append((index, first_line(source), time.perf_counter() - cell_start))
            self.executed[index] = (
                (exchange.reply or {}).get("execution_count"),
                outputs_of(exchange),
            )
            self.result.cells_run += 1
            errors, stderr = problems_of(exchange)
            self.result.errors += [f"cell {index} ({first_line(source)!r}): {e}" for e in errors]
            self.result.stderr += [f"cell {index}: {text}" for text in stderr]
            # stderr is a problem here as in a move: the lessons are committed with none (a warning
            # under load is a finding); only an error stops Run All, as in JupyterLab
            self.result.errors += [f"cell {index} wrote to stderr: {text}" for text in stderr]
            if errors:
                break
        self.result.run_all_s = time.perf_counter() - started
        self.result.kernel_cpu_s = kernel_cpu_seconds(self.kernel_pid)  # what classroom.py divides
        self.result.slowest_cells = sorted(times, key=lambda t: t[2], reverse=True)[:3]

    async def move_controls(self, moves_per_control: int = 2, max_moves: int | None = None) -> None:
        """Move every control of every live demo ``moves_per_control`` times (at most
        ``max_moves`` moves in all) and time each until the kernel is idle again for it."""
        if self.kernel is None:
            raise LearnerError("move_controls needs the lesson open (open_lesson first)")
        controls = demo_controls(self.kernel.widgets)
        if not controls:
            self.result.errors.append("no live demo control found after Run All")
            return
        for control in controls:
            for target in move_targets(control.index, len(control.labels), moves_per_control):
                if max_moves is not None and len(self.result.moves) >= max_moves:
                    return
                self.result.moves.append(await self.move(control, target))

    async def move(self, control: DemoControl, target: int) -> Move:
        """One move: the update a widget view sends, then what the demo answered."""
        if self.kernel is None:
            raise LearnerError("move needs the lesson open (open_lesson first)")
        data = {"method": "update", "state": {"index": target}, "buffer_paths": []}
        value = control.labels[target]
        started = time.perf_counter()
        try:
            exchange = await self.kernel.request(
                "comm_msg",
                {"comm_id": control.comm_id, "data": data},
                self.move_timeout,
                needs_reply=False,
            )
        except TimeoutError:
            return Move(control.demo, control.name, value, None, "no reply in time")
        reply_s = time.perf_counter() - started
        return Move(control.demo, control.name, value, reply_s, move_problem(exchange, control))

    async def save(self) -> None:
        """Save the notebook with its outputs through the contents API, as Ctrl+S does, and
        check that it reads back with the lesson's cells (same types and sources, in order)."""
        if self.notebook is None:
            raise LearnerError("save needs the lesson open (open_lesson first)")
        saved = json.loads(json.dumps(self.notebook))
        for index, (count, outputs) in self.executed.items():
            saved["cells"][index]["execution_count"] = count
            saved["cells"][index]["outputs"] = outputs
        path = self.user_path(f"contents/{quote(self.lesson)}")
        status, body = await self.call(
            "PUT", path, {"type": "notebook", "format": "json", "content": saved}
        )
        if status not in (200, 201):
            raise LearnerError(f"saving {self.lesson}: {status} {body}")
        status, body = await self.call("GET", path)
        if status != 200:
            raise LearnerError(f"reading back {self.lesson}: {status} {body}")
        problem = readback_problem(self.notebook, body["content"], self.executed)
        self.result.saved_intact = not problem
        if problem:
            self.result.errors.append(f"saved notebook: {problem}")

    def read_peaks(self) -> None:
        """The kernel's and the server's peak memory (VmHWM), read before the kernel stops."""
        if self.server_pid is None:
            return
        self.result.server_peak_bytes = high_water_mark(self.server_pid)
        if self.kernel_pid is not None:  # None once that process is gone (a dead kernel)
            self.result.kernel_peak_bytes = high_water_mark(self.kernel_pid)

    async def close(self) -> None:
        """Close the lesson: end the session, which shuts its kernel down."""
        if self.kernel is not None:
            self.kernel.close()
        if self.session_id:
            await self.call("DELETE", self.user_path(f"sessions/{self.session_id}"))

    async def visit(self, go: asyncio.Event | None = None, delay_s: float = 0.0,
                    moves_per_control: int = 2, max_moves: int | None = None,
                    ready: Callable[[], None] | None = None) -> LearnerResult:  # fmt: skip
        """The whole visit, never raising: start the server, open the lesson, then (after
        ``ready()`` and ``go`` for a lockstep class, or ``delay_s`` for a staggered one) Run All,
        move the controls, save, close. A failure is recorded in the result."""
        announced = False
        try:
            await asyncio.sleep(delay_s)
            await self.start_server()
            await self.open_lesson()
            if ready is not None:
                announced = True
                ready()
            if go is not None:
                await go.wait()
            await self.run_all()
            if not self.result.errors:
                await self.move_controls(moves_per_control, max_moves)
            await self.save()
        except KernelDied as error:
            self.result.kernel_died = str(error)
            self.result.errors.append(f"kernel died: {error}")
        except Exception as error:  # noqa: BLE001 (under load: a proxy's 502, a closed socket, …)
            self.result.errors.append(f"{type(error).__name__}: {error}")
        finally:
            if ready is not None and not announced:
                ready()  # a learner that failed early never holds the others at the barrier
            self.read_peaks()
            try:
                await self.close()
            except Exception as error:  # noqa: BLE001 (recorded: the visit never raises)
                self.result.errors.append(f"closing the lesson: {type(error).__name__}: {error}")
        return self.result


def move_problem(exchange: Exchange, control: DemoControl) -> str:
    """'' when the demo answered a move cleanly: a new picture in its Image, no error output and
    no error in its status line; otherwise what went wrong."""
    errors, stderr = problems_of(exchange)
    if errors or stderr:
        return "; ".join(errors + stderr)[:500]
    pictures, status_error = 0, ""
    for msg in exchange.messages:
        content = msg["content"]
        if msg["header"]["msg_type"] != "comm_msg" or content["data"].get("method") != "update":
            continue
        if content["comm_id"] == control.image_id and (
            "value" in content["data"].get("state", {})
            or ["value"] in content["data"].get("buffer_paths", [])
        ):
            pictures += 1
        value = str(content["data"].get("state", {}).get("value", ""))
        if content["comm_id"] == control.status_id and ERROR_STYLE in value:
            status_error = value
    if status_error:
        return f"the demo's status shows an error: {status_error[:300]}"
    return "" if pictures else "no new picture was sent"


def readback_problem(
    lesson: dict[str, Any], saved: dict[str, Any], executed: dict[int, tuple]
) -> str:
    """'' when ``saved`` (read back) has the lesson's cells and the outputs that were saved."""

    def cells(notebook: dict[str, Any]) -> list[tuple[str, str]]:
        return [
            (c["cell_type"], "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for c in notebook["cells"]
        ]

    if cells(saved) != cells(lesson):
        return (
            f"its cells differ from the lesson's ({len(saved['cells'])} vs {len(lesson['cells'])})"
        )
    for index, (_, outputs) in executed.items():
        if len(saved["cells"][index].get("outputs", [])) != len(outputs):
            return f"cell {index} read back with {len(saved['cells'][index].get('outputs', []))} outputs, saved {len(outputs)}"
    return ""


def kernel_pid(server_pid: int, kernel_id: str) -> int | None:
    """The kernel among the server's descendants: its command line names its connection file,
    ``kernel-<kernel id>.json``."""
    import psutil

    try:
        children = psutil.Process(server_pid).children(recursive=True)
    except psutil.Error:
        return None
    for child in children:
        try:
            if any(kernel_id in part for part in child.cmdline()):
                return child.pid
        except psutil.Error:
            continue
    return None


def kernel_cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU seconds the process ``pid`` has used so far; None if it is gone."""
    import psutil

    if pid is None:
        return None
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return None
    return times.user + times.system
