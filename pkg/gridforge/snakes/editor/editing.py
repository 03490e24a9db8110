"""Editor operations on a draft level (seed 004 section 6, "编辑、试玩与批量接入").

A *draft* is a level dict that the editor is still building: it may lack bodies, hold a
lock whose keys are not placed yet, or have holes and layers that do not balance; in every
other respect it is a valid level (cells on the board, bodies 4-adjacent paths that overlap
nothing, colours and thresholds in range). Every edit is data (a dict naming a ``tool``)
and goes through :func:`apply_edit`, which checks the edit's own fields, applies it to a
copy, and refuses it with field paths when the result is no longer a draft: a refused edit
changes nothing. Each answer also lists what still stops the level from being played or
verified (the full level check, supply and demand included), and the level's SHA-256 as
its certificate would name it, once it has one.

Around the edits: :func:`open_draft` (a level to start from, e.g. a stored draft),
:func:`blank` (an empty board), :func:`read_import` (a level, an exported certified level or
a batch, read with the project's bounded JSON reader), :func:`export_batch` (certified
drafts together as ``gridforge.snakes.batch/1``), :func:`share_text` (a level's canonical
text for a share link) and :func:`largest_free_area` (the cells of the largest free area,
which the score's diagnostics only count).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, TypedDict

from gridforge.errors import (
    GridforgeError,
    Issue,
    Issues,
    ValidationError,
    field_path,
    is_int,
    parse_json,
    refusal,
)
from gridforge.grid import Cell
from gridforge.jsontypes import Json, JsonObject
from gridforge.snakes.game.answers import DraftAnswer
from gridforge.snakes.game.certfile import (
    BATCH_FORMAT,
    CERT_FORMAT,
    Batch,
    Certificate,
    certificate_of,
)
from gridforge.snakes.game.level import (
    FORMAT,
    LOCK_KEYS,
    MAX_BODIES,
    MAX_COLOR,
    MAX_COLS,
    MAX_FROZEN,
    MAX_LAYERS,
    MAX_ROWS,
    MIN_COLOR,
    MIN_COLS,
    MIN_ROWS,
    canonical_json,
    level_from_json,
    level_sha256,
    validate_level,
)
from gridforge.snakes.game.levelfile import HoleJson, LevelJson, LockJson, PathJson, accepted
from gridforge.snakes.game.regions import regions
from gridforge.snakes.solver.recheck import check_certificate

__all__ = [
    "IMPORT_MAX_BYTES",
    "TOOLS",
    "Prover",
    "apply_edit",
    "blank",
    "export_batch",
    "export_batch_data",
    "largest_free_area",
    "open_draft",
    "prove_by_replay",
    "read_import",
    "share_text",
]

TOOLS = ("stone", "erase", "hole", "body", "resize", "body_props", "hole_props", "transform",
         "path", "bridge")
# An imported file larger than this is refused before parsing (a batch of 50 large levels
# with certificates stays well below it).
IMPORT_MAX_BYTES = 4 * 1024 * 1024

# Proves a certificate for a level again and answers the certificate that the proof
# established (raising GridforgeError, with the claim that failed, when it does not hold).
# The page passes its own export check, so imports and exports are judged exactly as a single
# export is; the default replays the certificate with the game's check.
Prover = Callable[[Json, Json], Certificate]

# Issues a draft may carry while it is being built: no body yet, a lock whose keys are not
# all placed, a key whose lock is not set yet. Anything else makes it no draft at all.
_UNFINISHED = ("key_count", "unknown_lock")


def _unfinished(issue: Issue, data: JsonObject) -> bool:
    if issue.code in _UNFINISHED:
        return True
    return issue.path == "bodies" and issue.code == "count" and data.get("bodies") == []


def _draft_problems(data: Any) -> list[Issue]:
    """What makes ``data`` no draft (empty for a draft, finished or not)."""
    if not isinstance(data, dict):
        return validate_level(data, balanced=False)
    return [i for i in validate_level(data, balanced=False) if not _unfinished(i, data)]


def _answer(data: LevelJson) -> DraftAnswer:
    """A draft with what still stops it from being a playable level, and its SHA-256."""
    issues = validate_level(data, balanced=True)
    sha: str | None
    try:
        sha = level_sha256(data)
    except ValidationError:
        sha = None  # unfinished (no body yet, keys missing): no level to name yet
    return {"level": data, "issues": [i.to_json() for i in issues], "ok": not issues,
            "sha256": sha}


def blank(cols: Any = 7, rows: Any = 7) -> DraftAnswer:
    """An empty board of ``cols`` x ``rows`` floor cells (a draft with no body yet).

    :raises ValidationError: ``cols`` / ``rows`` out of the level's ranges.
    """
    data = {"format": FORMAT, "cols": cols, "rows": rows, "stones": [], "bodies": [],
            "holes": []}
    problems = _draft_problems(data)
    if problems:
        raise ValidationError(problems, "board size")
    return _answer(accepted(data))


def open_draft(level: Any) -> DraftAnswer:
    """Start editing ``level`` (a level dict or a stored draft).

    :raises ValidationError: every problem that makes it no draft, with field paths.
    """
    problems = _draft_problems(level)
    if problems:
        raise ValidationError(problems, "snakes level")
    return _answer(accepted(copy.deepcopy(level)))


# ---------------------------------------------------------------- edit fields


class _Fields(Issues):
    """The problems of an edit's own fields (paths under ``edit``): the core collector, with
    the edit's board at hand."""

    def __init__(self) -> None:
        super().__init__("edit")

    def int_in(self, edit: JsonObject, name: str, lo: int, hi: int) -> int | None:
        return self.integer(edit.get(name), name, lo, hi, name)

    def optional_int(self, edit: JsonObject, name: str, lo: int, hi: int) -> int | None:
        if edit.get(name) is None:
            return None
        return self.int_in(edit, name, lo, hi)

    def board_cell(self, value: Json, name: str, data: LevelJson) -> Cell | None:
        return self.cell(value, name, data["cols"], data["rows"])

    def cells(self, edit: JsonObject, data: LevelJson) -> list[Cell]:
        raw = edit.get("cells")
        if not isinstance(raw, list) or not raw:
            self.add("cells", "type", "cells must be a non-empty list of [x, y]")
            return []
        out = []
        for j, value in enumerate(raw):
            cell = self.board_cell(value, f"cells[{j}]", data)
            if cell is not None:
                out.append(cell)
        return out

    def check(self) -> None:
        self.raise_if_any("edit")


