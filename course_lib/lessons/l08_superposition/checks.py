"""Checkers for lesson 8: the TopK sparse autoencoder's activations (Gao et al. 2024), the decoder
normalisation an L1 sparse autoencoder needs (Bricken et al. 2023), and two predictions: which
features a dense toy model keeps, and how many of a wide dictionary's features die."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from numbers import Integral, Real

import numpy as np
import torch

from course_lib.core._validate import int_at_least, positive_int
from course_lib.core.checks import (
    CheckResult,
    Hint,
    close,
    first_suspect,
    require_close,
    require_return,
    require_shape,
    run_check,
)
from course_lib.core.experiments.training import Adam
from course_lib.core.i18n import N_, series, tr
from course_lib.lessons.l08_superposition.experiments.dictionary import (
    SparseDictionary,
    dictionary_loss,
)
from course_lib.lessons.l08_superposition.experiments.toy_grid import stored_grid

# ---- TopK's activations: z = ReLU(TopK(pre)), the ReLU after the TopK as in Gao et al.'s code


def topk_reference(pre: torch.Tensor, k: int) -> torch.Tensor:
    """The k largest pre-activations of each row through a ReLU, every other 0:
    (..., n_features) -> (..., n_features)."""
    top = pre.topk(k, dim=-1)
    return torch.zeros_like(pre).scatter(-1, top.indices, torch.relu(top.values))


def topk_case(seed: int) -> tuple[torch.Tensor, int]:
    """Pre-activations (rows, n) or (batch, seq, n) and k, drawn from ``seed``. Each row is
    shifted by up to −2, so that some rows keep negative values among their k largest; every
    dimension is at least n long, so that a topk over a wrong dimension still runs."""
    g = torch.Generator().manual_seed(seed)
    n = int(torch.randint(6, 17, (1,), generator=g))
    k = int(torch.randint(2, n // 2 + 1, (1,), generator=g))
    lead = torch.randint(n, n + 6, (1 + seed % 2,), generator=g).tolist()
    shift = torch.rand(*lead, 1, generator=g, dtype=torch.float64) * 3 - 2
    return torch.randn(*lead, n, generator=g, dtype=torch.float64) + shift, k


def _topk_suspects(pre: torch.Tensor, k: int) -> dict[str, torch.Tensor]:
    """The usual wrong activations, each keyed by the hint that names its mistake."""
    top, smallest = pre.topk(k, dim=-1), pre.topk(k, dim=-1, largest=False)
    by_size = pre.abs().topk(k, dim=-1).indices
    suspects = {}
    for dim in range(pre.dim() - 1):
        across = pre.topk(k, dim=dim)
        suspects[tr(
            "the k largest are taken over dim {dim}, across rows: take them over each row's "
            "features, dim=-1", dim=dim,
        )] = torch.zeros_like(pre).scatter(dim, across.indices, torch.relu(across.values))  # fmt: skip
    return suspects | {
        tr("negative values are kept: apply the ReLU after keeping the k largest, so that "
           "no activation is below 0"): torch.zeros_like(pre).scatter(-1, top.indices, top.values),
        tr("every positive pre-activation is kept: keep only the k largest of each row"): (
            torch.relu(pre)
        ),
        tr("the k largest in absolute value are kept: keep the k largest values, a large "
           "negative pre-activation is a feature far from firing"): torch.zeros_like(pre).scatter(
            -1, by_size, torch.relu(pre.gather(-1, by_size))
        ),
        tr("the k smallest pre-activations are kept: keep the k largest (largest=True, the "
           "default of topk)"): torch.zeros_like(pre).scatter(
            -1, smallest.indices, torch.relu(smallest.values)
        ),
    }  # fmt: skip


def check_topk_encoder(fn: Callable) -> CheckResult:
    """``fn(pre, k)`` must return the TopK sparse autoencoder's activations,
    ``topk_reference(pre, k)``: pre (..., n_features) -> (..., n_features)."""

    def check() -> str:
        for seed in (0, 1, 2):
            pre, k = topk_case(seed)
            got = require_return(fn(pre.clone(), k))
            expected = topk_reference(pre, k)
            require_shape(got, expected, N_(
                "the activations have shape {got}, expected {expected}: one per feature, 0 for "
                "the features not kept; scatter the k kept values back into place"
            ))  # fmt: skip
            if not close(got, expected) and set(torch.as_tensor(got).unique().tolist()) <= {0, 1}:
                raise Hint(tr("these are 0s and 1s, a mask of the kept features: return the kept "
                              "values themselves, through the ReLU"))  # fmt: skip
            require_close(
                got,
                expected,
                partial(_topk_suspects, pre, k),
                tr("the activations differ from ReLU(TopK(pre)): the k largest pre-activations "
                   "of each row through a ReLU, every other feature 0"),
            )  # fmt: skip
        return tr(
            "at most k features fire in each row, none below 0. (A ReLU before the TopK gives the "
            "same: either way the positive values among the k largest remain.)"
        )

    return run_check(N_("TopK activations"), check)


# ---- an L1 sparse autoencoder's decoder directions, held at norm 1 after every step

STEPS = 4  # steps of each checked trajectory
L1 = 0.3  # the penalty: strong enough that scaling pays within 300 steps


def sparse_data(g: torch.Generator, rows: int, d: int, n_true: int) -> torch.Tensor:
    """x = c D: each row a sum of a few of ``n_true`` unit directions D in d dimensions, each
    present with probability 0.1 at a size uniform in [0, 1]. (rows, d)."""
    D = torch.randn(n_true, d, generator=g, dtype=torch.float64)
    D /= D.norm(dim=1, keepdim=True)
    present = torch.rand(rows, n_true, generator=g, dtype=torch.float64) < 0.1
    return (torch.rand(rows, n_true, generator=g, dtype=torch.float64) * present) @ D


def l1_problem(seed: int) -> tuple[SparseDictionary, Adam, torch.Tensor, float]:
    """An L1 sparse autoencoder (float64, its decoder's rows at norm 1), its Adam (lr 0.01; the
    course's, which steps as torch.optim.Adam does), its data and its penalty; the sizes drawn
    from ``seed``."""
    g = torch.Generator().manual_seed(seed)
    d = int(torch.randint(4, 11, (1,), generator=g))
    n = d * int(torch.randint(2, 5, (1,), generator=g))
    rows = int(torch.randint(32, 97, (1,), generator=g))
    sae = SparseDictionary(d, d, n, generator=g).double()
    return sae, Adam(list(sae.parameters()), lr=0.01), sparse_data(g, rows, d, n), L1


def _rows_to_one(W: torch.Tensor, dim: int = 1, power: int = 1) -> None:
    W /= W.norm(dim=dim, keepdim=True) ** power


def _step(sae, x, optimiser, l1, before=None, after=None, project=False) -> None:
    """One Adam step on dictionary_loss, with ``before`` / ``after`` applied to the dictionary
    (under no_grad) around it: the reference normalises W_dec's rows after it. ``project``: the
    gradient's component along each row of W_dec taken off before the step."""
    with torch.no_grad():
        (before or (lambda _: None))(sae)
    optimiser.zero_grad()
    dictionary_loss(sae, x, x, l1).backward()
    if project:
        with torch.no_grad():
            remove_parallel_gradient(sae)
    optimiser.step()
    with torch.no_grad():
        (after or (lambda _: None))(sae)


def remove_parallel_gradient(sae: SparseDictionary) -> None:
    """The gradient of each decoder row less its component along the row (rows of norm 1), so
    that a small step turns the direction without lengthening it: SAELens's and EleutherAI's
    ``remove_gradient_parallel_to_decoder_directions``."""
    W, grad = sae.W_dec, sae.W_dec.grad
    grad -= (grad * W).sum(dim=1, keepdim=True) * W


REFERENCE = partial(_step, after=lambda sae: sae.normalise_decoder())
# SAELens's and EleutherAI's step: the parallel gradient removed, the step, then the rows
# renormalised (a step of finite size along the sphere still leaves it)
PROJECTED = partial(_step, after=lambda sae: sae.normalise_decoder(), project=True)
ACCEPTED = (REFERENCE, PROJECTED)


def _step_suspects() -> list[tuple[str, Callable]]:
    """The usual wrong steps, each with the hint that names its mistake."""
    encoder = tr("the encoder was normalised: the L1 rule holds the decoder's directions, the "
                 "rows of W_dec, at norm 1")  # fmt: skip
    return [
        ("", _step),  # no normalisation: its hint carries the scaling run's numbers
        (tr("W_dec was normalised over dim 0, each of its d columns: feature i's direction is "
            "row i of W_dec (n_features, d), so take the norm over dim=1"),
         partial(_step, after=lambda sae: _rows_to_one(sae.W_dec, dim=0))),
        (encoder, partial(_step, after=lambda sae: _rows_to_one(sae.W_enc, dim=0))),
        (encoder, partial(_step, after=lambda sae: _rows_to_one(sae.W_enc, dim=1))),
        (tr("each row was divided by its squared norm, which leaves it at 1/norm: divide by "
            "the norm itself"),
         partial(_step, after=lambda sae: _rows_to_one(sae.W_dec, power=2))),
        (tr("the rows are normalised before optimiser.step(): the step moves them off norm 1 "
            "again, and the dictionary the last step leaves is not normalised; normalise after "
            "the step"), partial(_step, before=lambda sae: sae.normalise_decoder())),
        (tr("the gradient's component along each row is removed, but a step of finite size "
            "along the sphere still leaves it: divide each row of W_dec by its norm after "
            "optimiser.step() as well"), partial(_step, project=True)),
    ]  # fmt: skip


def trajectory(step: Callable, seed: int, steps: int = STEPS) -> list[dict[str, torch.Tensor]]:
    """The dictionary's parameters after each of ``steps`` calls of ``step(sae, x, optimiser,
    l1)`` on ``l1_problem(seed)``."""
    sae, optimiser, x, l1 = l1_problem(seed)
    kept, states = dict(sae.named_parameters()), []
    for _ in range(steps):
        try:
            step(sae, x, optimiser, l1)
        except RuntimeError as error:
            if "leaf Variable" not in str(error):
                raise
            raise Hint(tr("W_dec is a parameter that requires grad: change it in place inside "
                          "`with torch.no_grad():`")) from error  # fmt: skip
        if any(p is not kept[name] for name, p in sae.named_parameters()):
            raise Hint(
                tr(
                    "W_dec was replaced by a new tensor, which the optimiser does not "
                    "hold: change it in place (sae.W_dec /= ...) inside torch.no_grad()"
                )
            )
        states.append({name: p.detach().clone() for name, p in sae.named_parameters()})
    return states


def scaling_run(step: Callable, steps: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """What ``step`` does to the L1 penalty's trade over ``steps`` steps: the decoder rows' mean
    norm and the mean activation on the data after each step, (steps,) each. Without the
    normalisation the norms grow and the activations shrink: the penalty is beaten by scaling."""
    g = torch.Generator().manual_seed(seed)
    sae = SparseDictionary(8, 8, 32, generator=g).double()
    optimiser, x = Adam(list(sae.parameters()), lr=0.01), sparse_data(g, 256, 8, 16)
    norms, activations = np.zeros(steps), np.zeros(steps)
    for i in range(steps):
        step(sae, x, optimiser, L1)
        with torch.no_grad():
            norms[i], activations[i] = sae.W_dec.norm(dim=1).mean(), sae.encode(x).mean()
    return norms, activations


def _unnormalised_hint(step: Callable) -> str:
    norms, activations = scaling_run(step)
    reference = scaling_run(REFERENCE)[1]
    return tr(
        "the decoder's directions are not normalised: in {steps} steps their mean norm grew to "
        "{norm:.2f} and the mean activation fell to {act:.4f} (held at norm 1: {ref:.4f}); the "
        "L1 penalty is beaten by shrinking f and growing W_dec. After optimiser.step(), divide "
        "each row of W_dec by its norm",
        steps=len(norms), norm=norms[-1], act=activations[-1], ref=reference[-1],
    )  # fmt: skip


def _same(a: list[dict], b: list[dict]) -> bool:
    return all(close(x[name], y[name]) for x, y in zip(a, b, strict=True) for name in x)


def _step_hint(step: Callable, got: list[dict], seed: int) -> str:
    """Why the learner's trajectory ``got`` is not the reference's: the first suspect it follows
    (each suspect's trajectory run only if the ones before it did not match)."""
    runs = ((hint, trajectory(suspect, seed)) for hint, suspect in _step_suspects())
    hint = first_suspect(got, runs, same=_same)
    if hint is not None:
        return hint or _unnormalised_hint(step)
    norms = got[-1]["W_dec"].norm(dim=1)
    if not close(norms, torch.ones_like(norms)):
        return tr("after your step the decoder's directions have norms from {low:.3f} to "
                  "{high:.3f}, not 1: divide each row of W_dec by its norm after "
                  "optimiser.step()", low=norms.min().item(), high=norms.max().item())  # fmt: skip
    return tr("the directions have norm 1, but the step differs from the reference: take the "
              "plain step (zero_grad, loss, backward, step), optionally removing the gradient's "
              "component along each row before it, then divide each row of W_dec by its "
              "norm")  # fmt: skip


def check_decoder_norm(fn: Callable) -> CheckResult:
    """``fn(sae, x, optimiser, l1)`` must take one Adam step on ``dictionary_loss`` and then hold
    every decoder direction (a row of W_dec) at norm 1, with or without the gradient's component
    along each row removed before the step (``ACCEPTED``); checked over a few steps of small L1
    sparse autoencoders drawn at random."""

    def check() -> str:
        for seed in (0, 1, 2):
            got = trajectory(fn, seed)
            if not any(_same(got, trajectory(step, seed)) for step in ACCEPTED):
                raise Hint(_step_hint(fn, got, seed))
        return tr(
            "every direction is back at norm 1 after each step: the L1 penalty can only be "
            "lowered by sparser activations, not by shrinking f and growing W_dec."
        )

    return run_check(N_("decoder normalisation"), check)


# ---- predictions

DENSE_DECAY = 0.9  # the dense toy model's importance, I_i = 0.9^i


def dense_norms() -> np.ndarray:
    """‖W_i‖ of each feature of the stored dense toy model (S = 0, I_i = 0.9^i, n 5, m 2): (n,)."""
    grid = stored_grid("superposition")
    W = grid.W[grid.axes["sparsity"].index(0.0), grid.axes["decay"].index(DENSE_DECAY)]
    return np.linalg.norm(W, axis=0)


def dense_kept() -> set[int]:
    """The features the stored dense toy model keeps: those whose direction has norm over 0.5."""
    return {int(i) for i in np.flatnonzero(dense_norms() > 0.5)}


def _feature_set(answer: object, n: int) -> set[int]:
    if not isinstance(answer, set | frozenset | list | tuple) or not all(
        isinstance(i, Integral) and not isinstance(i, bool) for i in answer
    ):
        raise Hint(tr("return a set of feature indices, counted from 0 (feature 0 is the most "
                      "important), got {answer!r}", answer=answer))  # fmt: skip
    if not all(0 <= i < n for i in answer):
        raise Hint(tr("the features are numbered 0 to {last}, counted from 0", last=n - 1))
    return {int(i) for i in answer}


def _dense_hint(got: set[int], kept: set[int], n: int, m: int) -> str:
    """Why ``got`` is not the set of features the dense model keeps (``kept``)."""
    if got == {i + 1 for i in kept}:
        return tr("indices count from 0: feature 0 is the most important (I_0 = 0.9^0 = 1)")
    if len(got) == n:
        return tr("all five is the sparse regime: with S = 0 every feature is in every input, so "
                  "features sharing a dimension interfere every time, and the model gives each "
                  "kept feature a dimension of its own")  # fmt: skip
    if len(got) != m:
        return tr("the model has m = {m} dimensions: with dense features it keeps as many "
                  "features as it has dimensions, one per dimension", m=m)  # fmt: skip
    if got == set(range(n - m, n)):
        return tr("importance falls with the index, I_i = 0.9^i: feature 0 matters most, the last "
                  "one least")  # fmt: skip
    return tr("{m} features, yes, one per dimension; but which? A dropped feature costs its "
              "importance, so the model keeps the most important ones", m=m)  # fmt: skip


def check_dense_toy_prediction(fn: Callable) -> CheckResult:
    """``fn()`` returns the set of features (counted from 0) that the dense toy model (S = 0, 5
    features in 2 dimensions, I_i = 0.9^i) represents; the stored model decides (``dense_kept``)."""

    def check() -> str:
        norms, kept = dense_norms(), dense_kept()
        answer = require_return(fn())
        got = _feature_set(answer, len(norms))
        if got != kept:
            raise Hint(_dense_hint(got, kept, len(norms), stored_grid("superposition").W.shape[-2]))
        return tr(
            "the stored model's ‖W_i‖: {norms}. With importances that differ, dense features do "
            "not share: the model keeps the most important ones, each in a dimension of its own, "
            "and drops the rest (the paper's reason: a dense feature would interfere on every "
            "input).", norms=series(norms, ".2f"),
        )  # fmt: skip

    return run_check(N_("dense toy prediction"), check)


DEAD_TOLERANCE = 0.15  # a prediction within 15 points of the measured share passes


def check_dead_prediction(fn: Callable, measured_dead: int, n_features: int) -> CheckResult:
    """``fn()`` returns the predicted share (0 to 1) of a dictionary's ``n_features`` features
    that never fire; the stored run measured ``measured_dead``. Passes within DEAD_TOLERANCE of
    the measured share, else says which way the prediction missed, and why."""
    positive_int("n_features", n_features)
    if int_at_least("measured_dead", measured_dead, 0) > n_features:
        raise ValueError(
            f"measured_dead must be at most n_features={n_features}, got {measured_dead}"
        )
    share = measured_dead / n_features

    def check() -> str:
        got = require_return(fn())
        if isinstance(got, bool) or not isinstance(got, Real) or not 0 <= got <= 1:
            raise Hint(tr("give the share of features, a number from 0 to 1 (0.25 for a quarter), "
                          "got {got!r}", got=got))  # fmt: skip
        measured = tr("measured: {dead} of {n} features ({share:.0%}) never fire",
                      dead=measured_dead, n=n_features, share=share)  # fmt: skip
        if got < share - DEAD_TOLERANCE:
            raise Hint(tr("{measured}, more than your {got:.0%}: a feature that fires on no "
                          "input gets no gradient, so once dead it stays dead; the wider the "
                          "dictionary, the more features the data leaves idle",
                          measured=measured, got=float(got)))  # fmt: skip
        if got > share + DEAD_TOLERANCE:
            raise Hint(tr("{measured}, fewer than your {got:.0%}: most features still find inputs "
                          "to fire on, and each input keeps the features it fires alive",
                          measured=measured, got=float(got)))  # fmt: skip
        return tr("{measured}; you predicted {got:.0%}.", measured=measured, got=float(got))

    return run_check(N_("dead features prediction"), check)
