"""Lesson 8's demo: every setting shows that setting's stored toy model (its arrows, its
dimensionalities, its loss), read back from its one live figure, within the panel; a value no
control offers is refused by name; the site's frames draw in both editions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from course_lib.core.widgets import all_demos, demo_class
from course_lib.lessons.l08_superposition.demos import demos, toy_data
from course_lib.lessons.l08_superposition.experiments.toy import dimensionality
from course_lib.lessons.l08_superposition.experiments.toy_grid import stored_grid
from tests.lessons.l08_superposition.test_figures import inside_axes, shows_columns


def test_every_setting_shows_its_stored_arrows_dimensionalities_and_loss():
    (demo,) = demos()
    demo.clear_cache()
    first = demo.figure()
    grid = stored_grid("superposition")
    sparsity, decay = demo.controls
    pairs = list(itertools.product(enumerate(sparsity.values), enumerate(decay.values)))
    assert len(pairs) == grid.loss.size  # every stored setting is offered
    for (i, S), (j, d) in pairs:
        fig = demo.figure(sparsity=S, decay=d)
        assert fig is first
        plane, bars_ax = fig.axes
        W = grid.W[i, j]
        assert shows_columns(plane, W)
        assert inside_axes(fig, plane)
        assert np.allclose([b.get_height() for b in bars_ax.patches], dimensionality(W))
        stored = grid.axes["sparsity"][i]
        title = f"sparsity S = {stored:.2f}, importance I_i = {d}^i: loss {grid.loss[i, j]:.3g}"
        assert fig._suptitle.get_text() == title


def test_the_slider_offers_the_stored_sparsities_to_two_decimals_and_starts_at_0_9():
    (demo,) = demos()
    grid = stored_grid("superposition")
    sparsity, decay = demo.controls
    assert len(set(sparsity.values)) == len(grid.axes["sparsity"])
    for shown, stored in zip(sparsity.values, grid.axes["sparsity"], strict=True):
        assert abs(shown - stored) < 0.005
        assert toy_data(shown, 0.9).sparsity == stored
    assert sparsity.shown()[0] == "0.0" and "0.28" in sparsity.shown()
    assert tuple(decay.values) == grid.axes["decay"]
    assert demo.defaults() == {"sparsity": 0.9, "decay": 0.9}


def test_the_pentagon_appears_where_the_paper_finds_it():
    """Sparse enough and all five equally important: five arrows of D = 2/5 each."""
    picture = toy_data(0.95, 1.0)
    assert np.allclose(picture.D, 0.4, atol=0.02)
    dense = toy_data(0.0, 0.9)
    assert np.allclose(np.sort(dense.D)[::-1], [1, 1, 0, 0, 0], atol=0.02)


@pytest.mark.parametrize(
    ("values", "error", "message"),
    [
        ({"sparsity": 0.5}, ValueError, r"sparsity must be one of \[0.0, 0.28, .*0.95\], got 0.5"),
        ({"sparsity": 0.9027056141211806}, ValueError, r"sparsity must be one of .* got 0.902"),
        ({"decay": "0.9"}, TypeError, r"decay must be one of \[0.5, 0.7, 0.9, 1.0\], got '0.9'"),
        ({"decay": 0.8}, ValueError, r"decay must be one of \[0.5, 0.7, 0.9, 1.0\], got 0.8"),
        ({"decay": True}, TypeError, r"decay must be one of .*got True \(bool\)"),
    ],
)
def test_a_value_no_control_offers_is_refused_by_name(values, error, message):
    with pytest.raises(error, match=message):
        toy_data(**{"sparsity": 0.9, "decay": 0.9} | values)


def test_the_demo_is_found_with_the_others():
    (demo,) = demos()
    assert demo_class(demo) in {demo_class(d) for d in all_demos()}
    assert [d.name for d in all_demos()].count(demo.name) == 1


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_the_sites_frames_draw_without_problems_in_each_edition(edition, tmp_path):
    from devtools.site.frames import render_frames

    (demo,) = demos()
    manifest = render_frames(demo, edition, tmp_path)
    assert manifest["problems"] == []
    assert manifest["mode"] == "full"
    assert len(manifest["frames"]) == 40
    assert len(list((tmp_path / "frames" / edition).rglob("*.png"))) == 40
