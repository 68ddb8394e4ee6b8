"""Lesson 7's measurements: small mixtures of experts (2 -> E experts of width d_ff -> labels) on
lessons 2 and 3's tasks, trained with the course's one trainer, with and without the Switch
Transformer's balancing loss. Every expert of every network is computed in one batched product
(at this size that is faster than sending each expert its own tokens); ``moe_outputs`` equals
``model.moe.MixtureOfExperts`` with the same weights (tested).

The lesson and its demo read trained networks from ``ROUTER_FILE``: every (experts, k) of the
grid below, each balancing weight and seed, trained in about a minute by
``python -m course_lib.lessons.l07_mixture_of_experts.experiments``; ``router_runs`` trains any other setting on the spot.
The dense FFNs the lesson compares them with are in ``DENSE_FILE``
(``python -m course_lib.lessons.l07_mixture_of_experts.experiments dense``; ``train_dense`` trains one now)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from course_lib.core._validate import choice, int_at_least, positive_int
from course_lib.core.discovery import submodules
from course_lib.core.experiments.stored_file import DATA, load_npz, save_npz
from course_lib.core.experiments.tasks import TASKS, make_task
from course_lib.core.experiments.training import accuracy, adam_steps, uniform_layer
from course_lib.core.i18n import series
from course_lib.core.model.geometry import grid
from course_lib.core.model.moe import (
    assignments,
    balance_step,
    balancing_loss,
    expert_load,
    top_k_gates,
)
from course_lib.core.threads import torch_threads

ROUTER_FILE = DATA / "router_runs.npz"
# the stored grid: every (experts, k), each network trained for every alpha and seed
GRID_EXPERTS = (2, 4, 8)
GRID_K = (1, 2)
GRID_ALPHAS = (0.0, 0.01, 0.1)
SEEDS = (0, 1, 2, 3)
TRAINING = {"task": "spiral", "d_ff": 6, "steps": 300, "lr": 0.02, "points": 2000}
WEIGHTS = ("router", "W1", "b1", "W2", "b2")
DENSE_FILE = DATA / "dense_runs.npz"
# the dense FFNs the lesson compares the 8-expert, top-2 mixture with: its active width (k · d_ff)
# and its total width (E · d_ff)
DENSE_WIDTHS = (2 * TRAINING["d_ff"], 8 * TRAINING["d_ff"])
LONG_FILE = DATA / "router_runs_long.npz"
# the regime check: the 8-expert, top-2 mixture at every alpha and the dense FFN of its total width,
# every seed, trained four times as long as the grid (nothing else changed)
LONG_STEPS = 4 * TRAINING["steps"]


def moe_init(seed: int, num_experts: int, d_ff: int, out: int) -> dict[str, torch.Tensor]:
    """One network's starting weights, nn.Linear's uniform ranges: router (2, E) without a bias,
    then each expert's W1 (2, d_ff), b1, W2 (d_ff, out), b2, stacked over the experts."""
    g = torch.Generator().manual_seed(seed)
    router, _ = uniform_layer(g, 2, num_experts)
    layers = [
        (*uniform_layer(g, 2, d_ff), *uniform_layer(g, d_ff, out)) for _ in range(num_experts)
    ]
    W1, b1, W2, b2 = (torch.stack([layer[i] for layer in layers]) for i in range(4))
    return {"router": router, "W1": W1, "b1": b1, "W2": W2, "b2": b2}


def moe_outputs(
    w: dict[str, torch.Tensor], X: torch.Tensor, k: int, renormalise: bool = True
) -> tuple[torch.Tensor, torch.Tensor]:
    """(Σ_i gates_i(x) FFN_i(x), the router's logits) for points X (N, 2): (..., N, out) and
    (..., N, E), for one network's weights or many stacked along leading dimensions."""
    logits = X @ w["router"]
    hidden = torch.relu(torch.einsum("nd,...edh->...enh", X, w["W1"]) + w["b1"])  # (.., E, N, h)
    experts = torch.einsum("...enh,...eho->...eno", hidden, w["W2"]) + w["b2"]  # every expert
    gates = top_k_gates(logits, k, renormalise)
    return torch.einsum("...ne,...eno->...no", gates, experts), logits


