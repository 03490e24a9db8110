"""An independent reference implementation of the snakes rules with terrain.

Written from the spec page ``snakes.md`` (sections 1-5 and 7) only, without reading the
engine, so that tests can hold the optimised engine against it.  Everything here is kept
literal and slow on purpose: a state is plain hashable data, every step is checked by
walking over every body cell, and the search is a plain breadth-first search over full
states.

Readings of section 3b fixed here (the engine should agree; a test that disagrees points
at one of these):

* A body entry on a bridge occupies one lane: ``"h"`` when its neighbours in the body
  lie left and right of it, ``"v"`` when above and below.  An *end* on a bridge takes the
  axis joining it to its single neighbour.  Entries off bridges carry the lane ``None``.
* Occupancy is per ``(cell, lane)``: a bridge cell is two places, every other cell one.
  A step into a bridge wants the lane of the step's axis (``"h"`` for L/R, ``"v"`` for
  U/D); the far-end rule of section 4 applies to that lane only (the moving body's own
  far end entry may be entered when it is the entry in that same lane, cell and lane,
  and the body has 3 or more entries).
* An end lying on a bridge steps only straight on, away from its neighbour (the only
  other direction along the axis would be into its own neighbour anyway).  This holds for
  exits too: an end on a bridge can only drop into a hole straight ahead.
* "Cells" in the far-end rule (``3 or more cells``) counts entries of ``cells``: a body
  that crosses itself over a bridge lists the bridge twice and both count.
* Paint is checked on the entered cell only, against the outer colour *before* the step
  (holes are never painted, so an exit is never refused by paint).
* Lanes of a moving body never change: the new end's lane is the axis of the step and
  every other entry keeps its lane (a body never turns on a bridge, so re-deriving from
  the neighbours gives the same lanes; :func:`derive_lanes` does that from scratch).

Public names:

* :class:`OracleLevel` (``OracleLevel.from_dict`` / :func:`parse_level`),
  :class:`OracleBody`, :class:`OracleState`, :func:`initial_state`, :func:`derive_lanes`,
  :func:`is_complete`;
* :func:`oracle_successors`, :func:`oracle_apply`, :func:`oracle_refuses`,
  :func:`all_steps` (the 8 steps per body, legal or not);
* :func:`oracle_min_steps` (``UNSOLVABLE`` = -1 when the space is exhausted, None when
  more than ``max_states`` distinct states were needed), :func:`oracle_solution`,
  :func:`oracle_replay` (these three take an :class:`OracleLevel` or a level dict);
* :func:`small_terrain_levels` (a hypothesis strategy), with the helpers
  :func:`crosses_itself` and :func:`shares_a_bridge` to tell what a draw holds;
* the hand-made levels ``EXAMPLE_*`` with their minima ``EXAMPLE_*_MIN`` (and
  ``EXAMPLES``: name -> (level, minimum)), and :func:`check_examples`, which recomputes
  every stated number and property (about a second).

Steps are returned as tuples ``(body_index, "head" | "tail", "U" | "D" | "L" | "R")``;
every function taking a step accepts any 3-item sequence (a JSON list as well).
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

Cell = tuple[int, int]
Lane = str | None
Step = tuple[int, str, str]

DIRS: dict[str, Cell] = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
ENDS = ("head", "tail")
UNSOLVABLE = -1
"""What :func:`oracle_min_steps` answers when the whole state space holds no solution."""

LOCK_NEED = {"silver": 1, "gold": 2}


# ---------------------------------------------------------------------------------------
# Level and state
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OracleBodySpec:
    """A body as the level file gives it (its start cells and fixed attributes)."""

    cells: tuple[Cell, ...]
    colors: tuple[int, ...]
    frozen: int  # 0: not frozen
    lock_id: str | None
    lock_need: int  # keys needed to open its lock (0 without a lock)
    key: str | None


@dataclass(frozen=True)
class OracleHole:
    cell: Cell
    color: int
    frozen: int  # 0: not frozen


@dataclass(frozen=True)
class OracleLevel:
    cols: int
    rows: int
    stones: frozenset[Cell]
    bodies: tuple[OracleBodySpec, ...]
    holes: tuple[OracleHole, ...]
    paints: Mapping[Cell, int]
    bridges: frozenset[Cell]
    hole_at: Mapping[Cell, int]

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> OracleLevel:
        """Read a level dict (``gridforge.snakes.level/1``); it is assumed valid."""
        bodies = []
        for raw in data["bodies"]:
            lock = raw.get("lock")
            bodies.append(
                OracleBodySpec(
                    cells=tuple(_cell(c) for c in raw["cells"]),
                    colors=tuple(int(c) for c in raw["colors"]),
                    frozen=int(raw.get("frozen") or 0),
                    lock_id=None if lock is None else str(lock["id"]),
                    lock_need=0 if lock is None else LOCK_NEED[str(lock["kind"])],
                    key=None if raw.get("key") is None else str(raw["key"]),
                )
            )
        holes = tuple(
            OracleHole(_cell(h["cell"]), int(h["color"]), int(h.get("frozen") or 0))
            for h in data["holes"]
        )
        return OracleLevel(
            cols=int(data["cols"]),
            rows=int(data["rows"]),
            stones=frozenset(_cell(c) for c in data.get("stones", [])),
            bodies=tuple(bodies),
            holes=holes,
            paints={_cell(p["cell"]): int(p["color"]) for p in data.get("paths", [])},
            bridges=frozenset(_cell(c) for c in data.get("bridges", [])),
            hole_at={h.cell: i for i, h in enumerate(holes)},
        )

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows

    def floor(self, cell: Cell) -> bool:
        return self.inside(cell) and cell not in self.stones


def parse_level(data: Mapping[str, Any]) -> OracleLevel:
    return OracleLevel.from_dict(data)


def _cell(raw: Sequence[Any]) -> Cell:
    return (int(raw[0]), int(raw[1]))


@dataclass(frozen=True)
class OracleBody:
    """A body in a state: its entries head first with their lanes, and layers shed.

    ``cells`` is empty once the body has left the board (all its layers shed).
    ``lanes[i]`` is ``"h"``/``"v"`` for an entry on a bridge and ``None`` elsewhere.
    """

    cells: tuple[Cell, ...]
    lanes: tuple[Lane, ...]
    shed: int

    @property
    def gone(self) -> bool:
        return not self.cells


@dataclass(frozen=True)
class OracleState:
    bodies: tuple[OracleBody, ...]
    holes_used: tuple[bool, ...]

    def exited_layers(self) -> int:
        return sum(b.shed for b in self.bodies)


def _axis(a: Cell, b: Cell) -> str:
    """The axis joining two adjacent cells: "h" (same row) or "v" (same column)."""
    return "h" if a[1] == b[1] else "v"


def derive_lanes(level: OracleLevel, cells: Sequence[Cell]) -> tuple[Lane, ...]:
    """Each entry's lane, from its neighbours in the body (section 3b)."""
    lanes: list[Lane] = []
    for i, c in enumerate(cells):
        if c not in level.bridges:
            lanes.append(None)
        else:
            other = cells[i + 1] if i + 1 < len(cells) else cells[i - 1]
            lanes.append(_axis(c, other))
    return tuple(lanes)


