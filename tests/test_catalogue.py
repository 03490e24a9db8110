"""The message catalogue (issue 22, docs/languages.md): one per language, English and
Simplified Chinese, shared by Python (gridforge.i18n) and the shell (web/i18n.js).

- every key exists in every language, with the same placeholders;
- every key the code names literally exists;
- no player-facing text is written outside the catalogue: a static scan of ``web/**/*.js``
  for string literals that read as words, and of Python's message sources for string
  constants that read as words (docstrings and the engines' own error texts, which the page
  shows through the issue codes and the places of ``gridforge.words``, aside).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from gridforge import i18n

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "pkg" / "gridforge" / "catalogue"
WEB = ROOT / "web"


def raw(language: str) -> dict[str, object]:
    return json.loads((CATALOGUE / f"{language}.json").read_text("utf-8"))


def test_both_languages_hold_the_same_keys() -> None:
    en, zh = set(i18n.catalogue("en")), set(i18n.catalogue("zh-CN"))
    assert not en - zh, f"only in English: {sorted(en - zh)}"
    assert not zh - en, f"only in Chinese: {sorted(zh - en)}"
    assert len(en) > 100


def test_placeholders_match_between_languages() -> None:
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh-CN")
    wrong = {key: (sorted(i18n.placeholders(en[key])), sorted(i18n.placeholders(zh[key])))
             for key in en if i18n.placeholders(en[key]) != i18n.placeholders(zh.get(key, ""))}
    assert not wrong, f"placeholders differ: {wrong}"


def test_every_message_is_a_non_empty_text_and_chinese_is_chinese() -> None:
    for language in i18n.LANGUAGES:
        for key, text in i18n.catalogue(language).items():
            assert re.fullmatch(r"[a-z][a-zA-Z0-9_.-]*", key), key
            assert isinstance(text, str) and text.strip(), (language, key)
    # Chinese messages are written in Chinese (names of languages and bare numbers aside).
    zh = i18n.catalogue("zh-CN")
    same = [k for k, v in zh.items() if v == i18n.catalogue("en")[k]
            and re.search(r"[a-z]{3}", re.sub(r"\{\w+\}", "", v))
            and not k.startswith("settings.language.")]
    assert not same, f"untranslated: {same}"


def test_the_catalogue_files_are_notes_and_texts_only() -> None:
    for language in i18n.LANGUAGES:
        data = raw(language)
        assert "@format" in data
        assert all(isinstance(v, str) for k, v in data.items() if not k.startswith("@"))


def test_say_fills_placeholders_in_the_language_of_the_call() -> None:
    assert i18n.say("snakes.level", level=3) == "Level 3"
    with i18n.speaking("zh-Hans-CN"):
        assert i18n.language() == "zh-CN"
        assert i18n.say("snakes.level", level=3) == "第 3 关"
    assert i18n.language() == "en"  # never kept after the call
    with i18n.speaking("fr"):
        assert i18n.language() == "en"


def test_parts_keep_cell_pointers_where_the_language_puts_them() -> None:
    cell = {"cell": [1, 2], "text": "x"}
    assert i18n.say_parts("mines.log.dug-mine", cell=cell) == ["Dug ", cell, ": a mine! Ambush."]
    with i18n.speaking("zh-CN"):
        assert i18n.say_parts("mines.log.flag-miss", cell=cell)[0] == cell


# ---------------------------------------------------------------- keys named in the code
_JS_KEY = re.compile(r"""\b(?:t|tr)\(\s*["']([a-z][a-zA-Z0-9_.-]*)["']""")
_JS_TERNARY_KEY = re.compile(r"""\b(?:t|tr)\(\s*[^()"'`]*?\?\s*["']([a-z][\w.-]*)["']"""
                             r"""\s*:\s*["']([a-z][\w.-]*)["']""")
_HTML_KEY = re.compile(r"""data-i18n(?:-attr)?="([^"]+)\"""")


def web_files() -> list[Path]:
    return sorted(WEB.rglob("*.js"))


def test_every_key_the_shell_names_exists() -> None:
    keys = set(i18n.catalogue("en"))
    named: set[str] = set()
    for path in web_files():
        text = path.read_text("utf-8")
        named |= set(_JS_KEY.findall(text))
        for pair in _JS_TERNARY_KEY.findall(text):
            named |= set(pair)
    html = (WEB / "index.html").read_text("utf-8")
    for value in _HTML_KEY.findall(html):
        named |= {part.split(":")[-1] for part in value.split(";")}
    assert named, "no keys found: the pattern is wrong"
    assert not named - keys, f"missing in the catalogue: {sorted(named - keys)}"


def test_every_key_python_names_exists() -> None:
    keys = set(i18n.catalogue("en"))
    named: set[str] = set()
    for path in (ROOT / "pkg" / "gridforge").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                        "say", "say_parts")
                    and "." in node.args[0].value):
                named.add(node.args[0].value)
    assert len(named) > 30
    assert not named - keys, f"missing in the catalogue: {sorted(named - keys)}"


