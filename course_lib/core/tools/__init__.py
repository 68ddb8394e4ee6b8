"""Developer tooling: the JupyterLab launcher and the notebook executor. No lesson imports it."""
