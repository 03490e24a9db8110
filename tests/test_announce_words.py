"""The words of the live regions (the catalogue's "announce." keys, read through
web/announce-words.js, issue 22): every key the page asks for is in the catalogue, keys
built from Python's data (a colour index, an end, a direction, a lock's metal) exist for
every value Python can send, and each template's placeholders are the ones its callers
fill."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from gridforge.snakes.game.rules import DIRS, ENDS

pytestmark = pytest.mark.cpython_only  # reads web/

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
CATALOGUE = ROOT / "pkg" / "gridforge" / "catalogue" / "en.json"


def table() -> dict[str, str]:
    """The catalogue's announcement words, keyed as words() names them."""
    found = {key[len("announce."):]: text
             for key, text in json.loads(CATALOGUE.read_text(encoding="utf-8")).items()
             if key.startswith("announce.")}
    assert found, "no announce. key in the catalogue"
    return found


def uses() -> list[tuple[str, str]]:
    """(file, key) of every words("key"...) call with a literal key in web/."""
    out = []
    for path in sorted(WEB.rglob("*.js")):
        for key in re.findall(r'\bwords\(\s*"([^"]+)"', path.read_text(encoding="utf-8")):
            out.append((path.relative_to(WEB).as_posix(), key))
    return out


def test_every_key_the_page_asks_for_is_in_the_table():
    words = table()
    missing = [(file, key) for file, key in uses() if key not in words]
    assert uses() and missing == []


def test_keys_built_from_python_s_data_exist_for_every_value():
    words = table()
    built = ([f"colour.{i}" for i in range(15)] + ["colour.other"]
             + [f"end.{e}" for e in ENDS] + [f"direction.{d}" for d in DIRS]
             + [f"metal.{m}" for m in ("silver", "gold")])
    assert [key for key in built if key not in words] == []


def test_a_key_s_one_form_has_the_same_placeholders_but_count():
    words = table()
    for key, template in words.items():
        if key.endswith(".one"):
            base = set(re.findall(r"\{(\w+)\}", words[key[: -len(".one")]]))
            assert set(re.findall(r"\{(\w+)\}", template)) == base - {"count"}, key
