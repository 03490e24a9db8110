"""One owner for each screen's state (issue 53): a screen's state object is made and changed
by its state module alone, through named transitions; the drawing and input modules read it
and ask it to change. Statically: outside its state module, no file of web/ assigns a field
of the object (``=``, ``+=``, ``??=``, ``++``, ``delete``, ``Object.assign``), read as
tokens, so comments and strings never count. The writes through the view's own elements
(``p.parts.counter.textContent = ...``: the DOM, which the drawing owns) are not the state's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.test_web_shape import Token, tokens

pytestmark = pytest.mark.cpython_only  # reads web/ from the source tree

WEB = Path(__file__).resolve().parent.parent / "web"
_COMPOUND = {"+", "-", "*", "/", "%", "**", "??", "||", "&&", "<<", ">>", "|", "&", "^"}


@dataclass(frozen=True)
class Screen:
    """A screen's state: its module, the function that makes the object, the name the
    screen's modules give the object, and the fields holding the view's elements (whose
    insides, the DOM, the drawing writes)."""
    module: str
    factory: str
    name: str
    elements: frozenset[str] = frozenset()
    reached: bool = False  # also named as a field of the parts' own objects (``e.ed``)


SCREENS = (
    Screen("screens/snakes-play-state.js", "playState", "p", frozenset({"parts"})),
    # The editor's parts reach its state as ``ed``, ``e.ed``, ``dp.ed``, ``tl.ed``.
    Screen("screens/editor-state.js", "editorState", "ed", reached=True),
    Screen("screens/mines-state.js", "minesState", "m", frozenset({
        "section", "view", "status", "fight", "buttons", "items", "newAsk", "seedBox", "overlay",
        "hintBox", "asking", "sequence", "log", "stats", "feedback", "staleBox", "layout",
        "input"})),
)


def writes(source: str, name: str, elements: frozenset[str] = frozenset(), *,
           reached: bool = False) -> list[str]:
    """``line: name.field`` for every write to a field of the object called ``name``, or
    inside it (``name.field.inner = ...``) unless the field is one of ``elements``."""
    toks = tokens(source)
    found = []
    for i, tok in enumerate(toks):
        if not (tok.kind == "word" and tok.text == name and i + 2 < len(toks)
                and toks[i + 1].text == "." and toks[i + 2].kind == "word"
                and (reached or i == 0 or toks[i - 1].text not in {".", "?."})):
            continue
        field = toks[i + 2].text
        end = _member_end(toks, i + 3)
        if _assigned(toks, i, end) and (end == i + 3 or field not in elements):
            found.append(f"{tok.line}: {name}.{field}")
    found += [f"{t.line}: Object.assign({name}, ...)" for j, t in enumerate(toks)
              if t.text == "assign" and j >= 2 and toks[j - 2].text == "Object"
              and j + 2 < len(toks) and toks[j + 1].text == "(" and toks[j + 2].text == name]
    return found


def _member_end(toks: list[Token], at: int) -> int:
    """The index past a member chain's ``.word`` and ``[...]`` parts starting at ``at``."""
    while at < len(toks):
        if toks[at].text == "." and at + 1 < len(toks) and toks[at + 1].kind == "word":
            at += 2
        elif toks[at].text == "[":
            depth = 0
            while at < len(toks):
                depth += {"[": 1, "]": -1}.get(toks[at].text, 0)
                at += 1
                if depth == 0:
                    break
        else:
            return at
    return at


def _assigned(toks: list[Token], start: int, after: int) -> bool:
    """Whether the member expression ``toks[start:after]`` (``name . field``) is written."""
    nxt = [t.text for t in toks[after:after + 2]]
    before = [t.text for t in toks[max(0, start - 2):start]]
    if nxt[:1] == ["="]:
        return True
    if len(nxt) == 2 and nxt[0] in _COMPOUND and nxt[1] == "=":
        return True
    if nxt == ["+", "+"] or nxt == ["-", "-"] or before in (["+", "+"], ["-", "-"]):
        return True
    return before[-1:] == ["delete"]


def test_the_reader_finds_every_kind_of_write() -> None:
    source = """
      p.a = 1; p.b += 2; p.c ??= 3; p.d++; --p.e; delete p.f; Object.assign(p, {});
      p.g.h = 4; // p.x = 5
      const s = "p.y = 6"; q.p.z = 7; if (p.k === 8 || p.l == 9) p.m(p.n => 1);
      p.parts.counter.textContent = ""; p.list[0] = 1; p.parts = 2;
    """
    assert writes("e.ed.a = 1; ed.b = 2;", "ed") == ["1: ed.b"]
    assert writes("e.ed.a = 1; ed.b = 2;", "ed", reached=True) == ["1: ed.a", "1: ed.b"]
    assert writes(source, "p", frozenset({"parts"})) == [
        "2: p.a", "2: p.b", "2: p.c", "2: p.d", "2: p.e", "2: p.f", "3: p.g", "5: p.list",
        "5: p.parts", "2: Object.assign(p, ...)"]


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.module)
def test_a_screens_state_is_written_by_its_state_module_alone(screen: Screen) -> None:
    owner = WEB / screen.module
    assert f"export function {screen.factory}(" in owner.read_text(encoding="utf-8")
    users = [p for p in sorted(WEB.rglob("*.js")) if p != owner
             and f"{screen.factory}" in p.read_text(encoding="utf-8")]
    assert users, f"no screen makes its state with {screen.factory}"
    found = {p.relative_to(WEB).as_posix(): hits for p in sorted(WEB.rglob("*.js"))
             if p != owner and (hits := writes(p.read_text(encoding="utf-8"), screen.name,
                                               screen.elements, reached=screen.reached))}
    # Other screens may name another object p or m: the files held are the screen's own
    # (named as its state module is, "mines-*.js") and those that import its state module.
    stem = Path(screen.module).name
    prefix = stem.removesuffix("-state.js")
    held = {path: hits for path, hits in found.items() if Path(path).name.startswith(prefix)
            or stem in (WEB / path).read_text(encoding="utf-8")}
    assert held == {}