def _where(data: LevelJson, cell: Cell) -> tuple[str, int] | None:
    """What occupies ``cell``: ("stones" | "holes" | "bodies", index), or None for free floor."""
    target = list(cell)
    for i, stone in enumerate(data["stones"]):
        if stone == target:
            return ("stones", i)
    for i, hole in enumerate(data["holes"]):
        if hole["cell"] == target:
            return ("holes", i)
    for i, body in enumerate(data["bodies"]):
        if target in body["cells"]:
            return ("bodies", i)
    return None


def _taken(fields: _Fields, name: str, cell: Cell, at: tuple[str, int]) -> None:
    kind, index = at
    fields.add(name, "occupied",
               f"cell {list(cell)} holds {kind}[{index}]; erase it first")


# ---------------------------------------------------------------- the tools


def _stone(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Paint stones along ``cells`` (or erase them with ``erase: true``)."""
    cells = fields.cells(edit, data)
    erase = edit.get("erase", False)
    if not isinstance(erase, bool):
        fields.add("erase", "type", "erase must be true or false")
    fields.check()
    for j, cell in enumerate(cells):
        at = _where(data, cell)
        if erase:
            if at is not None and at[0] == "stones":
                data["stones"].remove(list(cell))
        elif at is None:
            data["stones"].append(list(cell))
        elif at[0] != "stones":
            _taken(fields, f"cells[{j}]", cell, at)
    fields.check()


def _erase_flag(edit: JsonObject, fields: _Fields) -> bool:
    erase = edit.get("erase", False)
    if not isinstance(erase, bool):
        fields.add("erase", "type", "erase must be true or false")
        return False
    return erase


def _terrain_at(data: LevelJson, cell: Cell) -> str | None:
    """``"paths"`` or ``"bridges"`` when ``cell`` is painted or bridged, else None."""
    target = list(cell)
    if any(p["cell"] == target for p in data.get("paths", [])):
        return "paths"
    if target in data.get("bridges", []):
        return "bridges"
    return None


def _set_terrain(data: LevelJson, cells: set[Cell], paths: list[PathJson] | None = None,
                 bridges: list[list[int]] | None = None) -> None:
    """Clear the terrain of ``cells``, then add ``paths`` and ``bridges``; an emptied field
    is dropped (a level without terrain keeps the file's shape and its SHA)."""
    kept_paths = [p for p in data.get("paths", []) if (p["cell"][0], p["cell"][1]) not in cells]
    kept_bridges = [c for c in data.get("bridges", []) if (c[0], c[1]) not in cells]
    kept_paths += paths or []
    kept_bridges += bridges or []
    data.pop("paths", None)
    data.pop("bridges", None)
    if kept_paths:
        data["paths"] = kept_paths
    if kept_bridges:
        data["bridges"] = kept_bridges


def _terrain_cells(data: LevelJson, edit: JsonObject, fields: _Fields) -> tuple[list[Cell], bool]:
    """The cells of a terrain edit and its erase flag; painting on a stone or a hole refused."""
    cells = fields.cells(edit, data)
    erase = _erase_flag(edit, fields)
    if not erase:
        for j, cell in enumerate(cells):
            at = _where(data, cell)
            if at is not None and at[0] != "bodies":
                _taken(fields, f"cells[{j}]", cell, at)
    return cells, erase


def _path(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Paint a coloured path of ``color`` along ``cells`` (a bridge there gives way), or
    erase the paint there with ``erase: true``."""
    cells, erase = _terrain_cells(data, edit, fields)
    color = None if erase else fields.int_in(edit, "color", MIN_COLOR, MAX_COLOR)
    fields.check()
    painted: list[PathJson] = [] if color is None else [
        {"cell": list(c), "color": color} for c in dict.fromkeys(cells)]
    _set_terrain(data, set(cells), paths=painted)


def _bridge(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Place bridges on ``cells`` (paint there gives way), or remove them with ``erase``."""
    cells, erase = _terrain_cells(data, edit, fields)
    fields.check()
    _set_terrain(data, set(cells), bridges=[] if erase else [list(c) for c in dict.fromkeys(cells)])


def _erase(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Remove whatever stands on ``cell``: a stone, a hole or a whole body; on bare terrain,
    its paint or bridge."""
    cell = fields.board_cell(edit.get("cell"), "cell", data)
    fields.check()
    assert cell is not None
    at = _where(data, cell)
    if at is None and _terrain_at(data, cell) is not None:
        _set_terrain(data, {cell})
        return
    if at is None:
        fields.add("cell", "empty", f"cell {list(cell)} is empty floor: nothing to erase")
        fields.check()
        return
    kind, index = at
    if kind == "stones":
        data["stones"].pop(index)
    elif kind == "holes":
        data["holes"].pop(index)
    else:
        removed = data["bodies"].pop(index)
        if "lock" in removed:
            # Keys for a lock that left with its body open nothing: they go with it.
            for body in data["bodies"]:
                if body.get("key") == removed["lock"]["id"]:
                    del body["key"]


def _hole(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Place a hole of ``color`` (and ``frozen`` threshold) on free floor, or restyle one."""
    cell = fields.board_cell(edit.get("cell"), "cell", data)
    color = fields.int_in(edit, "color", MIN_COLOR, MAX_COLOR)
    frozen = fields.optional_int(edit, "frozen", 1, MAX_FROZEN)
    fields.check()
    assert cell is not None and color is not None
    hole: HoleJson = {"cell": list(cell), "color": color}
    if frozen is not None:
        hole["frozen"] = frozen
    at = _where(data, cell)
    if at is None:
        data["holes"].append(hole)
    elif at[0] == "holes":
        data["holes"][at[1]] = hole
    else:
        _taken(fields, "cell", cell, at)
        fields.check()


def _body(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Draw a body along ``cells`` (head first). Starting on an existing body redraws that
    body along the new path, keeping its colours and mechanisms; starting on free floor makes
    a new body of ``color``."""
    cells = fields.cells(edit, data)
    fields.check()
    start = _where(data, cells[0])
    if start is not None and start[0] == "bodies":
        data["bodies"][start[1]]["cells"] = [list(c) for c in cells]
        return
    if start is not None:
        _taken(fields, "cells[0]", cells[0], start)
    color = fields.int_in(edit, "color", MIN_COLOR, MAX_COLOR)
    if len(data["bodies"]) >= MAX_BODIES:
        fields.add("cells", "count", f"a level has at most {MAX_BODIES} bodies")
    fields.check()
    assert color is not None
    data["bodies"].append({"cells": [list(c) for c in cells], "colors": [color]})


def _resize(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Set the board to ``cols`` x ``rows``; stones outside go, a body or hole outside refuses."""
    cols = fields.int_in(edit, "cols", MIN_COLS, MAX_COLS)
    rows = fields.int_in(edit, "rows", MIN_ROWS, MAX_ROWS)
    fields.check()
    assert cols is not None and rows is not None

    def inside(c: list[int]) -> bool:
        return c[0] < cols and c[1] < rows

    for i, body in enumerate(data["bodies"]):
        if not all(inside(c) for c in body["cells"]):
            fields.add("cols", "cuts", f"bodies[{i}] lies partly outside {cols}x{rows}: "
                                       "move or erase it first")
    for i, hole in enumerate(data["holes"]):
        if not inside(hole["cell"]):
            fields.add("cols", "cuts", f"holes[{i}] at {hole['cell']} lies outside "
                                       f"{cols}x{rows}: move or erase it first")
    fields.check()
    data["cols"], data["rows"] = cols, rows
    data["stones"] = [s for s in data["stones"] if inside(s)]
    _set_terrain(data, {(x, y) for x in range(MAX_COLS) for y in range(MAX_ROWS)
                        if not inside([x, y])})


def _body_props(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Set body ``index``'s ``colors`` (outer first), ``frozen``, ``lock`` and ``key``
    (null removes the last three)."""
    index = fields.int_in(edit, "index", 0, max(0, len(data["bodies"]) - 1))
    if not data["bodies"]:
        fields.add("index", "range", "there is no body to edit")
    colors = edit.get("colors")
    if not isinstance(colors, list) or not 1 <= len(colors) <= MAX_LAYERS:
        fields.add("colors", "length", f"colors lists 1..{MAX_LAYERS} layers, outer first")
    else:
        for j, c in enumerate(colors):
            if not is_int(c) or not MIN_COLOR <= c <= MAX_COLOR:
                fields.add(f"colors[{j}]", "range",
                           f"a colour is an integer in {MIN_COLOR}..{MAX_COLOR}, got {c!r}")
    frozen = fields.optional_int(edit, "frozen", 1, MAX_FROZEN)
    raw_lock = edit.get("lock")
    lock: LockJson | None = None
    if isinstance(raw_lock, dict) and set(raw_lock) == {"id", "kind"}:
        lock_id, kind = raw_lock["id"], raw_lock["kind"]
        if isinstance(lock_id, str) and lock_id.strip() and isinstance(kind, str) \
                and kind in LOCK_KEYS:
            lock = {"id": lock_id.strip(), "kind": kind}
    if raw_lock is not None and lock is None:
        fields.add("lock", "type", 'a lock is {"id": "L1", "kind": "silver" | "gold"}')
    key = edit.get("key")
    if key is not None and (not isinstance(key, str) or not key.strip()):
        fields.add("key", "type", "key names a lock id (a non-empty string)")
    fields.check()
    assert index is not None and isinstance(colors, list)
    body = data["bodies"][index]
    body["colors"] = [c for c in colors if is_int(c)]  # every one is, checked above
    body.pop("frozen", None)
    body.pop("lock", None)
    body.pop("key", None)
    if frozen is not None:
        body["frozen"] = frozen
    if lock is not None:
        body["lock"] = lock
    if isinstance(key, str):
        body["key"] = key.strip()


def _hole_props(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Set hole ``index``'s ``color`` and ``frozen`` threshold (null removes it)."""
    index = fields.int_in(edit, "index", 0, max(0, len(data["holes"]) - 1))
    if not data["holes"]:
        fields.add("index", "range", "there is no hole to edit")
    color = fields.int_in(edit, "color", MIN_COLOR, MAX_COLOR)
    frozen = fields.optional_int(edit, "frozen", 1, MAX_FROZEN)
    fields.check()
    assert index is not None and color is not None
    hole = data["holes"][index]
    hole["color"] = color
    if frozen is None:
        hole.pop("frozen", None)
    else:
        hole["frozen"] = frozen


def _transform(data: LevelJson, edit: JsonObject, fields: _Fields) -> None:
    """Mirror, rotate, move or copy the level or an area of it (:mod:`.transform`)."""
    from gridforge.snakes.editor.transform import transform

    data.update(transform(data, edit))


_APPLY = {"stone": _stone, "erase": _erase, "hole": _hole, "body": _body, "resize": _resize,
          "body_props": _body_props, "hole_props": _hole_props, "transform": _transform,
          "path": _path, "bridge": _bridge}


def apply_edit(level: Any, edit: Any) -> DraftAnswer:
    """Apply one edit to the draft ``level`` and answer the new draft (see module doc).

    Edits: ``{"tool": "stone", "cells": [[x, y], ...], "erase": false}`` paints (or erases)
    stones along a drag; ``{"tool": "erase", "cell": [x, y]}`` removes the stone, hole or
    body there; ``{"tool": "hole", "cell", "color", "frozen"?}`` places or restyles a hole;
    ``{"tool": "body", "cells", "color"}`` draws a new body, or redraws the body that the
    path starts on; ``{"tool": "resize", "cols", "rows"}``; ``{"tool": "body_props",
    "index", "colors", "frozen"?, "lock"?, "key"?}``; ``{"tool": "hole_props", "index",
    "color", "frozen"?}``; ``{"tool": "transform", "op", "area"?, "by"?}`` mirrors, rotates,
    moves or copies (:func:`gridforge.snakes.editor.transform.transform`); ``{"tool": "path",
    "cells", "color", "erase"?}`` paints a coloured path (or erases paint) along a drag;
    ``{"tool": "bridge", "cells", "erase"?}`` places (or removes) bridges (spec section 3b).

    :raises ValidationError: the edit's fields (paths ``edit.*``), or what the edit would
        break in the level (level paths such as ``bodies[1].cells[3]``); nothing changes.
    """
    problems = _draft_problems(level)
    if problems:
        raise ValidationError(problems, "snakes level")
    if not isinstance(edit, dict):
        raise refusal("edit", "edit", "type", "an edit is a JSON object")
    tool = edit.get("tool")
    if tool not in _APPLY:
        raise refusal("edit", "edit.tool", "choice",
                      f"tool must be one of {', '.join(TOOLS)}, got {tool!r}")
    data = accepted(copy.deepcopy(level))
    _APPLY[tool](data, edit, _Fields())
    # The edit's own checks passed; the level's validator has the last word (two bodies'
    # cells, the floor count, colours, a lock without keys only as far as a draft allows).
    problems = _draft_problems(data)
    if problems:
        raise ValidationError(problems, "edited level")
    return _answer(data)


# ---------------------------------------------------------------- reading and writing


def largest_free_area(level: Any) -> list[list[int]]:
    """The cells of the largest connected free area (floor with no body and no hole), in
    row-major order; of two equal areas the one whose first cell comes first."""
    parsed = level_from_json(level, balanced=False)
    blocked = set(parsed.stones) | {h.cell for h in parsed.holes}
    blocked |= {c for b in parsed.bodies for c in b.cells}
    areas = regions(parsed.cols, parsed.rows, blocked)
    best = max(areas, key=len) if areas else []  # the first of equal areas
    return [list(c) for c in best]


def _level_issues(raw: Any, base: str) -> Issues:
    issues = Issues()
    for i in validate_level(raw, balanced=False):
        issues.add(field_path(base, *_split(i.path)) if i.path else base, i.code, i.message)
    return issues


def _split(path: str) -> list[str | int]:
    """``bodies[2].cells[3]`` -> ``["bodies", 2, "cells", 3]`` (to re-root a level's paths)."""
    parts: list[str | int] = []
    for name in path.split("."):
        head, _, rest = name.partition("[")
        if head:
            parts.append(head)
        for index in rest.rstrip("]").split("][") if rest else []:
            parts.append(int(index))
    return parts


def prove_by_replay(level: Json, certificate: Json) -> Certificate:
    """The default :data:`Prover`: ``certificate`` itself when it is ``verified`` and the
    game's check replays it for ``level``.

    :raises GridforgeError: naming what does not hold.
    """
    if not isinstance(certificate, dict) or certificate.get("format") != CERT_FORMAT \
            or certificate.get("status") != "verified":
        raise GridforgeError("only a verified level can be exported: verify it first")
    problems = check_certificate(level, certificate)
    if problems:
        raise GridforgeError("; ".join(problems))
    return certificate_of(certificate)  # every claim rechecked


class ImportAnswer(TypedDict):
    """What :func:`read_import` read: its kind, the levels, the certificates that hold
    again (null where one was dropped) and why each was dropped."""

    kind: str  # "level" | "certified" | "batch"
    levels: list[LevelJson]
    certificates: list[Certificate | None]
    notes: list[str]


def read_import(text: Any, prove: Prover = prove_by_replay) -> ImportAnswer:
    """Read a file the designer drops, picks or pastes: a level, an exported certified level
    (``{"level", "certificate"}``) or a ``gridforge.snakes.batch/1``.

    Answers ``{"kind": "level" | "certified" | "batch", "levels": [...], "certificates":
    [...], "notes": [...]}``. A certificate is kept only when ``prove`` establishes it again
    for its level (it is then the proven one); otherwise it is null and ``notes`` says why.
    A level must be whole (bodies present, keys placed); supply and demand may still differ
    (verify then says unsolvable).

    :raises ValidationError: the text is not JSON within the limits, or not one of the three
        kinds, or any level in it has a problem (all listed, with paths); nothing is loaded.
    """
    if not isinstance(text, str):
        raise refusal("file", "", "type", "the file's text is needed")
    data = parse_json(text, "file", max_bytes=IMPORT_MAX_BYTES)
    if isinstance(data, dict) and data.get("format") == BATCH_FORMAT:
        kind = "batch"
        levels, certs = data.get("levels"), data.get("certificates")
        issues = Issues()
        if not isinstance(levels, list) or not levels:
            issues.add("levels", "type", "a batch lists at least one level")
            levels = []
        if certs is not None and (not isinstance(certs, list) or len(certs) != len(levels)):
            issues.add("certificates", "length",
                       "certificates, when present, has one entry per level")
            certs = None
        for i, raw in enumerate(levels):
            issues.extend(_level_issues(raw, f"levels[{i}]"))
        if issues:
            raise ValidationError(issues, "batch file")
        cert_list: list[Json] = list(certs) if certs is not None else [None] * len(levels)
    elif isinstance(data, dict) and "level" in data and "certificate" in data:
        kind = "certified"
        issues = _level_issues(data["level"], "level")
        if issues:
            raise ValidationError(issues, "certified level file")
        levels, cert_list = [data["level"]], [data["certificate"]]
    else:
        kind = "level"
        found = validate_level(data, balanced=False)
        if found:
            raise ValidationError(found, "snakes level file")
        levels, cert_list = [data], [None]
    notes: list[str] = []
    checked: list[Certificate | None] = []
    for i, (raw, cert) in enumerate(zip(levels, cert_list, strict=True)):
        if cert is None:
            checked.append(None)
            continue
        try:
            checked.append(prove(raw, cert))
        except GridforgeError as exc:
            notes.append(f"level {i + 1}: certificate dropped ({exc}); verify it again")
            checked.append(None)
    # Every level checked above: whole levels in the file's own layout.
    return {"kind": kind, "levels": [accepted(raw) for raw in levels], "certificates": checked,
            "notes": notes}


def export_batch_data(items: Any, prove: Prover = prove_by_replay,
                      request: Any = None) -> Batch:
    """Certified levels together as a ``gridforge.snakes.batch/1`` dict (``items`` is a list
    of ``{"level", "certificate"}``; ``request`` the design request they answer, or None);
    each certificate is proven again by ``prove`` and the batch holds the proven ones.

    :raises ValidationError: an item that is not a level with a verified certificate that
        holds for it (paths ``items[i]``); nothing is written.
    """
    if not isinstance(items, list) or not items:
        raise refusal("export", "items", "type", "nothing to export: verify a level")
    if request is not None and not isinstance(request, dict):
        raise refusal("export", "request", "type", "a design request is an object")
    issues = Issues()
    levels: list[LevelJson] = []
    certs: list[Certificate] = []
    for i, item in enumerate(items):
        base = f"items[{i}]"
        if not isinstance(item, dict) or "level" not in item:
            issues.add(base, "type", 'an item is {"level", "certificate"}')
            continue
        level_problems = _level_issues(item["level"], field_path(base, "level"))
        if level_problems:
            issues.extend(level_problems)
            continue
        try:
            cert = prove(item["level"], item.get("certificate"))
        except GridforgeError as exc:
            issues.add(field_path(base, "certificate"), "refused", str(exc))
            continue
        levels.append(level_from_json(item["level"], balanced=False).to_json())
        certs.append(cert)
    if issues:
        raise ValidationError(issues, "export")
    return {"format": BATCH_FORMAT, "request": request, "levels": levels, "certificates": certs}


def export_batch(items: Any, prove: Prover = prove_by_replay) -> str:
    """:func:`export_batch_data` as JSON text (keys sorted); the page writes its exports with
    the designer's serializer instead, as ``design-levels --out`` does."""
    batch = export_batch_data(items, prove)
    return json.dumps(batch, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def share_text(level: Any) -> str:
    """The canonical text of ``level`` (keys sorted, no whitespace, no ``meta``): what a
    share link compresses. Reading it back gives the same SHA-256.

    :raises GridforgeError: the level is not whole yet (a draft cannot be shared).
    """
    try:
        return canonical_json(level)
    except ValidationError as exc:
        raise GridforgeError(f"only a whole level can be shared: {exc}") from None
