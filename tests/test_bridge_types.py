"""The bridge typed from both ends (issue 53): ``web/types/bridge.d.ts`` is what
``tools.bridge_types`` writes from the Python answer types now, and the generator writes
what those types say (generic bases, optional keys, literals, unions, clashing names)."""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar

import pytest
from gridforge import api
from gridforge.jsontypes import Json, JsonObject

from tools import bridge_types

pytestmark = pytest.mark.cpython_only  # reads the source tree

T = TypeVar("T")


class Wrapper(TypedDict, Generic[T]):
    """A generic envelope."""

    id: str
    items: list[T]
    extra: JsonObject | None


class Piece(TypedDict):
    kind: Literal["piece", "stone"]
    cells: list[tuple[int, int]]
    note: NotRequired[str]


class Opened(Wrapper[Piece]):
    """Opened on a piece.

    Not in the comment: the second paragraph."""

    count: int | None
    raw: list[Json]


class Reopened(Opened):
    again: bool


def toy_open(level: int, save: Any = None, *, progress: object = None) -> Reopened:
    """Open a toy level."""
    raise NotImplementedError


def toy_list() -> dict[str, list[Piece]]:
    """Every piece."""
    raise NotImplementedError


def toy_text() -> str:
    raise NotImplementedError


def render_toy() -> str:
    reader = bridge_types._Reader()
    reader.verb("toy.open", toy_open)
    reader.verb("toy.list", toy_list)
    reader.verb("toy.text", toy_text)
    reader.bridge.names = bridge_types._name_interfaces(reader.bridge.interfaces)
    return bridge_types.render(reader.bridge)


def test_the_checked_in_declarations_are_current() -> None:
    current = bridge_types.OUTPUT.read_text(encoding="utf-8")
    assert current == bridge_types.generate(), (
        f"web/types/bridge.d.ts is stale: run {bridge_types.REGENERATE}")


def test_every_page_function_is_a_verb_of_the_declarations() -> None:
    text = bridge_types.generate()
    for entry in api.functions():
        assert f'"{entry["name"]}": {{ args: [' in text


def test_generic_bases_are_written_as_generic_interfaces() -> None:
    text = render_toy()
    assert "export interface Wrapper<T> {\n  id: string;\n  items: T[];\n" in text
    assert "  extra: JsonObject | null;\n}" in text
    assert "export interface Opened extends Wrapper<Piece> {\n  count: number | null;\n" \
           "  raw: Json[];\n}" in text
    assert "export interface Reopened extends Opened {\n  again: boolean;\n}" in text
    assert "Opened on a piece." in text and "second paragraph" not in text


def test_fields_keep_literals_tuples_and_optional_keys() -> None:
    text = render_toy()
    assert ('export interface Piece {\n  kind: "piece" | "stone";\n'
            "  cells: [number, number][];\n  note?: string;\n}") in text


def test_verbs_carry_their_json_arguments_and_answer() -> None:
    text = render_toy()
    assert '"toy.open": { args: [level: number, save?: unknown]; answer: Reopened };' in text
    assert '"toy.list": { args: []; answer: { [key: string]: Piece[] } };' in text
    assert '"toy.text": { args: []; answer: string };' in text
    assert "progress" not in text  # the dispatcher's sink is never the page's argument


def test_same_named_types_of_two_games_are_told_apart() -> None:
    names = bridge_types._name_interfaces({
        cls: bridge_types._Interface(cls, [], [], [])
        for cls in (type("Offer", (), {"__module__": "gridforge.mines.view"}),
                    type("Offer", (), {"__module__": "gridforge.snakes.answers"}),
                    type("Piece", (), {"__module__": "gridforge.snakes.answers"}))})
    assert sorted(names.values()) == ["MinesOffer", "Piece", "SnakesOffer"]


def test_a_type_without_a_json_form_is_refused_by_name() -> None:
    def bad() -> set[complex]:
        raise NotImplementedError

    reader = bridge_types._Reader()
    reader.verb("toy.bad", bad)
    with pytest.raises(bridge_types.BridgeTypeError, match="complex"):
        bridge_types.render(reader.bridge)


def test_an_unannotated_answer_is_refused() -> None:
    def bare():  # type: ignore[no-untyped-def]
        return 1

    with pytest.raises(bridge_types.BridgeTypeError, match="must annotate"):
        bridge_types._Reader().verb("toy.bare", bare)


def test_tsc_checks_all_of_web_with_no_file_turning_it_off() -> None:
    import json

    configs = [json.loads((bridge_types.ROOT / name).read_text(encoding="utf-8"))
               for name in ("tsconfig.json", "tsconfig.sw.json")]
    options = configs[0]["compilerOptions"]
    assert options["checkJs"] and options["allowJs"] and options["noEmit"] and options["strict"]
    included = {p for c in configs for p in c["include"]}
    assert {"web/**/*.js", "web/sw.js"} <= included
    web = bridge_types.ROOT / "web"
    off = {p.relative_to(web).as_posix() for p in web.rglob("*.js")
           if any(word in p.read_text(encoding="utf-8")
                  for word in ("@ts-nocheck", "@ts-ignore", "@ts-expect-error"))}
    assert off == set()
