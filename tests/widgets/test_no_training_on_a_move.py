"""No demo trains a network or edits a model when a control moves: what each value shows comes
from stored results or a quick computation. Checked in a fresh interpreter, where nothing is cached
yet, with the course's one trainer (``experiments.training.adam_steps``) and lesson 6's edits (the
rank-one edit, knowledge neurons, fine-tuning) made to refuse: every value of every control of every
demo is asked for once. The same probe, with the width demo's stored runs hidden,
must name that demo, so a demo that trains cannot pass unseen."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from course_lib.core.experiments import stored_runs, training

def refuse(*args, **kwargs):
    raise RuntimeError("trained on a move")

training.adam_steps = refuse  # before any demo module imports it by name
from course_lib.core.experiments import fact_edits

for name in ("target_value", "rank_one_update", "with_change"):
    setattr(fact_edits, name, refuse)
from course_lib.lessons.l06_locating_and_editing.experiments import editing

for name in ("rank_one_edit", "neuron_edit", "fine_tune_edit", "rank_one_update_for"):
    setattr(editing, name, refuse)
from course_lib.core.widgets import all_demos

def trained(demos):
    found = []
    for demo in demos:
        demo.clear_cache()
        for values in demo.one_at_a_time():
            try:
                demo.data(**values)
            except RuntimeError as error:
                if str(error) != "trained on a move":
                    raise
                found.append([demo.name, {k: repr(v) for k, v in values.items()}])
    return found

demos = all_demos()
as_shipped = trained(demos)
stored_runs._load.cache_clear()
stored_runs._load = lambda path: {}  # the width demo's runs, hidden
width = [demo for demo in demos if demo.name == "width"]
print(json.dumps({"as shipped": as_shipped, "runs hidden": trained(width)}))
"""


def test_no_demo_trains_or_edits_when_a_control_moves():
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["as shipped"] == []
    hidden = found["runs hidden"]
    assert {name for name, _ in hidden} == {"width"} and len(hidden) >= 2, hidden
