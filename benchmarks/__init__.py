"""How long a learner waits: notebook execution and slider renders, each beside its floor.

``python benchmarks/run.py`` (``make bench``) writes ``RESULTS.md`` and ``results.json`` here.
"""
