// Pointer input on the snakes board: the cells a grabbed end enters, one by one along the
// pointer's path (mouse, touch, pen); what may enter a cell is Python's answer.

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
    drag = { pointerId: event.pointerId, last: cell };
    try { board.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer */ }
  };
  const move = (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
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
  board.addEventListener("pointermove", move);
  board.addEventListener("pointerup", up);
  board.addEventListener("pointercancel", up);
  board.addEventListener("lostpointercapture", up);
  return () => {
    board.removeEventListener("pointerdown", down);
    board.removeEventListener("pointermove", move);
    board.removeEventListener("pointerup", up);
    board.removeEventListener("pointercancel", up);
    board.removeEventListener("lostpointercapture", up);
  };
}