def switch_form(k: int) -> bool:
    """Whether gates are renormalised: always, except for k = 1, where the Switch Transformer
    keeps the router's probability (a renormalised single gate is 1, and teaches the router
    nothing)."""
    return int_at_least("k", k, 1) > 1


@dataclass(frozen=True)
class RouterRuns:
    """Networks trained on ``task`` for each balancing weight alpha and seed."""

    task: str
    num_experts: int
    k: int
    d_ff: int
    alphas: tuple[float, ...]
    seeds: tuple[int, ...]
    load: np.ndarray  # (alphas, seeds, E): the share of points whose top expert is each
    accuracy: np.ndarray  # (alphas, seeds)
    weights: tuple[tuple[dict[str, torch.Tensor], ...], ...]  # [alpha][seed]

    @property
    def renormalise(self) -> bool:
        return switch_form(self.k)

    def used(self, share: float = 0.05) -> np.ndarray:
        """(alphas, seeds): how many experts take more than ``share`` of the points."""
        return (self.load > share).sum(axis=-1)

    def select(self, alphas: Sequence[float]) -> RouterRuns:
        """The same runs for some of the balancing weights, in the order given."""
        missing = [a for a in alphas if a not in self.alphas]
        if missing:
            raise ValueError(f"alphas must be among {list(self.alphas)}, got {list(alphas)}")
        rows = [self.alphas.index(a) for a in alphas]
        return replace(
            self,
            alphas=tuple(alphas),
            load=self.load[rows],
            accuracy=self.accuracy[rows],
            weights=tuple(self.weights[r] for r in rows),
        )


def train_routers(
    task: str = "spiral",
    num_experts: int = 8,
    k: int = 2,
    d_ff: int = 6,
    alphas: Sequence[float] = (0.0, 0.1),
    seeds: Sequence[int] = (0, 1, 2, 3),
    steps: int = 300,
    lr: float = 0.02,
    points: int = 2000,
) -> RouterRuns:
    """Train one network per (alpha, seed) on ``points`` of the task: binary cross-entropy plus
    alpha times the balancing loss. The same seed starts from the same weights for every alpha.
    Gates are renormalised except for k = 1 (``switch_form``). Every argument is checked here."""
    choice("task", task, TASKS)
    positive_int("num_experts", num_experts)
    int_at_least("k", k, 1)
    positive_int("d_ff", d_ff)
    positive_int("steps", steps)
    positive_int("points", points)
    data = make_task(task, points)
    renormalise = switch_form(k)
    runs = [(alpha, seed) for alpha in alphas for seed in seeds]
    starts = [moe_init(seed, num_experts, d_ff, data.Y.shape[1]) for _, seed in runs]
    w = {name: torch.stack([s[name] for s in starts]).requires_grad_(True) for name in starts[0]}
    y = data.Y.expand(len(runs), -1, -1)

    def losses(_step: int) -> torch.Tensor:  # every network at once, stacked along dim 0
        out, logits = moe_outputs(w, data.X, k, renormalise)
        task_loss = F.binary_cross_entropy_with_logits(out, y, reduction="none").mean(dim=(1, 2))
        balance = torch.stack(
            [balancing_loss(z, a) for z, (a, _) in zip(logits, runs, strict=True)]
        )
        return task_loss + balance

    with torch_threads(1):  # tiny tensors: one thread, not two fighting over a busy machine
        adam_steps(list(w.values()), losses, steps, lr)
    with torch.no_grad(), torch_threads(1):
        out, logits = moe_outputs(w, data.X, k, renormalise)
        load = torch.stack([expert_load(top_k_gates(z, k)) for z in logits]).numpy()
        right = accuracy(out, y)
    shape = (len(alphas), len(seeds))
    frozen = [{name: t[i].detach() for name, t in w.items()} for i in range(len(runs))]
    weights = tuple(tuple(frozen[a * len(seeds) : (a + 1) * len(seeds)]) for a in range(shape[0]))
    return RouterRuns(
        task,
        num_experts,
        k,
        d_ff,
        tuple(alphas),
        tuple(seeds),
        load.reshape(*shape, num_experts),
        right.reshape(shape),
        weights,
    )