def initial_state(level: OracleLevel) -> OracleState:
    return OracleState(
        bodies=tuple(OracleBody(b.cells, derive_lanes(level, b.cells), 0) for b in level.bodies),
        holes_used=tuple(False for _ in level.holes),
    )


def is_complete(state: OracleState) -> bool:
    return all(b.gone for b in state.bodies) and all(state.holes_used)


# ---------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------


def _can_move(level: OracleLevel, state: OracleState, index: int) -> bool:
    """Present, not frozen (or thawed), not locked (or unlocked)."""
    spec = level.bodies[index]
    if state.bodies[index].gone:
        return False
    if spec.frozen and state.exited_layers() < spec.frozen:
        return False
    if spec.lock_id is not None:
        released = sum(
            1
            for other, body in zip(level.bodies, state.bodies, strict=True)
            if other.key == spec.lock_id and body.gone
        )
        if released < spec.lock_need:
            return False
    return True


def _occupied(state: OracleState, target: Cell, lane: Lane, mover: int, far: int) -> bool:
    """Is (target, lane) taken, the mover's own far end entry excepted (3+ entries)?"""
    for j, body in enumerate(state.bodies):
        for k, (c, ln) in enumerate(zip(body.cells, body.lanes, strict=True)):
            if c == target and ln == lane:
                if j == mover and k == far and len(body.cells) >= 3:
                    continue
                return True
    return False


def _exit(level: OracleLevel, state: OracleState, index: int, hole: int) -> OracleState | None:
    spec = level.bodies[index]
    body = state.bodies[index]
    h = level.holes[hole]
    if h.frozen and state.exited_layers() < h.frozen:
        return None
    if h.color != spec.colors[body.shed]:
        return None
    shed = body.shed + 1
    if shed == len(spec.colors):
        new_body = OracleBody((), (), shed)
    else:
        new_body = OracleBody(body.cells, body.lanes, shed)
    used = list(state.holes_used)
    used[hole] = True
    bodies = list(state.bodies)
    bodies[index] = new_body
    return OracleState(tuple(bodies), tuple(used))


def _parse_step(level: OracleLevel, step: Sequence[Any]) -> Step | None:
    if len(step) != 3:
        return None
    index, end, name = step
    if isinstance(index, bool) or not isinstance(index, int):
        return None
    if not 0 <= index < len(level.bodies) or end not in ENDS or name not in DIRS:
        return None
    return (index, str(end), str(name))


