"""Lesson 3's checkers pass the reference and reject each typical wrong answer with its hint."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.checks.regions import check_and_relu, check_edge_weights, check_or_relu
from course_lib.model.geometry import edge_half_plane
from course_lib.model.region_network import and_relu, or_relu


def _stub(*args):
    raise NotImplementedError


def test_edge_checker_passes_the_reference():
    assert check_edge_weights(edge_half_plane).status == "passed"


def test_edge_checker_reports_a_stub_as_not_attempted():
    assert check_edge_weights(_stub).status == "not attempted"


def _flipped(start, end, inner):
    w, b = edge_half_plane(start, end, inner)
    return -w, -b


def _unnormalised(start, end, inner):
    w, b = edge_half_plane(start, end, inner)
    scale = np.linalg.norm(np.subtract(end, start))
    return w * scale, b * scale


def _along_edge(start, end, inner):
    d = np.subtract(end, start)
    return d / np.linalg.norm(d), 0.0


def _no_offset(start, end, inner):
    w, _ = edge_half_plane(start, end, inner)
    return w, 0.0


def _left_normal_always(start, end, inner):  # ignores inside_point: wrong for one winding
    d = np.subtract(end, start) / np.linalg.norm(np.subtract(end, start))
    w = np.array([-d[1], d[0]])
    return w, -float(w @ start)


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_flipped, "OUTSIDE"),
        (_left_normal_always, "OUTSIDE"),
        (_unnormalised, "edge's length"),
        (_along_edge, "perpendicular"),
        (_no_offset, "b = -w · start"),
        (lambda s, e, i: None, "None"),
    ],
)
def test_edge_checker_rejects_typical_mistakes(fn, hint):
    result = check_edge_weights(fn)
    assert result.status == "failed"
    assert hint in result.message


def test_and_checker_passes_the_reference_and_rejects_mistakes():
    assert check_and_relu(and_relu).status == "passed"
    assert check_and_relu(_stub).status == "not attempted"
    for wrong, hint in [
        (lambda a, b: a + b - 1, "ReLU is missing"),
        (lambda a, b: torch.relu(a + b), "subtract 1"),
        (or_relu, "that is OR"),
        (lambda a, b: torch.relu(a + b - 2), "n - 1"),
        (lambda a, b: torch.stack([a, b]), "4 values"),
    ]:
        result = check_and_relu(wrong)
        assert result.status == "failed" and hint in result.message, result.message


def test_or_checker_passes_the_reference_and_rejects_mistakes():
    assert check_or_relu(or_relu).status == "passed"
    assert check_or_relu(_stub).status == "not attempted"
    for wrong, hint in [
        (lambda a, b: torch.relu(a + b), "clip the sum"),
        (and_relu, "that is AND"),
        (lambda a, b: torch.relu(1 - a - b), "NOR"),
        (lambda a, b: a + b - 2 * and_relu(a, b), "XOR"),
        (lambda a, b: a * 0 + 0.5, "expected"),
    ]:
        result = check_or_relu(wrong)
        assert result.status == "failed" and hint in result.message, result.message
