"""The classroom harness: a real JupyterHub and simulated learners (README.md)."""
