"""The learner's language (学习者的语言): every sentence the course's code shows comes from here.

The English text is the key. ``tr("d_ff={d_ff}: {count} regions", d_ff=8, count=37)`` returns the
sentence in the current language, filled in; ``N_("...")`` only marks a text that is translated
later (a demo's busy line, a module-level label). Claims print text a lesson's code formatted
itself, so ``translate(text)`` also recognises a formatted sentence by its catalogue pattern.

One catalogue per language: ``course_lib.i18n.zh.MESSAGES`` maps each English text to its Chinese
text. A missing entry shows the English text and warns with ``MissingTranslation``, which fails the
notebook's tests; ``tests/test_i18n.py`` finds every ``tr``/``N_`` text in the code and fails when
one has no translation.
"""

from __future__ import annotations

import re
import string
import warnings
from functools import cache

__all__ = [
    "LANGUAGES",
    "MissingTranslation",
    "N_",
    "catalogue",
    "language",
    "language_version",
    "needs_translation",
    "set_language",
    "tr",
    "translate",
]

LANGUAGES = ("en", "zh")
_state = {"language": "en", "version": 0}


class MissingTranslation(UserWarning):
    """A text shown to the learner has no entry in the current language's catalogue."""


def set_language(language: str) -> None:
    """Show every figure, check, claim and status line from now on in ``language`` ("en", "zh")."""
    if not isinstance(language, str):
        raise TypeError(f"language must be a str, one of {LANGUAGES}, got {language!r}")
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {language!r}")
    if language != _state["language"]:
        _state["language"] = language
        _state["version"] += 1


def language() -> str:
    """The current language: "en" unless a notebook's first cell chose another."""
    return _state["language"]


def language_version() -> int:
    """Changes whenever the language does: views built in another language redraw their text."""
    return _state["version"]


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (gettext's ``N_``)."""
    return message


def catalogue(language: str) -> dict[str, str]:
    """The catalogue of ``language``: English text -> text in that language (empty for English)."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {language!r}")
    if language == "en":
        return {}
    from course_lib.i18n import zh

    return zh.MESSAGES


def fields(template: str) -> set[str]:
    """The named fields of a template: ``"{n} of {total:d}"`` -> {"n", "total"}."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def tr(message: str, /, **values) -> str:
    """``message`` (English, with ``{name}`` fields) in the current language, filled with ``values``."""
    if not isinstance(message, str):
        raise TypeError(f"message must be a str, got {type(message).__name__}")
    text = message
    if _state["language"] != "en":
        found = catalogue(_state["language"]).get(message)
        if found is None:
            warnings.warn(
                f"no {_state['language']} translation for {message!r}",
                MissingTranslation,
                stacklevel=2,
            )
        else:
            text = found
    return text.format(**values) if values else text


# Words a formatted text may keep in English in every edition: code names and the course's
# symbols. Anything else in ASCII letters is English a learner would read, so it needs an entry.
KEPT = {
    "relu", "gelu", "silu", "tanh", "swiglu", "geglu", "reglu", "glu", "identity", "sigmoid",
    "ffn", "numpy", "pytorch", "torch", "nn", "linear", "layernorm", "rmsnorm", "batchnorm",
    "conv1d", "softmax", "adam", "xor", "ring", "spiral", "triangles", "max", "min", "sqrt", "exp",
    "std", "rms", "mean", "norm", "true", "false", "none", "post", "pre", "float32", "float64",
    "gpt", "bert", "lm", "the", "x", "k", "n", "f", "g", "p", "w", "b", "eval", "train", "in", "out",
}  # fmt: skip
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def needs_translation(text: str) -> bool:
    """True if ``text`` has English words a learner of another edition would have to read:
    numbers, code names (``d_ff``, ``W1``) and the words in ``KEPT`` need no translation."""
    for token in re.split(r"[\s,;:()\[\]{}=<>|·/+*×÷≈~→-]+", text):
        if not token or re.search(r"[\d_.]", token):
            continue
        for word in _WORD.findall(token):
            word = word.strip("'")  # a quoted code name: 'gelu'
            if word.lower() not in KEPT and len(word) > 1:
                return True
    return False


def _plain(template: str) -> str:
    """``template`` without format specs: a matched part is already text ("{x:.2f}" -> "{x}")."""
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is not None:
            out.append("{" + name + "}")
    return "".join(out)


@cache
def _patterns(language: str, size: int) -> list[tuple[re.Pattern, str]]:
    """Each catalogue entry with fields, as a regex that recognises its formatted English text."""
    del size  # only part of the cache key
    patterns = []
    for english, other in catalogue(language).items():
        parsed = list(string.Formatter().parse(english))
        if not any(name is not None for _, name, _, _ in parsed):
            continue
        if not re.search(r"[^\W\d_]", "".join(literal for literal, _, _, _ in parsed)):
            continue  # "{statement}: {shown}" only joins texts: as a pattern it would match anything
        regex, seen, auto = "", set(), 0
        for literal, name, _, _ in parsed:
            regex += re.escape(literal)
            if name is None:
                continue
            if name == "":
                name, auto = str(auto), auto + 1
            group = f"_{name}" if name.isdigit() else name
            regex += f"(?P={group})" if group in seen else f"(?P<{group}>.+?)"
            seen.add(group)
        literal_length = sum(len(literal) for literal, _, _, _ in parsed)
        patterns.append((literal_length, re.compile(regex + r"\Z", re.DOTALL), _plain(other)))
    # the most specific first: "{a} of {b} against {c} of {d}" before "{a} of {b}"
    patterns.sort(key=lambda entry: -entry[0])
    return [(pattern, other) for _, pattern, other in patterns]


def _index(group: str) -> int:
    return int(group[1:])


def translate(text: str) -> str:
    """``text``, already formatted in English, in the current language.

    An exact catalogue entry wins; otherwise the first entry whose pattern matches the whole text
    is filled with the parts it matched (``"below {tol}"`` turns "below 1e-06" into "低于 1e-06").
    Text with nothing to translate (numbers, code names) comes back as it is.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    current = _state["language"]
    if current == "en" or not text:
        return text
    messages = catalogue(current)
    if text in messages:
        return messages[text]
    for pattern, other in _patterns(current, len(messages)):
        match = pattern.match(text)
        if match:
            parts = match.groupdict()
            named = {k: v for k, v in parts.items() if not k.startswith("_")}
            ordered = [parts[k] for k in sorted((k for k in parts if k[0] == "_"), key=_index)]
            return other.format(*ordered, **named)
    if needs_translation(text):
        warnings.warn(f"no {current} translation for {text!r}", MissingTranslation, stacklevel=2)
    return text
