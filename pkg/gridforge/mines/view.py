"""What the page of a mines run draws and may offer (seed 000, D1's data supply).

The seed keeps the true digit of a fog cell in the data layer (A4; data-supply item 1) and
leaves hiding it to D1. The page is D1's drawing surface, so the hiding happens here, at
the source: nothing this module hands out, and no event :func:`page_event` passes on,
carries the digit of an opened fog cell. An opened fog cell is floor with no digit.

The view also says what each click would do, so that the page decides nothing: the cells
a click digs (the avatar's concealed neighbours), the opened cells it moves to (with the
move's breadth-first tree, whose branches are exactly :meth:`Engine.compute_move_path`),
the far concealed cells a click reaches by a move and a dig (the compound intent of
data-supply item 13), the cells a flag action places or pulls, and their prices.
"""

from __future__ import annotations

from typing import TypedDict

from gridforge.grid import Cell
from gridforge.mines.board import Board
from gridforge.mines.engine import Engine
from gridforge.mines.events import Event
from gridforge.mines.ledger import Ledger

__all__ = ["BoardView", "Offer", "board_view", "move_tree", "offer", "page_event", "stand_for"]


class BoardView(TypedDict):
    """The board as the player sees it (:func:`board_view`)."""

    cols: int
    rows: int
    spawn: list[int]
    avatar: list[int]
    grid: list[list[str | int]]
    mine_total: int
    mines_left: int
    dug_mines: int
    flags: int
    remaining_safe: int


class Offer(TypedDict):
    """What a click on each cell would do now, and at what price (:func:`offer`)."""

    dig: list[list[int]]
    reach: list[list[int]]
    move: list[list[int]]
    flag_place: list[list[int]]
    flag_pull: list[list[int]]
    stop: bool
    costs: dict[str, int]

CONCEALED, CONCEALED_FOG, FLAG, MINE, OPEN_FOG = (
    "concealed", "concealed-fog", "flag", "mine", "open-fog")


def page_event(event: Event) -> Event:
    """``event`` as the page may see it: an opened fog cell's reveal loses its digit."""
    if event["type"] == "cell_revealed" and event["variant_ids"] and "digit" in event:
        hidden = event.copy()
        del hidden["digit"]
        return hidden
    return event


def board_view(engine: Engine) -> BoardView | None:
    """The board as the player sees it, or None without a board.

    ``grid[y][x]`` is ``"concealed"``, ``"concealed-fog"``, ``"flag"``, ``"mine"`` (a dug
    mine: opened, walkable), ``"open-fog"`` (an opened fog cell: no digit) or the digit of
    an opened safe cell. ``mines_left`` is the total less the dug mines and the flags.
    """
    board = engine.board
    if board is None:
        return None
    cols, rows = board.cols, board.rows
    grid: list[list[str | int]] = [[CONCEALED] * cols for _ in range(rows)]
    fog = board.marked("fog")
    for x, y in fog:
        grid[y][x] = CONCEALED_FOG
    dug_mines = 0
    for x, y in engine.opened:
        if board.is_mine((x, y)):
            grid[y][x] = MINE
            dug_mines += 1
        elif board.variant_ids((x, y)):
            grid[y][x] = OPEN_FOG
        else:
            digit = board.digit((x, y))
            assert digit is not None
            grid[y][x] = digit
    flags = engine.flags
    for x, y in flags:
        grid[y][x] = FLAG
    avatar = engine.avatar or board.spawn
    return {
        "cols": cols,
        "rows": rows,
        "spawn": list(board.spawn),
        "avatar": [avatar[0], avatar[1]],
        "grid": grid,
        "mine_total": len(board.mines),
        "mines_left": len(board.mines) - dug_mines - len(flags),
        "dug_mines": dug_mines,
        "flags": len(flags),
        "remaining_safe": engine.remaining_safe,
    }