def oracle_apply(level: OracleLevel, state: OracleState, step: Sequence[Any]) -> OracleState | None:
    """The state after ``step``, or None when the rules refuse it (sections 4 and 3b)."""
    parsed = _parse_step(level, step)
    if parsed is None:
        return None
    index, end, name = parsed
    if not _can_move(level, state, index):
        return None
    spec = level.bodies[index]
    body = state.bodies[index]
    cells = body.cells
    n = len(cells)
    e, nb, far = (0, 1, n - 1) if end == "head" else (n - 1, n - 2, 0)
    dx, dy = DIRS[name]
    ex, ey = cells[e]
    if cells[e] in level.bridges:
        # An end on a bridge never turns there: it goes straight on, away from its
        # neighbour, along the axis of its lane.
        nx, ny = cells[nb]
        if (ex - nx, ey - ny) != (dx, dy):
            return None
    target = (ex + dx, ey + dy)
    if not level.floor(target):
        return None
    hole = level.hole_at.get(target)
    if hole is not None and not state.holes_used[hole]:
        return _exit(level, state, index, hole)
    paint = level.paints.get(target)
    if paint is not None and paint != spec.colors[body.shed]:
        return None
    lane: Lane = ("h" if dx else "v") if target in level.bridges else None
    if _occupied(state, target, lane, index, far):
        return None
    if end == "head":
        new_body = OracleBody((target, *cells[:-1]), (lane, *body.lanes[:-1]), body.shed)
    else:
        new_body = OracleBody((*cells[1:], target), (*body.lanes[1:], lane), body.shed)
    bodies = list(state.bodies)
    bodies[index] = new_body
    return OracleState(tuple(bodies), state.holes_used)


def oracle_refuses(level: OracleLevel, state: OracleState, step: Sequence[Any]) -> bool:
    return oracle_apply(level, state, step) is None


def all_steps(level: OracleLevel) -> list[Step]:
    return [(i, end, d) for i in range(len(level.bodies)) for end in ENDS for d in DIRS]


def oracle_successors(level: OracleLevel, state: OracleState) -> list[tuple[Step, OracleState]]:
    """Every legal step from ``state`` with the state it leads to (in no special order)."""
    out: list[tuple[Step, OracleState]] = []
    for step in all_steps(level):
        nxt = oracle_apply(level, state, step)
        if nxt is not None:
            out.append((step, nxt))
    return out


# ---------------------------------------------------------------------------------------
# Search and replay
# ---------------------------------------------------------------------------------------


def _bfs(level: OracleLevel, max_states: int) -> tuple[str, list[Step] | None]:
    """("solved", steps) | ("exhausted", None) | ("budget", None)."""
    start = initial_state(level)
    if is_complete(start):
        return "solved", []
    parent: dict[OracleState, tuple[OracleState, Step] | None] = {start: None}
    queue: deque[OracleState] = deque([start])
    while queue:
        state = queue.popleft()
        for step, nxt in oracle_successors(level, state):
            if nxt in parent:
                continue
            parent[nxt] = (state, step)
            if is_complete(nxt):
                path: list[Step] = []
                cur: OracleState = nxt
                link = parent[cur]
                while link is not None:
                    cur, s = link
                    path.append(s)
                    link = parent[cur]
                path.reverse()
                return "solved", path
            if len(parent) > max_states:
                return "budget", None
            queue.append(nxt)
    return "exhausted", None


def oracle_min_steps(level: OracleLevel | Mapping[str, Any], max_states: int) -> int | None:
    """Fewest steps to complete the level by exhaustive BFS over full states.

    None when more than ``max_states`` distinct states were needed (undetermined);
    ``UNSOLVABLE`` (-1) when every reachable state was seen and none is complete.
    """
    status, path = _bfs(_level(level), max_states)
    if status == "solved":
        assert path is not None
        return len(path)
    return UNSOLVABLE if status == "exhausted" else None


def oracle_solution(level: OracleLevel | Mapping[str, Any], max_states: int) -> list[Step] | None:
    """A shortest solution, or None (budget spent or no solution)."""
    return _bfs(_level(level), max_states)[1]


def oracle_replay(level: OracleLevel | Mapping[str, Any], steps: Iterable[Sequence[Any]]) -> bool:
    """Every step legal in turn, and the level complete at the end."""
    lv = _level(level)
    state: OracleState | None = initial_state(lv)
    for step in steps:
        assert state is not None
        state = oracle_apply(lv, state, step)
        if state is None:
            return False
    return state is not None and is_complete(state)


def _level(level: OracleLevel | Mapping[str, Any]) -> OracleLevel:
    return level if isinstance(level, OracleLevel) else OracleLevel.from_dict(level)


# ---------------------------------------------------------------------------------------
# Hypothesis: small valid levels with terrain
# ---------------------------------------------------------------------------------------


