"""The shape of the page's JavaScript (web/, issue 42): no file over 450 lines and no
function over 100, so a new engineer reads a screen as small named parts (state, drawing,
input) rather than one closure of hundreds of lines.

A function's length runs from the line it opens on (``function``, a method's name, an
arrow's parameters) to the line of its closing brace. The measurer below reads JavaScript
as tokens, skipping comments, strings, template literals (but not the code inside their
``${...}``) and regular expression literals, so a brace in any of these never counts; it
is checked on small snippets first, so that it cannot pass a web/ it failed to read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.cpython_only  # reads web/ from the source tree

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 100

# Words after which a "/" starts a regular expression rather than dividing.
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "in", "of", "delete", "void", "throw",
                      "new", "instanceof", "do", "else", "yield", "await"}
# Words whose "(...) {" opens a block, not a method.
_CONTROL_WORDS = {"if", "for", "while", "switch", "catch", "with", "function"}
_METHOD_PREFIXES = {"async", "get", "set", "static"}
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"\d[\w.]*")
_PUNCT = ("=>", "...", "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "?.")


@dataclass(frozen=True)
class Token:
    """One significant token: its text, its kind (word, number, string, regex, punct) and
    the line (1-based) it starts on."""
    text: str
    kind: str
    line: int


@dataclass(frozen=True)
class Function:
    """A function body found in the source: its name (or a description), first and last
    line, both inclusive."""
    name: str
    first: int
    last: int

    @property
    def lines(self) -> int:
        return self.last - self.first + 1


class _Reader:
    """Splits JavaScript source into significant tokens."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.pos = 0
        self.line = 1
        self.tokens: list[Token] = []
        # One entry per open "{": True when it opened a template's "${".
        self.braces: list[bool] = []

    def advance(self, n: int) -> str:
        text = self.src[self.pos:self.pos + n]
        self.line += text.count("\n")
        self.pos += n
        return text

    def regex_allowed(self) -> bool:
        if not self.tokens:
            return True
        last = self.tokens[-1]
        if last.kind == "word":
            return last.text in _REGEX_AFTER_WORDS
        if last.kind in {"number", "string", "regex"}:
            return False
        return last.text not in {")", "]", "}"}

    def skip_quoted(self, quote: str) -> None:
        """Past a '...' or "..." string whose opening quote is at pos."""
        self.advance(1)
        while self.pos < len(self.src) and self.src[self.pos] != quote:
            self.advance(2 if self.src[self.pos] == "\\" else 1)
        self.advance(1)

    def skip_template(self) -> None:
        """Past template text up to its closing backtick, or into a "${" (pushed)."""
        while self.pos < len(self.src):
            char = self.src[self.pos]
            if char == "\\":
                self.advance(2)
            elif char == "`":
                self.advance(1)
                return
            elif self.src.startswith("${", self.pos):
                self.advance(2)
                self.braces.append(True)
                return
            else:
                self.advance(1)

    def skip_regex(self) -> None:
        """Past a regular expression literal and its flags; a "/" inside [...] is text."""
        self.advance(1)
        in_class = False
        while self.pos < len(self.src) and self.src[self.pos] != "\n":
            char = self.src[self.pos]
            if char == "\\":
                self.advance(2)
                continue
            self.advance(1)
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            elif char == "/" and not in_class:
                break
        while self.pos < len(self.src) and (self.src[self.pos].isalnum()):
            self.advance(1)

    def read(self) -> list[Token]:
        src = self.src
        while self.pos < len(src):
            char, line = src[self.pos], self.line
            if char.isspace():
                self.advance(1)
            elif src.startswith("//", self.pos):
                end = src.find("\n", self.pos)
                self.advance((len(src) if end < 0 else end) - self.pos)
            elif src.startswith("/*", self.pos):
                end = src.find("*/", self.pos + 2)
                self.advance((len(src) if end < 0 else end + 2) - self.pos)
            elif char in "'\"":
                self.skip_quoted(char)
                self.tokens.append(Token("''", "string", line))
            elif char == "`":
                self.advance(1)
                self.skip_template()
                self.tokens.append(Token("``", "string", line))
            elif char == "/" and self.regex_allowed():
                self.skip_regex()
                self.tokens.append(Token("//", "regex", line))
            elif char == "}" and self.braces and self.braces[-1]:
                self.braces.pop()
                self.advance(1)
                self.skip_template()
            elif match := _IDENT.match(src, self.pos):
                self.tokens.append(Token(self.advance(match.end() - self.pos), "word", line))
            elif match := _NUMBER.match(src, self.pos):
                self.tokens.append(Token(self.advance(match.end() - self.pos), "number", line))
            else:
                text = next((p for p in _PUNCT if src.startswith(p, self.pos)), char)
                if text == "{":
                    self.braces.append(False)
                elif text == "}" and self.braces:
                    self.braces.pop()
                self.tokens.append(Token(self.advance(len(text)), "punct", line))
        return self.tokens


def tokens(source: str) -> list[Token]:
    """The significant tokens of a JavaScript source."""
    return _Reader(source).read()


