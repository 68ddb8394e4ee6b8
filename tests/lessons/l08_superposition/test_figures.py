"""Lesson 8's toy-model figures: the arrows are the columns of the W they are given, the bars
its features' dimensionalities, the phase diagram colours each model by its class; read back
from the figures. And the phase classes themselves, on hand-made models and the stored grid."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from course_lib.lessons.l08_superposition.experiments.phase import (
    DEDICATED,
    NOT_REPRESENTED,
    OTHER,
    SUPERPOSITION,
    phase_classes,
)
from course_lib.lessons.l08_superposition.experiments.toy_grid import stored_grid
from course_lib.lessons.l08_superposition.figures import (
    ToyPicture,
    ToyView,
    arrows_grid,
    phase_diagram,
)
from course_lib.lessons.l08_superposition.figures.toy import LIMIT, SHOWN, arrow_reach


def shown_arrows(ax) -> dict[int, np.ndarray]:
    """Feature number -> the tip of its visible arrow, read from the panel's arrows and labels."""
    arrows = [t for t in ax.texts if hasattr(t, "xy") and t.get_visible()]
    labels = [t for t in ax.texts if not hasattr(t, "xy") and t.get_visible() and t.get_text()]
    numbered = [t for t in labels if t.get_text().isdigit()]
    assert len(arrows) == len(numbered)
    found = {}
    for arrow in arrows:  # each arrow's number is the label on its line, beyond its tip
        tip = np.asarray(arrow.xy, dtype=float)
        (label,) = [t for t in numbered if np.allclose(
            np.asarray(t.get_position()) / np.linalg.norm(t.get_position()),
            tip / np.linalg.norm(tip))]  # fmt: skip
        assert np.linalg.norm(label.get_position()) > np.linalg.norm(tip)
        assert arrow.xyann == (0, 0)  # from the origin
        found[int(label.get_text())] = tip
    return found


def shows_columns(ax, W) -> bool:
    """The panel draws each column of W long enough to draw as an arrow to its tip, numbered by
    its feature, and no other."""
    drawn = shown_arrows(ax)
    long = [i for i in range(W.shape[1]) if np.linalg.norm(W[:, i]) >= SHOWN]
    return sorted(drawn) == long and all(np.allclose(drawn[i], W[:, i]) for i in long)


def inside_axes(fig, ax) -> bool:
    """Every visible text and arrow of ``ax`` lies within its frame, as drawn."""
    fig.draw_without_rendering()
    frame = ax.get_window_extent()
    for t in ax.texts:
        if t.get_visible() and (t.get_text() or hasattr(t, "xy")):
            box = t.arrow_patch.get_window_extent() if hasattr(t, "xy") else t.get_window_extent()
            if not (frame.x0 <= box.x0 and box.x1 <= frame.x1):
                return False
            if not (frame.y0 <= box.y0 and box.y1 <= frame.y1):
                return False
    return True


def picture(W, D=None, sparsity=0.5, decay=0.7, loss=0.0123):
    W = np.asarray(W, dtype=float)
    D = np.linspace(1, 0.2, W.shape[1]) if D is None else np.asarray(D)
    curve = np.linspace(0.3, 0.05, 7)
    return ToyPicture(sparsity, decay, W, np.zeros(W.shape[1]), D, loss, curve, curve_every=50)


PENTAGON = 1.1 * np.stack(
    [np.cos(2 * np.pi * np.arange(5) / 5), np.sin(2 * np.pi * np.arange(5) / 5)]
)


def test_the_view_draws_each_column_as_an_arrow_and_each_dimensionality_as_a_bar():
    view = ToyView()
    W = PENTAGON.copy()
    W[:, 3] = [0.01, -0.02]  # too short to draw: listed instead
    fig = view.update(picture(W, D=[0.4, 0.41, 0.39, 0.0, 0.38]))
    plane, bars_ax = fig.axes
    assert shows_columns(plane, W)
    assert sorted(shown_arrows(plane)) == [0, 1, 2, 4]
    assert any(t.get_text() == "dropped (‖W_i‖ < 0.05): 3" for t in plane.texts)
    assert [b.get_height() for b in bars_ax.patches] == [0.4, 0.41, 0.39, 0.0, 0.38]
    ticks = [t.get_text() for t in bars_ax.get_xticklabels()]
    assert ticks == ["0\n1.00", "1\n0.70", "2\n0.49", "3\n0.34", "4\n0.24"]  # I_i = 0.7^i
    levels = sorted(line.get_ydata()[0] for line in bars_ax.get_lines())
    assert np.allclose(levels, [0.4, 0.5, 1.0])
    names = {t.get_text() for t in bars_ax.texts}
    assert names == {"orthogonal", "antipodal pair", "pentagon"}
    assert fig._suptitle.get_text() == "sparsity S = 0.50, importance I_i = 0.7^i: loss 0.0123"
    assert inside_axes(fig, plane)