class _Builder:
    """Occupancy bookkeeping while a level is drawn."""

    def __init__(self, cols: int, rows: int) -> None:
        self.cols = cols
        self.rows = rows
        self.stones: set[Cell] = set()
        self.bridges: set[Cell] = set()
        self.plain: set[Cell] = set()  # non-bridge cells under a body
        self.lanes: set[tuple[Cell, str]] = set()  # bridge lanes under a body
        self.bodies: list[list[Cell]] = []

    def cells(self) -> list[Cell]:
        return [(x, y) for y in range(self.rows) for x in range(self.cols)]

    def floor(self, c: Cell) -> bool:
        return 0 <= c[0] < self.cols and 0 <= c[1] < self.rows and c not in self.stones

    def touched(self) -> set[Cell]:
        return self.plain | {c for c, _ in self.lanes}

    def can_enter(self, c: Cell, axis: str) -> bool:
        if not self.floor(c):
            return False
        if c in self.bridges:
            return (c, axis) not in self.lanes
        return c not in self.plain

    def add_body(self, cells: list[Cell]) -> None:
        lanes = _derive(self.bridges, cells)
        for c, ln in zip(cells, lanes, strict=True):
            if ln is None:
                self.plain.add(c)
            else:
                self.lanes.add((c, ln))
        self.bodies.append(cells)

    def remove_body(self, i: int) -> None:
        cells = self.bodies.pop(i)
        for c, ln in zip(cells, _derive(self.bridges, cells), strict=True):
            if ln is None:
                self.plain.discard(c)
            else:
                self.lanes.discard((c, ln))

    def extensions(self, cells: list[Cell], at_head: bool) -> list[Cell]:
        """Cells that may be added before the head (or after the tail) of ``cells``."""
        end = cells[0] if at_head else cells[-1]
        lanes = _derive(self.bridges, cells)
        out = []
        for dx, dy in DIRS.values():
            t = (end[0] + dx, end[1] + dy)
            axis = "h" if dx else "v"
            if len(cells) >= 2 and end in self.bridges:
                nb = cells[1] if at_head else cells[-2]
                if (end[0] - nb[0], end[1] - nb[1]) != (dx, dy):
                    continue  # never turn on a bridge
            if len(cells) == 1 and end in self.bridges and (end, axis) in self.lanes:
                continue  # the lone end would take a lane already used
            if not self.can_enter(t, axis):
                continue
            own = list(zip(cells, lanes, strict=True))
            if (t, axis if t in self.bridges else None) in own:
                continue
            out.append(t)
        return out


def _derive(bridges: set[Cell] | frozenset[Cell], cells: Sequence[Cell]) -> list[Lane]:
    out: list[Lane] = []
    for i, c in enumerate(cells):
        if c not in bridges:
            out.append(None)
        elif len(cells) == 1:
            out.append(None)  # undetermined yet (only while drawing)
        else:
            other = cells[i + 1] if i + 1 < len(cells) else cells[i - 1]
            out.append(_axis(c, other))
    return out


def _crossing_body(draw: st.DrawFn, b: _Builder) -> None:
    """A body that passes one bridge twice, straight across in each lane."""
    options = []
    for bx, by in b.cells():
        for sx in (-1, 1):
            for sy in (-1, 1):
                square = [(bx, by), (bx + sx, by), (bx + sx, by + sy), (bx, by + sy)]
                if all(b.floor(c) for c in square):
                    options.append(((bx, by), sx, sy))
    (bx, by), sx, sy = draw(st.sampled_from(options))
    bridge = (bx, by)
    p, q, s = (bx + sx, by), (bx + sx, by + sy), (bx, by + sy)
    loop = [bridge, p, q, s, bridge] if draw(st.booleans()) else [bridge, s, q, p, bridge]
    before = (2 * bx - loop[1][0], 2 * by - loop[1][1])
    after = (2 * bx - loop[3][0], 2 * by - loop[3][1])
    b.bridges.add(bridge)
    if b.floor(before) and draw(st.booleans()):
        loop.insert(0, before)
    if b.floor(after) and draw(st.booleans()):
        loop.append(after)
    b.add_body(loop)


