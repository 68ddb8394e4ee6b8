"""Test-session setup shared by the unit tests and nbval: keep Jupyter, IPython and matplotlib
from writing into the user's home directory."""

import os
import tempfile

_home = tempfile.mkdtemp(prefix="ffn-course-test-")
for variable, folder in {
    "JUPYTER_RUNTIME_DIR": "jupyter-runtime",
    "JUPYTER_CONFIG_DIR": "jupyter-config",
    "JUPYTER_DATA_DIR": "jupyter-data",
    "IPYTHONDIR": "ipython",
    "MPLCONFIGDIR": "matplotlib",
}.items():
    os.environ[variable] = os.path.join(_home, folder)
    os.makedirs(os.environ[variable], exist_ok=True)
# A venv's kernelspec is found through sys.prefix, so moving JUPYTER_DATA_DIR loses nothing.
