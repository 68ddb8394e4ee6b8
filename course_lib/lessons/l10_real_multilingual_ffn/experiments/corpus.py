"""The lesson's corpus: the course's own prose, lessons 1 to 9, in both editions. Every markdown
cell exists in English and in Chinese, written for the course (its licence: the course's), so
each paragraph comes with its translation: parallel pairs for free.

``python -m course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus`` takes the text out
of the notebooks (no code, no formulas, no tables) into ``course_lib/data/course_text.npz``, so
the corpus stays what the stored activations were computed on while the lessons change.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from course_lib.core.experiments.stored_file import DATA, load_npz, rebuild, save_npz

FILE = DATA / "course_text.npz"
MODULE = "course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus"
LESSONS = range(1, 10)  # lessons 1 to 9: this lesson's own text is not its corpus
EVERY = 2  # every second pair: over 20,000 tokens a language, a pass of the model in minutes

_DROP = [
    (r"```.*?```", " "),  # code blocks
    (r"\$\$.*?\$\$", " "),  # display formulas
    (r"\$[^$\n]+\$", " "),  # inline formulas
    (r"`[^`\n]*`", " "),  # code names
    (r"!\[[^\]]*\]\([^)]*\)", " "),  # images
    (r"\[([^\]]*)\]\([^)]*\)", r"\1"),  # a link keeps its words
    (r"<[^>\n]+>", " "),  # HTML tags
    (r"^\s*\|.*$", " "),  # table rows
    (r"^\s*#+\s*", ""),  # heading marks
    (r"^\s*(?:[-*]|\d+\.)\s+", ""),  # list marks
    (r"\*\*|__|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)", ""),  # bold and italic marks
]


def clean(markdown: str) -> list[str]:
    """A markdown cell's running text, paragraph by paragraph (lines joined, marks removed)."""
    text = markdown
    for pattern, replacement in _DROP:
        text = re.sub(pattern, replacement, text, flags=re.S | re.M)
    paragraphs = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        joined = re.sub(r"\s+", " ", " ".join(lines)).strip()
        if len(re.findall(r"\w", joined)) >= 8:
            paragraphs.append(joined)
    return paragraphs


def parallel_paragraphs(root: Path) -> list[tuple[int, int, str, str]]:
    """(lesson, cell, English, Chinese) for every markdown cell of lessons 1-9 whose two editions
    have as many paragraphs, paragraph by paragraph; other cells whole."""
    pairs = []
    for number in LESSONS:
        [english] = sorted((root / "notebooks").glob(f"{number:02d}_*.ipynb"))
        chinese = root / "notebooks" / "zh" / english.name
        cells = [
            json.loads(path.read_text(encoding="utf-8"))["cells"] for path in (english, chinese)
        ]
        for index, (en, zh) in enumerate(zip(*cells, strict=True)):
            if en["cell_type"] != "markdown":
                continue
            en_text, zh_text = (clean("".join(cell["source"])) for cell in (en, zh))
            if len(en_text) == len(zh_text):
                pairs += [(number, index, e, z) for e, z in zip(en_text, zh_text, strict=True)]
            elif en_text and zh_text:
                pairs.append((number, index, " ".join(en_text), "".join(zh_text)))
    return pairs


@dataclass(frozen=True)
class Corpus:
    """Parallel paragraphs: ``english[i]`` and ``chinese[i]`` say the same thing; ``lesson[i]``
    and ``cell[i]`` name the markdown cell they come from."""

    english: tuple[str, ...]
    chinese: tuple[str, ...]
    lesson: np.ndarray
    cell: np.ndarray

    def texts(self, language: str) -> tuple[str, ...]:
        if language not in ("en", "zh"):
            raise ValueError(f"language must be 'en' or 'zh', got {language!r}")
        return self.english if language == "en" else self.chinese

    def duplicated_pairs(self) -> np.ndarray:
        """The pairs whose English or Chinese paragraph also stands in another pair (the course
        repeats a few short paragraphs, such as a glossary's heading)."""
        out = set()
        for texts in (self.english, self.chinese):
            first: dict[str, int] = {}
            for i, text in enumerate(texts):
                if text in first:
                    out |= {first[text], i}
                first.setdefault(text, i)
        return np.array(sorted(out), dtype=np.int64)


def save(root: Path, path: Path = FILE) -> int:
    from course_lib.lessons.l10_real_multilingual_ffn.experiments.e5_model import load_model

    _, tokenizer = load_model()
    pairs = [
        p for p in parallel_paragraphs(root)
        if max(len(tokenizer("passage: " + t)) for t in p[2:]) <= 512  # one window of the model
    ][::EVERY]  # fmt: skip
    lesson, cell, english, chinese = zip(*pairs, strict=True)
    return save_npz(
        path,
        {"lesson": lesson, "cell": cell, "english": english, "chinese": chinese},
        {
            "source": "notebooks/NN_*.ipynb and notebooks/zh/NN_*.ipynb, lessons 1-9, markdown",
            "every": EVERY,
        },
    )


@cache
def stored_corpus(path: Path = FILE) -> Corpus:
    arrays, _ = load_npz(path, "corpus of the course's own text", MODULE)
    return Corpus(tuple(arrays["english"].tolist()), tuple(arrays["chinese"].tolist()),
                  arrays["lesson"], arrays["cell"])  # fmt: skip


if __name__ == "__main__":
    rebuild(lambda: save(Path(__file__).resolve().parents[4]), FILE, "the corpus")