def _walk_body(draw: st.DrawFn, b: _Builder, eager: bool) -> None:
    """A body of 2..4 entries: a random walk, sometimes started straight over a bridge.

    ``eager``: always go through a bridge when a lane is free, and share one if possible.
    """
    length = draw(st.integers(2, 4))
    cells: list[Cell] | None = None
    through: list[tuple[Cell, str]] = []
    for c in sorted(b.bridges):
        for axis, (dx, dy) in (("h", (1, 0)), ("v", (0, 1))):
            sides = ((c[0] - dx, c[1] - dy), (c[0] + dx, c[1] + dy))
            if (c, axis) not in b.lanes and all(b.can_enter(n, axis) for n in sides):
                through.append((c, axis))
    use_bridge = eager or draw(st.booleans())
    if through and use_bridge:
        length = max(length, 3)
        # Prefer a lane whose crossing lane another body already holds (a shared bridge).
        shared = [(c, a) for c, a in through if (c, "v" if a == "h" else "h") in b.lanes]
        prefer_shared = eager or draw(st.booleans())
        pool = shared if shared and prefer_shared else through
        (cx, cy), axis = draw(st.sampled_from(pool))
        d = (1, 0) if axis == "h" else (0, 1)
        cells = [(cx - d[0], cy - d[1]), (cx, cy), (cx + d[0], cy + d[1])]
        if draw(st.booleans()):
            cells.reverse()
    else:
        starts = [
            c
            for c in b.cells()
            if b.floor(c)
            and (c in b.bridges or c not in b.plain)
            and b.extensions([c], at_head=False)
        ]
        if not starts:
            return
        cells = [draw(st.sampled_from(starts))]
    while len(cells) < length:
        at_head = draw(st.booleans())
        options = b.extensions(cells, at_head)
        if not options:
            at_head = not at_head
            options = b.extensions(cells, at_head)
        if not options:
            break
        t = draw(st.sampled_from(options))
        if at_head:
            cells.insert(0, t)
        else:
            cells.append(t)
    if len(cells) >= 2:
        b.add_body(cells)


def _regions(b: _Builder) -> dict[Cell, int]:
    region: dict[Cell, int] = {}
    for c in b.cells():
        if not b.floor(c) or c in region:
            continue
        rid = len(set(region.values()))
        stack = [c]
        region[c] = rid
        while stack:
            x, y = stack.pop()
            for dx, dy in DIRS.values():
                n = (x + dx, y + dy)
                if b.floor(n) and n not in region:
                    region[n] = rid
                    stack.append(n)
    return region


def _holes(draw: st.DrawFn, b: _Builder, colors: list[list[int]]) -> list[dict[str, Any]]:
    """One hole per layer, in the body's own floor region, off bodies and bridges."""
    region = _regions(b)
    taken = b.touched() | b.bridges
    holes: list[dict[str, Any]] = []
    for cells, layers in zip(b.bodies, colors, strict=True):
        rid = region[cells[0]]
        for color in layers:
            free = [c for c in b.cells() if b.floor(c) and region[c] == rid and c not in taken]
            assume(free)  # the sizes below keep this rare
            c = draw(st.sampled_from(free))
            taken.add(c)
            holes.append({"cell": [c[0], c[1]], "color": color})
    return holes


def _mechanics(draw: st.DrawFn, bodies: list[dict[str, Any]], holes: list[dict[str, Any]]) -> None:
    """At most one of: a frozen body, a frozen hole, a silver lock, a gold lock."""
    total = len(holes)
    choices = ["none", "hole_frozen"]
    if len(bodies) >= 2:
        choices += ["frozen", "silver"]
    if len(bodies) >= 3:
        choices.append("gold")
    kind = draw(st.sampled_from(choices))
    if kind == "hole_frozen" and total >= 2:
        hole = draw(st.sampled_from(holes))
        hole["frozen"] = draw(st.integers(1, total - 1))
    elif kind == "frozen":
        i = draw(st.integers(0, len(bodies) - 1))
        others = total - len(bodies[i]["colors"])
        bodies[i]["frozen"] = draw(st.integers(1, max(1, others)))
    elif kind in ("silver", "gold"):
        order = draw(st.permutations(list(range(len(bodies)))))
        bodies[order[0]]["lock"] = {"id": "L1", "kind": kind}
        for carrier in order[1 : 1 + LOCK_NEED[kind]]:
            bodies[carrier]["key"] = "L1"


def _layer_colors(draw: st.DrawFn, b: _Builder) -> list[list[int]]:
    """Each body's layer colours (1..2 layers), as its floor region has room for their
    holes; a body whose region has no room left is dropped."""
    region = _regions(b)
    room: dict[int, int] = {}
    for c in b.cells():
        if b.floor(c) and c not in b.touched() and c not in b.bridges:
            room[region[c]] = room.get(region[c], 0) + 1
    colors: list[list[int]] = []
    i = 0
    while i < len(b.bodies):
        rid = region[b.bodies[i][0]]
        want = draw(st.integers(1, 2))
        if room.get(rid, 0) == 0:
            b.remove_body(i)
            continue
        want = min(want, room[rid])
        room[rid] -= want
        colors.append([draw(st.integers(0, 2)) for _ in range(want)])
        i += 1
    return colors


