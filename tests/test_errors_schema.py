"""A JSON object's fields declared once (gridforge.errors.Schema): the issues a file's
reader reports, each with its field path, in the order the fields are declared."""

from __future__ import annotations

import pytest
from gridforge.errors import Field, Issue, Issues, Schema, ValidationError

POINT = Schema((
    Field("format", message="format must be 'p/1', got {value!r}", code="format",
          choices=("p/1",)),
    Field("x", "int", "must be an integer in {lo}..{hi}, got {value!r}", lo=0, hi=9,
          required=True),
    Field("y", "int", "must be an integer in {lo}..{hi}, got {value!r}", lo=0, hi=9,
          required=True),
    Field("name", "str", "a name is a non-empty string", "type", default="p", fallback="p",
          test=bool),
    Field("shown", "bool", "must be true or false, got {value!r}", "type", default=True),
), not_object="a point is an object")


def issues_of(schema: Schema, data: dict[str, object], *names: str,
              base: str = "") -> list[tuple[str, str, str]]:
    issues = Issues(base)
    reading = schema.read(data, issues)
    reading.check(*(names or tuple(schema.by_name)))
    return [(i.path, i.code, i.message) for i in issues]


def test_a_valid_object_reads_its_values_and_the_defaults_of_absent_fields() -> None:
    issues = Issues()
    point = POINT.read_all({"format": "p/1", "x": 3, "y": 0}, issues)
    assert not issues
    assert (point.integer("x"), point.integer("y"), point.text("name"),
            point.flag("shown")) == (3, 0, "p", True)


def test_every_faulty_field_is_an_issue_in_declared_order_unknown_keys_first() -> None:
    data = {"shown": 1, "x": 10, "zz": 1, "name": "", "format": "q", "y": True}
    assert issues_of(POINT, data) == [
        ("zz", "unknown_field", "unknown field 'zz'"),
        ("format", "format", "format must be 'p/1', got 'q'"),
        ("x", "range", "must be an integer in 0..9, got 10"),
        ("y", "range", "must be an integer in 0..9, got True"),
        ("name", "type", "a name is a non-empty string"),
        ("shown", "type", "must be true or false, got 1"),
    ]


def test_a_required_field_absent_is_missing_and_a_failed_field_reads_as_its_fallback() -> None:
    issues = Issues("points[2]")
    point = POINT.read({"format": "p/1", "name": 3}, issues)
    point.check("x", "y", "name")
    assert [(i.path, i.code) for i in issues] == [
        ("points[2].x", "missing"), ("points[2].y", "missing"), ("points[2].name", "type")]
    assert point.text("name") == "p" and point.bad("x") and not point.bad("format")


def test_missing_first_reports_every_absent_field_of_a_check_before_the_others() -> None:
    schema = Schema(POINT.fields, missing_first=True)
    assert issues_of(schema, {"x": -1}, "x", "y") == [
        ("y", "missing", "missing field 'y'"),
        ("x", "range", "must be an integer in 0..9, got -1"),
    ]
    assert issues_of(POINT, {"x": -1}, "x", "y") == [
        ("x", "range", "must be an integer in 0..9, got -1"),
        ("y", "missing", "missing field 'y'"),
    ]


def test_nested_objects_and_lists_of_objects_are_read_with_their_paths() -> None:
    size = Schema((Field("w", "int", "must be an integer >= {lo}, got {value!r}", lo=1,
                         fallback=1),), not_object="a size is an object")
    schema = Schema((
        Field("size", "object", "size is an object", "type", nested=size),
        Field("items", "list", "items is a non-empty list", "type", lo=1, items=size),
    ))
    issues = Issues()
    reading = schema.read_all({"size": {"w": 0, "h": 1}, "items": [{"w": 2}, 3, {"w": "x"}]},
                              issues)
    assert [(i.path, i.code, i.message) for i in issues] == [
        ("size.h", "unknown_field", "unknown field 'h'"),
        ("size.w", "range", "must be an integer >= 1, got 0"),
        ("items[1]", "type", "a size is an object"),
        ("items[2].w", "range", "must be an integer >= 1, got 'x'"),
    ]
    assert [item.integer("w") for item in reading.items["items"]] == [2, 1]
    # Not an object: its fields are read from nothing (each absent one an issue).
    assert issues_of(schema, {"size": 3, "items": []}) == [
        ("size", "type", "size is an object"),
        ("size.w", "range", "must be an integer >= 1, got None"),
        ("items", "type", "items is a non-empty list"),
    ]


