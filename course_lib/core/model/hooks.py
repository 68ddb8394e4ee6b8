"""Hook points (钩子点), as in TransformerLens: named places in a forward where an activation can
be read or replaced while the model runs.

A ``HookPoint`` is an identity module. A forward passes an activation through it,
``h = self.hook_hidden(h)``, and gets back the very tensor it gave: no arithmetic, so a model with
hook points computes bit for bit what it computes without them. A function attached to a hook
point for a while (``hooks``) sees the activation and may return a tensor to use instead;
``caching`` keeps what the hook points see.

A hook point is named by its module path from the module that runs: ``layers.0.ffn.hook_hidden``
in a ``LanguageModel``, ``ffn.hook_hidden`` in a bare ``EncoderLayer``, ``hook_hidden`` in a bare
``FeedForward``. The functions here take any module; ``HookedModule`` gives a module that owns
hook points the same as methods (``model.run_with_hooks``, ``model.run_with_cache``), and leaves
its hook points out of its printout, which shows the formula's parts only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from typing import Any

import torch
from torch import nn
from torch.utils.hooks import RemovableHandle

# fn(activation, hook point) -> a tensor to use instead, or None to keep the activation
HookFn = Callable[[torch.Tensor, "HookPoint"], "torch.Tensor | None"]
# which hook points: every one (None), one name, a list of names, or a test on the name
NamesFilter = str | Iterable[str] | Callable[[str], bool] | None


class HookPoint(nn.Module):
    """An identity: ``forward(x)`` returns ``x`` itself. It has no parameters and no buffers, so
    a module's ``state_dict`` is the same with or without its hook points.

    ``name`` is the path it was last attached under (``hooks`` sets it), for a function that
    serves several hook points."""

    def __init__(self) -> None:
        super().__init__()
        self.name: str | None = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def add_hook(self, fn: HookFn) -> RemovableHandle:
        """Call ``fn(activation, self)`` on every forward until the handle is removed; a tensor
        it returns replaces the activation for the rest of the forward, None keeps it."""
        return self.register_forward_hook(lambda _module, _args, output: fn(output, self))


def hook_points(module: nn.Module) -> dict[str, HookPoint]:
    """Every hook point inside ``module`` by its path from ``module``, in the order the modules
    were registered: {"layers.0.hook_resid_pre": HookPoint(), ...}."""
    if not isinstance(module, nn.Module):
        raise TypeError(f"module must be an nn.Module, got {type(module).__name__}")
    return {name: m for name, m in module.named_modules() if isinstance(m, HookPoint)}


def _select(points: dict[str, HookPoint], names: NamesFilter, argument: str) -> list[str]:
    """The names of ``points`` that ``names`` picks; a name that is not a hook point is named."""
    if names is None:
        return list(points)
    if callable(names):
        return [name for name in points if names(name)]
    wanted = [names] if isinstance(names, str) else list(names)
    for name in wanted:
        if not isinstance(name, str):
            raise TypeError(f"{argument} must name hook points by str, got {name!r}")
        if name not in points:
            raise ValueError(
                f"{argument} must name hook points of the module, got {name!r}; "
                f"its hook points: {list(points)}"
            )
    return wanted


@contextmanager
def hooks(
    module: nn.Module, fwd_hooks: Iterable[tuple[str | Callable[[str], bool], HookFn]]
) -> Iterator[nn.Module]:
    """While the block runs, each ``(name, fn)`` of ``fwd_hooks`` is attached to the hook point
    ``name`` of ``module`` (or, for a test on names, to every hook point it accepts). Every one
    is removed when the block ends, an exception included; names are checked before any is
    attached."""
    points = hook_points(module)
    chosen = [(_select(points, name, "fwd_hooks"), fn) for name, fn in fwd_hooks]
    handles: list[RemovableHandle] = []
    try:
        for names, fn in chosen:
            if not callable(fn):
                raise TypeError(f"fwd_hooks must pair each name with a function, got {fn!r}")
            for name in names:
                points[name].name = name
                handles.append(points[name].add_hook(fn))
        yield module
    finally:
        for handle in handles:
            handle.remove()


@contextmanager
def caching(module: nn.Module, names_filter: NamesFilter = None) -> Iterator[dict[str, Any]]:
    """While the block runs, what the hook points ``names_filter`` picks see, by name: the
    tensors themselves, as the forward made them (inside ``torch.no_grad()`` they carry no
    graph). A hook point that runs twice keeps its last activation."""
    cache: dict[str, torch.Tensor] = {}
    names = _select(hook_points(module), names_filter, "names_filter")
    with hooks(module, [(name, partial(_keep, cache, name)) for name in names]):
        yield cache


def _keep(cache: dict[str, torch.Tensor], name: str, activation: torch.Tensor, _hook) -> None:
    cache[name] = activation  # None: the activation goes on unchanged


def run_with_hooks(
    module: nn.Module,
    *args: Any,
    fwd_hooks: Iterable[tuple[str | Callable[[str], bool], HookFn]] = (),
    **kwargs: Any,
) -> Any:
    """``module(*args, **kwargs)`` with ``fwd_hooks`` attached (``hooks``), removed after."""
    with hooks(module, fwd_hooks):
        return module(*args, **kwargs)


def run_with_cache(
    module: nn.Module, *args: Any, names_filter: NamesFilter = None, **kwargs: Any
) -> tuple[Any, dict[str, torch.Tensor]]:
    """``module(*args, **kwargs)`` and what the hook points ``names_filter`` picks (all, if
    None) saw on the way: (output, {name: activation})."""
    with caching(module, names_filter) as cache:
        output = module(*args, **kwargs)
    return output, cache


def _indent(text: str) -> str:
    """Lines after the first indented by two spaces, as ``nn.Module``'s printout nests them."""
    first, *rest = text.split("\n")
    return "\n".join([first, *(("  " + line) if line.strip() else "" for line in rest)])


class HookedModule(nn.Module):
    """A module that owns hook points: the functions above as methods, and a printout that
    leaves the hook points out (``nn.Module``'s, otherwise unchanged)."""

    def hook_points(self) -> dict[str, HookPoint]:
        return hook_points(self)

    def hooks(
        self, fwd_hooks: Iterable[tuple[str | Callable[[str], bool], HookFn]]
    ) -> AbstractContextManager[nn.Module]:
        return hooks(self, fwd_hooks)

    def run_with_hooks(
        self,
        *args: Any,
        fwd_hooks: Iterable[tuple[str | Callable[[str], bool], HookFn]] = (),
        **kwargs: Any,
    ) -> Any:
        return run_with_hooks(self, *args, fwd_hooks=fwd_hooks, **kwargs)

    def run_with_cache(
        self, *args: Any, names_filter: NamesFilter = None, **kwargs: Any
    ) -> tuple[Any, dict[str, torch.Tensor]]:
        return run_with_cache(self, *args, names_filter=names_filter, **kwargs)

    def __repr__(self) -> str:
        extra = self.extra_repr().split("\n") if self.extra_repr() else []
        children = [
            f"({name}): {_indent(repr(child))}"
            for name, child in self._modules.items()
            if not isinstance(child, HookPoint)
        ]
        if len(extra) == 1 and not children:
            return f"{self._get_name()}({extra[0]})"
        lines = extra + children
        return f"{self._get_name()}(" + ("\n  " + "\n  ".join(lines) + "\n" if lines else "") + ")"