def starting_load(num_experts: int = 8, k: int = 2, seeds: Sequence[int] = SEEDS) -> np.ndarray:
    """Each seed's load before any training, on the points the grid trains on: (seeds, E), the
    share of points whose top expert is each (the same starts as ``train_routers``')."""
    data = make_task(TRAINING["task"], TRAINING["points"])
    load = []
    with torch.no_grad(), torch_threads(1):
        for seed in seeds:
            w = moe_init(seed, num_experts, TRAINING["d_ff"], data.Y.shape[1])
            _, logits = moe_outputs(w, data.X, k, switch_form(k))
            load.append(expert_load(top_k_gates(logits, k)).numpy())
    return np.stack(load)


def first_choice_coverage(
    dims: Sequence[int], experts: int = 8, draws: int = 200, points: int = 2000, share: float = 0.05
) -> np.ndarray:
    """How many of ``experts`` bias-free router vectors (nn.Linear's uniform start) rank first on
    more than ``share`` of ``points`` Gaussian inputs, at each input dimension d of ``dims``, for
    ``draws`` independent starts (a generator seeded with d): (dims, draws) counts. Before any
    training: the geometry of the start alone."""
    counts = np.zeros((len(dims), positive_int("draws", draws)), dtype=int)
    with torch_threads(1):  # small products: one thread is faster
        for i, d in enumerate(dims):
            g = torch.Generator().manual_seed(positive_int("d", d))
            for j in range(draws):
                router, _ = uniform_layer(g, d, experts)  # W_r (d, E)
                x = torch.randn(points, d, generator=g, dtype=router.dtype)
                first = torch.bincount((x @ router).argmax(-1), minlength=experts)
                counts[i, j] = int((first > share * points).sum())
    return counts


def isotropic_busiest(
    d: int = 64, experts: int = 4, points: int = 3006, starts: int = 1000, seed: int = 0
) -> np.ndarray:
    """The busiest expert's share of first choices, (starts,), for ``starts`` bias-free routers
    d -> ``experts`` (nn.Linear's uniform start) on one batch of ``points`` isotropic Gaussian
    inputs: what a router's starting load looks like when its inputs have no direction of their
    own (lesson 5's fact model reads 3,006 real tokens)."""
    g = torch.Generator().manual_seed(seed)
    with torch_threads(1):
        routers = torch.cat([uniform_layer(g, d, experts)[0] for _ in range(starts)], dim=1)
        x = torch.randn(positive_int("points", points), d, generator=g, dtype=routers.dtype)
        first = (x @ routers).reshape(points, starts, experts).argmax(dim=-1)  # (points, starts)
        counts = F.one_hot(first, experts).sum(dim=0)  # (starts, experts)
    return (counts.max(dim=-1).values.double() / points).numpy()


def frequency_busiest(
    tokens: np.ndarray, d: int = 64, experts: int = 4, starts: int = 1000, seed: int = 0
) -> np.ndarray:
    """The busiest expert's share of first choices, (starts,), for ``starts`` bias-free routers
    d -> ``experts`` (nn.Linear's uniform start) on ``tokens`` (token ids, one per position), each
    word type given one isotropic Gaussian vector: the null ``isotropic_busiest`` draws, but with
    the corpus's word frequencies (a position's input is its word's vector). What a starting load
    looks like when only how often each word occurs is uneven, not its direction."""
    ids = np.asarray(tokens).ravel()
    if ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"tokens must be a non-empty array of token ids, got {tokens!r}")
    types, counts = np.unique(ids, return_counts=True)
    g = torch.Generator().manual_seed(seed)
    with torch_threads(1):
        routers = torch.cat(
            [uniform_layer(g, positive_int("d", d), experts)[0] for _ in range(starts)], dim=1
        )
        x = torch.randn(len(types), d, generator=g, dtype=routers.dtype)  # one per word type
        first = (x @ routers).reshape(len(types), starts, experts).argmax(dim=-1)
        weight = torch.as_tensor(counts, dtype=torch.float64)[:, None, None]
        shares = (F.one_hot(first, experts).double() * weight).sum(dim=0) / weight.sum()
    return shares.max(dim=-1).values.numpy()


