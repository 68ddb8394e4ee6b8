"""Every quantity a test compares between a fresh run and a stored file: what the test computes
now (``fresh``) and what the file holds (``stored``), as named arrays. Each lesson lists its own in
``lessons/lNN_topic/spread.py``, found by the core's discovery as its demos are: this module only
collects them, and imports no lesson by name.

The tests call these same functions, so the spread ``python -m devtools.spread`` measures is the
spread of exactly what each test compares (``devtools.spread.record.tolerance``).
"""

from __future__ import annotations

from course_lib.core.discovery import lesson_modules

QUANTITIES = tuple(q for module in lesson_modules("spread").values() for q in module.QUANTITIES)
BY_NAME = {q.name: q for q in QUANTITIES}
if len(BY_NAME) != len(QUANTITIES):
    raise ValueError("two fresh-run quantities share a name")
