"""ReLU networks built by hand (no training) that answer "is this point inside polygon p?".

The six-unit network (``six_unit_network``, the lesson's main construction) has one hidden unit
per edge and the FFN's own form relu(x W1 + b1) W2 + b2: unit i is relu(-f_i(p)), how far p lies
outside edge i (f_i the signed distance, positive inside), and each polygon's output is
1 - k * sum_i relu(-f_i(p)): exactly 1 inside, 0 or below beyond a band of width 1/k outside.

The sharp variant (``polygon_network``), 2E hidden units:
Layer 1 (2 -> 2E, ReLU): each edge's half-plane z = w · p + b becomes a ReLU step
relu(k z) - relu(k z - 1): 0 outside the edge, 1 deeper than 1/k inside it (k = sharpness).
Layer 2 (2E -> P, ReLU): AND of a polygon's n steps is relu(sum - (n - 1)).
One more layer combines memberships: overlap (AND), union (OR), symmetric difference (XOR).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from course_lib.core.model.ffn import ffn_formula
from course_lib.core.model.geometry import (
    as_points,
    grid,
    half_planes,
    in_band,
    inside,
    positive_number,
    validate_polygon,
)
from course_lib.core.threads import torch_threads

DTYPE = torch.float64  # exact enough that "equals the oracle" means equal up to 1e-12


def relu_step(z: torch.Tensor, sharpness: float) -> torch.Tensor:
    """relu(k z) - relu(k z - 1): 0 for z <= 0, k z in between, 1 for z >= 1/k."""
    k = positive_number("sharpness", sharpness)
    return torch.relu(k * z) - torch.relu(k * z - 1)


def and_relu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """AND of two 0/1 values with one ReLU: relu(a + b - 1)."""
    return torch.relu(a + b - 1)


def or_relu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """OR of two 0/1 values with one ReLU: 1 - relu(1 - a - b)."""
    return 1 - torch.relu(1 - a - b)


def _edges(polygons: Sequence[np.ndarray]) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Validated polygons and all their edges' inward unit normals (E, 2) and offsets (E,)."""
    checked = [validate_polygon(p, f"polygons[{i}]") for i, p in enumerate(polygons)]
    if not checked:
        raise ValueError("polygons must hold at least one polygon, got an empty list")
    normals, offsets = zip(*(half_planes(p) for p in checked), strict=True)
    return checked, np.concatenate(normals), np.concatenate(offsets)


class PolygonNetwork(nn.Module):
    """points (N, 2) -> membership (N, P): relu(W2 relu(W1 x + b1) + b2), weights set by hand."""

    def __init__(self, polygons: Sequence[np.ndarray], sharpness: float) -> None:
        super().__init__()
        self.sharpness = positive_number("sharpness", sharpness)
        self.polygons, normals, offsets = _edges(polygons)
        n_edges, k = len(normals), self.sharpness
        self.edges = nn.Linear(2, 2 * n_edges, dtype=DTYPE)  # W1: (2E, 2) in torch's layout
        self.and_layer = nn.Linear(2 * n_edges, len(self.polygons), dtype=DTYPE)
        with torch.no_grad():
            # units 2i and 2i+1 both see edge i: relu(k z) and relu(k z - 1)
            self.edges.weight.copy_(torch.tensor(np.repeat(k * normals, 2, axis=0)))
            self.edges.bias.copy_(
                torch.tensor(np.repeat(k * offsets, 2) - np.tile([0, 1], n_edges))
            )
            self.and_layer.weight.zero_()
            start = 0
            for row, polygon in enumerate(self.polygons):
                n = len(polygon)
                self.and_layer.weight[row, 2 * start : 2 * (start + n)] = torch.tensor(
                    [1.0, -1.0] * n
                )
                self.and_layer.bias[row] = -(n - 1)
                start += n
        self.requires_grad_(False)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        """The edge features (N, E): relu(k z) - relu(k z - 1), 1 on an edge's inner side."""
        hidden = torch.relu(self.edges(_points(x)))
        return hidden[:, 0::2] - hidden[:, 1::2]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.and_layer(torch.relu(self.edges(_points(x)))))

    def membership(self, x: torch.Tensor) -> torch.Tensor:
        """In [0, 1] per polygon (N, P): the forward pass, which already ends in a ReLU."""
        return self(x)


