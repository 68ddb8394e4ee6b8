"""How much each of the course's fragile numbers moves between machines, measured on one.

``python -m devtools.spread`` (``make spread``) runs every stored-vs-fresh comparison of the tests
(``quantities``) and every lesson (``notebooks``) once natively and once under each ``variant``: the
differences other CPUs make (one thread, MKL's generic path, ATen's scalar kernels) and
perturbations far larger than rounding (every input × (1 + 1e-7 ξ), the position table in
float64). It writes each quantity's spread to ``tests/spread.json``, from which the tests take their
tolerances (``record.tolerance``), and the table in ``docs/spread.md``.
"""
