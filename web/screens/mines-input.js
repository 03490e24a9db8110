// Input on the mines board (used by mines.js): mouse (left acts, right flags), touch (tap
// acts, long press or the flag-mode toggle flags), and the keyboard on the focused board
// (arrows move the cursor, Space/Enter act, F flags, S stops (asking first), H hints). Hover says what a
// click would do and previews a move's path, from Python's offer. Each input becomes one
// call of `actions`; nothing is decided here.
import { ARROW_STEPS } from "./directions.js";

const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE_PX = 12;

/**
 * Listen on `view` (minesBoard()). `actions`: `act(x, y)` (a click, tap, Space or Enter),
 * `secondary(x, y)` (a flag), `stop()`, `hint()`, `continueRun()`; `state()` is the last
 * state drawn, `flagMode()` whether a tap flags and `touch()` the feel of a long press (a
 * short vibration, feel.js). Returns `{stop()}`.
 */
/**
 * @param {any} view
 * @param {{act: (x: number, y: number) => void, secondary: (x: number, y: number) => void,
 *   stop: () => void, hint: () => void, continueRun: () => void, state: () => any,
 *   flagMode: () => boolean, touch?: () => void, item?: (x: number, y: number) => void}} actions
 */
export function attachInput(view, { act, secondary, stop, hint, continueRun, state, flagMode,
  touch = () => {}, item = () => {} }) {
  const board = view.element;
  /** @type {{id: number, sx: number, sy: number, x: number, y: number, timer: any, long: boolean} | null} */
  let press = null;

  board.addEventListener("contextmenu", (event) => event.preventDefault());
  board.addEventListener("pointerdown", (event) => {
    const cell = view.cellOf(event.target);
    if (!cell) return;
    const x = Number(cell.dataset.x);
    const y = Number(cell.dataset.y);
    view.setCursor([x, y]);
    if (event.pointerType === "mouse" && event.button === 2) {
      event.preventDefault();
      secondary(x, y);
      return;
    }
    if (event.button !== 0) return;
    if (press && press.timer) clearTimeout(press.timer);
    press = { id: event.pointerId, sx: event.clientX, sy: event.clientY, x, y, long: false, timer: null };
    if (event.pointerType !== "mouse") {
      const mine = press;
      press.timer = setTimeout(() => {
        mine.timer = null;
        if (press !== mine) return;
        mine.long = true;
        secondary(mine.x, mine.y);  // a long press flags or unflags
        touch();  // a short pulse, unless vibration is off in the settings
      }, LONG_PRESS_MS);
    }
  });
  board.addEventListener("pointermove", (event) => {
    if (!press || press.id !== event.pointerId) return;
    if (Math.hypot(event.clientX - press.sx, event.clientY - press.sy) > MOVE_TOLERANCE_PX) {
      if (press.timer) clearTimeout(press.timer);
      press = null;  // a scroll or a drag, not a tap
    }
  });
  const endPress = (event, fire) => {
    if (!press || press.id !== event.pointerId) return;
    const done = press;
    press = null;
    if (done.timer) clearTimeout(done.timer);
    if (!fire || done.long) return;
    const cell = view.cellOf(document.elementFromPoint(event.clientX, event.clientY)) ||
      view.cellOf(event.target);
    if (!cell || Number(cell.dataset.x) !== done.x || Number(cell.dataset.y) !== done.y) return;
    act(done.x, done.y);
  };
  board.addEventListener("pointerup", (event) => endPress(event, true));
  board.addEventListener("pointercancel", (event) => endPress(event, false));

  // Hover: what a click would do, and the move's path (drawn from Python's move tree; no call).
  board.addEventListener("pointerover", (event) => {
    const cell = view.cellOf(event.target);
    view.showPath(cell);
    if (!cell) { delete board.dataset.hover; return; }
    const offer = view.offerAt(cell.dataset.x, cell.dataset.y);
    board.dataset.hover = flagMode() ? (offer.secondary || "none") : (offer.primary || "none");
  });
  board.addEventListener("pointerleave", () => {
    view.showPath(null);
    delete board.dataset.hover;
  });

  // The letters' actions at the cursor (either case).
  const letters = { f: secondary, s: () => stop(), h: () => hint(), i: item };
  /** Act on key `k` for state `s`; whether the key did anything. */
  function boardKey(s, k) {
    const cursor = view.cursor;
    if (ARROW_STEPS[k]) {
      const [dx, dy] = ARROW_STEPS[k];
      view.setCursor([Math.min(s.board.cols - 1, Math.max(0, cursor[0] + dx)),
        Math.min(s.board.rows - 1, Math.max(0, cursor[1] + dy))]);
    } else if (k === " " || k === "Enter") {
      if (s.can_continue) continueRun();
      else if (s.status === "playing") act(cursor[0], cursor[1]);
      else return false;
    } else {
      const letter = k.length === 1 ? letters[k.toLowerCase()] : undefined;
      if (!letter) return false;
      letter(cursor[0], cursor[1]);
    }
    return true;
  }
  board.addEventListener("keydown", (event) => {
    const s = state();
    if (!s || !s.board || event.altKey || event.ctrlKey || event.metaKey) return;
    if (boardKey(s, event.key)) event.preventDefault();
  });

  return {
    stop() { if (press && press.timer) clearTimeout(press.timer); },
  };
}