@st.composite
def small_terrain_levels(draw: st.DrawFn) -> dict[str, Any]:
    """Small valid ``gridforge.snakes.level/1`` dicts with paint and bridges.

    Shape, in drawing order:

    * board 3..5 x 3..5;
    * a mode: "plain" (1/2), "crossing" (1/4) or "sharing" (1/4);
    * "crossing": first a body crossing itself over a bridge: a 2x2 square loop
      ``B, P, Q, S, B`` whose two ends both rest on the bridge B (one in each lane),
      sometimes extended straight through B at either end (5..7 entries);
    * "sharing": first a bridge on an inner cell, and 2..3 bodies in all;
    * 0..2 bridges in all (besides the crossing one) on cells no body touches yet;
    * 0..3 stones on cells that are no bridge and under no body;
    * up to 3 bodies in all, each of 2..4 entries: a random walk, or (half the time,
      always in "sharing") when a bridge lane is free on both sides a straight run of
      3 through a bridge (preferring, always in "sharing", a bridge whose other lane
      another body holds), then extended at either end; walks never turn on a bridge
      and may enter a bridge lane no body holds; a walk that finds no room is dropped;
    * 1..2 layers per body, colours 0..2; one hole per layer in the body's connected
      floor region (off bodies, bridges and other holes), so supply and demand match
      per colour and per region; a body whose region has no room for its holes is
      dropped (and the draw is rejected only if no body is left or room runs out);
    * 0..3 painted cells, colours 0..2, never on a stone, hole, bridge or other paint
      (they may lie under bodies);
    * at most one mechanic: a frozen body (k <= the other bodies' layers), a frozen
      hole (k <= holes - 1), a silver lock with its key on another body, or (with 3
      bodies) a gold lock with its two keys on two other bodies.

    Levels are valid by construction; they need not be solvable.
    """
    cols = draw(st.integers(3, 5))
    rows = draw(st.integers(3, 5))
    b = _Builder(cols, rows)
    mode = draw(st.sampled_from(["plain", "plain", "crossing", "sharing"]))
    if mode == "crossing":
        _crossing_body(draw, b)
    if mode == "sharing":
        # An inner cell, so that both lanes can be crossed straight through.
        inner = [(x, y) for x, y in b.cells() if 0 < x < cols - 1 and 0 < y < rows - 1]
        b.bridges.add(draw(st.sampled_from(inner)))
    for _ in range(draw(st.integers(0, 2)) - (mode == "sharing")):
        free = [c for c in b.cells() if c not in b.touched() and c not in b.bridges]
        if free:
            b.bridges.add(draw(st.sampled_from(free)))
    for _ in range(draw(st.integers(0, 3))):
        free = [c for c in b.cells() if c not in b.touched() and c not in b.bridges]
        if free:
            b.stones.add(draw(st.sampled_from(free)))
    for _ in range(draw(st.integers(2 if mode == "sharing" else 1, 3)) - len(b.bodies)):
        _walk_body(draw, b, eager=mode == "sharing")
    colors = _layer_colors(draw, b)
    assume(b.bodies)
    holes = _holes(draw, b, colors)
    hole_cells = {(h["cell"][0], h["cell"][1]) for h in holes}
    paints: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 3))):
        painted = {(p["cell"][0], p["cell"][1]) for p in paints}
        free = [
            c
            for c in b.cells()
            if b.floor(c) and c not in b.bridges and c not in hole_cells and c not in painted
        ]
        if free:
            c = draw(st.sampled_from(free))
            paints.append({"cell": [c[0], c[1]], "color": draw(st.integers(0, 2))})
    bodies: list[dict[str, Any]] = [
        {"cells": [[x, y] for x, y in cells], "colors": layers}
        for cells, layers in zip(b.bodies, colors, strict=True)
    ]
    _mechanics(draw, bodies, holes)
    level: dict[str, Any] = {
        "format": "gridforge.snakes.level/1",
        "cols": cols,
        "rows": rows,
        "stones": [[x, y] for x, y in sorted(b.stones)],
        "bodies": bodies,
        "holes": holes,
    }
    if paints:
        level["paths"] = paints
    if b.bridges:
        level["bridges"] = [[x, y] for x, y in sorted(b.bridges)]
    return level


def crosses_itself(level: Mapping[str, Any]) -> bool:
    """Does some body list a cell twice (a crossing over a bridge)?"""
    return any(
        len({tuple(c) for c in body["cells"]}) < len(body["cells"]) for body in level["bodies"]
    )


def shares_a_bridge(level: Mapping[str, Any]) -> bool:
    """Do two different bodies lie on one bridge (in different lanes)?"""
    bridges = {tuple(c) for c in level.get("bridges", [])}
    seen: dict[tuple[Any, ...], int] = {}
    for i, body in enumerate(level["bodies"]):
        for c in body["cells"]:
            t = tuple(c)
            if t in bridges:
                if seen.get(t, i) != i:
                    return True
                seen[t] = i
    return False


# ---------------------------------------------------------------------------------------
# Hand-made levels (minima computed by this oracle; check_examples recomputes them)
# ---------------------------------------------------------------------------------------


