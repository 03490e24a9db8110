// A round's end played out on the mines screen (issue 45; used by mines.js): the lines of
// Python's settlement, one after another, on the board and the battle panel. Each
// reward-eligible cell flashes and strikes the enemy's bar, an ambush shakes the board and
// strikes the player, a flag judged on a mine weakens the attack, and the enemy's attack
// lands last. Every figure shown is the settlement line's own (`enemy_hp_after`,
// `player_hp_after`, `attack_after`, `amount`): nothing is worked out here. While it plays
// the board carries data-animating="1"; a click, a tap or a key on the page finishes it at
// once; under reduced motion it does not play at all (the final state is drawn at once).

import { t } from "../i18n.js";

// The whole sequence takes at most this long, a step at most STEP_MS (a round with many
// cells plays each one faster): short enough never to feel like waiting.
const TOTAL_MS = 2400;
const STEP_MS = 320;
const MIN_STEP_MS = 70;

/** `{play(settlement, state) -> Promise, finish()}` over the board view and the fight bar. */
export function settlementSequence(view, fight) {
  const board = view.element;
  let running = null;  // {resolve, timer}

  function clearMarks() {
    for (const node of board.querySelectorAll(".seq-strike, .seq-weaken, .seq-ambush")) {
      node.classList.remove("seq-strike", "seq-weaken", "seq-ambush");
    }
    board.classList.remove("shake");
  }

  function finish() {
    if (!running) return;
    const { resolve, timer } = running;
    running = null;
    clearTimeout(timer);
    clearMarks();
    fight.calm();
    delete board.dataset.animating;
    resolve();
  }

  function mark(line, name) {
    if (!line.cell) return;
    const cell = view.cellAt(line.cell[0], line.cell[1]);
    if (!cell) return;
    cell.classList.remove(name);
    void cell.offsetWidth;  // restart the flash on a cell marked before
    cell.classList.add(name);
  }

  function step(line, state) {
    const source = line.source;
    if (source === "safe_dig" || source === "safe_chain" || source === "clear_bonus") {
      mark(line, "seq-strike");
      fight.stage(state, line, "enemy", `−${line.amount}`);
    } else if (source === "mine_ambush") {
      mark(line, "seq-ambush");
      board.classList.remove("shake");
      void board.offsetWidth;
      board.classList.add("shake");
      fight.stage(state, line, "player", `−${line.amount}`);
    } else if (source === "flag_hit") {
      mark(line, "seq-weaken");
      fight.stage(state, line, "weaken", t("mines.sequence.weaken", { amount: line.amount }));
    } else {  // the enemy's attack lands
      fight.stage(state, line, line.amount > 0 ? "player" : null, `−${line.amount}`);
    }
  }

  /** Play `settlement`'s lines (the state is already the settled one); resolves when done. */
  function play(settlement, state) {
    finish();
    const lines = settlement.lines || [];
    if (!lines.length) return Promise.resolve();
    const pause = Math.max(MIN_STEP_MS, Math.min(STEP_MS, Math.floor(TOTAL_MS / (lines.length + 1))));
    board.dataset.animating = "1";
    fight.before(state, settlement);
    return new Promise((resolve) => {
      let index = 0;
      running = { resolve, timer: null };
      const next = () => {
        if (!running) return;
        if (index >= lines.length) { finish(); return; }
        step(lines[index], state);
        index += 1;
        running.timer = setTimeout(next, pause);
      };
      running.timer = setTimeout(next, pause);
    });
  }

  return { play, finish, get playing() { return running !== null; } };
}
