"""Checkers for lesson 9: Tang et al.'s LAPE written by the learner, the bug in an activation
probability that counts padding, and a prediction of how many facts taught in English only the
model answers in Chinese."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from numbers import Real

import numpy as np
import torch

from course_lib.core._validate import int_at_least, positive_int
from course_lib.core.checks import CheckResult, Hint, require_close, require_return, run_check
from course_lib.core.i18n import N_, tr
from course_lib.lessons.l09_two_languages.experiments.one_memory import ACTIVE, lape

# ---- LAPE: the entropy of each unit's activation probabilities, normalised over the languages


def lape_case(seed: int) -> np.ndarray:
    """Activation probabilities (layers, units, languages) drawn from ``seed``, some units silent
    in one language and one silent in all (its LAPE is 0 by the 0 log 0 = 0 convention)."""
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(2, 4)), int(rng.integers(5, 12)), int(rng.integers(2, 4)))
    p = rng.uniform(0, 1, shape) * (rng.uniform(0, 1, shape) > 0.25)
    p[0, 0] = 0.0
    return p


def _lape_suspects(p: np.ndarray) -> dict[str, np.ndarray]:
    """The usual wrong LAPEs, each keyed by the hint that names its mistake."""

    def entropy(q):
        return -(q * np.log(np.where(q > 0, q, 1.0))).sum(-1)

    def share(axis):
        return p / np.maximum(p.sum(axis, keepdims=True), 1e-300)

    return {
        tr("the probabilities were not normalised: divide each unit's probabilities by their sum "
           "over the languages first, so that they sum to 1"): entropy(p),
        tr("the probabilities were normalised over the units (axis 1): normalise each unit's "
           "probabilities over the languages, the last axis"): entropy(share(1)),
        tr("the entropy is in bits (log 2): Tang et al. use the natural logarithm"): (
            entropy(share(-1)) / np.log(2)
        ),
        tr("the sign is missing: an entropy is minus the sum of q log q, never below 0"): (
            -entropy(share(-1))
        ),
    }  # fmt: skip


def check_lape(fn: Callable) -> CheckResult:
    """``fn(probability)`` must return Tang et al.'s LAPE of every unit: probability (layers,
    units, languages) -> (layers, units)."""

    def check() -> str:
        for seed in (0, 1, 2):
            p = lape_case(seed)
            got = require_return(fn(p.copy()))
            got = got.numpy() if isinstance(got, torch.Tensor) else np.asarray(got, dtype=float)
            expected = lape(p)
            if got.shape != expected.shape:
                raise Hint(tr("LAPE has shape {got}, expected {expected}: one entropy per unit, "
                              "taken over the last axis (the languages)",
                              got=got.shape, expected=expected.shape))  # fmt: skip
            if np.isnan(got).any():
                raise Hint(tr("some values are NaN: a unit silent in a language has q = 0 there, "
                              "and 0 log 0 counts as 0 (use np.where before the log)"))  # fmt: skip
            require_close(got, expected, partial(_lape_suspects, p),
                          tr("the values differ from -sum(q log q), q = p / p.sum(-1)"))  # fmt: skip
        return tr("0 for a unit that fires in one language only, log L for one that fires equally "
                  "in all L languages.")  # fmt: skip

    return run_check(N_("LAPE"), check)


# ---- find the bug: an activation probability that counts padding


def _shares(hidden: torch.Tensor, counted: torch.Tensor, language: np.ndarray) -> torch.Tensor:
    """How often each unit fires (above ACTIVE) at the ``counted`` positions (lines, L) of each
    language's lines: (units, 2)."""
    out = []
    for lang in (0, 1):
        mask = counted * torch.from_numpy(language == lang).double()[:, None]
        out.append(((hidden > ACTIVE).double() * mask[..., None]).sum((0, 1)) / mask.sum())
    return torch.stack(out, -1)


def activation_reference(hidden: torch.Tensor, tokens: torch.Tensor, language: np.ndarray):
    """How often each unit fires (above ACTIVE) on each language's real tokens, <bos> and padding
    left out: hidden (lines, L, units), tokens (lines, L), language (lines,) -> (units, 2)."""
    real = (tokens != 0).double()
    real[:, 0] = 0
    return _shares(hidden, real, language)


