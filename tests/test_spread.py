"""The measured spread (make spread: devtools/spread) is current, complete and respected: every
stored-vs-fresh comparison and every lesson was measured under every variant, no printed number or
claim changes under any of them, the table in docs/spread.md is the measurement's, and the pieces
that measure do what they say (the perturbations perturb, a margin is a margin)."""

from __future__ import annotations

import ast
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from devtools.spread import record
from devtools.spread.kernel import printed_numbers
from devtools.spread.notebooks import _text
from devtools.spread.quantities import QUANTITIES
from devtools.spread.table import survives, table_lines
from devtools.spread.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
SPREAD = record.measured()


def test_every_variant_was_measured_and_the_reference_first():
    assert SPREAD["variants"] == [v.name for v in VARIANTS]


def test_every_comparison_of_a_fresh_run_with_a_stored_file_was_measured():
    assert set(SPREAD["quantities"]) == {q.name for q in QUANTITIES}
    for quantity in QUANTITIES:
        measured = SPREAD["quantities"][quantity.name]
        assert set(measured) == set(quantity.stored()), quantity.name
        for entry in measured.values():
            assert set(entry["by variant"]) == set(SPREAD["variants"][1:])


LESSONS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("[0-9]*.ipynb"))


def test_every_lesson_was_measured():
    assert sorted(SPREAD["notebooks"]) == LESSONS


@pytest.mark.parametrize("path", LESSONS)
def test_every_lesson_was_measured_as_committed(path):
    """The native run the spread was measured from printed what the committed lesson prints, cell
    for cell: a lesson changed since, or a stored file rebuilt, needs make spread again. One case
    per notebook, so a stale lesson fails its own case, not a new lesson's."""
    assert path in SPREAD["notebooks"], f"{path} was never measured: make spread"
    notebook = nbformat.read(ROOT / path, as_version=4)
    committed = {}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            text = "".join(_text(output) for output in cell.outputs)
            if text:
                committed[str(cell.execution_count)] = hashlib.sha1(text.encode()).hexdigest()
    assert SPREAD["notebooks"][path]["text"] == committed, f"{path}: make spread again"


@pytest.mark.parametrize("path", sorted(SPREAD["notebooks"]))
def test_no_variant_changes_what_a_lesson_prints_or_concludes(path):
    lesson = SPREAD["notebooks"][path]
    assert lesson["text changed under"] == [], "printed text differs under a variant"
    assert [n for n in lesson["numbers"] if n["text changed under"]] == []
    assert [c for c in lesson["claims"] if c["fails under"] or not c["holds"]] == []
    assert lesson["diverged"] == [] and lesson["errors"] == {} and lesson["variant errors"] == {}


@pytest.mark.parametrize("path", sorted(SPREAD["notebooks"]))
def test_every_printed_number_sits_further_from_its_rounding_than_it_moves(path):
    """A number keeps its digits when nothing moved it, or when the nearest value that would
    print otherwise is more than FACTOR times its spread away."""
    fragile = [
        (n["cell"], n["field"], n["text"], n["spread"], n["margin"])
        for n in SPREAD["notebooks"][path]["numbers"]
        if n["spread"] > 0
        and n["margin"] is not None
        and not n["margin"] > record.FACTOR * n["spread"]
    ]
    assert fragile == []


def test_every_stored_number_a_lesson_prints_keeps_its_digits_under_a_rebuild():
    fragile = [(q, k, shown["text"], e["spread"], shown["margin"])
               for q, keys in SPREAD["quantities"].items() for k, e in keys.items()
               for shown in e.get("printed", []) if not survives(e, shown)]  # fmt: skip
    assert fragile == []


def test_the_table_is_the_measurements():
    assert record.TABLE_FILE.read_text(encoding="utf-8") == "\n".join(table_lines(SPREAD)) + "\n"


# ---- fresh-run tests: each states its tolerance from the spread, with the figure


