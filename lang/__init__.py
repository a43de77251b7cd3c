"""The languages people read Sarja in: English (the words in the code) and Finnish
(a gettext catalog, `locale/fi/LC_MESSAGES/sarja.po`, compiled to the `.mo` beside it).

Only what a person reads is translated: the protocol's codes and its English sentences
stay as they are on the wire (docs/translating.md says how to mark a new sentence).

`_`, `ngettext` and `pgettext` translate at call time, into the language chosen last (`use`).
A constant at a module's top is marked with `N_` and the module registered with
`translated(__name__)`: its constants are put into the chosen language now and again
on every `use`, so code reading `words.X` gets today's language for the cost of an
attribute, never a lookup per frame.
"""

from __future__ import annotations

import functools
import gettext
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

DOMAIN = "sarja"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "fi")  # English first: the words in the code
T = TypeVar("T")

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_marked: set[str] = set()  # every string N_ marked, so only those are put into a language
_modules: dict[str, dict[str, Any]] = {}  # module name -> its marked constants, in English


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`_` for a message that reads differently where it is said (the same English,
    another Finnish): `context` tells the two apart in the catalog."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a constant for translation (pybabel finds it); `translated` translates it."""
    _marked.add(message)
    return message


def language() -> str:
    return _language


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it (`LANGUAGE`, `LC_ALL`,
    `LC_MESSAGES`, `LANG`, the first one set): "fi" for fi_FI.UTF-8, else "en"."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            for wanted in value.split(":"):  # LANGUAGE may list several, best first
                code = wanted.split(".")[0].split("_")[0].lower()
                if code in LANGUAGES:
                    return code
                if code in ("c", "posix"):
                    return "en"
            return "en"
    return "en"


def asked(argv: list[str]) -> str | None:
    """The language a command line asks for with `--lang fi|en` (the last one given),
    read before the arguments are parsed so that `--help` speaks it too."""
    chosen = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            chosen = argv[i + 1]
        elif arg.startswith("--lang="):
            chosen = arg.split("=", 1)[1]
    return chosen if chosen in LANGUAGES else None


def _argparse_speaks() -> None:
    """argparse's own words ("usage:", "options:", "error:", "show this help message and
    exit") come through the module's `_` and `ngettext`, gettext's for the default
    domain, which has no Finnish: they go through ours instead, so `--help` and a usage
    error speak the language chosen (their Finnish is in our catalog: argparse_words.py)."""
    import argparse

    vars(argparse)["_"] = _
    vars(argparse)["ngettext"] = ngettext


_argparse_speaks()


def use(lang: str) -> None:
    """Speak `lang` ("en" or "fi") from now on, in every registered module too."""
    global _current, _language
    if lang not in LANGUAGES:
        raise ValueError(f"not a language Sarja speaks: {lang!r}")
    if lang == "en":
        _current = gettext.NullTranslations()
    else:
        _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    _language = lang
    for name, english in _modules.items():
        _apply(name, english)


@functools.lru_cache(maxsize=64)  # asked on every redraw of a seat: the catalogs read once
def in_every_language(message: str) -> frozenset[str]:
    """`message` as each language says it (a name one program gave in its language, which
    another reads in theirs: sarja-bot's "Keskitasoinen botti" is "Medium bot")."""
    said = {message}
    for lang in LANGUAGES:
        if lang != "en":
            said.add(gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang]).gettext(message))
    return frozenset(said)


def translated(module: str) -> None:
    """Register a module whose top-level constants are marked with N_: keep their
    English, and put them into the language of the moment (now and on every `use`)."""
    namespace = vars(sys.modules[module])
    english = {k: v for k, v in namespace.items() if not k.startswith("__") and _has_marked(v)}
    _modules[module] = english
    _apply(module, english)


def _has_marked(value: object) -> bool:
    if isinstance(value, str):
        return value in _marked
    if isinstance(value, list | tuple):
        return any(_has_marked(v) for v in value)
    if isinstance(value, dict):
        return any(_has_marked(v) for v in value.values())
    return False


def _apply(module: str, english: dict[str, Any]) -> None:
    namespace = vars(sys.modules[module])
    for key, value in english.items():
        namespace[key] = _translate(value)


def _translate(value: T) -> T:
    """A constant in the language of the moment: its marked strings translated, the rest
    (key names, dict keys) as they are; lists and tuples keep their type."""
    out: Any
    if isinstance(value, str):
        out = _current.gettext(value) if value in _marked else value
    elif isinstance(value, tuple):
        items = [_translate(v) for v in value]
        # A named tuple (a key bar's item, say) stays one, its fields readable by name.
        out = type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    elif isinstance(value, list):
        out = [_translate(v) for v in value]
    elif isinstance(value, dict):
        out = {k: _translate(v) for k, v in value.items()}
    else:
        out = value
    return out  # type: ignore[no-any-return]
