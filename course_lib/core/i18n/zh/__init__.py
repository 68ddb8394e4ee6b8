"""The Chinese catalogue (中文词条): English text -> 简体中文, one module per lesson topic.

A text is written for a Chinese-speaking learner, not word by word: the standard terms
(前馈网络, 层归一化, 残差连接, 前置/后置层归一化 …) and the source notes' own wording. Each field
of the English text appears in the Chinese one with the same name and format (``{d_ff}``,
``{acc:.3f}``); code names (d_ff, ReLU, W1) stay as they are. ``MESSAGES`` merges the topics;
a text listed under two topics is an error.
"""

from __future__ import annotations

import importlib
import pkgutil

# The topics' catalogues, found, not listed: this package's modules with MESSAGES ("common",
# "site"; "terms" is the table of terms, not texts), then each lesson package's ``zh``.
_MODULES = [importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)]
TOPICS = {
    module.__name__.rsplit(".", 1)[1]: module.MESSAGES
    for module in _MODULES
    if hasattr(module, "MESSAGES")
} | {
    lesson: module.MESSAGES
    for lesson, module in importlib.import_module("course_lib.core.discovery")
    .lesson_modules("zh")
    .items()
}


def _merge() -> dict[str, str]:
    merged: dict[str, str] = {}
    for topic, messages in TOPICS.items():
        for english, chinese in messages.items():
            if english in merged:
                raise ValueError(f"{english!r} is in two topics' catalogues (again in {topic})")
            merged[english] = chinese
    return merged


MESSAGES = _merge()
