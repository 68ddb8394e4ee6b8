"""The hand-built polygon network equals the geometric oracle outside the 1/sharpness bands."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from course_lib.core.model.geometry import (
    TRIANGLE_F,
    TRIANGLE_G,
    grid,
    half_planes,
    inside,
    signed_distances,
)
from course_lib.lessons.l03_triangle_regions.experiments.region_network import (
    NETWORKS,
    LogicLayer,
    PolygonNetwork,
    SixUnitNetwork,
    and_relu,
    evaluate,
    exactness,
    feature_maps,
    ffn_2d,
    logic_network,
    memberships,
    or_relu,
    polygon_network,
    relu_step,
    six_unit_network,
    union_network,
)

A = torch.tensor([0.0, 0.0, 1.0, 1.0])
B = torch.tensor([0.0, 1.0, 0.0, 1.0])


@st.composite
def convex_polygons(draw):
    """Vertices on a circle at distinct angles are in convex position; random winding."""
    n = draw(st.integers(3, 9))
    gaps = np.array(draw(st.lists(st.floats(0.2, 1.0), min_size=n, max_size=n)))
    angles = draw(st.floats(0, 2 * np.pi)) + 2 * np.pi * np.cumsum(gaps) / gaps.sum()
    radius = draw(st.floats(0.2, 1.0))
    centre = np.array([draw(st.floats(-0.5, 0.5)), draw(st.floats(-0.5, 0.5))])
    polygon = centre + radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return polygon[::-1].copy() if draw(st.booleans()) else polygon


@settings(max_examples=60, deadline=None)
@given(
    polygon=convex_polygons(),
    sharpness=st.floats(1.0, 1000.0),
    seed=st.integers(0, 2**16),
)
def test_network_equals_oracle_outside_the_bands(polygon, sharpness, seed):
    points = np.random.default_rng(seed).uniform(-1.6, 1.6, size=(400, 2))
    output = evaluate(polygon_network([polygon], sharpness), points)[:, 0]
    distance = signed_distances(polygon, points).min(axis=1)
    clear = (distance < -1e-9) | (distance > 1 / sharpness + 1e-9)
    oracle = inside(polygon, points).astype(float)
    np.testing.assert_allclose(output[clear], oracle[clear], atol=1e-9)
    assert np.all((output >= 0) & (output <= 1 + 1e-9))


@settings(max_examples=25, deadline=None)
@given(polygons=st.lists(convex_polygons(), min_size=2, max_size=3), seed=st.integers(0, 2**16))
def test_every_output_column_equals_its_own_polygons_oracle(polygons, seed):
    points = np.random.default_rng(seed).uniform(-1.6, 1.6, size=(300, 2))
    output = evaluate(polygon_network(polygons, 200.0), points)
    for column, polygon in enumerate(polygons):
        distance = signed_distances(polygon, points).min(axis=1)
        clear = (distance < -1e-9) | (distance > 1 / 200.0 + 1e-9)
        oracle = inside(polygon, points)[clear].astype(float)
        np.testing.assert_allclose(output[clear, column], oracle, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(polygon=convex_polygons(), vertex=st.integers(0, 8), depth=st.floats(0.1, 0.9))
def test_a_dented_polygon_is_rejected_as_non_convex(polygon, vertex, depth):
    """Push one vertex past the chord of its neighbours: the outline turns the other way there
    (a dented triangle is still a triangle, so at least 4 vertices)."""
    assume(len(polygon) >= 4)
    n = len(polygon)
    i = vertex % n
    chord_mid = (polygon[i - 1] + polygon[(i + 1) % n]) / 2
    dented = polygon.copy()
    dented[i] = chord_mid + depth * (chord_mid - polygon[i])  # past the chord, into the polygon
    assume(inside(polygon, dented[i : i + 1])[0])  # still a simple outline, now with a dent
    with pytest.raises(ValueError, match="convex|collinear"):
        polygon_network([dented], 10)


@settings(max_examples=20, deadline=None)
@given(sharpness=st.one_of(st.floats(max_value=0.0), st.just(float("nan")), st.just(float("inf"))))
def test_non_positive_or_non_finite_sharpness_is_rejected(sharpness):
    with pytest.raises(ValueError, match="sharpness must be a finite number > 0"):
        polygon_network([TRIANGLE_F], sharpness)


def test_network_has_one_feature_pair_per_edge_and_one_output_per_polygon():
    net = polygon_network([TRIANGLE_F, TRIANGLE_G, TRIANGLE_F[::-1]], sharpness=10)
    assert net.edges.weight.shape == (18, 2)
    assert net.and_layer.weight.shape == (3, 18)
    assert evaluate(net, np.zeros((5, 2))).shape == (5, 3)


def test_first_layer_rows_are_sharpness_times_unit_normals():
    net = polygon_network([TRIANGLE_F], sharpness=7)
    norms = net.edges.weight.norm(dim=1)
    torch.testing.assert_close(norms, torch.full((6,), 7.0, dtype=torch.float64))
    torch.testing.assert_close(net.edges.bias[1::2], net.edges.bias[0::2] - 1)


def test_and_layer_bias_is_minus_n_minus_one():
    net = polygon_network([TRIANGLE_F, np.array([[0, 0], [1, 0], [1, 1], [0, 1.0]])], sharpness=5)
    torch.testing.assert_close(net.and_layer.bias, torch.tensor([-2.0, -3.0], dtype=torch.float64))


def test_features_are_ones_deep_inside_and_zero_outside():
    net = polygon_network([TRIANGLE_F], sharpness=50)
    centre = TRIANGLE_F.mean(axis=0, keepdims=True)
    far_away = np.array([[5.0, 5.0]])
    assert net.features(torch.tensor(centre)).tolist() == [[1.0, 1.0, 1.0]]
    assert 0.0 in net.features(torch.tensor(far_away))[0].tolist()


def test_relu_step_is_zero_ramp_one():
    z = torch.tensor([-1.0, 0.0, 0.05, 0.1, 2.0])
    torch.testing.assert_close(relu_step(z, 10), torch.tensor([0.0, 0.0, 0.5, 1.0, 1.0]))


def test_relu_step_rejects_non_positive_sharpness():
    with pytest.raises(ValueError, match="sharpness"):
        relu_step(torch.zeros(2), 0)


def test_and_and_or_truth_tables():
    assert and_relu(A, B).tolist() == [0.0, 0.0, 0.0, 1.0]
    assert or_relu(A, B).tolist() == [0.0, 1.0, 1.0, 1.0]


def test_logic_layer_gives_overlap_union_xor():
    out = LogicLayer()(torch.stack([A, B], dim=1).double())
    assert out.T.tolist() == [[0, 0, 0, 1], [0, 1, 1, 1], [0, 1, 1, 0]]


def test_logic_network_matches_set_operations_of_the_oracle():
    points = np.random.default_rng(1).uniform(-1, 1, size=(3000, 2))
    out = evaluate(logic_network(TRIANGLE_F, TRIANGLE_G, sharpness=1e6), points) > 0.5
    f, g = inside(TRIANGLE_F, points), inside(TRIANGLE_G, points)
    assert np.mean(out[:, 0] == (f & g)) > 0.999
    assert np.mean(out[:, 1] == (f | g)) > 0.999
    assert np.mean(out[:, 2] == (f ^ g)) > 0.999


def test_union_network_covers_an_l_shape():
    pieces = [
        np.array([[0, 0], [2, 0], [2, 1], [0, 1.0]]),
        np.array([[0, 0], [1, 0], [1, 2], [0, 2.0]]),
    ]
    out = evaluate(union_network(pieces, 100), [[1.5, 0.5], [0.5, 1.5], [1.5, 1.5], [0.5, 0.5]])
    np.testing.assert_allclose(out[:, 0], [1, 1, 0, 1])


def test_feature_maps_shapes_and_extent():
    maps = feature_maps(polygon_network([TRIANGLE_F, TRIANGLE_G], 20), resolution=30, extent=1.0)
    assert maps["features"].shape == (30, 30, 6)
    assert maps["outputs"].shape == (30, 30, 2)
    net = polygon_network([TRIANGLE_F, TRIANGLE_G], 20)
    np.testing.assert_allclose(maps["outputs"].reshape(-1, 2), evaluate(net, grid(30)))


def test_exactness_is_perfect_outside_bands_and_bands_shrink():
    coarse = exactness([TRIANGLE_F, TRIANGLE_G], 5, n_points=20_000)
    sharp = exactness([TRIANGLE_F, TRIANGLE_G], 500, n_points=20_000)
    assert coarse["max_error_outside_band"] < 1e-12
    assert sharp["in_band"] < coarse["in_band"]
    assert sharp["agree"] >= coarse["agree"]


@pytest.mark.parametrize(
    ("polygons", "sharpness", "error", "message"),
    [
        ([], 10, ValueError, "at least one polygon"),
        ([np.array([[0, 0], [1, 1], [2, 2.0]])], 10, ValueError, "collinear"),
        ([np.array([[0, 0], [1, 0.0]])], 10, ValueError, "at least 3"),
        ([TRIANGLE_F], 0, ValueError, "sharpness"),
        ([TRIANGLE_F], -3.0, ValueError, "sharpness"),
        ([TRIANGLE_F], "sharp", TypeError, "sharpness"),
    ],
)
def test_polygon_network_rejects_bad_arguments(polygons, sharpness, error, message):
    with pytest.raises(error, match=message):
        polygon_network(polygons, sharpness)


@pytest.mark.parametrize("points", [np.zeros((4, 3)), np.zeros(4), torch.zeros(4, 3)])
def test_network_rejects_points_not_shaped_n_by_2(points):
    net = polygon_network([TRIANGLE_F], 10)
    with pytest.raises(ValueError, match=r"points must have shape \(N, 2\)"):
        net(points) if isinstance(points, torch.Tensor) else evaluate(net, points)


def test_network_is_a_module_with_no_trainable_parameters():
    net = polygon_network([TRIANGLE_G], 10)
    assert isinstance(net, PolygonNetwork) and isinstance(net, torch.nn.Module)
    assert not any(p.requires_grad for p in net.parameters())


# --- the six-unit network: one ReLU per edge ---------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    polygon=convex_polygons(),
    sharpness=st.floats(1.0, 1000.0),
    seed=st.integers(0, 2**16),
)
def test_six_unit_network_equals_oracle_outside_a_band_of_width_one_over_k(
    polygon, sharpness, seed
):
    points = np.random.default_rng(seed).uniform(-1.6, 1.6, size=(400, 2))
    net = six_unit_network([polygon], sharpness)
    member = memberships(net, points)[:, 0]
    distance = signed_distances(polygon, points).min(axis=1)  # < 0 outside, by the farthest edge
    clear = (distance > 1e-9) | (distance < -1 / sharpness - 1e-9)
    oracle = inside(polygon, points).astype(float)
    np.testing.assert_allclose(member[clear], oracle[clear], atol=1e-9)
    # the band lies outside: inside the polygon the output is exactly 1, whatever k
    np.testing.assert_allclose(evaluate(net, points)[distance > 1e-9, 0], 1.0, atol=1e-12)
    assert np.all((member >= 0) & (member <= 1 + 1e-12))


@settings(max_examples=40, deadline=None)
@given(polygon=convex_polygons(), sharpness=st.floats(0.5, 100.0), seed=st.integers(0, 2**16))
def test_six_unit_output_is_one_minus_k_times_the_distances_outside(polygon, sharpness, seed):
    points = np.random.default_rng(seed).uniform(-1.6, 1.6, size=(200, 2))
    outside_by = np.maximum(-signed_distances(polygon, points), 0)  # (N, n)
    expected = 1 - sharpness * outside_by.sum(axis=1)
    output = evaluate(six_unit_network([polygon], sharpness), points)[:, 0]
    np.testing.assert_allclose(output, expected, atol=1e-9)


def test_six_unit_weights_are_the_negated_half_planes_and_minus_k():
    net = six_unit_network([TRIANGLE_F, TRIANGLE_G], 20)
    assert isinstance(net, SixUnitNetwork) and NETWORKS["six-unit"] is six_unit_network
    shapes = [tuple(t.shape) for t in (net.W1, net.b1, net.W2, net.b2)]
    assert shapes == [(2, 6), (6,), (6, 2), (2,)]  # 2 -> 6 -> 2
    for row, triangle in enumerate((TRIANGLE_F, TRIANGLE_G)):
        normals, offsets = half_planes(triangle)
        units = slice(3 * row, 3 * row + 3)
        np.testing.assert_allclose(net.W1[:, units].numpy(), -normals.T)
        np.testing.assert_allclose(net.b1[units].numpy(), -offsets)
        np.testing.assert_array_equal(net.W2[units, row].numpy(), [-20.0] * 3)
        np.testing.assert_array_equal(net.W2[units, 1 - row].numpy(), [0.0] * 3)
    np.testing.assert_array_equal(net.b2.numpy(), [1.0, 1.0])
    assert not any(p.requires_grad for p in net.parameters())


def test_six_unit_forward_is_the_ffn_formula_with_its_own_weights():
    net = six_unit_network([TRIANGLE_G], 7)
    points = np.random.default_rng(1).uniform(-1, 1, size=(50, 2))
    by_hand = np.maximum(points @ net.W1.numpy() + net.b1.numpy(), 0) @ net.W2.numpy() + 1
    np.testing.assert_allclose(evaluate(net, points), by_hand, atol=1e-12)
    np.testing.assert_allclose(ffn_2d(points, net.W1, net.b1, net.W2, net.b2).numpy(), by_hand)


def test_six_unit_output_at_a_point_just_outside_one_edge():
    # (0, -0.7) is 0.1 below f's bottom edge y = -0.6 and inside its other two edges
    for k, expected in ((5, 0.5), (20, -1.0)):
        out = evaluate(six_unit_network([TRIANGLE_F], k), [[0.0, -0.7]])[0, 0]
        assert out == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("polygons", "sharpness", "error", "message"),
    [
        ([], 10, ValueError, "at least one polygon"),
        ([np.array([[0, 0], [1, 1], [2, 2.0]])], 10, ValueError, "collinear"),
        ([TRIANGLE_F], 0, ValueError, "sharpness"),
        ([TRIANGLE_F], float("inf"), ValueError, "sharpness"),
        ([TRIANGLE_F], "sharp", TypeError, "sharpness"),
    ],
)
def test_six_unit_network_rejects_bad_arguments(polygons, sharpness, error, message):
    with pytest.raises(error, match=message):
        six_unit_network(polygons, sharpness)


def test_exactness_of_the_six_unit_network_uses_its_outer_band():
    coarse = exactness([TRIANGLE_F, TRIANGLE_G], 5, n_points=20_000, network="six-unit")
    sharp = exactness([TRIANGLE_F, TRIANGLE_G], 500, n_points=20_000, network="six-unit")
    assert coarse["max_error_outside_band"] < 1e-12
    assert sharp["in_band"] < coarse["in_band"] and sharp["agree"] > coarse["agree"]
    with pytest.raises(ValueError, match=r"network must be one of .*, got 'wide'"):
        exactness([TRIANGLE_F], 5, network="wide")


def test_feature_maps_of_the_six_unit_network_are_distances_outside():
    net = six_unit_network([TRIANGLE_F], 5)
    maps = feature_maps(net, resolution=20)
    expected = np.maximum(-signed_distances(TRIANGLE_F, grid(20)), 0)
    np.testing.assert_allclose(maps["features"].reshape(-1, 3), expected, atol=1e-12)
    np.testing.assert_allclose(maps["outputs"].reshape(-1, 1), memberships(net, grid(20)))
