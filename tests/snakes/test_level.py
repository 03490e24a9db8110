"""The level model, codec and collecting validator (spec sections 1-3 and 7)."""

from __future__ import annotations

import json

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes.game.level import (
    MAX_HOLES,
    MAX_LEVEL_BYTES,
    MAX_STONES,
    Level,
    balance_issues,
    canonical_json,
    level_from_json,
    level_sha256,
    parse_level,
    validate_level,
)

from .fixtures import level_dict, spec_example


def codes_at(data, **kw):
    return [(i.path, i.code) for i in validate_level(data, **kw)]


def test_spec_example_loads_and_round_trips():
    data = spec_example()
    level = Level.from_json(data)
    assert len(level.bodies) == 4 and len(level.holes) == 5
    assert level.bodies[3].lock is not None and level.bodies[3].lock.keys_needed == 1
    assert level.to_json() == data
    assert Level.from_json(level.to_json()) == level


def test_sha256_ignores_meta_and_key_order():
    data = spec_example()
    other = json.loads(json.dumps(data, sort_keys=True))
    other["meta"] = {"id": "elsewhere"}
    assert level_sha256(Level.from_json(data)) == level_sha256(Level.from_json(other))
    assert '"meta"' not in canonical_json(Level.from_json(data))
    data["holes"][0]["cell"] = [6, 1]
    assert level_sha256(Level.from_json(data)) != level_sha256(Level.from_json(other))


def test_malformed_json_names_the_problem():
    with pytest.raises(ValidationError) as err:
        parse_level("{not json")
    assert err.value.issues[0].code == "json"


def test_not_an_object_is_refused():
    assert codes_at([1, 2]) == [("", "type")]


def test_overlapping_bodies_name_the_cell():
    data = spec_example()
    data["bodies"][1]["cells"] = [[1, 1], [2, 1]]
    assert ("bodies[1].cells[0]", "overlap") in codes_at(data)


def test_body_crossing_a_stone_names_the_cell():
    data = spec_example()
    data["bodies"][0]["cells"] = [[2, 0], [3, 0], [4, 0]]
    found = codes_at(data)
    assert ("bodies[0].cells[1]", "overlap") in found
    assert any("stone" in i.message for i in validate_level(data))


def test_body_not_adjacent_or_repeated():
    data = spec_example()
    data["bodies"][0]["cells"] = [[0, 0], [2, 0], [0, 0]]
    found = codes_at(data)
    assert ("bodies[0].cells[1]", "not_adjacent") in found
    assert ("bodies[0].cells[2]", "repeat") in found


def test_lock_with_wrong_key_count():
    data = spec_example()
    data["bodies"][3]["lock"]["kind"] = "gold"
    assert codes_at(data) == [("bodies[3].lock", "key_count")]
    data = spec_example()
    del data["bodies"][2]["key"]
    assert codes_at(data) == [("bodies[3].lock", "key_count")]


def test_key_to_missing_or_own_lock():
    data = spec_example()
    data["bodies"][2]["key"] = "L9"
    assert ("bodies[2].key", "unknown_lock") in codes_at(data)
    data = spec_example()
    data["bodies"][3]["key"] = "L1"
    assert ("bodies[3].key", "own_lock") in codes_at(data)


def test_colors_out_of_range():
    data = spec_example()
    data["bodies"][0]["colors"] = [2, 15]
    data["holes"][0]["color"] = -1
    found = codes_at(data)
    assert ("bodies[0].colors[1]", "range") in found
    assert ("holes[0].color", "range") in found


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"cols": 19}, "cols"),
        ({"rows": 1}, "rows"),
        ({"cols": 18, "rows": 24}, "cols"),  # 20*26 = 520 is fine, but floor > 400
        ({"cols": 18, "rows": 30}, "rows"),
    ],
)
def test_sizes_past_the_limits(change, where):
    data = spec_example()
    data.update(change)
    found = codes_at(data)
    assert found, change
    assert any(path in (where, "stones") for path, _ in found)


def test_largest_board_loads_only_within_the_floor_limit():
    # (18 + 2) * (24 + 2) = 520 <= 600, so the floor limit (400) is what binds.
    body = [{"cells": [[0, 0], [1, 0]], "colors": [0]}]
    data = level_dict(18, 24, body, [{"cell": [5, 5], "color": 0}])
    assert codes_at(data) == [("stones", "floor_count")]
    data["stones"] = [[x, 23] for x in range(18)] + [[x, 22] for x in range(14)]
    assert codes_at(data) == []


def test_too_many_cells_in_a_body_and_bodies():
    cells = [[x, 0] for x in range(7)] + [[6, y] for y in range(1, 6)]
    data = level_dict(7, 6, [{"cells": [[0, 0]], "colors": [0]}], [{"cell": [3, 3], "color": 0}])
    assert ("bodies[0].cells", "length") in codes_at(data)
    data = level_dict(7, 6, [{"cells": cells[:2], "colors": [0, 0, 0, 0, 0]}], [])
    assert ("bodies[0].colors", "length") in codes_at(data)
    bodies = [{"cells": [[x, y], [x, y + 1]], "colors": [0]} for x in range(7) for y in (0, 2, 4)]
    data = level_dict(7, 6, bodies, [])
    assert ("bodies", "count") in codes_at(data)


