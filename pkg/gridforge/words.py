"""Python's messages as the page shows them, in a person's words (issue 21).

The command line and the files keep the project's terms: field paths such as
``bodies[2].cells[1]``, cells as ``[x, y]``, identifiers such as ``frozen_holes``,
certificates. Players and level designers on the page read places instead ("body 3,
cell 2"), cells by column and row counted from 1 ("column 5, row 2"), identifiers as words
("frozen holes") and "proof" for a certificate. :func:`place` says a field path,
:func:`plain` a message, :func:`issue_words` adds both to an issue's JSON. The error
envelope (:mod:`gridforge.api`) and the page contracts' answers use them; nothing else does.
"""

from __future__ import annotations

import re

from gridforge.i18n import DEFAULT, has, language, say

# A list's items by their singular (``words.item.<list>``) and field names and other
# identifiers in words (``words.field.<name>``) are the catalogue's (gridforge.i18n), in the
# call's language; any other underscore becomes a space.
# Where a dotted path without an index may start (so that ordinary text is left alone).
_ROOTS = ("edit", "certificate", "size", "bodies", "holes", "steps", "request", "score",
          "search", "budgets")
_SEGMENT = r"[a-z][a-z0-9_]*"
_INDEXED_PATH = re.compile(
    rf"\b{_SEGMENT}(?:\[\d+\]|\.{_SEGMENT})*\[\d+\](?:\[\d+\]|\.{_SEGMENT})*")
_DOTTED_PATH = re.compile(rf"\b(?:{'|'.join(_ROOTS)})(?:\.{_SEGMENT})+\b(?![./\w])")
_CELL = re.compile(r"(?:\b(cell|stone|hole)\s+)?\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_CERTIFICATE = re.compile(r"\b([Cc])ertificate(s?)\b")
_ROOT = re.compile(r"<root>:\s*")


def _word(name: str) -> str:
    key = f"words.field.{name}"
    return say(key) if has(key) else name.replace("_", " ")


def _item(name: str) -> str:
    key = f"words.item.{name}"
    return say(key) if has(key) else _word(name)


def place(path: str) -> str:
    """A field path as a place: ``bodies[1].cells[0]`` is "body 2, cell 1",
    ``edit.colors[1]`` (the editor's edit) "colour 2", ``bodies.min_length`` "bodies,
    shortest"; the empty path (the whole input) is ""."""
    parts = []
    for segment in path.split("."):
        name, *indexes = re.split(r"\[(\d+)\]", segment)
        numbers = [int(i) + 1 for i in indexes if i]
        if numbers:
            item = _item(name) if name else say("words.item.items")
            parts.append(say("words.indexed", item=item,
                             number=" ".join(str(n) for n in numbers)))
        elif name:
            parts.append(_word(name))
    if len(parts) > 1 and parts[0] == "edit":
        parts = parts[1:]
    return say("words.separator").join(parts)


def _cell(match: re.Match[str]) -> str:
    before = match.string[:match.start()]
    if before.count("[") > before.count("]"):
        return match.group(0)  # inside a list: what was given is quoted, not read as a cell
    word, x, y = match.group(1), int(match.group(2)), int(match.group(3))
    where = say("words.cell", column=x + 1, row=y + 1)
    return say("words.thing-at", thing=_item(word + "s"), where=where) if word else where


def plain(text: str) -> str:
    """A message in a person's words: the field paths in it as places, cells by column and
    row, identifiers as words, a certificate as a proof."""
    text = _ROOT.sub("", text)
    text = _INDEXED_PATH.sub(lambda m: place(m.group(0)), text)
    text = _DOTTED_PATH.sub(lambda m: place(m.group(0)), text)
    text = _CELL.sub(_cell, text)
    text = _IDENTIFIER.sub(lambda m: _word(m.group(0)), text)
    return _CERTIFICATE.sub(lambda m: ("P" if m.group(1) == "C" else "p") + "roof" + m.group(2),
                            text)


_COUNT = re.compile(r".*?(\d+)\.\.(\d+) items, got (\d+)")
_BALANCE = re.compile(r"color (\d+): (\d+) layer\(s\) but (\d+) hole\(s\)")


def colour_name(index: object) -> str:
    """Palette colour ``index`` by its name in the call's language ("blue", "蓝")."""
    key = f"announce.colour.{index}"
    return say(key) if has(key) else say("announce.colour.other")


def _count_sentence(kind: str, match: re.Match[str]) -> str:
    low, high, got = (int(match.group(k)) for k in (1, 2, 3))
    if got < low:
        return say(f"editor.need.{kind}")
    return say(f"editor.need.fewer-{kind}s", extra=got - high, max=high)


def _balance_sentence(match: re.Match[str]) -> str:
    colour, layers, holes = match.group(1), int(match.group(2)), int(match.group(3))
    if layers > holes:
        return say("editor.need.holes-for", count=layers - holes, colour=colour_name(colour),
                   layers=layers)
    return say("editor.need.layers-for", count=holes - layers, colour=colour_name(colour))


def sentence(issue: dict[str, str]) -> str | None:
    """What a level still needs, as a sentence a designer acts on ("Add at least one
    body."), for the issues the editor meets while a level is being built; None for others
    (they keep their place and message)."""
    path, code, message = (str(issue.get(k, "")) for k in ("path", "code", "message"))
    if path in ("bodies", "holes") and code == "count":
        match = _COUNT.match(message)
        return _count_sentence({"bodies": "body", "holes": "hole"}[path], match) if match else None
    if code == "supply_demand":
        match = _BALANCE.fullmatch(message.strip())
        return _balance_sentence(match) if match else None
    return None


def issue_words(issue: dict[str, str]) -> dict[str, str]:
    """An issue's JSON (``{path, code, message}``) with its place and its message in words
    added (``place``, ``text``) and, where the editor knows it, what to do as a sentence
    (``sentence``); the path and code stay for tools and for placing the message beside
    its field."""
    said = sentence(issue)
    where = place(str(issue.get("path", "")))
    text = plain(str(issue.get("message", "")))
    if where and text.startswith(f"{where}: "):
        text = text[len(where) + 2:]  # the message began with its own place: say it once
    if language() != DEFAULT:
        # The engines write their messages in English (the command line's); another
        # language says the kind of problem (``issue.<code>``) beside the place.
        code = str(issue.get("code", ""))
        text = say(f"issue.{code}") if has(f"issue.{code}") else say("issue.other")
    worded = {**issue, "place": where, "text": text}
    return {**worded, "sentence": said} if said is not None else worded
