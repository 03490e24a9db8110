"""B1, minimal and provisional: a run of battles on generated boards, settled from events.

The seed leaves round orchestration (B1) undesigned; ``spec/mines.md`` fixes its minimal
shape and this module builds it on the engine (A2), the ledger (A3) and the generator (A1):

- a run is a sequence of battles (``data/run.json``); each battle has an enemy with hit
  points and an attack, and is fought in rounds of ``ap_per_round`` AP on boards from A1;
- settlement happens at the Waiting phase (B1 obligation 1: it is triggered by the phase,
  not by the order events arrive in) and every line is attributed to one event (pillar P2):
  each reward-eligible safe cell hurts the enemy, a flag judged hit weakens the attack that
  ends this round (once per mine and board, however often it is judged again: B1
  obligation 3; ``docs/mines-run.md`` says why the cut lasts one round), a dug mine
  is an ambush that hurts the player, a cleared board pays a clear bonus; initial-expansion
  cells never pay (B1 obligation 2). An enemy still standing then attacks;
- the battle is won when the enemy falls, the run lost when the player does; later battles
  grow the board and its density and unlock fog (the presets of ``data/presets.json``);
- every board that ends (cleared, its battle won, the run over) is retired with
  ``retire_board`` before the next one is installed.

Every intent goes to ``settle_batch`` as a one-intent batch (D1 obligations 1 and 6); a
click on a far concealed cell is two of them (a move beside it, then the dig: the compound
intent of D1 data-supply item 13). Every number lives in the data file; every board seed
derives from the run's seed, so the same seed and the same steps replay the same run: the
seed, the table's fingerprint and the steps are all the page stores (the midend keeps the
steps, :mod:`gridforge.mines.backend`) and resuming rebuilds the run from them.

Everything the page receives is in the player's words and hides fog digits at the source
(:mod:`gridforge.mines.view`). The run also keeps the D1 telemetry of data-supply item 13
and A2's own metrics (format ``gridforge.mines.telemetry/1``, see ``docs/mines-run.md``).
"""

from __future__ import annotations

from gridforge import i18n
from gridforge.errors import GridforgeError, is_int, refusal
from gridforge.grid import Cell
from gridforge.mines.board import Board
from gridforge.mines.events import Event
from gridforge.mines.gen_table import MAX_SEED
from gridforge.mines.generate import generate
from gridforge.mines.hints import Hint, next_hint, no_hint
from gridforge.mines.intents import ActionOutcome, Intent
from gridforge.mines.ledger import SPEND_KINDS
from gridforge.mines.replay import Session
from gridforge.mines.rewards import (
    ITEMS,
    TARGETED,
    dig_groups,
    draw_offers,
)
from gridforge.mines.run_json import (
    BattleStats,
    BattleSummary,
    Continued,
    EnemyBar,
    ItemView,
    OfferView,
    PageStep,
    Pending,
    Picked,
    Played,
    PlayerBar,
    Refreshed,
    RunHint,
    RunState,
    RunView,
    SavedStep,
    Settlement,
    SettlementLine,
    StopAsk,
    Telemetry,
    Totals,
    Used,
)
from gridforge.mines.run_table import Battle, RunTable, board_seed, load_run_table
from gridforge.mines.run_telemetry import RoundTelemetry, run_telemetry
from gridforge.mines.run_words import (
    enemy_name,
    log_lines,
    named,
    played_words,
    worded,
)
from gridforge.mines.view import (
    BoardView,
    Offer,
    board_view,
    move_tree,
    offer,
    page_event,
    stand_for,
)

# Runs kept alive at once in the browser's interpreter; the oldest goes first.
MAX_RUNS = 8

__all__ = ["Run"]