def test_unknown_fields_and_bad_lock_kind():
    data = spec_example()
    data["extra"] = 1
    data["bodies"][3]["lock"]["kind"] = "bronze"
    data["holes"][4]["size"] = 2
    found = codes_at(data)
    assert ("extra", "unknown_field") in found
    assert ("bodies[3].lock.kind", "kind") in found
    assert ("holes[4].size", "unknown_field") in found


def test_hole_on_body_or_off_board():
    data = spec_example()
    data["holes"][0]["cell"] = [0, 0]
    data["holes"][1]["cell"] = [7, 0]
    found = codes_at(data)
    assert ("holes[0].cell", "overlap") in found
    assert ("holes[1].cell", "off_board") in found


def test_reports_every_problem_in_one_pass():
    data = spec_example()
    data["format"] = "x"
    data["bodies"][0]["colors"] = [99]
    data["bodies"][1]["frozen"] = 0
    data["holes"][2]["cell"] = "c"
    found = codes_at(data)
    assert [p for p, _ in found] == [
        "format",
        "bodies[0].colors[0]",
        "bodies[1].frozen",
        "holes[2].cell",
    ]


def test_supply_demand_per_color():
    data = spec_example()
    data["holes"][0]["color"] = 5
    with pytest.raises(ValidationError) as err:
        level_from_json(data)
    assert {i.code for i in err.value.issues} == {"supply_demand"}
    level = level_from_json(data, balanced=False)
    assert balance_issues(level)


def test_supply_demand_per_region():
    # A wall of stones splits the board; each side needs its own holes.
    stones = [[2, y] for y in range(3)]
    bodies = [
        {"cells": [[0, 0], [0, 1]], "colors": [1]},
        {"cells": [[4, 0], [4, 1]], "colors": [2]},
    ]
    holes = [{"cell": [1, 2], "color": 2}, {"cell": [3, 2], "color": 1}]
    data = level_dict(5, 3, bodies, holes, stones)
    issues = validate_level(data)
    assert issues and all(i.code == "supply_demand" for i in issues)
    assert "region" in issues[0].message
    holes.reverse()
    data = level_dict(
        5, 3, bodies, [{"cell": [1, 2], "color": 1}, {"cell": [3, 2], "color": 2}], stones
    )
    assert validate_level(data) == []


def test_error_never_half_loads():
    data = spec_example()
    data["bodies"][2]["cells"] = [[0, 4], [0, 5], [0, 6]]
    with pytest.raises(ValidationError) as err:
        Level.from_json(data)
    assert err.value.issues[0].path == "bodies[2].cells[2]"


@pytest.mark.parametrize("kind", [["gold"], {"kind": "gold"}, 1, None])
def test_a_lock_kind_of_any_other_type_is_refused_by_its_path(kind):
    data = spec_example()
    data["bodies"][3]["lock"]["kind"] = kind
    assert ("bodies[3].lock.kind", "kind") in codes_at(data)


def test_an_invalid_body_adds_no_spurious_total():
    data = spec_example()
    data["bodies"][0]["cells"][1] = "x"
    issues = [i.path for i in validate_level(data)]
    assert issues == ["bodies[0].cells[1]"]


@pytest.mark.parametrize("field, count, limit", [
    ("stones", 2_000_000, MAX_STONES), ("holes", MAX_HOLES + 1, MAX_HOLES),
    ("bodies", 1_000_000, 16),
])
def test_overlong_lists_are_refused_before_their_items_are_read(field, count, limit):
    data = spec_example()
    data[field] = [[3, 0] if field == "stones" else {}] * count
    issues = validate_level(data)
    assert [i.path for i in issues] == [field] or issues[0].path == field
    assert f"{limit} items, got {count}" in issues[0].message
    long_body = spec_example()
    long_body["bodies"][0]["cells"] = [[0, 0]] * 100_000
    assert [(i.path, i.code) for i in validate_level(long_body)] == [("bodies[0].cells",
                                                                      "length")]


def test_duplicate_stones_are_reported_with_a_capped_issue_list():
    data = spec_example()
    data["stones"] = [[0, 1]] * MAX_STONES
    with pytest.raises(ValidationError) as err:
        level_from_json(data)
    assert len(err.value.issues) == 50 and err.value.more > 0
    assert err.value.issues[0].path == "stones[1]" and err.value.issues[0].code == "duplicate"


def test_a_level_text_above_the_file_cap_is_refused_by_its_size():
    text = json.dumps(spec_example())
    with pytest.raises(ValidationError, match="limit"):
        parse_level(text + " " * MAX_LEVEL_BYTES)