def _comparisons() -> dict[str, tuple[str, str]]:
    """{quantity name: (test file, test function)} for every test that calls check_fresh_run and
    names the quantity (in the call or in its parametrize list)."""
    names = {q.name for q in QUANTITIES}
    found = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)
                     and getattr(n.func, "id", getattr(n.func, "attr", None)) == "check_fresh_run"]  # fmt: skip
            if not calls:
                continue
            literals = {n.value for d in [function, *function.decorator_list] for n in ast.walk(d)
                        if isinstance(n, ast.Constant) and n.value in names}  # fmt: skip
            for name in literals:
                found[name] = (str(path.relative_to(ROOT)), function.name)
    return found


def test_every_measured_comparison_has_a_test_whose_docstring_quotes_its_spread():
    comparisons = _comparisons()  # a whole table's rebuild is measured, a slice of it tested
    assert set(comparisons) == {q.name for q in QUANTITIES if not q.whole_rebuild}
    for quantity, (path, name) in comparisons.items():
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        (function,) = [
            f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == name
        ]
        doc = " ".join((ast.get_docstring(function) or "").split())
        figure = f"{record.largest_spread(quantity):.1e}"
        if record.largest_spread(quantity) == 0:  # counts only: exactly their spread
            assert "moved under no variant" in doc, (path, name)
        else:
            assert figure in doc and f"{record.FACTOR} ×" in doc, (path, name, figure)


# ---- the pieces


def test_a_count_is_allowed_its_spread_and_a_value_ten_times_its_spread(monkeypatch):
    fake = {"quantities": {"q": {"loss": {"spread": 2e-9, "discrete": False},
                                 "accuracy": {"spread": 0.0005, "discrete": True}}}}  # fmt: skip
    monkeypatch.setattr(record, "measured", lambda: fake)
    assert record.tolerance("q", "loss") == pytest.approx(2e-8)
    assert record.tolerance("q", "accuracy") == 0.0005 + record.COUNT_SLACK
    assert record.largest_spread("q") == 2e-9
    record.assert_within_spread(
        "q", {"loss": 1.0 + 1e-8, "accuracy": 0.5}, {"loss": 1.0, "accuracy": 0.5}
    )
    with pytest.raises(AssertionError, match=r"q / loss: .* differ by 3e-08"):
        record.assert_within_spread(
            "q", {"loss": 1.0 + 3e-8, "accuracy": 0.5}, {"loss": 1.0, "accuracy": 0.5}
        )
    with pytest.raises(AssertionError, match="accuracy"):
        record.assert_within_spread(
            "q", {"loss": 1.0, "accuracy": 0.501}, {"loss": 1.0, "accuracy": 0.5}
        )


def test_a_measure_that_does_not_apply_in_both_runs_is_no_difference(monkeypatch):
    """NaN in both (an edit's filler loss where it was not read) passes; NaN against a number
    fails, as the spread counts them."""
    fake = {"quantities": {"q": {"loss": {"spread": 1e-9, "discrete": False}}}}
    monkeypatch.setattr(record, "measured", lambda: fake)
    nan = float("nan")
    record.assert_within_spread("q", {"loss": [1.0, nan]}, {"loss": [1.0, nan]})
    with pytest.raises(AssertionError, match="differ by inf"):
        record.assert_within_spread("q", {"loss": [1.0, 2.0]}, {"loss": [1.0, nan]})


@pytest.mark.parametrize(
    ("value", "spec", "margin"),
    [(0.6349, ".2f", 0.0001), (0.63, ".2f", 0.005), (-0.4436, ".0%", 0.0014), (2.0, "+.1f", 0.05),
     (1234.5, ".3g", 0.5), (0.00731, ".1e", 0.00004), (7, "d", None), (0.5, "", None)],
)  # fmt: skip
def test_the_rounding_margin_is_the_distance_to_the_next_printed_value(value, spec, margin):
    got = record.rounding_margin(value, spec)
    assert got == margin if margin is None else got == pytest.approx(margin, abs=1e-12)
    if margin is not None:  # a step of the margin, and a little more, prints something else
        moved = {format(value + sign * 1.01 * margin, spec) for sign in (1, -1)}
        assert moved != {format(value, spec)}


