"""plots.moe: the router figure's titles, maps, data points, lines and even-load level come from
the networks and data it is given, and are read back from the figure."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from course_lib.lessons.l07_mixture_of_experts.figures import (
    PlaneNetwork,
    RouterPicture,
    RouterView,
    expert_colours,
    router_figure,
)


def picture_map(chosen, logit, edges=None):
    edges = np.zeros(chosen.shape, bool) if edges is None else edges
    return SimpleNamespace(chosen=chosen, logit=logit, edges=edges)


def _networks(logit, edges):
    maps = [
        picture_map(np.zeros((10, 10), int), logit),
        picture_map(np.arange(100).reshape(10, 10) % 4, logit, edges),
        picture_map(np.zeros((10, 10), int), logit),
        picture_map(np.zeros((10, 10), int), -logit),
    ]
    shapes = [
        (4, 6, 2, 0.0, 0.75),
        (4, 6, 2, 0.1, 0.8125),
        (1, 12, 1, 0.0, 0.7),
        (1, 48, 1, 0.0, 0.875),
    ]
    return [PlaneNetwork(m, *shape) for m, shape in zip(maps, shapes, strict=True)]


def test_the_router_figure_titles_each_network_by_its_shape_and_shows_its_map_and_the_data():
    logit = np.linspace(-1, 1, 10)[None, :].repeat(10, axis=0)  # boundary at x = 0
    edges = np.zeros((10, 10), bool)
    edges[2, 3] = edges[7, 1] = True
    networks = _networks(logit, edges)
    points = np.array([[0.5, 0.5], [-0.5, 0.2], [0.1, -0.9]])
    labels = np.array([1, 0, 1])
    load = np.array([[[0.7, 0.3, 0, 0], [0.6, 0.4, 0, 0]], [[0.25] * 4, [0.4, 0.3, 0.2, 0.1]]])
    fig = router_figure(networks, points, labels, load, (0.0, 0.1), "spiral", seed=3)
    panels = [ax for ax in fig.axes if ax.get_images()]
    assert [ax.get_title() for ax in panels] == [
        "4 experts × 6 units, top 2, α = 0.0: accuracy 0.75",
        "4 experts × 6 units, top 2, α = 0.1: accuracy 0.81",
        "dense FFN, 12 units: accuracy 0.70",
        "dense FFN, 48 units: accuracy 0.88",
    ]
    assert "low-dimensional" in fig._suptitle.get_text() and "seed 3" in fig._suptitle.get_text()
    for ax, net in zip(panels, networks, strict=True):
        assert shows_experts(ax.get_images()[0].get_array(), net.picture.chosen,
                             net.picture.edges, net.experts)  # fmt: skip
        dots = np.concatenate([c.get_offsets() for c in ax.collections[1:]])
        black = ax.collections[1].get_offsets()  # label 1 first, in black
        assert sorted(map(tuple, dots)) == sorted(map(tuple, points))
        assert sorted(map(tuple, black)) == sorted(map(tuple, points[labels == 1]))
    boundary = panels[1].collections[0].get_segments()[0]  # the logit's zero line
    assert np.allclose(boundary[:, 0], 0, atol=1e-9) and np.ptp(boundary[:, 1]) > 1.9
    (right,) = [ax for ax in fig.axes if not ax.get_images()]
    assert right.get_title() == "load, every seed (spiral)"
    lines = [line for line in right.get_lines() if len(line.get_xdata()) == 4]
    assert len(lines) == 4  # two alphas, two seeds
    assert np.allclose(lines[0].get_ydata(), [0.7, 0.3, 0, 0])  # busiest first
    assert np.allclose(lines[3].get_ydata(), [0.4, 0.3, 0.2, 0.1])
    even = [line for line in right.get_lines() if len(line.get_xdata()) == 2]
    assert np.allclose(even[0].get_ydata(), 0.25)


def test_a_dense_network_is_drawn_in_one_grey_and_its_title_says_dense():
    assert len(expert_colours(1).colors) == 1
    assert expert_colours(1).colors[0] not in expert_colours(8).colors
    net = PlaneNetwork(picture_map(np.zeros((2, 2), int), np.zeros((2, 2))), 1, 12, 1, 0.0, 0.5)
    assert net.title == "dense FFN, 12 units: accuracy 0.50"


def shows_experts(rgba, chosen, edges, experts) -> bool:
    """Every pixel off an edge has its expert's colour; every pixel on one is darker than it."""
    colours = np.asarray(expert_colours(experts).colors)[chosen]
    plain = np.allclose(rgba[~edges][:, :3], colours[~edges])
    darker = (rgba[edges][:, :3].sum(-1) < colours[edges].sum(-1) - 0.1).all()
    return bool(plain and darker and np.allclose(rgba[..., 3], 1))


