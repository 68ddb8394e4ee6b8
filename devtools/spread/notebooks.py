"""Execute a lesson in a fresh kernel of this process's variant, and return what it printed."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STARTUP = "from devtools.spread.kernel import start\n\nstart()\n"


def run_lesson(path: Path, timeout: int = 900) -> dict:
    """Every code cell of ``path`` run top to bottom (errors recorded, not raised), in a kernel
    that applies this process's variant and records each printed number: {"records": [...],
    "text": {cell: text}, "errors": {cell: error name}}."""
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="ffn-spread-") as folder:
        startup = Path(folder, "ipython", "profile_default", "startup")
        startup.mkdir(parents=True)
        (startup / "00-spread.py").write_text(STARTUP, encoding="utf-8")
        record = Path(folder, "record.jsonl")
        record.touch()
        saved = {k: os.environ.get(k) for k in ("IPYTHONDIR", "PYTHONPATH", "FFN_SPREAD_RECORD")}
        os.environ["IPYTHONDIR"] = str(Path(folder, "ipython"))
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), saved["PYTHONPATH"]) if p)
        os.environ["FFN_SPREAD_RECORD"] = str(record)
        try:
            # IPC sockets in the temporary folder: two variants' kernels starting at once cannot
            # race for the same TCP port
            km = KernelManager(
                kernel_name="python3", transport="ipc", ip=str(Path(folder, "kernel"))
            )
            NotebookClient(notebook, km=km, timeout=timeout, allow_errors=True,
                           resources={"metadata": {"path": str(path.parent)}}).execute()  # fmt: skip
        finally:
            for key, value in saved.items():
                os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
        records = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    text, errors = {}, {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            shown = _text(output)
            if shown:
                text[cell.execution_count] = text.get(cell.execution_count, "") + shown
            elif output.output_type == "error":
                errors[cell.execution_count] = output.ename
    return {"records": records, "text": text, "errors": errors}


LIVE = re.compile(r"^(<Figure size|(VBox|HBox|Output|Dropdown|Image)\()")


def _text(output) -> str:
    """What a learner reads of an output: printed text, and Markdown or plain text a cell displays
    (a table), but not a figure's or a live widget's repr."""
    if output.output_type == "stream":
        return output.text if output.name == "stdout" else ""
    data = output.get("data", {})
    if "text/markdown" in data:
        return data["text/markdown"]
    plain = data.get("text/plain", "")
    return "" if LIVE.match(plain) else plain
