"""Lesson 3's checkers pass the reference and reject each typical wrong answer with its hint."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from course_lib.core.model.geometry import edge_half_plane
from course_lib.lessons.l03_triangle_regions.checks import (
    check_and_relu,
    check_edge_weights,
    check_or_relu,
    check_outside_prediction,
    check_polygon_detector,
)
from course_lib.lessons.l03_triangle_regions.experiments.region_network import (
    and_relu,
    or_relu,
    six_unit_network,
)


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


# --- exercise 4: predict the six-unit network's output --------------------------------------------


def test_prediction_checker_passes_the_right_numbers_and_reports_a_stub():
    result = check_outside_prediction(lambda: (1 - 5 * 0.1, 1 - 20 * 0.1, 1 / 20))
    assert result.status == "passed", result.message
    assert check_outside_prediction(_stub).status == "not attempted"


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        ((0.9, 0.9, 0.05), "you forgot k"),
        ((1.0, 1.0, 0.05), "outside edge f1"),
        ((1.5, 3.0, 0.05), "instead of subtracting"),
        ((0.5, 0.0, 0.05), "membership after the output ReLU"),
        ((0.5, -1.0, 20), "1/k wide, not k"),
        ((0.5, -1.0, 0.1), "d = 1/20"),
        ((0.4, -1.0, 0.05), "1 - k · 0.1"),
        ((0.5, -1.0), "three numbers"),
        (None, "None"),
    ],
)
def test_prediction_checker_rejects_typical_mistakes(answer, hint):
    result = check_outside_prediction(lambda: answer)
    assert result.status == "failed" and hint in result.message, result.message


# --- exercise 5: a polygon detector built by hand -------------------------------------------------


def _reference_detector(polygon, k):
    net = six_unit_network([polygon], k)
    return tuple(t.numpy().copy() for t in (net.W1, net.b1, net.W2, net.b2))


def _learner_detector(polygon, k):
    """As a learner writes it: edge by edge with edge_half_plane, k in W1, W2 a flat vector."""
    centre = polygon.mean(axis=0)
    rows = [
        edge_half_plane(a, b, centre)
        for a, b in zip(polygon, np.roll(polygon, -1, axis=0), strict=True)
    ]
    W1 = -k * np.array([w for w, _ in rows]).T
    b1 = -k * np.array([b for _, b in rows])
    return W1, b1, -np.ones(len(polygon)), np.array([1.0])


def _edited(edit):
    def detector(polygon, k):
        W1, b1, W2, b2 = _reference_detector(polygon, k)
        return edit(W1, b1, W2, b2, k, polygon)

    return detector


def _edge_lengths(polygon):
    return np.linalg.norm(np.roll(polygon, -1, axis=0) - polygon, axis=1)


def test_detector_checker_passes_the_reference_and_a_learners_equivalent_weights():
    assert check_polygon_detector(_reference_detector).status == "passed"
    assert check_polygon_detector(_learner_detector).status == "passed"
    assert check_polygon_detector(_stub).status == "not attempted"


@pytest.mark.parametrize(
    ("edit", "hint"),
    [
        (lambda W1, b1, W2, b2, k, p: (-W1, -b1, W2, b2), "normals point outward"),
        (lambda W1, b1, W2, b2, k, p: (W1, b1, W2 / k, b2), "missing k"),
        (lambda W1, b1, W2, b2, k, p: (W1, b1, W2, 0 * b2), "missing the 1"),
        (lambda W1, b1, W2, b2, k, p: (W1, b1, -W2, b2), "wrong sign"),
        (
            lambda W1, b1, W2, b2, k, p: (W1 * _edge_lengths(p), b1 * _edge_lengths(p), W2, b2),
            "length 1",
        ),
        (lambda W1, b1, W2, b2, k, p: (W1.T, b1, W2, b2), "one column per edge"),
        (lambda W1, b1, W2, b2, k, p: (W1, b1[:-1], W2, b2), "b1 and W2 need"),
        (lambda W1, b1, W2, b2, k, p: (W1, b1, 2 * W2, b2), "not 1 - k"),
        (lambda W1, b1, W2, b2, k, p: (W1, b1 + 0.3, W2, b2), "disagrees with the geometric"),
        (lambda W1, b1, W2, b2, k, p: None, "None"),
    ],
)
def test_detector_checker_rejects_typical_mistakes(edit, hint):
    result = check_polygon_detector(_edited(edit))
    assert result.status == "failed" and hint in result.message, result.message
