// Input on the snakes board: the cells a grabbed end enters, one by one along the pointer's
// path (mouse, touch, pen), and the play keys; what may enter a cell is Python's answer.
import { ARROW_LETTERS } from "./directions.js";

const sameCell = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

/** The cell under the client point (x, y) of `board`, or null outside it. */
export function cellAt(board, clientX, clientY) {
  const rect = board.getBoundingClientRect();
  const cols = Number(board.dataset.cols);
  const rows = Number(board.dataset.rows);
  const x = Math.floor(((clientX - rect.left) / rect.width) * cols);
  const y = Math.floor(((clientY - rect.top) / rect.height) * rows);
  if (!(x >= 0 && x < cols && y >= 0 && y < rows)) return null;
  return [x, y];
}

/** The 4-connected cells from `a` (excluded) to `b` (included), closest to the straight line. */
export function walk(a, b) {
  const cells = [];
  let [x, y] = a;
  const [tx, ty] = b;
  const sx = Math.sign(tx - x);
  const sy = Math.sign(ty - y);
  const dx = Math.abs(tx - a[0]);
  const dy = Math.abs(ty - a[1]);
  while (x !== tx || y !== ty) {
    // Step along the axis that lags most behind the straight line from a to b.
    const doneX = dx ? Math.abs(x - a[0]) / dx : 1;
    const doneY = dy ? Math.abs(y - a[1]) / dy : 1;
    if (x !== tx && (doneX < doneY || y === ty)) x += sx; else y += sy;
    cells.push([x, y]);
  }
  return cells;
}

/**
 * Pointer input on `board`: `grab(cell, event)` says whether a drag starts at `cell`;
 * `enter(cell, event)` is called for every cell entered, in order, while dragging;
 * `release()` when the pointer lets go. Hovering calls nothing. Returns a detach function.
 */
export function attachDrag(board, { grab, enter, release }) {
  let drag = null;  // {pointerId, last}
  const down = (event) => {
    if (drag || (event.pointerType === "mouse" && event.button !== 0)) return;
    const cell = cellAt(board, event.clientX, event.clientY);
    if (!cell || !grab(cell, event)) return;
    event.preventDefault();
    drag = { pointerId: event.pointerId, last: cell, captured: false };
    try {
      board.setPointerCapture(event.pointerId);
      drag.captured = true;
    } catch { /* a synthetic pointer */ }
  };
  const move = (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    if (drag.captured && !board.hasPointerCapture(event.pointerId)) {
      // The capture was taken away (a second finger began a pinch): the drag is over,
      // even before lostpointercapture says so.
      up(event);
      return;
    }
    const cell = cellAt(board, event.clientX, event.clientY);
    if (!cell || sameCell(cell, drag.last)) return;
    const path = walk(drag.last, cell);
    drag.last = cell;
    for (const c of path) enter(c, event);
  };
  const up = (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    drag = null;
    release();
  };
  board.addEventListener("pointerdown", down);
  // Chromium aligns pointermove with the next frame; pointerrawupdate (where there is one)
  // comes as a mouse or pen moves, so a step starts up to a frame sooner. Whichever comes
  // first enters the cell; the other finds the pointer where it already is. (Touch keeps
  // pointermove: a second finger turns a drag into a pinch, which must come first.)
  const raw = (event) => { if (event.pointerType !== "touch") move(event); };
  board.addEventListener("pointerrawupdate", raw);
  board.addEventListener("pointermove", move);
  board.addEventListener("pointerup", up);
  board.addEventListener("pointercancel", up);
  board.addEventListener("lostpointercapture", up);
  return () => {
    board.removeEventListener("pointerdown", down);
    board.removeEventListener("pointerrawupdate", raw);
    board.removeEventListener("pointermove", move);
    board.removeEventListener("pointerup", up);
    board.removeEventListener("pointercancel", up);
    board.removeEventListener("lostpointercapture", up);
  };
}


/**
 * The play keys on `board`: N and P pick the next or the previous end (`pick(forward)`),
 * the arrows move the picked end (`move(dir)`), U, Y, R and H `undo`, `redo`, `restart` and
 * `hint`; nothing until `ready()`. Returns a detach function.
 */
export function attachKeys(board, { ready, pick, move, undo, redo, restart, hint }) {
  const verbs = { n: () => pick(true), p: () => pick(false), u: undo, y: redo, r: restart, h: hint };
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !ready()) return;
    const verb = ARROW_LETTERS[event.key] ? () => move(ARROW_LETTERS[event.key])
      : event.key.length === 1 ? verbs[event.key.toLowerCase()] : undefined;
    if (!verb) return;
    verb();
    event.preventDefault();
  };
  board.addEventListener("keydown", onKey);
  return () => board.removeEventListener("keydown", onKey);
}
