"""The differences other machines make, reproduced on this one.

A *variant* is one such difference. Some are set in the environment of a fresh process, before
PyTorch and MKL load: one thread instead of two, MKL's conditional-numerical-reproducibility mode
(``MKL_CBWR=COMPATIBLE``: the code path MKL takes on a processor it does not tune for), ATen's scalar
kernels. Others are applied inside the process (``apply``): a small relative change of every input
the course's networks read (the rows of the language model's embedding table by 1e-7, every other
input by 1e-13), from a seeded generator, and the sinusoidal position table computed in float64 instead
of float32.

The machine variants show what rounding does here; the perturbations are larger than rounding
(1e-7 and 1e-13 against 1.1e-16 a step in float64), so a quantity they leave within a spread holds
on other CPUs with a margin, and one they move a lot sits on a kink (a ReLU unit within 1e-7 of
switching, an argmax between two near-equal scores) or trains chaotically.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

# Each input is perturbed at the scale at which machines can differ on it. The language model of
# lessons 5 and 6 adds a position table computed in float32 (one unit in the last place is 6e-8 of
# a value) to its embeddings: 1e-7. Every other input is a float64 number drawn the same on every
# machine (the 2-D tasks' points, lesson 4's learned embeddings), so machines differ only by
# float64 rounding inside the network (1.1e-16 a step): 1e-13, a thousand times that.
EPSILON = 1e-7  # the rows of the language model's embedding table (course_lib's Embeddings)
EPSILON_FLOAT64 = 1e-13  # any other embedding table (nn.Embedding), the 2-D tasks' points
VARIANT_ENV = "FFN_SPREAD_VARIANT"  # names the variant a fresh process applies (kernel.py)


@dataclass(frozen=True)
class Variant:
    """One difference between machines: environment variables for a fresh process, and the
    in-process changes ``apply`` makes (``inputs_seed``: perturb the inputs with this seed;
    ``pe64``: compute the position table in float64)."""

    name: str
    description: str
    env: dict[str, str] = field(default_factory=dict)
    inputs_seed: int | None = None
    pe64: bool = False


ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
REFERENCE = Variant("native", "this machine as it is: the reference every spread is measured from")
VARIANTS = (
    REFERENCE,
    *(
        Variant(
            f"inputs {seed}",
            f"the language model's embedding rows × (1 + 1e-7 ξ), every other input × (1 + 1e-13 ξ), ξ ~ N(0, 1) seeded {seed}",
            inputs_seed=seed,
        )  # fmt: skip
        for seed in (1, 2, 3)
    ),
    Variant("float64 positions", "the sinusoidal position table computed in float64", pe64=True),
    Variant("one thread", "one thread for torch, MKL and OpenBLAS", env=ONE_THREAD),
    Variant(
        "MKL compatible",
        "MKL_CBWR=COMPATIBLE: MKL's generic code path",
        env={"MKL_CBWR": "COMPATIBLE"},
    ),  # fmt: skip
    Variant(
        "another CPU",
        "tests/other_cpu.mk: ATen's scalar kernels, MKL's generic path, one thread",
        env={"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE", **ONE_THREAD},
    ),
)
BY_NAME = {variant.name: variant for variant in VARIANTS}


def variant_named(name: str) -> Variant:
    if name not in BY_NAME:
        raise ValueError(f"variant must be one of {list(BY_NAME)}, got {name!r}")
    return BY_NAME[name]


def environment(variant: Variant) -> dict[str, str]:
    """The environment a fresh process of ``variant`` runs in: this one's, the variant's
    variables, and its name for ``apply_from_environment``."""
    env = {k: v for k, v in os.environ.items() if k not in ("MKL_CBWR", "ATEN_CPU_CAPABILITY")}
    return env | variant.env | {VARIANT_ENV: variant.name}


def _noise(shape: tuple[int, ...], dtype, seed: int):
    """ξ of ``shape``, the same for the same shape and seed in every process."""
    import torch

    g = torch.Generator().manual_seed(seed * 1_000_003 + math.prod(shape) % 1_000_003)
    return torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)


def apply(variant: Variant) -> None:
    """Make this process compute as ``variant`` says: patch every embedding lookup and every 2-D
    task's points (inputs), or the position table (pe64). Call before the course runs anything;
    the patches stay for the life of the process."""
    if variant.inputs_seed is not None:
        _perturb_inputs(variant.inputs_seed)
    if variant.pe64:
        _float64_positions()


def apply_from_environment() -> Variant | None:
    """Apply the variant ``FFN_SPREAD_VARIANT`` names, if any; return it."""
    name = os.environ.get(VARIANT_ENV)
    if not name:
        return None
    variant = variant_named(name)
    apply(variant)
    return variant


def _perturb_inputs(seed: int) -> None:
    import torch
    import torch.nn.functional as F
    from torch import nn

    from course_lib.core.experiments import tasks
    from course_lib.core.model import transformer

    def perturbed(weight: torch.Tensor, epsilon: float) -> torch.Tensor:
        return weight * (1 + epsilon * _noise(tuple(weight.shape), weight.dtype, seed))

    def embedding_forward(self, input):  # nn.Embedding.forward on a table × (1 + ε ξ)
        return F.embedding(input, perturbed(self.weight, EPSILON_FLOAT64), self.padding_idx,
                           self.max_norm, self.norm_type, self.scale_grad_by_freq, self.sparse)  # fmt: skip

    def language_model_embeddings(self, token_ids):  # transformer.Embeddings.forward, checked
        self._check(token_ids)
        return F.embedding(token_ids, perturbed(self.lut.weight, EPSILON)) * math.sqrt(self.d_model)

    nn.Embedding.forward = embedding_forward
    transformer.Embeddings.forward = language_model_embeddings
    task_init = tasks.Task.__init__

    def perturbed_task(self, name, X, Y):
        with torch.no_grad():
            X = X * (1 + EPSILON_FLOAT64 * _noise(tuple(X.shape), X.dtype, seed))
        task_init(self, name, X, Y)

    tasks.Task.__init__ = perturbed_task


def _float64_positions() -> None:
    import torch

    from course_lib.core.model import transformer

    def table(max_len: int, d_model: int) -> torch.Tensor:
        position = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)
        scale = torch.exp(
            torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model)
        )
        out = torch.zeros(max_len, d_model, dtype=torch.float64)
        out[:, 0::2] = torch.sin(position * scale)
        out[:, 1::2] = torch.cos(position * scale)[:, : d_model // 2]
        return out.to(torch.get_default_dtype())

    transformer.sinusoidal_table = table
