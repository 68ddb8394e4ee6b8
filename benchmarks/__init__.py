"""How long a learner waits: notebook execution and slider renders, each beside its floor, timed
by pytest-benchmark (``make bench``; see README.md here), reported in ``RESULTS.md``."""