class Run:
    """One run: a session (ledger + engine), the battle in progress and the settlements."""

    def __init__(self, seed: object, table: RunTable | None = None) -> None:
        if not is_int(seed) or not 0 <= seed <= MAX_SEED:
            shown = repr(seed) if is_int(seed) else type(seed).__name__
            raise refusal("run", "seed", "range", f"seed must be an integer in "
                          f"0..{MAX_SEED}, got {shown[:40]}")
        self.seed = seed
        self.table = table if table is not None else load_run_table()
        self.session = Session()
        self.player_hp = self.table.player_hp
        self.battle_index = 0
        self.status = "playing"  # playing | settled | won | lost
        self.settlements: list[Settlement] = []
        self.rounds: list[RoundTelemetry] = []
        self.battle_summaries: list[BattleSummary] = []
        self.final_board: BoardView | None = None
        self._round_events: list[Event] = []
        # Rewards and items (gridforge.mines.rewards): all of it follows from the steps.
        rewards = self.table.rewards
        self.max_hp = self.table.player_hp
        self.sparks = 0
        self.items = rewards.starting_items()
        self.shields = 0  # shields armed: each absorbs one ambush
        self.blasts = 0  # blasts set off this round: they strike at its settlement
        self.flag_bonus = 0  # stronger flags: weaken more per hit
        self.hint_bonus = 0  # more hints a battle
        self.offers: list[str] = []  # open between battles, until one is picked
        self.picked: list[str] = []
        self._start_battle()
        self.session.ledger.notify_round_start()
        self._open_round()
        self.initial_events = self._drain()
        self._round_events = list(self.initial_events)

    # ------------------------------------------------------------ the battle
    @property
    def battle(self) -> Battle:
        return self.table.battles[self.battle_index]

    def _start_battle(self) -> None:
        self.enemy_hp = self.battle.hp
        self.board_no = 0
        self.hints_left = self.hints_per_battle()  # a new stock with every battle
        self._battle: BattleStats = {"battle": self.battle_index + 1,
                                        "enemy": self.battle.enemy,
                        "rounds": 0, "boards": 1, "cells_opened": 0, "mines_dug": 0,
                        "flag_hits": 0, "damage_dealt": 0, "damage_taken": 0,
                        "hints_used": 0, "player_hp_start": self.player_hp}
        self._install(self._next_board(), refresh=False)

    def _next_board(self) -> Board:
        seed = board_seed(self.seed, self.battle_index, self.board_no)
        return generate(self.battle.preset, seed, level=self.battle_index + 1).board

    def _install(self, board: Board, refresh: bool) -> bool:
        # Flags are judged once per mine and board (B1 obligation 3): a new board, a new key.
        if refresh:
            if not self.session.run_call("refresh", board):
                return False
        else:
            engine = self.session.engine
            if engine.board is not None and not engine.retire_board().accepted:
                raise GridforgeError("the ended board could not be retired")
            if not engine.install_board(board).accepted:
                raise GridforgeError("the generated board was refused by the engine")
        self.credited_mines: set[tuple[int, int]] = set()
        self.hinted: Cell | None = None  # the cell the last paid hint on this board named
        self.probed: dict[Cell, int] = {}  # a probe's answer: the digit, or -1 for a mine
        self.marked: list[Cell] = []  # the lantern's safe marks
        return True

    def hints_per_battle(self) -> int:
        """The hints a battle gives: the table's and the offers' picked."""
        return self.table.hints_per_battle + self.hint_bonus

    def _open_round(self) -> None:
        self.rounds.append(RoundTelemetry(self.battle_index + 1, self.board_no + 1,
                                  self.session.ledger.round))

    def _drain(self) -> list[Event]:
        return self.session.drain()

    # ------------------------------------------------------------ settlement
    def _round_claims(self) -> list[tuple[str, list[int] | None, str, int]]:
        """What the ended round's events claim, in event order: ``(source, cell, target,
        amount)`` per settlement line to be; the battle's counters follow the events."""
        values = self.table.settlement
        claims: list[tuple[str, list[int] | None, str, int]] = []
        for event in self._round_events:
            if event["type"] == "cell_revealed":
                if event["kind"] == "mine":
                    if self.shields > 0:  # an armed shield absorbs the ambush
                        self.shields -= 1
                        claims.append(("mine_shielded", event["cell"], "player", 0))
                    else:
                        claims.append(("mine_ambush", event["cell"], "player",
                                       values["mine_ambush_damage"]))
                    self._battle["mines_dug"] += 1
                elif event["reward_eligible"]:  # initial cells never pay (B1 obligation 2)
                    claims.append((f"safe_{event['channel']}", event["cell"], "enemy",
                                   values["safe_cell_damage"]))
                    self._battle["cells_opened"] += 1
            elif event["type"] == "flag_judged" and event["hit"]:
                key = (event["cell"][0], event["cell"][1])
                if key not in self.credited_mines:
                    self.credited_mines.add(key)
                    self._battle["flag_hits"] += 1
                    claims.append(("flag_hit", event["cell"], "enemy_attack",
                                   values["flag_hit_weaken"] + self.flag_bonus))
            elif event["type"] == "round_end" and event["path_tag"] == "cleared":
                claims.append(("clear_bonus", None, "enemy", values["clear_bonus_damage"]))
        claims += [("blast", None, "enemy", self.table.rewards["blast_damage"])] * self.blasts
        self.blasts = 0
        # A chain's overflow past max_stack heals: one line a dig (obligation B1/B4-2).
        claims += [("chain_overflow", group["cells"][0], "heal", group["heal"])
                   for group in dig_groups(self._round_events, self.table.rewards)
                   if group["heal"] > 0]
        return claims

    def _settle(self) -> Settlement:
        """Settle the ended round from its events; every line names the event it comes from."""
        round_end = self.session.ledger.last_round_end
        enemy_before, player_before = self.enemy_hp, self.player_hp
        weakened = healed = 0
        lines: list[SettlementLine] = []
        sparks = sum(g["sparks"] for g in dig_groups(self._round_events, self.table.rewards))
        self.sparks += sparks
        for source, cell, target, amount in self._round_claims():
            if target == "enemy":
                self.enemy_hp = max(0, self.enemy_hp - amount)
            elif target == "enemy_attack":
                weakened += amount
            elif target == "heal":  # never past the maximum, never back from 0
                amount = min(amount, self.max_hp - self.player_hp) if self.player_hp else 0
                self.player_hp += amount
                healed += amount
            else:
                self.player_hp = max(0, self.player_hp - amount)
            # each line carries both sides after it: the page plays the round's end line
            # by line (issue 45) from these figures, computing nothing
            lines.append(self._line(source, cell, target, amount, weakened))
        if self.enemy_hp > 0 and self.player_hp > 0:
            attack = max(0, self.battle.attack - weakened)
            self.player_hp = max(0, self.player_hp - attack)
            lines.append(self._line("enemy_attack", None, "player", attack, weakened))
        self._battle["rounds"] += 1
        self._battle["damage_dealt"] += enemy_before - self.enemy_hp
        self._battle["damage_taken"] += player_before + healed - self.player_hp
        result = self._result()
        settlement: Settlement = {
            "round": self.session.ledger.round,
            "battle": self.battle_index + 1,
            "path_tag": round_end["path_tag"] if round_end else None,
            "continuation_hint": round_end["continuation_hint"] if round_end else None,
            "lines": lines,
            "enemy_damage": enemy_before - self.enemy_hp,
            "player_damage": player_before + healed - self.player_hp,
            "enemy_hp_before": enemy_before,
            "player_hp_before": player_before,
            "enemy_hp": self.enemy_hp,
            "player_hp": self.player_hp,
            "result": result,
            "battle_summary": None,
            "sparks_earned": sparks,
            "player_healed": healed,
        }
        if result in ("battle_won", "run_won", "run_lost"):
            summary: BattleSummary = {**self._battle, "won": result != "run_lost",
                                      "player_hp_end": self.player_hp}
            self.battle_summaries.append(summary)
            settlement["battle_summary"] = summary
        self.settlements.append(settlement)
        if result == "battle_won":
            self.offers = draw_offers(self.seed, self.battle_index + 1)
        self._round_events = []
        self.status = {"run_lost": "lost", "run_won": "won"}.get(result, "settled")
        if self.status in ("won", "lost"):
            # The run is over: keep the last board's picture, then let the board go.
            self.final_board = board_view(self.session.engine)
            self.session.engine.retire_board()
        return settlement

    def _result(self) -> str:
        """How a settled round leaves the run: lost, won, a battle won, or going on."""
        if self.player_hp == 0:
            return "run_lost"
        if self.enemy_hp == 0:
            last = self.battle_index == len(self.table.battles) - 1
            return "run_won" if last else "battle_won"
        return "continue"

    def _line(self, source: str, cell: list[int] | None, target: str, amount: int,
              weakened: int) -> SettlementLine:
        """A settlement line with both sides as they stand after it: HP and the attack to
        come."""
        return {"source": source, "cell": cell, "target": target, "amount": amount,
                "enemy_hp_after": self.enemy_hp, "player_hp_after": self.player_hp,
                "attack_after": max(0, self.battle.attack - weakened)}

    # ------------------------------------------------------------ player-facing
    def _batch(self, intent: Intent, current: RoundTelemetry) -> tuple[ActionOutcome, list[Event]]:
        """One intent as a one-intent batch, with its telemetry; the page's events."""
        outcome = self.session.engine.settle_batch([intent])[0]
        events = self._drain()
        self._round_events += events
        current.batches += 1
        if outcome.outcome == "executed":
            if intent.kind in SPEND_KINDS:
                current.ap_spent += self.session.ledger.price(intent.kind)
            if intent.kind == "dig":
                current.chains.append(sum(1 for e in events if e["type"] == "cell_revealed"))
        else:
            reason = ("voided" if outcome.outcome == "voided"
                      else outcome.sub_reason or outcome.reject_reason or "rejected")
            current.rejections[reason] = current.rejections.get(reason, 0) + 1
        return outcome, events

    def act(self, intent: Intent) -> Played:
        """Settle one intent (a one-intent batch); settle the round if it ended."""
        return self._run([intent], intent.to_json())

    def _run(self, intents: list[Intent], step: SavedStep,
             far: Cell | None = None) -> Played:
        status_before = self.status
        current = self.rounds[-1]
        current.inputs += 1  # one raw input action, however many intents it becomes
        outcomes: list[ActionOutcome] = []
        events: list[Event] = []
        settlement: Settlement | None = None
        for k, intent in enumerate(intents):
            if k and (outcomes[-1].outcome != "executed" or self.status != "playing"):
                break  # the move of a far click was refused: no dig (its refusal is shown)
            outcome, new = self._batch(intent, current)
            outcomes.append(outcome)
            events += new
            if self.status == "playing" and self.session.ledger.phase == "waiting":
                settlement = self._settle()
        answer = played_words(intents[:len(outcomes)], outcomes, events, settlement,
                              status_before, self.session.engine.board,
                              self.table.settlement["mine_ambush_damage"], step)
        if far is not None and len(intents) == 1 and outcomes[0].outcome == "rejected" \
                and outcomes[0].sub_reason == "not_adjacent":
            answer["messages"] = [{"kind": "error", "text": i18n.say("mines.unreachable")}]
        return answer

    def primary(self, cell: Cell) -> Played:
        """A click, a tap, Space or Enter on ``cell``: move onto opened ground, dig a
        neighbour, or, for a far concealed cell, move beside it and dig it (two batches)."""
        engine = self.session.engine
        board = engine.board
        step: PageStep
        if board is None or not board.contains(cell):
            intent = Intent("dig", cell)
            return self._run([intent], intent.to_json())
        if engine.is_open(cell):
            intent = Intent("move", cell)
            return self._run([intent], intent.to_json())
        avatar = engine.avatar
        if (avatar is not None and cell in board.neighbours(avatar)) or self.status != "playing":
            intent = Intent("dig", cell)
            return self._run([intent], intent.to_json())
        step = {"do": "reach", "cell": [cell[0], cell[1]]}
        stand = stand_for(engine, cell)
        if stand is None:
            return self._run([Intent("dig", cell)], step, far=cell)
        return self._run([Intent("move", stand), Intent("dig", cell)], step, far=cell)

    def secondary(self, cell: Cell) -> Played:
        """A right click, a long press, F or a tap in flag mode: place or pull a flag."""
        kind = "flag_pull" if self.session.engine.has_flag(cell) else "flag_place"
        intent = Intent(kind, cell)
        return self._run([intent], intent.to_json())

    def refresh(self) -> Refreshed:
        """Pay the refresh price from RAP for a new board of the same battle."""
        if self.status != "playing":
            raise GridforgeError("a refresh is only possible during a round")
        self.board_no += 1
        accepted = self._install(self._next_board(), refresh=True)
        if not accepted:
            self.board_no -= 1
        else:
            self._battle["boards"] += 1
        events = self._drain()
        self._round_events += events
        text = (i18n.say("mines.refreshed") if accepted else i18n.say(
            "mines.refresh-refused", cost=self.session.ledger.economy.rap_refresh_cost))
        return {"accepted": accepted, "events": [page_event(e) for e in events],
                "log": log_lines(events, self.session.engine.board),
                "messages": [{"kind": "info" if accepted else "error", "text": text}],
                "step": {"do": "refresh"} if accepted else None}

    def continue_run(self) -> Continued:
        """After a settlement: the next round, on a new board when the last one was cleared,
        or the next battle when the enemy fell."""
        if self.status != "settled":
            raise GridforgeError(f"nothing to continue: the run is {self.status}")
        self.offers = []  # going on without a pick lets the offers go
        ledger, last = self.session.ledger, self.settlements[-1]
        new_board = last["result"] == "battle_won" or last["continuation_hint"] == "new_board"
        ledger.notify_settlement_done("new_board" if new_board else "same_board")
        if last["result"] == "battle_won":
            self.battle_index += 1
            self._start_battle()
        elif new_board:
            self.board_no += 1
            self._battle["boards"] += 1
            self._install(self._next_board(), refresh=False)
        ledger.notify_round_start()
        self._open_round()
        self.status = "playing"
        # The initial expansion of a new board belongs to the new round (it never pays).
        events = self._drain()
        self._round_events = list(events)
        what = (i18n.say("mines.next-battle", battle=self.battle_index + 1,
                         enemy=enemy_name(self.battle.enemy))
                if last["result"] == "battle_won" else
                i18n.say("mines.new-board") if new_board else i18n.say("mines.same-board"))
        return {"events": [page_event(e) for e in events],
                "log": log_lines(events, self.session.engine.board),
                "messages": [{"kind": "info", "text": i18n.say(
                    "mines.round-start", what=what, round=ledger.round, ap=ledger.ap)}],
                "step": {"do": "continue"}}

    # ------------------------------------------------------------ offers and items
    def pick_offer(self, kind: object) -> Picked:
        """Take one of the offers open between battles (``{"do": "pick"}`` in the save).

        :raises GridforgeError: when no offers are open or ``kind`` is not one of them
            (a tampered save): nothing changes then.
        """
        if not self.offers:
            raise GridforgeError("no offers are open: offers come after a battle is won")
        if not isinstance(kind, str) or kind not in self.offers:
            raise GridforgeError(f"{str(kind)[:40]!r} is not one of the offers open now "
                                 f"({', '.join(self.offers)})")
        rewards = self.table.rewards
        if kind == "heal":
            self.player_hp = min(self.max_hp, self.player_hp + rewards["heal"])
        elif kind in ITEMS:
            self.items[kind] += rewards.offer_charges(kind)
        elif kind == "flag":
            self.flag_bonus += rewards["flag_bonus"]
        elif kind == "hints":
            self.hint_bonus += rewards["hints_bonus"]
        else:
            self.sparks += rewards["sparks_bonus"]
        self.offers = []
        self.picked.append(kind)
        return {"accepted": True, "picked": kind, "messages": [
            {"kind": "success", "text": i18n.say("mines.offer.taken",
                                                 name=i18n.say(f"mines.offer.{kind}.name"))}],
                "step": {"do": "pick", "offer": kind}}

    def item_price(self, item: str) -> tuple[str, int] | None:
        """What a use of ``item`` costs now: ``("charge", 1)``, ``("sparks", price)``, or
        None when neither is there."""
        if self.items[item] > 0:
            return ("charge", 1)
        price = self.table.rewards["item_spark_price"]
        return ("sparks", price) if self.sparks >= price else None

    def use_item(self, item: object, cell: Cell | None = None) -> Used:
        """Use an item during a round: one charge, or its price in sparks with none left.
        A use that cannot be made (no round, no charge nor sparks, a bad target) is refused
        with the reason and changes nothing; a use made is a step of the save."""
        if not isinstance(item, str) or item not in ITEMS:
            raise GridforgeError(f"no item {str(item)[:40]!r}: items are {', '.join(ITEMS)}")
        price = self.item_price(item)
        refusal = self._item_refusal(item, cell, price)
        if refusal is not None:
            return {"accepted": False, "item": item, "cell": None, "result": None,
                    "messages": [{"kind": "error", "text": refusal}], "step": None}
        assert price is not None
        if price[0] == "charge":
            self.items[item] -= 1
        else:
            self.sparks -= price[1]
        self.rounds[-1].inputs += 1
        found = self._item_effect(item, cell)
        step: PageStep = {"do": "use", "item": item}
        if found is not None:
            step["cell"] = [found[0], found[1]]
        result = self.probed.get(found) if item == "probe" and found is not None else None
        text = i18n.say(f"mines.item.{item}.done", digit=result if result is not None else 0)
        if item == "probe" and result == -1:
            text = i18n.say("mines.item.probe.mine")
        return {"accepted": True, "item": item,
                "cell": None if found is None else [found[0], found[1]], "result": result,
                "messages": [{"kind": "success", "text": text}], "step": step}

    def _item_refusal(self, item: str, cell: Cell | None, price: tuple[str, int] | None
                      ) -> str | None:
        """Why ``item`` cannot be used now on ``cell`` (None: it can)."""
        engine = self.session.engine
        board = engine.board
        if self.status != "playing" or self.session.ledger.phase != "active" or board is None:
            return i18n.say("mines.item.no-round")
        if price is None:
            return i18n.say("mines.item.no-charge",
                            price=self.table.rewards["item_spark_price"])
        if item in TARGETED:
            if cell is None or not board.contains(cell) or engine.is_open(cell) \
                    or cell in self.probed:
                return i18n.say(f"mines.item.{item}.target")
        elif item == "lantern" and self._lantern_cell() is None:
            return i18n.say("mines.item.lantern.none")
        return None

    def _item_effect(self, item: str, cell: Cell | None) -> Cell | None:
        """Apply a paid item; the cell it acted on (None: the shield)."""
        board = self.session.engine.board
        assert board is not None
        if item == "probe":
            assert cell is not None
            # A2's query face: the installed board answers; no event is emitted.
            digit = board.true_digit(cell)
            self.probed[cell] = -1 if digit is None else digit
            return cell
        if item == "lantern":
            found = self._lantern_cell()
            assert found is not None
            self.marked.append(found)
            return found
        if item == "blast":
            self.blasts += 1
        else:
            self.shields += 1
        return None

    def _lantern_cell(self) -> Cell | None:
        """The concealed safe cell nearest the avatar (Chebyshev distance, then row-major
        order) that is neither flagged, marked nor probed: what a lantern marks."""
        engine = self.session.engine
        board, avatar = engine.board, engine.avatar
        if board is None or avatar is None:
            return None
        known = set(self.marked) | set(self.probed)
        cells = [(x, y) for y in range(board.rows) for x in range(board.cols)
                 if not engine.is_open((x, y)) and not engine.has_flag((x, y))
                 and not board.is_mine((x, y)) and (x, y) not in known]
        if not cells:
            return None
        return min(cells, key=lambda c: (max(abs(c[0] - avatar[0]), abs(c[1] - avatar[1])),
                                         c[1], c[0]))

    def items_view(self) -> list[ItemView]:
        """Each item the player holds, its charges, and whether it can be used now."""
        playing = self.status == "playing" and self.session.ledger.phase == "active"
        return [{"id": item, "charges": self.items[item],
                 "spark_price": self.table.rewards["item_spark_price"],
                 "target": item in TARGETED,
                 "can_use": playing and self.item_price(item) is not None,
                 "name": i18n.say(f"mines.item.{item}.name"),
                 "effect": i18n.say(f"mines.item.{item}.effect")} for item in ITEMS]

    def offers_view(self) -> list[OfferView]:
        """The offers open now, in the player's words (empty: none open)."""
        rewards = self.table.rewards
        numbers = {"heal": rewards["heal"], "probe": rewards["probe_charges"],
                   "blast": rewards["blast_charges"],
                   "shield": rewards["shield_charges"], "lantern": rewards["lantern_charges"],
                   "flag": rewards["flag_bonus"], "hints": rewards["hints_bonus"],
                   "sparks": rewards["sparks_bonus"]}
        return [{"id": kind, "name": i18n.say(f"mines.offer.{kind}.name"),
                 "effect": i18n.say(f"mines.offer.{kind}.effect", amount=numbers[kind])}
                for kind in self.offers]

    # ------------------------------------------------------------ what the page sees
    def pending(self) -> Pending:
        """What the round's events so far will settle to (shown at once, before the end)."""
        values = self.table.settlement
        ambushes = safe = 0
        for event in self._round_events:
            if event["type"] == "cell_revealed":
                if event["kind"] == "mine":
                    ambushes += 1
                elif event["reward_eligible"]:
                    safe += 1
        hurt = max(0, ambushes - self.shields)  # armed shields absorb the first ambushes
        blasts = self.blasts * self.table.rewards["blast_damage"]
        return {"ambushes": ambushes,
                "player_damage": hurt * values["mine_ambush_damage"],
                "enemy_damage": safe * values["safe_cell_damage"] + blasts,
                "enemy_attack": self.battle.attack}

    def hp_bars(self) -> tuple[EnemyBar, PlayerBar]:
        """What the two HP bars draw beside the HP, for the enemy and for the player:
        ``pending``, the damage the round's events so far will settle (capped at the HP
        left), and for the player ``strike``, the enemy's attack at the round's end if both
        still stand then (a flag judged on a mine may yet weaken it). Zero between rounds."""
        if self.status != "playing":
            return {"pending": 0}, {"pending": 0, "strike": 0}
        pending = self.pending()
        enemy = min(self.enemy_hp, pending["enemy_damage"])
        player = min(self.player_hp, pending["player_damage"])
        stands = self.enemy_hp > enemy and self.player_hp > player
        strike = min(self.player_hp - player, self.battle.attack) if stands else 0
        return {"pending": enemy}, {"pending": player, "strike": strike}

    def stop_ask(self) -> StopAsk | None:
        """Whether Stop asks first (issue 45: it ends the round and lets the enemy strike,
        so with AP left it is a deliberate act), with the question in the player's words;
        None when Stop is not offered or no AP is left."""
        ledger = self.session.ledger
        if self.status != "playing" or ledger.phase != "active" or ledger.ap <= 0:
            return None
        enemy, player = self.hp_bars()
        # The figure the pending line shows beside it (issue 51: the same words and number):
        # the strike to come, or that the enemy falls first.
        falls = enemy["pending"] >= self.enemy_hp
        return {"ap": ledger.ap,
                "text": i18n.say("mines.stop-ask-falls" if falls else "mines.stop-ask",
                                 ap=ledger.ap, strike=player["strike"]),
                "confirm": i18n.say("mines.stop-confirm"),
                "cancel": i18n.say("mines.stop-cancel")}

    def tip(self) -> str | None:
        """A line for the player when the next move is not obvious (None otherwise)."""
        if self.status != "playing":
            return None
        engine, board = self.session.engine, self.session.engine.board
        if board is None or engine.avatar is None:
            return None
        if all(engine.is_open(n) or engine.has_flag(n) for n in board.neighbours(engine.avatar)):
            return i18n.say("mines.tip.walk")
        return i18n.say("mines.tip.dig")

    def proved_next(self) -> Hint:
        """The next cell logic proves from what the player sees and has marked, and why
        (what a hint says), without paying for it: what a player who deduces knows."""
        engine, board = self.session.engine, self.session.engine.board
        if board is None or self.status in ("won", "lost"):
            return _no_hint(i18n.say("mines.hint.run-over"))
        opened: dict[Cell, int | None] = {}
        known_mines = []
        for cell in engine.opened:
            if board.is_mine(cell):
                known_mines.append(cell)
            else:  # a fog cell's digit is hidden from the solver as from the player
                opened[cell] = None if board.variant_ids(cell) else board.digit(cell)
        # What items told the player: a probed digit, a probed mine, a lantern's safe mark
        # (safe with no digit known, as a fog cell). They are known, not yet opened.
        for cell, digit in self.probed.items():
            if digit < 0:
                known_mines.append(cell)
            else:
                opened[cell] = digit
        for cell in self.marked:
            opened.setdefault(cell, None)
        reachable = {n for cell in move_tree(engine) for n in board.neighbours(cell)
                     if not engine.is_open(n)}
        return next_hint(board.cols, board.rows, opened, known_mines, engine.flags,
                         len(board.mines), reachable)

    def can_hint(self) -> bool:
        """Whether the Hint button may be pressed now: a round in play and a hint in stock."""
        return (self.status == "playing" and self.session.ledger.phase == "active"
                and self.hints_left > 0)

    def hint(self) -> RunHint:
        """A hint, at its price: one from the battle's stock (``hints_per_battle``).

        Only a hint that names a cell costs; asking again while the last paid hint's cell
        is still the answer shows it again for free; an answer with nothing to prove is
        free. With the stock spent, the hint is refused (``refused``) and nothing changes.
        A paid hint is a step of the saved run (``{"do": "hint"}``): it changes the run.
        ``price`` says what this answer cost, ``hints_left`` what is left.
        """
        price = 0
        if self.status != "playing" or self.session.ledger.phase != "active":
            answer = (self.proved_next() if self.status in ("won", "lost") else
                      _no_hint(i18n.say("mines.hint.round-over")))
            refused = self.status not in ("won", "lost")
        else:
            answer = self.proved_next()
            cell = answer["cell"]
            refused = False
            if cell is not None and tuple(cell) != self.hinted:
                if self.hints_left <= 0:
                    per = self.hints_per_battle()
                    answer = _no_hint(i18n.say("mines.hint.none-left", per=per))
                    refused = True
                else:
                    self.hints_left -= 1
                    self._battle["hints_used"] += 1
                    self.hinted = (cell[0], cell[1])
                    price = 1
        return {**answer, "refused": refused, "price": price, "hints_left": self.hints_left,
                "step": {"do": "hint"} if price else None}

    def to_json(self) -> RunState:
        """The run whole: its view and its offer."""
        return {**self.view(), "offer": self.offer()}

    def offer(self) -> Offer:
        """What a click on each cell would do now, and at what price (:func:`offer`)."""
        return offer(self.session.engine, self.session.ledger, self.status == "playing")

    def view(self) -> RunView:
        """The run as the page draws it: battle, enemy, player, board, pending."""
        ledger = self.session.ledger
        playing = self.status == "playing"
        view = board_view(self.session.engine) or self.final_board
        enemy_bar, player_bar = self.hp_bars()
        return {
            "seed": self.seed,
            "status": self.status,
            "battle": self.battle_index + 1,
            "battles": len(self.table.battles),
            "enemy": {"id": self.battle.enemy.lower().replace(" ", "-"),
                      "name": enemy_name(self.battle.enemy), "hp": self.enemy_hp,
                      "max_hp": self.battle.hp,
                      "attack": self.battle.attack, **enemy_bar},
            "player": {"hp": self.player_hp, "max_hp": self.max_hp, **player_bar},
            "board_no": self.board_no + 1,
            "round": ledger.round,
            "phase": ledger.phase,
            "ap": ledger.ap,
            "ap_per_round": ledger.economy.ap_per_round,
            "rap": ledger.rap,
            "refresh_cost": ledger.economy.rap_refresh_cost,
            "can_refresh": playing and ledger.phase == "active"
            and ledger.rap >= ledger.economy.rap_refresh_cost,
            "can_continue": self.status == "settled",
            "hints": {"left": self.hints_left, "per_battle": self.hints_per_battle(),
                      "price": 1, "can_ask": self.can_hint()},
            "stop_ask": self.stop_ask(),
            "terms": self.terms(),
            "board": view,
            "pending": self.pending(),
            "tip": self.tip(),
            "last_settlement": worded(self.settlements[-1]) if self.settlements else None,
            "battle_summaries": [named(b) for b in self.battle_summaries],
            "totals": self.totals(),
            "sparks": self.sparks,
            "items": self.items_view(),
            "shields": self.shields,
            "blasts": self.blasts,
            "flag_weaken": self.table.settlement["flag_hit_weaken"] + self.flag_bonus,
            "offers": self.offers_view(),
            "probed": [[x, y, d] for (x, y), d in sorted(self.probed.items())
                       if playing and not self.session.engine.is_open((x, y))],
            "marked": [[x, y] for x, y in self.marked
                       if playing and not self.session.engine.is_open((x, y))],
        }

    def terms(self) -> dict[str, str]:
        """Every term the page shows, explained in a sentence (numbers from the tables)."""
        economy = self.session.ledger.economy
        s = self.table.settlement
        numbers = {"ap": economy.ap_per_round, "dig": economy.dig_ap_cost,
                   "flag": economy.flag_place_ap_cost, "refresh": economy.rap_refresh_cost,
                   "weaken": s["flag_hit_weaken"], "hints": self.table.hints_per_battle,
                   "safe": s["safe_cell_damage"], "ambush": s["mine_ambush_damage"],
                   "clear": s["clear_bonus_damage"]}
        return {term: i18n.say(f"mines.term.{term}", **numbers) for term in
                ("AP", "RAP", "HP", "attack", "mines", "hints", "pending", "fog")}

    def totals(self) -> Totals:
        """The run's numbers for the win and loss screens."""
        done = self.battle_summaries
        current = [] if self.status in ("won", "lost") else [self._battle]
        every = done + current
        return {"battles_won": sum(1 for b in done if b["won"]),
                "rounds": len(self.settlements),
                "cells_opened": sum(b["cells_opened"] for b in every),
                "mines_dug": sum(b["mines_dug"] for b in every),
                "flag_hits": sum(b["flag_hits"] for b in every),
                "damage_dealt": sum(b["damage_dealt"] for b in every),
                "damage_taken": sum(b["damage_taken"] for b in every),
                "player_hp": self.player_hp}


    def telemetry(self) -> Telemetry:
        """D1's telemetry of the run (format ``gridforge.mines.telemetry/1``)."""
        return run_telemetry(self.seed, self.rounds)


def _no_hint(text: str) -> Hint:
    return no_hint(text, {"safe": 0, "mines": 0})


