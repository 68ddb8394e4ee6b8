"""Re-execute notebooks in place in a fresh kernel (``make notebooks``), so the outputs nbval
compares are the ones the current code prints."""

from __future__ import annotations

import sys
import time
from pathlib import Path


def execute_notebook(path: Path, timeout: int = 600) -> float:
    """Run every cell of ``path`` top to bottom in a fresh ``python3`` kernel; save; return seconds."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    for cell in notebook.cells:  # timestamps of an earlier run would only add noise to a diff
        cell.metadata.pop("execution", None)
    start = time.perf_counter()
    NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,  # no per-cell timestamps: a re-run changes only what it computes
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nbformat.write(notebook, path)
    return time.perf_counter() - start


def main(paths: list[str]) -> None:
    for name in paths:
        seconds = execute_notebook(Path(name))
        print(f"{name}: executed in {seconds:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