def _opener(toks: list[Token], brace: int, partner: dict[int, int]) -> tuple[str, int] | None:
    """When the "{" at toks[brace] opens a function's body: the function's name and the
    index of the token it starts at; else None."""
    before = toks[brace - 1] if brace else None
    if before is None:
        return None
    if before.text == "=>":
        params = brace - 2
        start = partner.get(params, params) if toks[params].text == ")" else params
        if toks[start - 1].text == "async":
            start -= 1
        named = start >= 2 and toks[start - 1].text in {"=", ":"} and toks[start - 2].kind == "word"
        return (toks[start - 2].text if named else "<arrow>"), start
    if before.text != ")" or (brace - 1) not in partner:
        return None
    open_paren = partner[brace - 1]
    name_at = open_paren - 1
    if name_at < 0:
        return None
    name = toks[name_at]
    if name.text == "function" or (name.text == "*" and toks[name_at - 1].text == "function"):
        start = name_at if name.text == "function" else name_at - 1
        label = "<function>"
    elif name.kind == "word" and name.text not in _CONTROL_WORDS:
        start, label = name_at, name.text
        if toks[name_at - 1].text == "function":
            start -= 1
        elif toks[name_at - 1].text == "*" and toks[name_at - 2].text == "function":
            start -= 2
    else:
        return None
    while start and toks[start - 1].text in _METHOD_PREFIXES:
        start -= 1
    return label, start


def functions(source: str) -> list[Function]:
    """Every function of a JavaScript source whose body is in braces: ``function`` ones,
    methods, ``=> {`` arrows, nested ones included, in the order they open."""
    toks = tokens(source)
    partner: dict[int, int] = {}
    parens: list[int] = []
    open_bodies: list[tuple[str, int, int] | None] = []
    order: list[tuple[int, Function]] = []
    for i, tok in enumerate(toks):
        if tok.text == "(":
            parens.append(i)
        elif tok.text == ")" and parens:
            partner[i] = parens.pop()
        elif tok.text == "{":
            found = _opener(toks, i, partner)
            open_bodies.append(None if found is None else (found[0], toks[found[1]].line, i))
        elif tok.text == "}" and open_bodies:
            body = open_bodies.pop()
            if body is not None:
                order.append((body[2], Function(body[0], body[1], tok.line)))
    return [fn for _, fn in sorted(order, key=lambda pair: pair[0])]


def js_files() -> list[Path]:
    return sorted(WEB.rglob("*.js"))


# The measurer itself.

def test_a_named_function_runs_from_its_keyword_to_its_closing_brace():
    source = "const a = 1;\n\nfunction draw(board) {\n  return board;\n}\n"
    assert functions(source) == [Function("draw", 3, 5)]


def test_nested_functions_methods_and_arrows_are_each_measured():
    source = """export function mount(root) {
  const state = { a: 1, b: { c: 2 } };
  const onKey = (event) => {
    if (event.key === "x") {
      state.a += 1;
    }
  };
  class View {
    render(board) {
      for (const x of board) { draw(x); }
    }
    async load() {
      return await fetch("x");
    }
  }
  root.addEventListener("click", function () {
    onKey({});
  });
  items.forEach(item => {
    item.go();
  });
}
"""
    assert functions(source) == [
        Function("mount", 1, 22),
        Function("onKey", 3, 7),
        Function("render", 9, 11),
        Function("load", 12, 14),
        Function("<function>", 16, 18),
        Function("<arrow>", 19, 21),
    ]


def test_braces_in_strings_templates_comments_and_regexes_do_not_count():
    source = """function tricky(a) {
  const s = "}}} { '";
  const t = '{{ " }';
  // } a closing brace in a comment
  /* } and { in a
     block comment } */
  const re = /[}/]+\\}/g;
  const q = a / 2 / 3;
  const html = `<div class="${a ? `x}` : "y{"}">}{</div>`;
  return s + t + re + q + html;
}
function after() {
  return 1;
}
"""
    assert functions(source) == [Function("tricky", 1, 11), Function("after", 12, 14)]


def test_functions_inside_a_template_expression_are_found():
    source = """const list = `<ul>${items.map((item) => {
  return `<li>${item}</li>`;
}).join("")}</ul>`;
function next() {}
"""
    assert functions(source) == [Function("<arrow>", 1, 3), Function("next", 4, 4)]


def test_blocks_and_expression_bodies_are_not_functions():
    source = """if (a) {
  while (b) { b -= 1; }
} else if (c) {
  try { go(); } catch (e) { stop(); }
}
switch (d) { case 1: break; }
const f = (x) => ({ x });
for (const k in o) { use(k); }
"""
    assert functions(source) == []


def test_a_long_function_is_reported_with_its_length():
    body = "\n".join(f"  step({n});" for n in range(120))
    found = functions(f"export function mountPlay(root) {{\n{body}\n}}\n")
    assert [(fn.name, fn.lines) for fn in found] == [("mountPlay", 122)]


# The page.

def test_the_page_has_javascript_to_measure():
    assert len(js_files()) > 20
    assert sum(len(functions(p.read_text(encoding="utf-8"))) for p in js_files()) > 200


def test_no_javascript_file_of_web_is_over_450_lines():
    long = {p.relative_to(WEB).as_posix(): n for p in js_files()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES}
    assert long == {}


def test_no_javascript_function_of_web_is_over_100_lines():
    long = [f"{p.relative_to(WEB).as_posix()}:{fn.first} {fn.name} ({fn.lines} lines)"
            for p in js_files() for fn in functions(p.read_text(encoding="utf-8"))
            if fn.lines > MAX_FUNCTION_LINES]
    assert long == []


def test_every_brace_of_web_is_matched():
    # A reader that lost its place (a regex taken for a division) would unbalance them.
    for path in js_files():
        toks = tokens(path.read_text(encoding="utf-8"))
        depth = 0
        for tok in toks:
            depth += {"{": 1, "}": -1}.get(tok.text, 0)
            assert depth >= 0, path
        assert depth == 0, path