def load_cells(load: np.ndarray, share: float = 0.05) -> list[str]:
    """Loads (seeds, E) as three table cells, each listing the seeds as the learner's language
    lists numbers: the busiest expert's share, how many experts are ranked first on more than
    ``share`` of the points, and how many are never ranked first."""
    return [
        series(load.max(axis=-1), ".2f"),
        series((load > share).sum(axis=-1)),
        series((load == 0).sum(axis=-1)),
    ]


def task_points(every: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The grid's training points (N, 2) and their labels (N,), every ``every``-th of them."""
    data = make_task(TRAINING["task"], TRAINING["points"])
    step = positive_int("every", every)
    return data.X[::step].numpy(), data.Y[::step, 0].numpy().round().astype(int)


def half_plane_shares(X: np.ndarray) -> np.ndarray:
    """The share of the points X (N, 2) on the positive side of every line through the origin: one
    value per distinct line, just either side of each point's own line (the shares change only
    there), so its minimum and maximum are exact. A bias-free 2-expert router ranks expert 0 first
    on one side of such a line."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or len(X) == 0:
        raise ValueError(f"X must be points of shape (N, 2), got shape {X.shape}")
    angle = np.arctan2(X[:, 1], X[:, 0]) + np.pi / 2  # the normal of the line through each point
    normals = np.concatenate([angle - 1e-9, angle + 1e-9])
    directions = np.stack([np.cos(normals), np.sin(normals)])  # (2, 2N)
    return (X @ directions > 0).mean(axis=0)


def dense_runs(d_ff: int) -> RouterRuns:
    """Dense FFNs 2 -> ``d_ff`` -> 1 on the grid's task, trained exactly as the mixtures are (one
    expert, whose gate is 1; the same starts, steps and rate), for every seed: stored ones where
    ``DENSE_FILE`` holds them, else trained now (``train_dense``)."""
    stored = stored_dense_runs(positive_int("d_ff", d_ff))
    return stored if stored is not None else train_dense(d_ff)


def train_dense(d_ff: int, seeds: Sequence[int] = SEEDS) -> RouterRuns:
    """``dense_runs`` trained now."""
    return train_routers(
        num_experts=1, k=1, alphas=(0.0,), seeds=tuple(seeds), **(TRAINING | {"d_ff": d_ff})
    )


def assignment_counts(runs: RouterRuns) -> np.ndarray:
    """How many of the task's points each expert runs on, every one of a point's k choices
    counted: (alphas, seeds, E), each row summing to k · points."""
    data = make_task(runs.task, TRAINING["points"])
    counts = np.zeros((len(runs.alphas), len(runs.seeds), runs.num_experts), dtype=int)
    with torch.no_grad(), torch_threads(1):
        for a, row in enumerate(runs.weights):
            for s, w in enumerate(row):
                _, logits = moe_outputs(w, data.X, runs.k, runs.renormalise)
                counts[a, s] = assignments(top_k_gates(logits, runs.k)).numpy()
    return counts


def bias_balancing(
    logits: torch.Tensor, k: int, steps: int, gamma: float = 0.001, step: Callable = balance_step
) -> np.ndarray:
    """DeepSeek-V3's bias balancing run on fixed router logits (tokens, E), nothing else trained:
    ``step(logits, bias, k, gamma)`` -> (gates, new bias), ``steps`` times from a zero bias.
    Returns each expert's share of the assignments before every step and after the last,
    (steps + 1, E)."""
    bias = torch.zeros(logits.shape[-1], dtype=logits.dtype)
    shares = []
    for _ in range(positive_int("steps", steps) + 1):
        gates, bias = step(logits, bias, k, gamma)
        counts = assignments(gates).double()
        shares.append((counts / counts.sum()).numpy())
    return np.stack(shares)


@dataclass(frozen=True)
class ExpertMap:
    """One network on a resolution x resolution grid over [-1, 1]^2 (rows go up in y)."""

    chosen: np.ndarray  # (res, res): the expert the router ranks first at each point
    logit: np.ndarray  # (res, res): the network's output; its decision boundary is where it is 0
    edges: np.ndarray  # (res, res) bool: where a unit of the chosen expert switches (see below)


def expert_map(w: dict[str, torch.Tensor], k: int, resolution: int = 120) -> ExpertMap:
    """Where the router sends each point, the network's output there, and each expert's own
    regions: a point is on an edge when its right or upper neighbour has the same first-ranked
    expert but another on/off pattern of that expert's ReLU units (lesson 3's regions, drawn
    only inside the expert's own territory)."""
    points = torch.as_tensor(grid(resolution), dtype=w["router"].dtype)
    with torch.no_grad(), torch_threads(1):
        out, logits = moe_outputs(w, points, k, switch_form(k))
        on = torch.einsum("nd,edh->enh", points, w["W1"]) + w["b1"] > 0  # (E, N, h)
    shape = (resolution, resolution)
    chosen = logits.argmax(dim=-1)
    pattern = on[chosen, torch.arange(len(points))].numpy().reshape(*shape, -1)
    chosen = chosen.numpy().reshape(shape)
    same_up, same_right = np.diff(chosen, axis=0) == 0, np.diff(chosen, axis=1) == 0
    switch_up = (np.diff(pattern, axis=0) != 0).any(axis=-1)
    switch_right = (np.diff(pattern, axis=1) != 0).any(axis=-1)
    edges = np.zeros(shape, dtype=bool)
    edges[:-1, :] |= same_up & switch_up
    edges[:, :-1] |= same_right & switch_right
    return ExpertMap(chosen, out[:, 0].numpy().reshape(shape), edges)


