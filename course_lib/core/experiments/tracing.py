"""Causal tracing (Meng et al. 2022, "ROME"): where a model reads a fact, the parts two lessons share.

Run each fact's prompt clean; run it again with the subject's input embeddings corrupted by
Gaussian noise (3 times the embeddings' standard deviation, as the paper does), so that p(answer)
collapses; then restore one hidden state from the clean run (the stream entering the first block or
leaving any block, an attention output or an FFN output, at one position) and measure how much of
p(answer) comes back. The subject is wherever its facts say (``Fact.subject_positions``): one
token for lesson 5's facts, several for a subject spelled in several tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from course_lib.core._validate import positive_int
from course_lib.core.experiments.facts import Corpus
from course_lib.core.model.language_model import LanguageModel
from course_lib.core.threads import torch_threads

NOISE = 3.0  # the corruption's scale, in standard deviations of the embedded inputs
SITES = ("stream", "attention", "ffn")  # a block's output, its attention's output, its FFN's


def _site(site: str, row: int) -> str:
    """The hook point that holds the state ``row`` of ``site``: the stream's row 0 is what
    enters the first block (embeddings plus positions), row i + 1 what leaves block i."""
    if site not in SITES:
        raise ValueError(f"site must be one of {list(SITES)}, got {site!r}")
    if site == "stream":
        return "layers.0.hook_resid_pre" if row == 0 else f"layers.{row - 1}.hook_resid_post"
    return f"layers.{row}.{'self_attn' if site == 'attention' else 'ffn'}.hook_out"


def rows(model: LanguageModel, site: str) -> int:
    """How many states a site has: one per block, and the stream one more (its input)."""
    return len(model.layers) + (site == "stream")


def states(model: LanguageModel, prompts: torch.Tensor, site: str) -> list[torch.Tensor]:
    """Every row of ``site`` for ``prompts``: (batch, seq_len, d_model) each."""
    names = [_site(site, row) for row in range(rows(model, site))]
    with torch.no_grad():
        _, cache = model.run_with_cache(prompts, names_filter=names)
    return [cache[name] for name in names]


def subject_positions(corpus: Corpus) -> tuple[int, ...]:
    """The subject's positions in the prompts' tensor, which every fact of ``corpus`` shares (the
    prompts are traced as one batch, so they must)."""
    found = sorted({fact.subject_positions for fact in corpus.facts})
    if len(found) != 1:
        raise ValueError(f"corpus' facts must share one subject_positions, got {found}")
    return found[0]


def _answer_p(model: LanguageModel, prompts: torch.Tensor, answers: torch.Tensor) -> torch.Tensor:
    probabilities = model(prompts)[:, -1].softmax(dim=-1)
    return probabilities[torch.arange(len(answers)), answers]


def _noises(embedded: torch.Tensor, subject: int, samples: int, seed: int) -> list[torch.Tensor]:
    """One draw per sample, (facts, subject, d_model): drawn as (facts, subject x d_model), so that
    a one-token subject gets the very numbers its (facts, d_model) draw always gave."""
    g = torch.Generator().manual_seed(seed)
    facts, _, d_model = embedded.shape
    shape = (facts, subject * d_model)
    return [torch.randn(shape, generator=g, dtype=embedded.dtype).view(facts, subject, d_model)
            for _ in range(samples)]  # fmt: skip


@dataclass(frozen=True)
class Trace:
    """p(answer) of each fact: clean (facts,), with the subject corrupted (facts,), and with one
    state restored from the clean run (facts, rows, positions); each a mean over the noise
    samples. The stream's row 0 is its input (embeddings plus positions)."""

    site: str
    clean: np.ndarray
    corrupted: np.ndarray
    restored: np.ndarray

    def effect(self, fact: int | None = None) -> np.ndarray:
        """The restored share of what the corruption took, of one ``fact`` or averaged over the
        facts: (rows, positions), 1 where restoring brings p(answer) all the way back."""
        lost = (self.clean - self.corrupted)[:, None, None]
        shares = (self.restored - self.corrupted[:, None, None]) / lost
        return shares.mean(axis=0) if fact is None else shares[fact]


def causal_trace(
    model: LanguageModel, corpus: Corpus, site: str = "stream", samples: int = 10, seed: int = 0
) -> Trace:
    """Causal tracing of every fact of ``corpus`` at every row of ``site`` and every position, the
    noise added at each of the subject's positions (``Fact.subject_positions``)."""
    prompts, answers = corpus.prompts()
    positive_int("samples", samples)
    subject = list(subject_positions(corpus))
    with torch.no_grad(), torch_threads(1):
        clean = _answer_p(model, prompts, answers)
        kept = states(model, prompts, site)
        embedded = model.embed(prompts)
        scale = NOISE * float(embedded.std())
        positions = prompts.shape[1]
        corrupted = torch.zeros(len(answers), dtype=embedded.dtype)
        restored = torch.zeros(len(answers), rows(model, site), positions, dtype=embedded.dtype)
        for noise in _noises(embedded, len(subject), samples, seed):

            def corrupt(out: torch.Tensor, _hook, noise=noise) -> torch.Tensor:
                out = out.clone()
                out[:, subject] += scale * noise
                return out

            with model.hooks([("hook_embed", corrupt)]):
                p_corrupted = _answer_p(model, prompts, answers)
                corrupted += p_corrupted / samples
                for row in range(rows(model, site)):
                    for position in range(positions):
                        if position < min(subject):
                            # before the subject the noise has not arrived: the state there is
                            # the clean one already, and restoring it changes nothing
                            restored[:, row, position] += p_corrupted / samples
                            continue

                        def restore(out, _hook, row=row, position=position):
                            out = out.clone()
                            out[:, position] = kept[row][:, position]
                            return out

                        with model.hooks([(_site(site, row), restore)]):
                            p = _answer_p(model, prompts, answers)
                        restored[:, row, position] += p / samples
    return Trace(site, clean.numpy(), corrupted.numpy(), restored.numpy())