def activation_case(seed: int) -> tuple[torch.Tensor, torch.Tensor, np.ndarray]:
    """Hidden units, tokens (padded, lines of uneven length) and line languages from ``seed``;
    the padding's hidden units fire too, as a real model's do."""
    g = torch.Generator().manual_seed(seed)
    lines, width, units = 12, 9, int(torch.randint(4, 9, (1,), generator=g))
    lengths = torch.randint(3, width + 1, (lines,), generator=g)
    tokens = torch.randint(2, 50, (lines, width), generator=g)
    tokens[torch.arange(width)[None, :] >= lengths[:, None]] = 0
    tokens[:, 0] = 1  # <bos>
    hidden = torch.relu(torch.randn(lines, width, units, generator=g, dtype=torch.float64))
    return hidden, tokens, np.array([i % 2 for i in range(lines)])


def _activation_suspects(hidden, tokens, language) -> dict[str, torch.Tensor]:
    everywhere = torch.ones(tokens.shape, dtype=torch.float64)
    but_bos = everywhere.clone()
    but_bos[:, 0] = 0
    return {
        tr("padding and <bos> are both counted: leave out the positions where the token is <pad> "
           "(id 0), and position 0"): _shares(hidden, everywhere, language),
        tr("padding is still counted: the mask must leave out the positions where the token is "
           "<pad> (id 0)"): _shares(hidden, but_bos, language),
        tr("<bos> is still counted: it is the same token in both languages, so leave out "
           "position 0"): _shares(hidden, (tokens != 0).double(), language),
    }  # fmt: skip


def check_activation_fix(fn: Callable) -> CheckResult:
    """``fn(hidden, tokens, language)`` must return ``activation_reference``'s probabilities."""

    def check() -> str:
        for seed in (0, 1, 2):
            hidden, tokens, language = activation_case(seed)
            got = require_return(fn(hidden.clone(), tokens.clone(), language.copy()))
            expected = activation_reference(hidden, tokens, language)
            require_close(got, expected, partial(_activation_suspects, hidden, tokens, language),
                          tr("the probabilities differ: count a unit's firings on one language's "
                             "real tokens and divide by how many there are"))  # fmt: skip
        return tr(
            "lines of one language are shorter or longer than the other's, so counting "
            "padding would shift one language's probabilities more than the other's."
        )

    return run_check(N_("activation probability, fixed"), check)


# ---- predict: how many facts taught only in English the model answers in Chinese

PREDICTION_TOLERANCE = 6  # facts: three standard deviations of a count of 36 guesses at 1 in 8


def check_transfer_prediction(
    fn: Callable, measured: int, facts: int, never: int | None = None
) -> CheckResult:
    """``fn()`` returns how many of ``facts`` facts, taught only in English, the learner predicts
    the model answers right (top-1) asked in Chinese; the models answered ``measured``. Passes
    within PREDICTION_TOLERANCE, except 0 where the models got some right: a guess among the
    relation's answers is right now and then. ``never``, when given, is how many of ``facts``
    facts never taught the same models answer right asked in Chinese; the message prints it
    beside a blind guess (``facts`` / 8), and the verdict ("no more than a guess" or "more than
    a guess") follows ``measured`` against the higher of the two."""
    positive_int("facts", facts)
    if int_at_least("measured", measured, 0) > facts:
        raise ValueError(f"measured must be at most facts={facts}, got {measured}")
    if never is not None and int_at_least("never", never, 0) > facts:
        raise ValueError(f"never must be at most facts={facts}, got {never}")

    def check() -> str:
        got = require_return(fn())
        if isinstance(got, bool) or not isinstance(got, Real) or not 0 <= got <= facts:
            raise Hint(tr("give a count of facts, a number from 0 to {n}, got {got!r}",
                          n=facts, got=got))  # fmt: skip
        found = tr("measured: {m} of {n}", m=measured, n=facts)
        guess = facts / 8  # a blind guess among the relation's 8 answers
        chance = guess if never is None else max(guess, never)  # what no transfer gets
        if got > measured + PREDICTION_TOLERANCE:
            raise Hint(found + (tr(". Too many: the Chinese prompt does no better than a guess.")
                                if measured <= chance else tr(". Too many.")))  # fmt: skip
        if got < measured - PREDICTION_TOLERANCE or got == 0 < measured:  # 0: no guess at all
            raise Hint(found + tr(". Too few: even a guess among 8 answers is right now and then."))
        verdict = (tr(". No more than a guess") if measured <= chance
                   else tr(". More than a guess"))  # fmt: skip
        if never is None:
            return found + verdict + tr(": a blind guess among 8 answers gets {g:g} of {n}.",
                                        g=guess, n=facts)  # fmt: skip
        return found + verdict + tr(": a blind guess among 8 answers gets {g:g} of {n}; the "
                                    "facts never taught, asked in Chinese, get {k}.",
                                    g=guess, n=facts, k=never)  # fmt: skip

    return run_check(N_("transfer prediction"), check)
