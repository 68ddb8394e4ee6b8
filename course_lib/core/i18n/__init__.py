"""The learner's language (学习者的语言): every sentence the course's code shows comes from here.

The English text is the key. ``tr("d_ff={d_ff}: {count} regions", d_ff=8, count=37)`` looks the
template up in the current language, then fills it in (gettext's order: never translate a text
after formatting it); ``N_("...")`` only marks a text that is translated later (a demo's busy line,
a module-level label). A lesson's claims pass templates and fields the same way
(``course_lib.core.claims``).

One catalogue per language: ``course_lib.core.i18n.zh.MESSAGES`` maps each English text to its Chinese
text. A missing entry shows the English text and warns with ``MissingTranslation``, which fails the
notebook's tests; ``tests/test_i18n.py`` finds every ``tr``/``N_`` text in the code and fails when
one has no translation.
"""

from __future__ import annotations

import numbers
import re
import string
import unicodedata
import warnings

__all__ = [
    "LANGUAGES",
    "MissingTranslation",
    "N_",
    "catalogue",
    "display_width",
    "fields",
    "grouped",
    "has_words",
    "language",
    "language_version",
    "series",
    "set_language",
    "tr",
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


def series(items, spec: str = "") -> str:
    """``items`` each formatted with ``spec``, joined as the learner's language lists them:
    ``series([1, 7, 46])`` is "1, 7, 46" in English and "1、7、46" in Chinese (never a Python
    list's brackets in a Chinese sentence)."""
    return ("、" if _state["language"] == "zh" else ", ").join(format(item, spec) for item in items)


def display_width(text: str) -> int:
    """The columns ``text`` takes in a monospaced table: a wide (CJK) character takes two, so a
    Chinese label is padded by its width, not its length."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def grouped(number: int) -> str:
    """A whole ``number`` with its digits grouped as the learner's language writes them: "1,000"
    and "20,000" in English; "1000" and "20,000" in Chinese, which leaves four digits ungrouped."""
    if isinstance(number, bool) or not isinstance(number, numbers.Integral):
        raise TypeError(f"number must be a whole number, got {type(number).__name__} {number!r}")
    if _state["language"] == "zh" and abs(number) < 10_000:
        return str(int(number))
    return f"{int(number):,}"


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (gettext's ``N_``)."""
    return message


def catalogue(language: str) -> dict[str, str]:
    """The catalogue of ``language``: English text -> text in that language (empty for English)."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {language!r}")
    if language == "en":
        return {}
    from course_lib.core.i18n import zh

    return zh.MESSAGES


def fields(template: str) -> set[str]:
    """The names a template is filled with: ``"{n} of {total:d}"`` -> {"n", "total"};
    ``"{r.hits} of {r.facts}"`` -> {"r"}."""
    names = (name for _, name, _, _ in string.Formatter().parse(template) if name)
    return {re.split(r"[.\[]", name, maxsplit=1)[0] for name in names}


def has_words(template: str) -> bool:
    """Whether ``template`` has words outside its fields: ``"×{ratio:.2f}"`` and ``"{n:,}"`` have
    none, so they read the same in every language and need no catalogue entry."""
    literal = "".join(text for text, _, _, _ in string.Formatter().parse(template))
    return bool(re.search(r"[^\W\d_]", literal))


def tr(message: str, language: str | None = None, /, **values) -> str:
    """``message`` (English, with ``{name}`` fields) in ``language`` (by default the learner's,
    ``set_language``), filled with ``values``. A caller that writes both editions at once (the
    site) passes ``language`` rather than switching the learner's. Both are positional only, so
    a template may have a field of any name, ``{language}`` too."""
    if not isinstance(message, str):
        raise TypeError(f"message must be a str, got {type(message).__name__}")
    if language is None:
        language = _state["language"]
    elif language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES} or None, got {language!r}")
    text = message
    if language != "en":
        found = catalogue(language).get(message)
        if found is not None:
            text = found
        elif has_words(message):
            warnings.warn(
                f"no {language} translation for {message!r}",
                MissingTranslation,
                stacklevel=2,
            )
    return text.format(**values) if values else text