def _strip(level: Mapping[str, Any], field: str) -> dict[str, Any]:
    """A deep copy of ``level`` without one optional terrain field."""
    out = copy.deepcopy(dict(level))
    out.pop(field, None)
    return out


def _reachable(level: OracleLevel, max_states: int = 200_000) -> set[OracleState]:
    start = initial_state(level)
    seen = {start}
    queue = deque([start])
    while queue:
        for _, nxt in oracle_successors(level, queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
                assert len(seen) <= max_states
    return seen


# (a) A body crossing itself over the bridge (1, 1): its 7 entries pass the bridge
# horizontally (2nd entry) and vertically (6th entry).  . = floor, B = bridge, o = hole 0.
#   y0  . [t] .  .  .        head (0,1) -> (1,1)h -> (2,1) -> (2,2) -> (1,2)
#   y1 [h] B [ ] .  .                   -> (1,1)v -> tail (1,0)
#   y2  . [ ][ ] .  .
#   y3  .  .  .  .  o
EXAMPLE_SELF_CROSSING: dict[str, Any] = {
    "format": "gridforge.snakes.level/1",
    "cols": 5,
    "rows": 4,
    "stones": [],
    "bodies": [{"cells": [[0, 1], [1, 1], [2, 1], [2, 2], [1, 2], [1, 1], [1, 0]], "colors": [0]}],
    "holes": [{"cell": [4, 3], "color": 0}],
    "bridges": [[1, 1]],
}
EXAMPLE_SELF_CROSSING_MIN = 6  # 1,445 reachable states

# (b) Two bodies on one bridge at once: a plus-shaped corridor crossing at the bridge
# (2, 2).  Body 0 lies across it horizontally and is frozen until 1 layer has exited;
# body 1 must pass down through the vertical lane while body 0 still lies in the
# horizontal one.  With the bridge made plain floor the level is unsolvable.
EXAMPLE_SHARED_BRIDGE: dict[str, Any] = {
    "format": "gridforge.snakes.level/1",
    "cols": 5,
    "rows": 5,
    "stones": [[x, y] for y in range(5) for x in range(5) if x != 2 and y != 2],
    "bodies": [
        {"cells": [[3, 2], [2, 2], [1, 2], [0, 2]], "colors": [0], "frozen": 1},
        {"cells": [[2, 1], [2, 0]], "colors": [1]},
    ],
    "holes": [{"cell": [4, 2], "color": 0}, {"cell": [2, 4], "color": 1}],
    "bridges": [[2, 2]],
}
EXAMPLE_SHARED_BRIDGE_MIN = 4  # without the bridge: UNSOLVABLE

# (c) An end resting on a bridge at the start: the head (1, 1) lies on the bridge in
# the horizontal lane (its neighbour is (2, 1)), so it may only step L, never U into the
# hole right above it.  The tail takes it round instead.  Without the bridge: 1 step.
EXAMPLE_END_ON_BRIDGE: dict[str, Any] = {
    "format": "gridforge.snakes.level/1",
    "cols": 4,
    "rows": 3,
    "stones": [],
    "bodies": [{"cells": [[1, 1], [2, 1]], "colors": [0]}],
    "holes": [{"cell": [1, 0], "color": 0}],
    "bridges": [[1, 1]],
}
EXAMPLE_END_ON_BRIDGE_MIN = 2
EXAMPLE_END_ON_BRIDGE_MIN_WITHOUT_BRIDGE = 1

# (d) A coat that changes which paint the body may enter: outer colour 0 over a coat of
# colour 1; the cell (1, 1), painted 1, lies between the body and the hole of colour 0.
# While the outer colour is 0 the body must walk round it; once the coat is shed the
# paint is open to it.  Without the paint: 4 steps.
#   y0  .  .  .  .  .
#   y1  0  P [h][t] 1
#   y2  .  .  .  .  .
EXAMPLE_COAT_OPENS_PAINT: dict[str, Any] = {
    "format": "gridforge.snakes.level/1",
    "cols": 5,
    "rows": 3,
    "stones": [],
    "bodies": [{"cells": [[2, 1], [3, 1]], "colors": [0, 1]}],
    "holes": [{"cell": [0, 1], "color": 0}, {"cell": [4, 1], "color": 1}],
    "paths": [{"cell": [1, 1], "color": 1}],
}
EXAMPLE_COAT_OPENS_PAINT_MIN = 8
EXAMPLE_COAT_OPENS_PAINT_MIN_WITHOUT_PATH = 4

# (e) Paint that makes a level longer: body 0 (colour 0) would walk straight along the
# top row to its hole, but (2, 0) and (2, 1) are painted 1; it must go down round the
# stone (2, 2), and body 1 (colour 1) has to make way for it.
#   y0 [h][t] P  0
#   y1  .  .  P  .
#   y2  . [h] #  .
#   y3  . [t] .  1
EXAMPLE_PAINT_COSTS: dict[str, Any] = {
    "format": "gridforge.snakes.level/1",
    "cols": 4,
    "rows": 4,
    "stones": [[2, 2]],
    "bodies": [
        {"cells": [[0, 0], [1, 0]], "colors": [0]},
        {"cells": [[1, 2], [1, 3]], "colors": [1]},
    ],
    "holes": [{"cell": [3, 0], "color": 0}, {"cell": [3, 3], "color": 1}],
    "paths": [{"cell": [2, 0], "color": 1}, {"cell": [2, 1], "color": 1}],
}
EXAMPLE_PAINT_COSTS_MIN = 10
EXAMPLE_PAINT_COSTS_MIN_WITHOUT_PATH = 4

EXAMPLES: dict[str, tuple[dict[str, Any], int]] = {
    "self_crossing": (EXAMPLE_SELF_CROSSING, EXAMPLE_SELF_CROSSING_MIN),
    "shared_bridge": (EXAMPLE_SHARED_BRIDGE, EXAMPLE_SHARED_BRIDGE_MIN),
    "end_on_bridge": (EXAMPLE_END_ON_BRIDGE, EXAMPLE_END_ON_BRIDGE_MIN),
    "coat_opens_paint": (EXAMPLE_COAT_OPENS_PAINT, EXAMPLE_COAT_OPENS_PAINT_MIN),
    "paint_costs": (EXAMPLE_PAINT_COSTS, EXAMPLE_PAINT_COSTS_MIN),
}
"""name -> (level, BFS minimum by this oracle)."""


def check_examples(max_states: int = 200_000) -> None:
    """Recompute every stated minimum and property of the hand-made levels (asserts)."""
    for name, (level, minimum) in EXAMPLES.items():
        got = oracle_min_steps(level, max_states)
        assert got == minimum, (name, got, minimum)
        solution = oracle_solution(level, max_states)
        assert solution is not None and oracle_replay(level, solution), name

    # (a) the bridge is listed twice, once in each lane.
    lv = parse_level(EXAMPLE_SELF_CROSSING)
    body = initial_state(lv).bodies[0]
    assert [ln for c, ln in zip(body.cells, body.lanes, strict=True) if c == (1, 1)] == [
        "h",
        "v",
    ]
    # (b) on the way, both bodies lie on the bridge, one in each lane; and the bridge is
    # what makes the level solvable.
    lv = parse_level(EXAMPLE_SHARED_BRIDGE)
    state: OracleState | None = initial_state(lv)
    both = False
    for step in oracle_solution(lv, max_states) or []:
        assert state is not None
        state = oracle_apply(lv, state, step)
        assert state is not None
        on_bridge = [(2, 2) in b.cells for b in state.bodies]
        both = both or all(on_bridge)
    assert both
    no_bridge = _strip(EXAMPLE_SHARED_BRIDGE, "bridges")
    assert oracle_min_steps(no_bridge, max_states) == UNSOLVABLE
    # (c) the head on the bridge may not turn; the bridge costs a step.
    lv = parse_level(EXAMPLE_END_ON_BRIDGE)
    start = initial_state(lv)
    assert oracle_refuses(lv, start, [0, "head", "U"])
    assert oracle_refuses(lv, start, [0, "head", "D"])
    assert not oracle_refuses(lv, start, [0, "head", "L"])
    no_bridge = _strip(EXAMPLE_END_ON_BRIDGE, "bridges")
    assert oracle_min_steps(no_bridge, max_states) == EXAMPLE_END_ON_BRIDGE_MIN_WITHOUT_BRIDGE
    # (d) no reachable state has the body on the paint before the coat is shed; some
    # reachable state has it there afterwards; the paint costs steps.
    lv = parse_level(EXAMPLE_COAT_OPENS_PAINT)
    on_paint = [s.bodies[0].shed for s in _reachable(lv) if (1, 1) in s.bodies[0].cells]
    assert on_paint and min(on_paint) == 1
    no_path = _strip(EXAMPLE_COAT_OPENS_PAINT, "paths")
    assert oracle_min_steps(no_path, max_states) == EXAMPLE_COAT_OPENS_PAINT_MIN_WITHOUT_PATH
    assert EXAMPLE_COAT_OPENS_PAINT_MIN > EXAMPLE_COAT_OPENS_PAINT_MIN_WITHOUT_PATH
    # (e) the paint makes the level longer.
    no_path = _strip(EXAMPLE_PAINT_COSTS, "paths")
    assert oracle_min_steps(no_path, max_states) == EXAMPLE_PAINT_COSTS_MIN_WITHOUT_PATH
    assert EXAMPLE_PAINT_COSTS_MIN > EXAMPLE_PAINT_COSTS_MIN_WITHOUT_PATH