# ---------------------------------------------------------------- no words outside it
# A literal "reads as words" when it holds two words of letters in a row, or is one
# capitalised word (a button's "Undo"); class names, ids, hooks, selectors, CSS and SVG
# values do not.
_WORDS = re.compile(r"[A-Za-z]{2,}[,.:;!?]? +[A-Za-z]{2,}|^[A-Z][a-z]{2,}[.!?…]?$")
_NOT_TEXT = re.compile(
    r"^[#.\[:(]|data-testid|^[a-z-]+\(|^(?!.*\b(?:the|an?|is|are|be|to|of|or|and|not|no|in|on|it|"
    r"this|that|your|you|was|has|have|must|can|will|from|with|for|yet)\b)"
    r"[a-z0-9-]+( +[a-z0-9-]+)*$|"
    r"^[\w-]+/[\w.+-]+$|^M[\d. ]|^import |"
    r"^(?:translate|rotate|scale)\(|\$\{[^}]*\}(?:px|ms|%)$")
# Literals that are no player's text although they read as words: names, formats, the
# developer console's command words (the command line and tools stay English).
ALLOWED = {
    "gridforge", "Python", "Pyodide", "Console", "Python console",
    "Enter", "Escape", "Cancelled", "Segoe UI", "Noto Sans", "Helvetica Neue", "Liberation Mono",
    "DejaVu Sans Mono",
}
# Files whose words are not in the catalogue: the developer console stays English by design,
# like the command line. The test fails when a file listed here has no such words left: take
# it off the list.
NOT_YET = {
    "console.js": "the developer console (a tool): English by design",
}
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
_SKIP_LINE = re.compile(
    r"^\s*(?://|\*|/\*)|console\.(?:error|warn|log|info)|^\s*import |\bimport\(|"
    r"querySelector|\bi18n-ok\b|new (?:RangeError|TypeError)\(")


def words_in_js(path: Path) -> list[str]:
    """The literals of ``path`` that read as words and are not allowed."""
    found = []
    for line in path.read_text("utf-8").splitlines():
        if _SKIP_LINE.search(line):
            continue
        code = re.sub(r"\s//\s.*$", "", line)
        for match in _STRING.finditer(code):
            if re.search(r"\b(?:class|className)\s*[:=]\s*$", code[:match.start()]):
                continue  # a class list
            literal = match.group(0)[1:-1]
            text = re.sub(r"\$\{[^}]*\}", " ", literal).strip()
            if (text and text not in ALLOWED and _WORDS.search(text)
                    and not _NOT_TEXT.search(text) and not _NOT_TEXT.search(literal)):
                found.append(literal)
    return found


@pytest.mark.parametrize("path", web_files(), ids=lambda p: p.relative_to(WEB).as_posix())
def test_no_shell_words_outside_the_catalogue(path: Path) -> None:
    found = words_in_js(path)
    if path.name in NOT_YET:
        assert found, f"{path.name} has no words outside the catalogue left: drop it from NOT_YET"
    else:
        assert not found, f"{path.name}: player-facing words outside the catalogue: {found[:8]}"


def test_the_scan_finds_words() -> None:
    sample = WEB / "i18n.js"
    assert words_in_js(sample) == []
    assert _WORDS.search("Undo") and _WORDS.search("That move is not allowed")
    assert not _WORDS.search("level-tile done") or _NOT_TEXT.search("level-tile done")


# Python's message sources: the layer that speaks to the page. Their words are
# the catalogue's; what is left are the engines' error texts (GridforgeError, Issue,
# ValidationError: the command line's English; the page says them through gridforge.words).
# (snakes/editor/words.py is left out: its patterns are the engines' English sentences that it
# matches, not words for the page.)
PY_SOURCES = ["words.py", "api.py", "snakes/page.py", "snakes/play.py", "snakes/lessons.py",
              "snakes/editor/diagnose.py", "mines/page.py", "mines/run.py", "mines/run_words.py",
              "mines/hints.py", "mines/guide.py"]
# (refusal, invalid_input: errors.refusal, an input refused for one issue; add: the Issues
# collector's issue.)
_ERRORS = {"GridforgeError", "ValidationError", "Issue", "Cancelled", "UnknownSession",
           "Unreplayable", "Field", "Schema", "refusal", "invalid_input", "add",
           "KeyError", "ValueError", "TypeError"}


def words_in_python(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Assert) and node.msg is not None:
            skip.add(id(node.msg))
        if isinstance(node, ast.Call) and (
                getattr(node.func, "id", None) in _ERRORS
                or getattr(node.func, "attr", None) in _ERRORS):
            for sub in ast.walk(node):
                skip.add(id(sub))
        if isinstance(node, ast.JoinedStr) and any(
                isinstance(v, ast.Constant) and "gridforge" in str(v.value) for v in node.values):
            for sub in ast.walk(node):
                skip.add(id(sub))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip or not (isinstance(node, ast.Constant)
                                    and isinstance(node.value, str)):
            continue
        text = node.value.strip()
        if (_WORDS.search(text) and " " in text and not _NOT_TEXT.search(text)
                and "internal error" not in text):
            found.append(text)
    return found


@pytest.mark.parametrize("name", PY_SOURCES)
def test_no_python_words_outside_the_catalogue(name: str) -> None:
    found = words_in_python(ROOT / "pkg" / "gridforge" / name)
    assert not found, f"{name}: player-facing words outside the catalogue: {found[:8]}"