def save_router_runs(path: Path = ROUTER_FILE) -> int:
    """Train every (experts, k) of the grid for every balancing weight and seed, and store the
    weights, loads and accuracies with their settings; returns the file's size in bytes."""
    arrays: dict[str, object] = {}
    for experts in GRID_EXPERTS:
        for k in GRID_K:
            runs = train_routers(
                num_experts=experts, k=k, alphas=GRID_ALPHAS, seeds=SEEDS, **TRAINING
            )
            arrays |= _packed(runs, f"{experts}-{k}")
    settings = TRAINING | {"experts": GRID_EXPERTS, "k": GRID_K, "alphas": GRID_ALPHAS}
    return save_npz(path, arrays, settings | {"seeds": SEEDS})


def _packed(runs: RouterRuns, key: str) -> dict[str, np.ndarray]:
    """``runs``' loads, accuracies and weights as arrays named ``key|…``, alphas x seeds first."""
    arrays = {f"{key}|load": runs.load, f"{key}|accuracy": runs.accuracy}
    for name in WEIGHTS:
        arrays[f"{key}|{name}"] = np.stack(
            [np.stack([w[name].numpy() for w in row]) for row in runs.weights]
        )
    return arrays


def _unpacked(arrays: dict, settings: dict, key: str, num_experts: int, k: int, d_ff: int):
    """The ``RouterRuns`` that ``_packed`` stored under ``key``, or None where there are none."""
    if f"{key}|load" not in arrays:
        return None
    alphas, seeds = tuple(float(a) for a in settings["alphas"]), tuple(settings["seeds"])
    stacked = {name: torch.from_numpy(arrays[f"{key}|{name}"]) for name in WEIGHTS}
    weights = tuple(
        tuple({name: stacked[name][a, s] for name in WEIGHTS} for s in range(len(seeds)))
        for a in range(len(alphas))
    )
    load, accuracy = arrays[f"{key}|load"], arrays[f"{key}|accuracy"]
    return RouterRuns(
        settings["task"], num_experts, k, d_ff, alphas, seeds, load, accuracy, weights
    )


@lru_cache(maxsize=8)
def stored_router_runs(num_experts: int, k: int, path: Path = ROUTER_FILE) -> RouterRuns | None:
    """The stored runs of (``num_experts``, ``k``) for every alpha and seed of the grid, or None
    where the file does not hold them."""
    arrays, settings = load_npz(
        path, "set of router runs", "course_lib.lessons.l07_mixture_of_experts.experiments"
    )
    return _unpacked(arrays, settings, f"{num_experts}-{k}", num_experts, k, settings["d_ff"])


def save_dense_runs(path: Path = DENSE_FILE) -> int:
    """Train the dense FFN of every width of ``DENSE_WIDTHS`` for every seed and store them as
    ``save_router_runs`` stores the mixtures; returns the file's size in bytes."""
    arrays: dict[str, object] = {}
    for d_ff in DENSE_WIDTHS:
        arrays |= _packed(train_dense(d_ff), f"dense-{d_ff}")
    settings = TRAINING | {"widths": DENSE_WIDTHS, "alphas": (0.0,), "seeds": SEEDS}
    return save_npz(path, arrays, settings)