def test_the_view_redraws_in_place_and_forgets_the_last_settings_arrows():
    view = ToyView()
    first = view.update(picture(PENTAGON))
    two = np.zeros((2, 5))
    two[:, 0], two[:, 1] = [1, 0], [0, -1]
    again = view.update(picture(two, D=[1, 1, 0, 0, 0], sparsity=0.0, decay=1.0, loss=0.25))
    assert again is first
    plane, bars_ax = again.axes
    assert shows_columns(plane, two) and not shows_columns(plane, PENTAGON)
    assert any(t.get_text() == "dropped (‖W_i‖ < 0.05): 2, 3, 4" for t in plane.texts)
    assert [b.get_height() for b in bars_ax.patches] == [1, 1, 0, 0, 0]
    assert again._suptitle.get_text() == "sparsity S = 0.00, importance I_i = 1.0^i: loss 0.25"


def test_the_view_refuses_an_arrow_it_would_cut_and_a_wrong_number_of_features():
    with pytest.raises(ValueError, match=f"would be cut at {LIMIT}"):
        ToyView().update(picture(PENTAGON * 1.3))
    with pytest.raises(ValueError, match="5 features expected, got 4"):
        ToyView().update(picture(PENTAGON[:, :4]))


def test_every_stored_arrow_and_its_label_fit_the_panel():
    grid = stored_grid("superposition")
    reach = max(arrow_reach(W) for W in grid.W.reshape(-1, *grid.W.shape[-2:]))
    assert reach <= LIMIT
    assert np.linalg.norm(grid.W, axis=-2).max() > 1  # the limit is not checked on tiny arrows


@pytest.mark.parametrize("decay", [0.9, 0.5])
def test_the_arrows_grid_shows_every_sparsity_of_one_decay_titled_by_its_S(decay):
    grid = stored_grid("superposition")
    fig = arrows_grid(grid, decay)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == len(grid.axes["sparsity"])
    j = grid.axes["decay"].index(decay)
    for ax, S, W in zip(panels, grid.axes["sparsity"], grid.W[:, j], strict=True):
        assert ax.get_title() == f"S = {S:.2f}"
        assert shows_columns(ax, W)
        assert ax.get_xlim() == (-LIMIT, LIMIT) and ax.get_ylim() == (-LIMIT, LIMIT)
    assert f"importance I_i = {decay}^i" in fig._suptitle.get_text()
    other = grid.axes["decay"][(j + 1) % len(grid.axes["decay"])]
    assert not shows_columns(panels[-1], grid.W[-1, grid.axes["decay"].index(other)])


def test_the_arrows_grid_refuses_a_decay_it_does_not_hold():
    with pytest.raises(ValueError, match=r"decay must be one of \[0.5, 0.7, 0.9, 1.0\], got 0.8"):
        arrows_grid(stored_grid("superposition"), 0.8)


def test_phase_classes_tell_dropped_dedicated_antipodal_and_other_apart():
    W = np.array([
        [[1.0, 0.1]],  # the extra feature dropped
        [[0.2, -0.9]],  # the extra feature kept, feature 0 dropped
        [[1.0, -0.8]],  # both kept, opposite: an antipodal pair
        [[1.0, 0.8]],  # both kept, the same way: neither
        [[0.1, 0.2]],  # both dropped: the extra is not represented
    ])  # fmt: skip
    expected = [NOT_REPRESENTED, DEDICATED, SUPERPOSITION, OTHER, NOT_REPRESENTED]
    assert phase_classes(W).tolist() == expected
    in_plane = np.array([[[1.0, 0.0], [0.0, 1.0]], [[0.6, -0.7], [0.6, -0.7]]])  # (2, m=2, 2)
    assert phase_classes(in_plane).tolist() == [OTHER, SUPERPOSITION]
    with pytest.raises(ValueError, match=r"W must be \(..., m, 2\).*got shape \(1, 3\)"):
        phase_classes(np.ones((1, 3)))


