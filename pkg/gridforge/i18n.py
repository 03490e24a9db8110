"""The message catalogue: every player-facing text, one JSON file per language (issue 22).

``gridforge/catalogue/en.json`` and ``gridforge/catalogue/zh-CN.json`` map a dotted key
(``snakes.refusal.stone``) to a text with ``{name}`` placeholders; the shell reads the same
files (``build.py`` copies them into the site's ``catalogue/``), so Python and the page share
ONE catalogue per language (format and how to add a message: ``docs/languages.md``).

Python says a message with :func:`say` in the language of the call in progress:
:func:`gridforge.api.dispatch` sets it from the page's language for the length of one call
(:func:`speaking`), so the worker never keeps a language of its own between calls. The
command line never sets it and stays English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "zh-CN")
DEFAULT = "en"
_PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")

_language = DEFAULT


@cache
def catalogue(language: str) -> dict[str, str]:
    """The messages of ``language`` (keys starting with ``@`` are notes, not messages)."""
    text = (resources.files("gridforge") / "catalogue" / f"{language}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return {key: value for key, value in data.items() if not key.startswith("@")}


def placeholders(text: str) -> set[str]:
    """The names of the ``{name}`` placeholders of a message."""
    return set(_PLACEHOLDER.findall(text))


def language() -> str:
    """The language of the call in progress (English outside one)."""
    return _language


def choose(value: Any) -> str:
    """A language the catalogue has for ``value`` (``zh``, ``zh-Hans`` ... -> ``zh-CN``),
    English for anything else."""
    if isinstance(value, str) and value.lower().startswith("zh"):
        return "zh-CN"
    return DEFAULT


@contextmanager
def speaking(value: Any) -> Iterator[str]:
    """Say messages in ``value``'s language inside the block, then go back to English."""
    global _language
    before, _language = _language, choose(value)
    try:
        yield _language
    finally:
        _language = before


def say(key: str, **params: Any) -> str:
    """Message ``key`` in the current language with its placeholders filled in; a key the
    language lacks falls back to English (a test keeps both languages complete)."""
    text = catalogue(_language).get(key)
    if text is None:
        text = catalogue(DEFAULT)[key]
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


def has(key: str) -> bool:
    """Whether the catalogue holds message ``key``."""
    return key in catalogue(DEFAULT)


def say_parts(key: str, **params: Any) -> list[Any]:
    """Message ``key`` as a list of parts (strings and the page's cell pointers,
    ``{"cell": [x, y], "text": ...}``): a parameter that is such a pointer, or a list of parts,
    stays a part of its own where its placeholder stands, whatever the language's word order."""
    text = say(key, **{k: v for k, v in params.items() if isinstance(v, str | int | float)})
    out: list[Any] = []
    last = 0
    for match in _PLACEHOLDER.finditer(text):
        value = params.get(match.group(1))
        if not isinstance(value, dict | list):
            continue
        out.append(text[last:match.start()])
        out.extend(value if isinstance(value, list) else [value])
        last = match.end()
    out.append(text[last:])
    # The text between placeholders stays a piece of its own (as the parts always were).
    return [part for part in out if part != ""]


class Words(Mapping[str, str]):
    """A table of words by key (``reason`` -> text) whose texts are the catalogue's
    ``<prefix>.<key>``, looked up when read, so always in the call's language."""

    def __init__(self, prefix: str, keys: Iterable[str]) -> None:
        self.prefix = prefix
        self.names = tuple(keys)

    def __getitem__(self, key: str) -> str:
        if key not in self.names:
            raise KeyError(key)
        return say(f"{self.prefix}.{key}")

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)