def test_messages_and_unknown_keys_are_cut_where_the_schema_says() -> None:
    schema = Schema((Field("n", "int", "must be an integer, got {value!r}", cut=30),),
                    unknown_cut=30, key_cut=5)
    got = issues_of(schema, {"n": "x" * 50, "k" * 50: 1})
    assert got == [("kkkkk", "unknown_field", "unknown field '" + "k" * 15),
                   ("n", "range", "must be an integer, got 'xxxxx")]
    short = Schema((), unknown="unknown field {short!r}")
    assert issues_of(short, {"k" * 50: 1})[0][2] == f"unknown field {'k' * 40!r}"


def test_then_checks_a_value_that_fits_and_null_passes_a_nullable_field() -> None:
    schema = Schema((
        Field("even", "int", "must be an integer, got {value!r}", "type",
              then=lambda n: None if n % 2 == 0 else ("odd", f"{n} is odd")),
        Field("total", "int", "must be 0..{hi} or null", lo=0, hi=5, nullable=True),
    ))
    assert issues_of(schema, {"even": 3, "total": None}) == [("even", "odd", "3 is odd")]
    assert issues_of(schema, {"even": 2, "total": 6}) == [("total", "range",
                                                           "must be 0..5 or null")]


def test_root_refuses_what_is_no_object_naming_what_was_read() -> None:
    with pytest.raises(ValidationError) as info:
        POINT.root([1, 2], "point file", "points[0]")
    assert str(info.value) == "invalid point file: points[0]: a point is an object"
    assert POINT.root({"x": 1}, "point file") == {"x": 1}


def _short_key(key: str) -> bool:
    return len(key) <= 2


SHELF = Schema((
    Field("kind", message="kind must be 'shelf', got {shown}", code="format",
          choices=("shelf",)),
    Field("books", "map", "books map a short name to a page count", "type",
          keys=_short_key, key_message="a book's name is at most 2 letters",
          each=Field("", "int", "a page count is 1..{hi}, got {value!r}", lo=1, hi=999)),
    Field("label", "object", "a label is an object or null", "type", nullable=True),
), unknown="unknown field {key!r}", first=("kind",), unknown_sorted=True)
LABEL = Schema((Field("text", "str", "a label's text is a string", "type"),), open_ended=True)


def test_a_map_checks_each_key_then_each_value_at_the_key_s_path() -> None:
    data = {"books": {"ab": 3, "long": 5, "cd": 0, "ef": "x"}}
    assert issues_of(SHELF, data, "books") == [
        ("kind", "format", "kind must be 'shelf', got null"),  # ``first``: as reading starts
        ("books.long", "range", "a book's name is at most 2 letters"),
        ("books.cd", "range", "a page count is 1..999, got 0"),
        ("books.ef", "range", "a page count is 1..999, got 'x'"),
    ]
    assert issues_of(SHELF, {"kind": "shelf", "books": []}, "books") == [
        ("books", "type", "books map a short name to a page count")]


def test_unknown_keys_sorted_after_the_first_fields_and_open_objects_take_any_key() -> None:
    data = {"zz": 1, "kind": "box", "aa": 2, "books": {}}
    assert issues_of(SHELF, data, "books") == [
        ("kind", "format", 'kind must be \'shelf\', got "box"'),
        ("aa", "unknown_field", "unknown field 'aa'"),
        ("zz", "unknown_field", "unknown field 'zz'"),
    ]
    issues = Issues()
    LABEL.read_all({"text": 1, "colour": "red"}, issues, "label")
    assert [(i.path, i.message) for i in issues] == [("label.text", "a label's text is a string")]


def test_a_part_s_refusal_moves_under_the_whole() -> None:
    issues = Issues()
    POINT.read_all({"format": "p/1", "x": 1}, issues)
    error = ValidationError(issues, "point").under("points[2]", "shelf")
    assert (error.what, [i.path for i in error.issues]) == ("shelf", ["points[2].y"])
    moved = Issues()
    moved.under("points[0]", [*ValidationError(issues, "point").issues, *issues_of_root()])
    assert [i.path for i in moved] == ["points[0].y", "points[0]"]


def issues_of_root() -> list[Issue]:
    issues = Issues()
    issues.add("", "type", "a point is an object")
    return issues.items


def test_an_integer_out_of_bounds_is_said_as_a_range() -> None:
    side = Schema((Field("cols", "int", "cols must be an integer, got {shown}", "type", lo=2,
                         hi=18, range_message="cols must be in {lo}..{hi}, got {value}"),))
    assert issues_of(side, {"cols": 40}) == [("cols", "range", "cols must be in 2..18, got 40")]
    assert issues_of(side, {"cols": "4"}) == [("cols", "type", 'cols must be an integer, got "4"')]