def ffn_2d(x: object, W1: object, b1: object, W2: object, b2: object) -> torch.Tensor:
    """relu(x W1 + b1) W2 + b2 in float64 for points x (N, 2): W1 (2, H), b1 (H,), W2 (H, P),
    b2 (P,) -> (N, P). The FFN's formula with its own output width (d_model is 2 only on input)."""
    return ffn_formula(*(torch.as_tensor(a, dtype=DTYPE) for a in (x, W1, b1, W2, b2)))


class SixUnitNetwork(nn.Module):
    """points (N, 2) -> (N, P): relu(x W1 + b1) W2 + b2, one hidden unit per edge (E in all).

    W1 (2, E): column i is -w_i (edge i's unit normal, negated); b1 (E,): -b_i; W2 (E, P): -k
    where unit i belongs to polygon p, else 0; b2 (P,): 1. For two triangles: 2 -> 6 -> 2.
    """

    def __init__(self, polygons: Sequence[np.ndarray], sharpness: float) -> None:
        super().__init__()
        self.sharpness = positive_number("sharpness", sharpness)
        self.polygons, normals, offsets = _edges(polygons)
        owner = np.repeat(np.arange(len(self.polygons)), [len(p) for p in self.polygons])
        W2 = np.where(owner[:, None] == np.arange(len(self.polygons)), -self.sharpness, 0.0)
        # the formula's layout (x W1 + b1), not nn.Linear's transpose
        self.W1 = nn.Parameter(torch.tensor(-normals.T), requires_grad=False)
        self.b1 = nn.Parameter(torch.tensor(-offsets), requires_grad=False)
        self.W2 = nn.Parameter(torch.tensor(W2), requires_grad=False)
        self.b2 = nn.Parameter(torch.ones(len(self.polygons), dtype=DTYPE), requires_grad=False)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        """The hidden units (N, E): relu(-f_i(p)), how far p lies outside edge i (0 inside it)."""
        return torch.relu(_points(x) @ self.W1 + self.b1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ffn_2d(_points(x), self.W1, self.b1, self.W2, self.b2)  # 1 - k * sum, per polygon

    def membership(self, x: torch.Tensor) -> torch.Tensor:
        """relu of the output (N, P): 1 inside, 0 beyond the outer band; the AND, as a value."""
        return torch.relu(self(x))


def six_unit_network(polygons: Sequence[np.ndarray], sharpness: float = 20.0) -> SixUnitNetwork:
    """The one-ReLU-per-edge network for convex ``polygons`` (each (n, 2), either winding): two
    triangles give 2 -> 6 -> 2. ``sharpness`` k > 0 sets the band's width 1/k."""
    return SixUnitNetwork(polygons, sharpness)


def _points(x: object) -> torch.Tensor:
    if isinstance(x, torch.Tensor):
        if x.ndim != 2 or x.shape[1] != 2:
            raise ValueError(f"points must have shape (N, 2), got {tuple(x.shape)}")
        return x.to(DTYPE)
    return torch.tensor(as_points(x), dtype=DTYPE)


def polygon_network(polygons: Sequence[np.ndarray], sharpness: float = 20.0) -> PolygonNetwork:
    """The hand-built membership network for convex ``polygons`` (each (n, 2), either winding)."""
    return PolygonNetwork(polygons, sharpness)


class LogicLayer(nn.Module):
    """Two memberships (N, 2) -> (N, 3): overlap (AND), union (OR), XOR, by one ReLU layer.

    hidden = relu([a + b - 1, 1 - a - b, a, b]); out = [h0, 1 - h1, h2 + h3 - 2 h0].
    """

    NAMES = ("overlap", "union", "xor")

    def __init__(self) -> None:
        super().__init__()
        self.hidden = nn.Linear(2, 4, dtype=DTYPE)
        self.out = nn.Linear(4, 3, dtype=DTYPE)
        with torch.no_grad():
            self.hidden.weight.copy_(torch.tensor([[1.0, 1], [-1, -1], [1, 0], [0, 1]]))
            self.hidden.bias.copy_(torch.tensor([-1.0, 1, 0, 0]))
            self.out.weight.copy_(torch.tensor([[1.0, 0, 0, 0], [0, -1, 0, 0], [-2, 0, 1, 1]]))
            self.out.bias.copy_(torch.tensor([0.0, 1, 0]))
        self.requires_grad_(False)

    def forward(self, memberships: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(memberships)))


