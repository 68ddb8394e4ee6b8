"""Lesson 3's figures draw the data they are given: images, outlines, lines, markers."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb

from course_lib.core.model.geometry import TRIANGLE_F, TRIANGLE_G, grid, regular_polygon
from course_lib.core.plots import COLORS, PALETTE
from course_lib.lessons.l03_triangle_regions.experiments.region_network import (
    evaluate,
    feature_maps,
    polygon_network,
)
from course_lib.lessons.l03_triangle_regions.figures import (
    CODE_RGB,
    LearnedLinesData,
    LearnedLinesView,
    NgonData,
    NgonView,
    TrianglesData,
    TrianglesView,
    code_image,
    feature_grid_figure,
    information_loss_figure,
    logic_figure,
    polygon_color,
    seed_picture_figure,
    union_figure,
    width_sweep_figure,
)


def closed(polygon: np.ndarray) -> np.ndarray:
    return np.vstack([polygon, polygon[:1]])


def line_xy(line) -> np.ndarray:
    return np.column_stack([line.get_xdata(), line.get_ydata()])


# --- colours ---------------------------------------------------------------------------------------


def test_triangle_f_and_g_take_their_concept_colours_and_further_polygons_the_palette():
    assert polygon_color(0) == COLORS["f"] and polygon_color(1) == COLORS["g"]
    assert [polygon_color(i) for i in range(len(PALETTE) + 1)] == [*PALETTE, PALETTE[0]]


def test_code_image_colours_each_output_by_its_code():
    in_f = np.array([[False, True], [False, True]])
    in_g = np.array([[False, False], [True, True]])
    np.testing.assert_array_equal(code_image(in_f, in_g), CODE_RGB[[[0, 1], [2, 3]]])
    assert len({tuple(row) for row in CODE_RGB}) == 4  # four outputs, four colours


# --- static figures --------------------------------------------------------------------------------


def test_seed_picture_labels_all_six_edges_at_their_midpoints_in_their_triangles_colour():
    fig = seed_picture_figure([TRIANGLE_F, TRIANGLE_G])
    texts = {t.get_text(): t for t in fig.axes[0].texts}
    assert sorted(texts) == ["f1", "f2", "f3", "g1", "g2", "g3"]
    np.testing.assert_allclose(texts["f1"].xy, (TRIANGLE_F[0] + TRIANGLE_F[1]) / 2)
    np.testing.assert_allclose(texts["g3"].xy, (TRIANGLE_G[2] + TRIANGLE_G[0]) / 2)
    assert to_rgb(texts["g2"].get_color()) == to_rgb(COLORS["g"])
    outlines = fig.axes[0].lines
    np.testing.assert_allclose(line_xy(outlines[0]), closed(TRIANGLE_F))
    np.testing.assert_allclose(line_xy(outlines[1]), closed(TRIANGLE_G))


def test_feature_grid_shows_every_feature_with_its_edge_then_each_and_output():
    maps = feature_maps(polygon_network([TRIANGLE_F, TRIANGLE_G], 20), resolution=20)
    fig = feature_grid_figure(maps, [TRIANGLE_F, TRIANGLE_G])
    axes = np.array(fig.axes).reshape(2, 4)
    for row, triangle in enumerate((TRIANGLE_F, TRIANGLE_G)):
        for i in range(3):
            image = axes[row, i].images[0].get_array()
            np.testing.assert_array_equal(image, maps["features"][:, :, 3 * row + i])
            edge = line_xy(axes[row, i].lines[-1])  # the feature's own edge, in colour
            np.testing.assert_allclose(edge, [triangle[i], triangle[(i + 1) % 3]])
        output = axes[row, 3].images[0].get_array()
        np.testing.assert_array_equal(output, maps["outputs"][:, :, row])


def test_feature_grid_rejects_maps_of_other_polygons():
    maps = feature_maps(polygon_network([TRIANGLE_F], 20), resolution=10)
    with pytest.raises(ValueError, match=r"maps\['features'\] must have one map per edge \(6\)"):
        feature_grid_figure(maps, [TRIANGLE_F, TRIANGLE_G])


def test_logic_figure_shows_each_output_with_both_outlines():
    outputs = np.random.default_rng(0).uniform(size=(10, 10, 3))
    fig = logic_figure(outputs, 1.0, [TRIANGLE_F, TRIANGLE_G])
    assert len(fig.axes) == 3
    for i, ax in enumerate(fig.axes):
        np.testing.assert_array_equal(ax.images[0].get_array(), outputs[:, :, i])
        np.testing.assert_allclose(line_xy(ax.lines[1]), closed(TRIANGLE_G))


def test_logic_figure_rejects_outputs_without_three_channels():
    with pytest.raises(ValueError, match=r"outputs must be \(res, res, 3\).*\(10, 10, 2\)"):
        logic_figure(np.zeros((10, 10, 2)), 1.0, [TRIANGLE_F, TRIANGLE_G])


def test_information_loss_shows_codes_counts_and_the_mapped_grid():
    codes = np.array([[0, 1], [2, 3]])
    counts = np.array([10, 20, 4109, 1])
    mapped = np.arange(10.0).reshape(5, 2)
    fig = information_loss_figure(codes, 1.0, counts, mapped)
    plane, outputs, linear = fig.axes
    np.testing.assert_array_equal(plane.images[0].get_array(), codes)
    assert [t.get_text() for t in outputs.texts] == ["10", "20", "4109", "1"]  # as printed
    sizes = outputs.collections[0].get_sizes()
    assert np.argmax(sizes) == 2 and np.argmin(sizes) == 3  # sized by the counts
    np.testing.assert_array_equal(linear.collections[0].get_offsets(), mapped)


@pytest.mark.parametrize(
    ("codes", "counts", "match"),
    [
        (np.array([[0, 4]]), np.ones(4), "codes must be"),
        (np.zeros((2, 2), int), np.ones(3), r"counts must have shape \(4,\).*\(3,\)"),
    ],
)
def test_information_loss_rejects_bad_codes_and_counts(codes, counts, match):
    with pytest.raises(ValueError, match=match):
        information_loss_figure(codes, 1.0, counts, np.zeros((2, 2)))


def test_width_sweep_draws_every_seed_and_the_best_seed_as_a_line():
    acc = np.array([[0.5, 0.7], [0.9, 0.8], [0.99, 0.95]])
    fig = width_sweep_figure([2, 3, 4], acc)
    ax = fig.axes[0]
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [0.7, 0.9, 0.99])
    seeds = [c.get_offsets()[:, 1] for c in ax.collections]
    np.testing.assert_allclose(seeds, acc.T)
    assert to_rgb(ax.lines[0].get_color()) == to_rgb(COLORS["relu"])


def test_width_sweep_rejects_accuracy_of_another_length():
    with pytest.raises(ValueError, match=r"one row per d_ff \(3\), got shape \(2, 2\)"):
        width_sweep_figure([2, 3, 4], np.ones((2, 2)))


def test_union_figure_outlines_each_piece():
    pieces = [TRIANGLE_F, TRIANGLE_G, regular_polygon(5, 0.3)]
    output = np.random.default_rng(1).uniform(size=(4, 4))
    fig = union_figure(output, 1.0, pieces)
    ax = fig.axes[0]
    np.testing.assert_array_equal(ax.images[0].get_array(), output)
    assert len(ax.lines) == 3
    for line, piece in zip(ax.lines, pieces, strict=True):
        np.testing.assert_allclose(line_xy(line), closed(piece))


# --- live views ------------------------------------------------------------------------------------


def triangles_data(apex=(-0.1, 0.9), fill=0.0, agreement=0.9) -> TrianglesData:
    f = TRIANGLE_F.copy()
    f[2] = apex
    memberships = np.full((6, 6, 2), fill)
    memberships[..., 1] = 1 - fill
    return TrianglesData(memberships, np.full((6, 6), fill / 2), (f, TRIANGLE_G), agreement, 20)


def test_triangles_view_redraws_one_figure_in_place():
    view = TrianglesView()
    first = view.update(triangles_data())
    axes = list(first.axes)
    data = triangles_data(apex=(0.3, 0.2), fill=0.25)
    second = view.update(data)
    assert second is first and list(second.axes) == axes
    shown = [ax.images[0].get_array() for ax in second.axes]
    panels = (*np.moveaxis(data.memberships, 2, 0), data.overlap)
    for image, values in zip(shown, panels, strict=True):
        np.testing.assert_array_equal(image, values)
    assert shown[0].max() == 0.25 and shown[1].min() == 0.75  # the new data, not the first
    for ax in second.axes:  # both outlines in every panel, f with its moved apex
        assert len(ax.lines) == 2
        np.testing.assert_allclose(line_xy(ax.lines[0])[2], (0.3, 0.2))
        np.testing.assert_allclose(line_xy(ax.lines[1]), closed(TRIANGLE_G))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"memberships": np.zeros((6, 6))}, r"memberships must be \(res, res, 2\)"),
        ({"overlap": np.zeros((5, 6))}, r"overlap must be \(6, 6\)"),
        ({"polygons": (TRIANGLE_F,)}, "polygons must be the 2 triangles"),
        ({"agreement": 1.5}, r"agreement must be a fraction in \[0, 1\], got 1.5"),
    ],
)
def test_triangles_data_rejects_inconsistent_fields(change, match):
    fields = {**triangles_data().__dict__, **change}
    with pytest.raises(ValueError, match=match):
        TrianglesData(**fields)


def ngon_data(n: int, fill: float = 1.0) -> NgonData:
    return NgonData(n, np.full((4, 4), fill), 0.8, (3, 4, 5), np.array([1.0, 0.5, 0.25]))


def test_ngon_view_marks_n_on_the_curve_and_redraws_in_place():
    view = NgonView()
    first = view.update(ngon_data(3, 0.0))
    second = view.update(ngon_data(5))
    assert first is second and len(second.axes) == 2
    assert list(view.marker.get_xdata()) == [5] and list(view.marker.get_ydata()) == [0.25]
    np.testing.assert_allclose(view.curve.get_ydata(), [1.0, 0.5, 0.25])
    np.testing.assert_array_equal(view.image.get_array(), np.ones((4, 4)))
    radii = np.hypot(view.circle.get_xdata(), view.circle.get_ydata())
    np.testing.assert_allclose(radii, 0.8)


def test_ngon_data_rejects_an_n_off_the_slider_and_errors_of_another_length():
    with pytest.raises(ValueError, match=r"n must be one of ns \[3, 4, 5\], got 7"):
        ngon_data(7)
    with pytest.raises(ValueError, match=r"errors must have one entry per n \(3\), got \(2,\)"):
        NgonData(3, np.zeros((4, 4)), 0.8, (3, 4, 5), np.ones(2))


def learned_lines_data(normals, offsets, importance, prediction=None) -> LearnedLinesData:
    d_ff = len(normals)
    if prediction is None:
        prediction = np.zeros((8, 8, 2))
    return LearnedLinesData(
        prediction, np.asarray(normals, float), np.asarray(offsets, float),
        np.asarray(importance, float), (TRIANGLE_F, TRIANGLE_G), d_ff, "relu", 0.9, 3,
    )  # fmt: skip


def test_learned_lines_draw_one_segment_per_unit_on_its_zero_set():
    normals = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    offsets = np.array([0.2, -0.5, 0.1])
    fig = LearnedLinesView().update(learned_lines_data(normals, offsets, [1.0, 0.5, 0.0]))
    (ax,) = fig.axes
    segments = ax.collections[0].get_segments()
    assert len(segments) == 3
    for segment, n, b in zip(segments, normals, offsets, strict=True):
        np.testing.assert_allclose(segment @ n + b, 0, atol=1e-12)
    alphas = ax.collections[0].get_colors()[:, 3]
    assert alphas[0] > alphas[1] > alphas[2]  # more weight in the output, more opaque
    edges = ax.collections[1].get_segments()
    np.testing.assert_allclose(edges[0], closed(TRIANGLE_F))
    np.testing.assert_allclose(edges[1], closed(TRIANGLE_G))


def test_learned_lines_skip_a_unit_without_a_line():
    normals = np.array([[1.0, 0.0], [0.0, 0.0]])  # unit 2 has w = 0: no line
    fig = LearnedLinesView().update(learned_lines_data(normals, [0.2, 0.3], [1.0, 0.0]))
    assert len(fig.axes[0].collections[0].get_segments()) == 1


def test_learned_lines_colour_the_plane_by_the_predicted_outputs():
    prediction = np.zeros((2, 2, 2))
    prediction[0, 1, 0] = prediction[1, 0, 1] = 0.9  # in_f at one pixel, in_g at another
    prediction[1, 1] = 0.8  # both
    data = learned_lines_data([[1.0, 0.0]], [0.0], [1.0], prediction)
    image = LearnedLinesView().update(data).axes[0].images[0].get_array()
    np.testing.assert_allclose(image, CODE_RGB[[[0, 1], [2, 3]]])


def test_learned_lines_view_redraws_in_place_for_another_width():
    view = LearnedLinesView()
    wide = view.update(learned_lines_data(np.tile([1.0, 0.0], (6, 1)), np.zeros(6), np.ones(6)))
    narrow = view.update(learned_lines_data([[0.0, 1.0]], [0.1], [1.0]))
    assert narrow is wide and len(narrow.axes) == 1
    assert len(narrow.axes[0].collections[0].get_segments()) == 1


def test_learned_lines_data_rejects_lines_of_another_width():
    with pytest.raises(ValueError, match=r"offsets must have shape \(2,\) for d_ff=2, got \(3,\)"):
        LearnedLinesData(
            np.zeros((4, 4, 2)), np.ones((2, 2)), np.ones(3), np.ones(2),
            (TRIANGLE_F,), 2, "relu", 0.5, 1,
        )  # fmt: skip


def test_views_draw_the_hand_built_networks_output_unchanged():
    """End to end through the model: the n-gon view shows exactly the network's output."""
    output = evaluate(polygon_network([regular_polygon(4, 0.8)], 50), grid(10))[:, 0]
    data = NgonData(4, output.reshape(10, 10), 0.8, (3, 4), np.array([1.0, 0.7]))
    np.testing.assert_array_equal(
        NgonView().update(data).axes[0].images[0].get_array(), data.output
    )
