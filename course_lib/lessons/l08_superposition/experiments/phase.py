"""The phase diagram's classes (the paper's "Superposition as a Phase Change"): what a trained
model of two features, feature 0 and an extra feature 1, does with the extra one. Numbers only:
the figures name the classes.

- not represented: the extra feature's direction is short (‖W_1‖ < ``REPRESENTED``);
- dedicated dimension: the extra feature is kept and feature 0 is dropped;
- superposition: both are kept, pointing opposite ways (an antipodal pair, cos < ``ANTIPODAL``);
- other: anything else (both kept but not opposite), counted apart so none is hidden.
"""

from __future__ import annotations

import numpy as np

NOT_REPRESENTED, DEDICATED, SUPERPOSITION, OTHER = range(4)
REPRESENTED = 0.5  # a feature whose direction is shorter than this is read as dropped
ANTIPODAL = -0.5  # cos(W_0, W_1) below this: the two share a line, in opposite directions


def phase_classes(W: np.ndarray) -> np.ndarray:
    """Each model's class (``NOT_REPRESENTED`` … ``OTHER``): W (..., m, 2), the columns feature
    0's and the extra feature's directions (m = 1 in the stored grid) -> int (...)."""
    W = np.asarray(W, dtype=float)
    if W.ndim < 2 or W.shape[-1] != 2:
        raise ValueError(f"W must be (..., m, 2): two features' columns, got shape {W.shape}")
    norms = np.linalg.norm(W, axis=-2)  # (..., 2)
    first, extra = norms[..., 0], norms[..., 1]
    cos = (W[..., 0] * W[..., 1]).sum(-1) / np.maximum(first * extra, 1e-12)
    kept = (first >= REPRESENTED) & (extra >= REPRESENTED)
    classes = np.full(W.shape[:-2], OTHER, dtype=int)
    classes[kept & (cos < ANTIPODAL)] = SUPERPOSITION
    classes[(extra >= REPRESENTED) & (first < REPRESENTED)] = DEDICATED
    classes[extra < REPRESENTED] = NOT_REPRESENTED
    return classes