def logic_network(
    polygon_a: np.ndarray, polygon_b: np.ndarray, sharpness: float = 20.0
) -> nn.Module:
    """points (N, 2) -> (N, 3) [overlap, union, xor] of two convex polygons."""
    return nn.Sequential(polygon_network([polygon_a, polygon_b], sharpness), LogicLayer())


class UnionLayer(nn.Module):
    """Memberships (N, P) of disjoint or overlapping pieces -> (N, 1): 1 - relu(1 - sum)."""

    def forward(self, memberships: torch.Tensor) -> torch.Tensor:
        return 1 - torch.relu(1 - memberships.sum(dim=1, keepdim=True))


def union_network(pieces: Sequence[np.ndarray], sharpness: float = 20.0) -> nn.Module:
    """A non-convex region as the OR of convex ``pieces``: points (N, 2) -> (N, 1)."""
    return nn.Sequential(polygon_network(pieces, sharpness), UnionLayer())


# The two hand-built constructions, by the names the lesson and its demo use.
NETWORKS = {"six-unit": six_unit_network, "sharp": polygon_network}


def evaluate(network: nn.Module, points: object) -> np.ndarray:
    """The network's output for points (N, 2) as a NumPy array (N, outputs)."""
    with torch.no_grad(), torch_threads(1):
        return network(_points(points)).numpy()


def memberships(network: PolygonNetwork | SixUnitNetwork, points: object) -> np.ndarray:
    """A hand-built network's memberships in [0, 1] for points (N, 2): (N, polygons)."""
    with torch.no_grad(), torch_threads(1):
        return network.membership(_points(points)).numpy()


def feature_maps(
    network: PolygonNetwork | SixUnitNetwork, resolution: int = 120, extent: float = 1.0
) -> dict:
    """Every edge feature and every membership (in [0, 1]) over a grid, for small-multiple plots:
    {"features": (res, res, E), "outputs": (res, res, P), "extent": extent}."""
    points = torch.tensor(grid(resolution, extent), dtype=DTYPE)
    with torch.no_grad(), torch_threads(1):
        features, outputs = network.features(points), network.membership(points)
    shape = (resolution, resolution, -1)
    return {
        "features": features.numpy().reshape(shape),
        "outputs": outputs.numpy().reshape(shape),
        "extent": extent,
    }


def exactness(
    polygons: Sequence[np.ndarray],
    sharpness: float,
    n_points: int = 100_000,
    seed: int = 0,
    network: str = "sharp",
) -> dict[str, float]:
    """Compare a hand-built network (a key of ``NETWORKS``) with the oracle on uniform points in
    [-1, 1]^2. Its band lies inside the boundary for "sharp", outside it for "six-unit".

    Returns the fraction of (point, polygon) answers that agree (membership > 0.5 vs oracle), the
    fraction of points in some 1/sharpness band, and the largest |membership - oracle| outside.
    """
    if network not in NETWORKS:
        raise ValueError(f"network must be one of {sorted(NETWORKS)}, got {network!r}")
    points = np.random.default_rng(seed).uniform(-1, 1, size=(n_points, 2))
    output = memberships(NETWORKS[network](polygons, sharpness), points)
    oracle = np.stack([inside(p, points) for p in polygons], axis=1)
    side = "inside" if network == "sharp" else "outside"
    band = np.stack([in_band(p, points, sharpness, side) for p in polygons], axis=1)
    return {
        "agree": float(np.mean((output > 0.5) == oracle)),
        "in_band": float(np.mean(band.any(axis=1))),
        "max_error_outside_band": float(np.abs(output - oracle)[~band].max()),
    }