@lru_cache(maxsize=4)
def stored_dense_runs(d_ff: int, path: Path = DENSE_FILE) -> RouterRuns | None:
    """The stored dense FFNs of width ``d_ff`` for every seed, or None where the file has none."""
    arrays, settings = load_npz(
        path, "set of dense runs", "course_lib.lessons.l07_mixture_of_experts.experiments"
    )
    return _unpacked(arrays, settings, f"dense-{d_ff}", 1, 1, d_ff)


def save_long_runs(path: Path = LONG_FILE) -> int:
    """Train the 8-expert, top-2 mixture for every alpha of the grid and the dense FFN of its total
    width for ``LONG_STEPS`` steps, every seed, everything else as the grid; store them as
    ``save_router_runs`` does and return the file's size in bytes."""
    long, width = TRAINING | {"steps": LONG_STEPS}, DENSE_WIDTHS[1]
    mixture = train_routers(num_experts=8, k=2, alphas=GRID_ALPHAS, seeds=SEEDS, **long)
    dense = train_routers(
        num_experts=1, k=1, alphas=(0.0,), seeds=SEEDS, **(long | {"d_ff": width})
    )
    arrays = _packed(mixture, "8-2") | _packed(dense, f"dense-{width}")
    return save_npz(path, arrays, long | {"alphas": GRID_ALPHAS, "seeds": SEEDS, "width": width})


@lru_cache(maxsize=1)
def stored_long_runs(path: Path = LONG_FILE) -> tuple[RouterRuns, RouterRuns]:
    """(the 8-expert, top-2 mixtures, the dense FFNs of their total width) trained for
    ``LONG_STEPS`` steps, as ``save_long_runs`` stored them."""
    arrays, settings = load_npz(
        path,
        "set of long router runs",
        "course_lib.lessons.l07_mixture_of_experts.experiments long",
    )
    width = settings["width"]
    mixture = _unpacked(arrays, settings, "8-2", 8, 2, settings["d_ff"])
    dense = _unpacked(arrays, settings | {"alphas": (0.0,)}, f"dense-{width}", 1, 1, width)
    return mixture, dense


def router_runs(
    num_experts: int = 8, k: int = 2, alphas: Sequence[float] = (0.0, 0.1)
) -> RouterRuns:
    """The grid's networks of (``num_experts``, ``k``) for ``alphas`` and every seed: stored
    ones where ``ROUTER_FILE`` holds them, else trained now with the grid's settings."""
    stored = stored_router_runs(int_at_least("num_experts", num_experts, 1), k)
    if stored is not None and set(alphas) <= set(stored.alphas):
        return stored.select(alphas)
    return train_routers(num_experts=num_experts, k=k, alphas=alphas, seeds=SEEDS, **TRAINING)


def main(argv: Sequence[str]) -> None:
    """Rebuild ``ROUTER_FILE`` (no argument), ``DENSE_FILE`` ("dense") or ``LONG_FILE`` ("long"):
    ``python -m course_lib.lessons.l07_mixture_of_experts.experiments [dense|long]``."""
    began = time.perf_counter()
    if list(argv) == ["dense"]:
        size, networks, path = save_dense_runs(), len(DENSE_WIDTHS) * len(SEEDS), DENSE_FILE
    elif list(argv) == ["long"]:
        size, networks, path = save_long_runs(), (len(GRID_ALPHAS) + 1) * len(SEEDS), LONG_FILE
    elif not argv:
        networks = len(GRID_EXPERTS) * len(GRID_K) * len(GRID_ALPHAS) * len(SEEDS)
        size, path = save_router_runs(), ROUTER_FILE
    else:
        raise ValueError(f"argv must be empty, ['dense'] or ['long'], got {list(argv)}")
    print(
        f"trained {networks} networks in {time.perf_counter() - began:.0f} s; "
        f"{size / 1024:.0f} KiB in {path}"
    )


__getattr__, __dir__ = submodules(__name__)  # its modules load when first used
