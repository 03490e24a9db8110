"""Property-based tests of the mines engine: random boards, random intent sequences.

Each example builds a random legal board, installs it, and plays a random sequence of
batches (intents near the avatar, out-of-catalog junk, stops, multi-intent batches), with
the orchestration role starting new rounds. After every batch it checks the seed's
invariants against plain reference computations.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from gridforge.mines.board import Board
from gridforge.mines.intents import Intent
from gridforge.mines.ledger import ROUND_END_FIELDS, Ledger
from hypothesis import event, given
from hypothesis import strategies as st

from .fixtures import Harness, boards, naive_bfs, naive_digit, naive_r0

KEYS = {
    "cell_revealed": {"type", "cell", "kind", "digit", "variant_ids", "channel", "reward_eligible"},
    "flag_judged": {"type", "cell", "hit"},
    "round_end": {"type", *ROUND_END_FIELDS},
}
LEDGER_MODULE = Ledger.__module__


class SpyLedger(Ledger):
    """A ledger that records which module writes its AP."""

    writers: set[str]

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "ap":
            if "writers" not in self.__dict__:
                object.__setattr__(self, "writers", set())
            self.writers.add(sys._getframe(1).f_globals["__name__"])
        object.__setattr__(self, name, value)


def draw_intents(data: st.DataObject, h: Harness) -> list[Intent]:
    """One to two intents: a frontier dig or flag (with the move that reaches it), a move,
    a stop, or something near the avatar, sometimes off the board or out of catalog."""
    board = h.engine.board
    assert board is not None
    opened = set(h.engine.opened)
    flags = h.engine.flags
    frontier = [
        c
        for c in ((x, y) for y in range(board.rows) for x in range(board.cols))
        if c not in opened and any(n in opened for n in board.neighbours(c))
    ]
    choice = data.draw(st.sampled_from(["frontier"] * 4 + ["pull", "near", "move", "stop"]))
    if choice in ("frontier", "pull") and (frontier if choice == "frontier" else flags):
        target = data.draw(st.sampled_from(frontier if choice == "frontier" else list(flags)))
        stands = [n for n in board.neighbours(target) if n in opened]
        kind = "flag_pull"
        if choice == "frontier":
            kind = data.draw(st.sampled_from(["dig", "dig", "dig", "flag_place"]))
        if not stands:
            return [Intent(kind, target)]
        return [Intent("move", data.draw(st.sampled_from(stands))), Intent(kind, target)]
    if choice == "stop":
        return [Intent("stop")]
    if choice == "move":
        return [Intent("move", data.draw(st.sampled_from(sorted(opened, key=lambda c: c[::-1]))))]
    ax, ay = h.engine.avatar or board.spawn
    kind = data.draw(st.sampled_from(["dig", "flag_place", "flag_pull", "move", "chord"]))
    if data.draw(st.booleans()):
        cell = (data.draw(st.integers(-1, board.cols)), data.draw(st.integers(-1, board.rows)))
    else:
        cell = (ax + data.draw(st.integers(-1, 1)), ay + data.draw(st.integers(-1, 1)))
    return [Intent(kind, cell)]


def play(board: Board, batches: list[list[Intent]]) -> Harness:
    h = Harness.active(board)
    for batch in batches:
        if h.ledger.phase == "waiting":
            h.next_round()
        h.engine.settle_batch(batch)
    return h


@given(boards(), st.data())
def test_random_play_keeps_every_invariant(board: Board, data: st.DataObject) -> None:
    h = Harness()
    spy = SpyLedger()
    h.ledger = spy
    h.engine.ledger = spy
    spy.subscribe(h.a3.append)
    spy.subscribe(h.stream.append)
    assert h.engine.install_board(board).accepted
    assert spy.notify_round_start()
    # The initial expansion is R0 in canonical order (the naive BFS).
    assert [tuple(ev["cell"]) for ev in h.stream] == naive_r0(board)
    batches: list[list[Intent]] = []
    for _ in range(data.draw(st.integers(1, 40))):
        if spy.phase == "waiting":
            h.next_round()
            batches.append([])
        batch = draw_intents(data, h)
        if data.draw(st.integers(0, 3)) == 0:
            batch += draw_intents(data, h)
        batches.append(batch)
        before_opened, before_flags = set(h.engine.opened), set(h.engine.flags)
        mark = len(h.stream)
        outcomes = h.engine.settle_batch(batch)
        events = h.stream[mark:]
        assert len(outcomes) == len(batch)
        # Only the three event types, each with exactly its keys.
        for ev in events:
            keys = KEYS[ev["type"]] - ({"digit"} if ev.get("kind") == "mine" else set())
            assert set(ev) == keys
        revealed = [ev for ev in events if ev["type"] == "cell_revealed"]
        # Digits are always true.
        for ev in revealed:
            if ev["kind"] == "safe":
                assert ev["digit"] == naive_digit(board, tuple(ev["cell"]))
            assert ev["variant_ids"] == list(board.variant_ids(tuple(ev["cell"])))
        # A one-dig batch reveals exactly the naive BFS from the dug cell.
        if len(batch) == 1 and batch[0].kind == "dig" and outcomes[0].outcome == "executed":
            expected = naive_bfs(board, [batch[0].cell], before_opened, before_flags)
            assert [tuple(ev["cell"]) for ev in revealed] == expected
        # flag_judged only in one run directly before a round_end, one per standing flag.
        types = [ev["type"] for ev in events]
        if "round_end" in types:
            end = types.index("round_end")
            assert end == len(types) - 1
            judged = [k for k, t in enumerate(types) if t == "flag_judged"]
            assert judged == list(range(end - len(judged), end))
        else:
            assert "flag_judged" not in types
        # Voided intents come only after a round end, and change nothing: replaying the
        # history with them removed gives the same events and state.
        for o in outcomes:
            event(f"outcome {o.outcome} {o.reject_reason} {o.sub_reason}")
        if any(ev.get("channel") == "chain" for ev in revealed):
            event("chain")
        if any(o.outcome == "voided" for o in outcomes):
            assert "round_end" in types
            kept = [i for i, o in zip(batch, outcomes, strict=True) if o.outcome != "voided"]
            twin = play(board, [*batches[:-1], []])
            twin_mark = len(twin.stream)
            twin_out = twin.engine.settle_batch(kept)
            assert [o for o in outcomes if o.outcome != "voided"] == twin_out
            assert twin.stream[twin_mark:] == events
            assert twin.observables() == h.observables()
        assert h.engine.remaining_safe == len(
            [c for c in board.digits if c not in set(h.engine.opened)]
        )
    # Every opened cell was revealed exactly once in this install.
    shown = [tuple(ev["cell"]) for ev in h.stream if ev["type"] == "cell_revealed"]
    assert len(shown) == len(set(shown))
    assert set(shown) == set(h.engine.opened)
    # Only the ledger writes AP (A2 goes through try_spend).
    assert spy.writers == {LEDGER_MODULE}
    # Same input, same bytes.
    again = play(board, batches)
    assert json.dumps(again.stream) == json.dumps(h.stream)