def test_the_printed_numbers_of_a_template_are_its_numeric_fields_with_their_formats():
    class R:
        hits, control = 28, 12.04

    found = printed_numbers("{r.hits} of 48 (control {r.control:.1f}), {name}: {p[1]:+.0%}",
                            {"r": R, "name": "x", "p": (0.1, -0.44)})  # fmt: skip
    assert [(n["field"], n["spec"], n["text"]) for n in found] == [
        ("r.hits", "", "28"),
        ("r.control", ".1f", "12.0"),
        ("p[1]", "+.0%", "-44%"),
    ]


PERTURBED = """
import json, torch
from devtools.spread.variants import apply, variant_named
from course_lib.core.experiments.memory import stored_model
from course_lib.core.experiments.tasks import make_task
from course_lib.core.model import transformer
model, _ = stored_model()
ids = torch.arange(model.embed.vocab_size)[None]
before = (model.embed.lut.weight * model.d_model ** 0.5).detach()
torch.set_default_dtype(torch.float64)  # as the experiments build their models
points, table = make_task("xor", 50).X.clone(), transformer.sinusoidal_table(12, 64)
apply(variant_named({name!r}))
with torch.no_grad():
    after = model.embed(ids)[0]
print(json.dumps({{
    "embeddings": float(((after - before) / before).abs().max()),
    "points": float(((make_task.__wrapped__("xor", 50).X - points) / points).abs().max()),
    "table": float((transformer.sinusoidal_table(12, 64) - table).abs().max()),
    "table dtype": str(transformer.sinusoidal_table(12, 64).dtype),
}}))
"""


def _perturbation(name: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PERTURBED.format(name=name)], cwd=ROOT,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(done.stdout)


def test_an_inputs_variant_moves_the_embeddings_by_1e_7_and_the_points_by_1e_13():
    moved = _perturbation("inputs 1")
    assert 1e-7 < moved["embeddings"] < 1e-6 and 1e-13 < moved["points"] < 1e-12
    assert moved["table"] == 0


def test_the_float64_position_table_differs_from_the_float32_one_by_its_rounding():
    moved = _perturbation("float64 positions")
    assert 1e-9 < moved["table"] < 1e-6 and moved["embeddings"] == 0 == moved["points"]
    assert moved["table dtype"] == "torch.float64"  # the default dtype, as before


def test_a_partial_measurement_keeps_the_others_and_drops_what_no_longer_exists(
    tmp_path, monkeypatch
):
    from devtools.spread import __main__ as spread_main

    kept, gone = QUANTITIES[0].name, "a quantity since removed"
    old = {
        "variants": ["native", "one thread"],
        "quantities": {kept: {"a": 1}, gone: {"b": 2}, QUANTITIES[1].name: {"c": 3}},
        "notebooks": {"notebooks/01_feed_forward.ipynb": {}, "notebooks/99_gone.ipynb": {}},
    }
    file = tmp_path / "spread.json"
    file.write_text(json.dumps(old), encoding="utf-8")
    monkeypatch.setattr(spread_main, "SPREAD_FILE", file)
    new = {
        "variants": ["native", "one thread"],
        "quantities": {QUANTITIES[1].name: {"c": 4}},
        "notebooks": {},
    }
    merged = spread_main.merged(new)
    assert merged["quantities"] == {kept: {"a": 1}, QUANTITIES[1].name: {"c": 4}}
    assert list(merged["notebooks"]) == ["notebooks/01_feed_forward.ipynb"]
    assert spread_main.merged(new | {"variants": ["native"]}) == new | {"variants": ["native"]}


def test_the_recording_kernel_reads_a_table_shown_without_formats(tmp_path, monkeypatch):
    """A lesson may call show_table without specs (text cells); the spread's recording wrapper
    must accept that call as the course's own show_table does, and record its numbers."""
    from course_lib.core import claims
    from devtools.spread import kernel

    for name in ("show", "claim", "show_table"):
        monkeypatch.setattr(claims, name, getattr(claims, name))  # restored after the test
    assert kernel.table_numbers([["a", 1.5]], None) == [
        {"field": "0,1", "spec": "", "value": 1.5, "text": "1.5"}
    ]
    record = tmp_path / "record.jsonl"
    kernel.install(str(record))
    claims.show_table(["name", "value"], [["a", 1.5]])
    (entry,) = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert entry["kind"] == "table" and entry["numbers"][0]["value"] == 1.5