def test_the_map_check_rejects_a_map_of_other_experts_or_without_edges():
    chosen = np.arange(16).reshape(4, 4) % 3
    edges = np.eye(4, dtype=bool)
    view = RouterView()
    view.update(demo_picture(3, [0.5, 0.3, 0.2], [], chosen=chosen, edges=edges))
    shown = view.map_ax.get_images()[0].get_array()
    assert shows_experts(shown, chosen, edges, 3)
    assert not shows_experts(shown, (chosen + 1) % 3, edges, 3)
    assert not shows_experts(shown, chosen, np.zeros((4, 4), bool), 3)


def test_more_experts_than_colours_is_refused():
    with pytest.raises(ValueError, match="between 1 and 8 can be told apart, got 9"):
        expert_colours(9)


def demo_picture(
    experts, seed0_load, other_loads, accuracy=0.8, k=2, alpha=0.1, chosen=None, edges=None
):
    chosen = np.arange(36).reshape(6, 6) % experts if chosen is None else chosen
    edges = np.eye(len(chosen), dtype=bool) if edges is None else edges
    load = np.array([seed0_load, *other_loads])
    accuracies = np.array([accuracy] + [0.5] * len(other_loads))
    logit = np.linspace(-1, 1, len(chosen))[None, :].repeat(len(chosen), axis=0)
    return RouterPicture(experts, k, alpha, 0, picture_map(chosen, logit, edges), load, accuracies)


def test_the_demo_view_shows_the_map_the_bars_and_the_dots_of_its_data_and_redraws_in_place():
    view = RouterView()
    first = view.update(demo_picture(4, [0.1, 0.4, 0.2, 0.3], [[0.7, 0.1, 0.1, 0.1]]))
    again = view.update(demo_picture(2, [0.35, 0.65], [[0.5, 0.5], [0.75, 0.25]], 0.625, k=1))
    assert again is first and len(first.axes) == 2  # one figure, updated
    map_ax, load_ax = first.axes
    (image,) = map_ax.get_images()
    chosen = np.arange(36).reshape(6, 6) % 2
    assert shows_experts(image.get_array(), chosen, np.eye(6, dtype=bool), 2)
    (boundary,) = map_ax.collections  # one, updated: the logit's zero line at x = 0
    assert np.allclose(boundary.get_segments()[0][:, 0], 0, atol=1e-9)
    assert first._suptitle.get_text() == "2 experts, top 1, α = 0.1; left, seed 0: accuracy 0.62"
    bars = [bar for bar in load_ax.patches if bar.get_visible()]
    assert [round(bar.get_height(), 2) for bar in bars] == [0.65, 0.35]  # busiest first
    colours = expert_colours(2).colors
    assert [tuple(bar.get_facecolor()[:3]) for bar in bars] == [colours[1], colours[0]]
    dots = load_ax.lines[0]
    assert np.allclose(dots.get_xdata(), [1, 2, 1, 2])
    assert np.allclose(dots.get_ydata(), [0.5, 0.5, 0.75, 0.25])
    assert np.allclose(load_ax.lines[1].get_ydata(), 0.5)  # the even share 1/E


def test_the_demo_view_refuses_more_experts_than_its_bars_and_a_load_it_would_cut():
    with pytest.raises(ValueError, match="at most 3 experts, got 4"):
        RouterView(max_experts=3).update(demo_picture(4, [0.25] * 4, []))
    with pytest.raises(ValueError, match="a load above 0.8 would be cut, got 0.9"):
        RouterView().update(demo_picture(2, [0.9, 0.1], []))
