// A round's end played out on the mines screen (issues 45, 51; used by mines.js): Python's
// show of the settlement (`settlement.show`), one line per cause and cell group, on the
// board and the battle panel: a dig and its chain flash and strike the enemy once with their
// total, an ambush shakes the board and strikes the player, the flags on mines weaken the
// attack at once, the chain's overflow heals, the sparks earned are said, and the enemy's
// attack lands last. The text log of every line stays in the settlement panel. Every figure shown is the settlement line's own (`enemy_hp_after`,
// `player_hp_after`, `attack_after`, `amount`): nothing is worked out here. While it plays
// the board carries data-animating="1"; a click, a tap or a key on the page finishes it at
// once; under reduced motion it does not play at all (the final state is drawn at once).

import { t } from "../i18n.js";
import { el } from "./dom.js";

// The whole sequence takes at most this long, a step at most STEP_MS (a round with many
// cells plays each one faster): short enough never to feel like waiting.
const TOTAL_MS = 2400;
const STEP_MS = 320;
const MIN_STEP_MS = 70;

/** `{play(settlement, state) -> Promise, finish()}` over the board view and the fight bar. */
export function settlementSequence(view, fight) {
  const board = view.element;
  /** @type {{resolve: (value?: any) => void, timer: any} | null} */
  let running = null;
  // The line playing, in words over the board (the show's own caption, read by no one else).
  const caption = el("div", { class: "mines-show-line", "data-testid": "mines-show-line",
    "aria-hidden": "true", hidden: true });

  function clearMarks() {
    for (const node of board.querySelectorAll(".seq-strike, .seq-weaken, .seq-ambush, .seq-heal")) {
      node.classList.remove("seq-strike", "seq-weaken", "seq-ambush", "seq-heal");
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
    caption.hidden = true;
    caption.textContent = "";
    delete board.dataset.showing;
    delete board.dataset.animating;
    resolve();
  }

  function mark(line, name) {
    for (const [x, y] of line.cells || []) {
      const cell = view.cellAt(x, y);
      if (!cell) continue;
      cell.classList.remove(name);
      void cell.offsetWidth;  // restart the flash on a cell marked before
      cell.classList.add(name);
    }
  }

  function step(line, state) {
    const cause = line.cause;
    board.dataset.showing = cause;
    if (cause === "strike" || cause === "clear" || cause === "blast") {
      mark(line, "seq-strike");
      fight.stage(state, line, "enemy", `−${line.amount}`);
    } else if (cause === "ambush" || cause === "shield") {
      mark(line, "seq-ambush");
      board.classList.remove("shake");
      void board.offsetWidth;
      board.classList.add("shake");
      fight.stage(state, line, line.amount > 0 ? "player" : null, `−${line.amount}`);
    } else if (cause === "flags") {
      mark(line, "seq-weaken");
      fight.stage(state, line, "weaken", t("mines.sequence.weaken", { amount: line.amount }));
    } else if (cause === "overflow") {
      mark(line, "seq-heal");
      fight.stage(state, line, null, "");
    } else if (cause === "attack") {  // the enemy's attack lands
      fight.stage(state, line, line.amount > 0 ? "player" : null, `−${line.amount}`);
    } else fight.stage(state, line, null, "");
    caption.textContent = line.text;
  }

  /** Play `settlement`'s show (the state is already the settled one); resolves when done. */
  function play(settlement, state) {
    finish();
    const lines = settlement.show || [];
    if (!lines.length) return Promise.resolve();
    const pause = Math.max(MIN_STEP_MS, Math.min(STEP_MS, Math.floor(TOTAL_MS / (lines.length + 1))));
    board.dataset.animating = "1";
    caption.hidden = false;
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

  return { play, finish, caption, get playing() { return running !== null; } };
}
