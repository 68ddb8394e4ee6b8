"""Test-session setup shared by the unit tests and nbval: keep Jupyter, IPython and matplotlib
from writing into the user's home directory."""

import os
import tempfile
from pathlib import Path

from course_lib.tools.lab import isolated_dirs

os.environ.update(isolated_dirs(Path(tempfile.mkdtemp(prefix="ffn-course-test-"))))
# A venv's kernelspec is found through sys.prefix, so moving JUPYTER_DATA_DIR loses nothing.