def move_tree(engine: Engine) -> dict[Cell, Cell]:
    """Every opened cell the avatar can move to, mapped to its parent on the move's path.

    A breadth-first search from the avatar over opened cells in row-major neighbour order:
    the engine's own path search, run to the end, so following parents from any cell back
    to the avatar gives exactly ``compute_move_path`` of that cell, reversed.
    """
    board = engine.board
    if board is None or engine.avatar is None:
        return {}
    opened = {board.index(c) for c in engine.opened}
    start = board.index(engine.avatar)
    parent = {start: start}
    queue = [start]
    nbrs = board.flat.neighbour_indices
    for here in queue:  # a FIFO: iteration visits what is appended
        for j in nbrs[here]:
            if j in opened and j not in parent:
                parent[j] = here
                queue.append(j)
    return {board.cell(j): board.cell(p) for j, p in parent.items()}


def _depths(tree: dict[Cell, Cell], root: Cell) -> dict[Cell, int]:
    depth = {root: 0}

    def of(cell: Cell) -> int:
        chain = []
        while cell not in depth:
            chain.append(cell)
            cell = tree[cell]
        d = depth[cell]
        for c in reversed(chain):
            d += 1
            depth[c] = d
        return d

    for cell in tree:
        of(cell)
    return depth


def stand_for(engine: Engine, cell: Cell, tree: dict[Cell, Cell] | None = None) -> Cell | None:
    """Where a far click on ``cell`` moves the avatar before it digs: the opened neighbour
    of ``cell`` with the shortest move path (the first in row-major neighbour order among
    equals), or None when no opened neighbour can be reached."""
    board = engine.board
    if board is None or engine.avatar is None or not board.contains(cell):
        return None
    tree = move_tree(engine) if tree is None else tree
    depth = _depths(tree, engine.avatar)
    best: Cell | None = None
    for n in board.neighbours(cell):
        if n in depth and (best is None or depth[n] < depth[best]):
            best = n
    return best


def offer(engine: Engine, ledger: Ledger, playing: bool) -> Offer:
    """What a click on each cell would do now, and at what price (see the module docstring).

    ``dig``: cells one click digs; ``reach``: ``[x, y, sx, sy]``, a far concealed cell and
    the cell a click moves to before digging it; ``move``: ``[x, y, px, py]``, an opened
    cell and its parent on the move's path; ``flag_place`` / ``flag_pull``: the cells a
    flag action places or pulls; ``stop``: whether Stop may be pressed. Empty when the
    player cannot act (the round or the run is over).
    """
    costs = {kind: ledger.price(kind) for kind in ("dig", "flag_place", "flag_pull")}
    costs["move"] = 0
    costs["reach"] = costs["dig"]
    out: Offer = {"dig": [], "reach": [], "move": [], "flag_place": [], "flag_pull": [],
                  "stop": False, "costs": costs}
    board = engine.board
    if not playing or board is None or engine.avatar is None or ledger.phase != "active":
        return out
    out["stop"] = True
    tree = move_tree(engine)
    ax, ay = engine.avatar
    out["move"] = [[x, y, p[0], p[1]] for (x, y), p in sorted(tree.items(),
                                                               key=lambda i: (i[0][1], i[0][0]))
                   if (x, y) != (ax, ay)]
    near = set(board.neighbours(engine.avatar))
    depth = _depths(tree, engine.avatar)
    can = {kind: ledger.can_afford(kind) for kind in ("dig", "flag_place", "flag_pull")}
    for y in range(board.rows):
        for x in range(board.cols):
            cell = (x, y)
            if engine.is_open(cell):
                continue
            flagged = engine.has_flag(cell)
            if cell in near:
                if flagged:
                    if can["flag_pull"]:
                        out["flag_pull"].append([x, y])
                else:
                    if can["dig"]:
                        out["dig"].append([x, y])
                    if can["flag_place"]:
                        out["flag_place"].append([x, y])
            elif not flagged and can["dig"]:
                best: Cell | None = None
                for n in board.neighbours(cell):
                    if n in depth and (best is None or depth[n] < depth[best]):
                        best = n
                if best is not None:
                    out["reach"].append([x, y, best[0], best[1]])
    return out


def fog_digits(board: Board) -> dict[Cell, int]:
    """The true digits of the fog cells (tests use it to look for leaks)."""
    out: dict[Cell, int] = {}
    for x, y in board.marked("fog"):
        digit = board.digit((x, y))
        if digit is not None:
            out[(x, y)] = digit
    return out