def test_the_stored_phase_grid_shows_the_papers_phases():
    """Dense features (density 1): the extra feature is dropped when it matters less than
    feature 0 and takes the dimension when it matters more, never sharing it. Sparse ones
    (density <= 0.1): it shares the dimension as an antipodal pair in most cells where it
    matters no more than feature 0."""
    grid = stored_grid("phase")
    classes = phase_classes(grid.W)
    density = np.asarray(grid.axes["density"])
    relative = np.asarray(grid.axes["relative"])
    dense = classes[density == 1.0][0]
    assert (dense[relative < 1] == NOT_REPRESENTED).all()
    assert (dense[relative > 1] == DEDICATED).all()
    sparse = classes[density <= 0.1 + 1e-12][:, relative <= 1 + 1e-12]
    assert sparse.shape == (6, 6)
    assert ((sparse == SUPERPOSITION).mean(axis=1) > 0.5).all()


def test_the_phase_diagram_colours_each_cell_by_its_class_at_its_settings():
    W = np.array([[[[1.0, 0.0]], [[0.1, 1.0]], [[1.0, -1.0]]],
                  [[[1.0, 0.2]], [[1.0, -1.0]], [[1.0, 1.0]]]])  # (2 densities, 3 relatives, 1, 2)  # fmt: skip
    grid = SimpleNamespace(axes={"density": (1.0, 0.1), "relative": (0.1, 1.0, 10.0)}, W=W)
    fig = phase_diagram(grid)
    (ax,) = fig.axes
    (mesh,) = ax.collections
    assert mesh.get_array().reshape(2, 3).tolist() == [
        [NOT_REPRESENTED, DEDICATED, SUPERPOSITION],
        [NOT_REPRESENTED, SUPERPOSITION, OTHER],
    ]
    corners = mesh.get_coordinates()  # (densities + 1, relatives + 1, 2)
    centres = np.sqrt(corners[:-1, :-1] * corners[1:, 1:])  # geometric: both axes are log
    assert np.allclose(centres[0, :, 0], [0.1, 1.0, 10.0])
    assert np.allclose(centres[:, 0, 1], [1.0, 0.1])
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    expected = ["not represented", "dedicated dimension", "superposition, antipodal"]
    assert legend == [*expected, "other arrangement"]
    fewer = phase_diagram(SimpleNamespace(axes=grid.axes, W=np.abs(W) * [1, 0]))
    assert [t.get_text() for t in fewer.axes[0].get_legend().get_texts()] == ["not represented"]


def test_the_checks_above_fail_on_a_cut_arrow_and_on_another_models_columns():
    fig = ToyView().update(picture(PENTAGON))
    plane = fig.axes[0]
    assert inside_axes(fig, plane) and shows_columns(plane, PENTAGON)
    assert not shows_columns(plane, PENTAGON[:, ::-1])  # the right arrows, wrongly numbered
    assert not shows_columns(plane, 0.9 * PENTAGON)
    plane.set_xlim(-1.0, 1.0)
    assert not inside_axes(fig, plane)


def test_a_feature_card_shows_its_contexts_and_words_as_given_most_first():
    from course_lib.lessons.l08_superposition.figures.browser import feature_card

    contexts = [("the colour of velor is", 6.2), ("the colour of brix is", 5.0), ("velor is", 1.5)]
    words = [("red", 0.75), ("blue", 0.4)]
    fig = feature_card(17, contexts, words)
    left, right = fig.axes
    for ax, pairs in ((left, contexts), (right, words)):
        labels = [t.get_text() for t in ax.get_yticklabels()]
        ticks = dict(zip(ax.get_yticks(), labels, strict=True))
        widths = [bar.get_width() for bar in ax.patches]
        tops = [bar.get_y() for bar in ax.patches]
        order = sorted(range(len(tops)), key=lambda i: -tops[i])  # top to bottom
        assert [widths[i] for i in order] == [value for _, value in pairs]
        assert [ticks[y] for y in sorted(ticks, reverse=True)] == [text for text, _ in pairs]
    assert fig._suptitle.get_text() == "feature 17"
    with pytest.raises(ValueError, match="contexts and words must be non-empty"):
        feature_card(1, [], words)
