"""course_lib.core.experiments.stored_file: arrays and settings in one .npz, and back."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.core.experiments.stored_file import load_npz, save_npz


def test_arrays_and_settings_come_back_as_they_went_in(tmp_path):
    path = tmp_path / "sub" / "run.npz"
    size = save_npz(path, {"losses": np.arange(6.0).reshape(2, 3), "seconds": 1.5},
                    {"seed": 3, "lr": 0.05, "variants": ("relu", "gelu"), "name": "race"})  # fmt: skip
    assert size == path.stat().st_size > 0
    arrays, settings = load_npz(
        path, "race", "course_lib.lessons.l05_ffn_memory.experiments.sparsity_sweep"
    )
    assert np.array_equal(arrays["losses"], np.arange(6.0).reshape(2, 3))
    assert float(arrays["seconds"]) == 1.5
    assert settings == {"seed": 3, "lr": 0.05, "variants": ("relu", "gelu"), "name": "race"}
    assert type(settings["seed"]) is int and type(settings["lr"]) is float


def test_a_missing_file_names_its_rebuild_command(tmp_path):
    with pytest.raises(FileNotFoundError, match="stored sweep, got .*python -m some.module"):
        load_npz(tmp_path / "none.npz", "sweep", "some.module")
