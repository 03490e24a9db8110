// The snakes board: drawing and pointer input, no rules. drawBoard() draws a level and a
// state view (from Python) as a regular grid, cell (x, y) in column x and row y of
// cols x rows equal squares filling the board element (spec/web.md, stable hooks).
// attachDrag() turns pointer events (mouse, touch, pen) into the cells a grabbed end enters,
// one by one along the pointer's path; what may enter a cell is Python's answer.
import { colour, inkOn, letter } from "../palette.js";
import { svg } from "./dom.js";

const DIRS = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };
const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)");
const MAX_CELL_PX = 48;

const sameCell = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const centre = (c) => [c[0] + 0.5, c[1] + 0.5];
const points = (cells) => cells.map((c) => centre(c).join(",")).join(" ");

/** The cell of a body end in `view`: its first cell for "head", its last for "tail". */
export function endCell(view, body, end) {
  const cells = view.bodies[body] ? view.bodies[body].cells : [];
  if (!cells.length) return null;
  return end === "head" ? cells[0] : cells[cells.length - 1];
}

/** Every end still on the board, in the order N and P cycle them: ["0:head", "0:tail", ...]. */
export function endsOf(view) {
  const ends = [];
  view.bodies.forEach((body, b) => {
    if (!body.cells.length) return;
    ends.push(`${b}:head`);
    if (body.cells.length > 1) ends.push(`${b}:tail`);
  });
  return ends;
}

/** The end (as {body, end}) whose cell is `cell`, or null. A head wins over a tail. */
export function endAt(view, cell) {
  for (const end of ["head", "tail"]) {
    for (let b = 0; b < view.bodies.length; b++) {
      if (sameCell(endCell(view, b, end), cell)) return { body: b, end };
    }
  }
  return null;
}

/** The direction letter from cell `a` to the 4-neighbour `b`, or null if not neighbours. */
export function direction(a, b) {
  for (const [name, [dx, dy]] of Object.entries(DIRS)) {
    if (a[0] + dx === b[0] && a[1] + dy === b[1]) return name;
  }
  return null;
}

/**
 * Draw `level` in the state `view` into `parent` (reusing its board element). Options:
 * `testid` ("snakes-board"), `label` (data-level: a number or "draft"), `sha`, `steps`,
 * `state` ("playing" | "won"), `hint` (a step to draw as an arrow), `focus` ("2:head"),
 * `letters` (draw colour letters), `targets` (cells to mark as reachable), `moved` ({body, end, dx, dy}: the end that
 * just stepped, drawn sliding in). Returns the board element.
 */
export function drawBoard(parent, level, view, options = {}) {
  const cols = level.cols;
  const rows = level.rows;
  let board = parent.querySelector(":scope > svg.snakes-board");
  if (!board) {
    board = svg("svg", { class: "snakes-board", tabindex: "0", role: "application",
      "aria-roledescription": "snakes board" });
    parent.append(board);
  }
  const testid = options.testid ?? "snakes-board";
  board.setAttribute("data-testid", testid);
  board.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
  board.setAttribute("preserveAspectRatio", "none");
  board.style.setProperty("--cols", cols);
  board.style.setProperty("--rows", rows);
  board.style.setProperty("--cell-max", `${MAX_CELL_PX}px`);
  Object.assign(board.dataset, {
    level: String(options.label ?? "draft"), cols: String(cols), rows: String(rows),
    levelSha: options.sha ?? "", steps: String(options.steps ?? 0), state: options.state ?? "playing",
  });
  if (options.focus) board.dataset.focus = options.focus; else delete board.dataset.focus;
  board.setAttribute("aria-label", options.ariaLabel ?? `Snakes board, ${cols} by ${rows}`);

  // The cells each body had when last drawn (same level only): a step glides from them.
  const before = board.gridforgeLevel === level ? board.gridforgeBodies || [] : [];
  board.gridforgeBodies = view.bodies.map((body) => body.cells);
  const glide = !REDUCED_MOTION.matches;
  // The floor and the stones change only with the level: drawn once per level.
  if (board.gridforgeLevel !== level) {
    board.gridforgeLevel = level;
    const floor = svg("g", { class: "floor-layer" });
    floor.append(svg("rect", { x: 0, y: 0, width: cols, height: rows, class: "floor" }));
    // One square per cell (the hook snakes-cell with data-x, data-y stays for tools).
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        floor.append(svg("rect", { x, y, width: 1, height: 1, class: "cell",
          "data-testid": "snakes-cell", "data-x": x, "data-y": y }));
      }
    }
    for (const [x, y] of level.stones) {
      floor.append(svg("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.12,
        class: "stone", "data-testid": "snakes-stone" }));
    }
    board.replaceChildren(floor, svg("g", { class: "piece-layer" }));
  }
  const layer = board.querySelector(".piece-layer");
  const nodes = [];
  const letters = Boolean(options.letters);

  level.holes.forEach((hole, i) => {
    if (view.holes_used && view.holes_used[i]) return;
    const [x, y] = hole.cell;
    nodes.push(svg("rect", { x: x + 0.12, y: y + 0.12, width: 0.76, height: 0.76, rx: 0.2,
      class: "hole", stroke: colour(hole.color), "data-testid": "snakes-hole",
      "data-cell": `${x},${y}`, "data-color": hole.color }));
    if (letters) nodes.push(text([x + 0.5, y + 0.53], letter(hole.color), "letter", colour(hole.color)));
    if (hole.frozen) nodes.push(text([x + 0.5, y + 0.9], `❄${hole.frozen}`, "badge", "#1d5fa8"));
  });

  view.bodies.forEach((body, b) => {
    if (!body.cells.length) return;
    const spec = level.bodies[b] || { colors: [body.color] };
    const outer = body.color;
    const line = points(body.cells);
    // The body that stepped glides as a whole, every cell from where it was (a step moves
    // each cell one along, so the old and new lines have the same number of points).
    const was = options.moved && options.moved.body === b && before[b];
    const slid = glide && was && was.length === body.cells.length &&
      was.some((c, i) => !sameCell(c, body.cells[i])) ? points(was) : null;
    const polyline = (attrs) => {
      const node = svg("polyline", { points: line, ...attrs });
      if (slid) {
        node.append(svg("animate", { attributeName: "points", from: slid, to: line, dur: "90ms",
          begin: "indefinite", fill: "freeze", class: "glide" }));
      }
      nodes.push(node);
    };
    polyline({ class: "body", stroke: colour(outer), "data-testid": "snakes-body", "data-body": b });
    const inner = (spec.colors || []).slice(body.shed + 1);
    inner.forEach((c, k) => {
      polyline({ class: "coat", stroke: colour(c), "stroke-width": Math.max(0.08, 0.22 - k * 0.07) });
    });
    const ends = body.cells.length > 1 ? ["head", "tail"] : ["head"];
    for (const end of ends) {
      const cell = end === "head" ? body.cells[0] : body.cells[body.cells.length - 1];
      const [cx, cy] = centre(cell);
      const group = svg("g", { class: `end end-${end}`, "data-testid": "snakes-end", "data-body": b,
        "data-end": end, "data-cell": `${cell[0]},${cell[1]}` });
      group.append(svg("circle", { cx, cy, r: end === "head" ? 0.36 : 0.3, fill: colour(outer),
        class: "end-disc" }));
      if (end === "head") {
        const next = body.cells[1] || cell;
        const [dx, dy] = [cell[0] - next[0], cell[1] - next[1]];  // the way the head faces
        const [px, py] = [-dy, dx];
        for (const side of [-1, 1]) {
          group.append(svg("circle", { cx: cx + dx * 0.12 + px * side * 0.14,
            cy: cy + dy * 0.12 + py * side * 0.14, r: 0.075, class: "eye" }));
        }
      }
      const moved = options.moved;
      if (moved && moved.body === b && moved.end === end) {
        // A brief slide from the cell it left (CSS; off under prefers-reduced-motion).
        group.classList.add("moved");
        group.style.setProperty("--from-x", `${-moved.dx}px`);
        group.style.setProperty("--from-y", `${-moved.dy}px`);
      } else if (slid) {
        // The other end follows the body: it slides from its own old cell.
        const old = end === "head" ? was[0] : was[was.length - 1];
        group.classList.add("moved");
        group.style.setProperty("--from-x", `${old[0] - cell[0]}px`);
        group.style.setProperty("--from-y", `${old[1] - cell[1]}px`);
      }
      if (options.focus === `${b}:${end}`) {
        group.append(svg("circle", { cx, cy, r: 0.46, class: "focus-ring", "data-testid": "snakes-focus" }));
      }
      nodes.push(group);
    }
    if (letters) {
      const middle = body.cells[Math.floor(body.cells.length / 2)];
      nodes.push(text(centre(middle).map((v, i) => v + (i ? 0.03 : 0)), letter(outer), "letter body-letter",
        inkOn(outer)));
    }
    if (spec.frozen) nodes.push(text(centre(body.cells[body.cells.length - 1]).map((v, i) => v + (i ? 0.42 : 0)),
      `❄${spec.frozen}`, "badge", "#1d5fa8"));
    if (spec.lock) nodes.push(text(centre(body.cells[0]).map((v, i) => v + (i ? -0.38 : 0)),
      spec.lock.kind === "gold" ? "🔒G" : "🔒S", "badge", "#5b4200"));
    if (spec.key) nodes.push(text(centre(body.cells[Math.floor(body.cells.length / 2)]).map((v, i) => v + (i ? 0.42 : 0)),
      `⚷${spec.key}`, "badge", "#7a5200"));
  });

  for (const [x, y] of options.targets || []) {
    nodes.push(svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.12, class: "target",
      "data-testid": "snakes-target", "data-cell": `${x},${y}` }));
  }
  if (options.hint) {
    const [b, end, dir] = options.hint;
    const from = endCell(view, b, end);
    if (from) {
      const [dx, dy] = DIRS[dir];
      const [x1, y1] = centre(from);
      const x2 = x1 + dx * 0.95;
      const y2 = y1 + dy * 0.95;
      const [px, py] = [-dy, dx];
      const hint = svg("g", { class: "hint", "data-testid": "snakes-hint-arrow", "data-step": `${b}:${end}:${dir}` });
      hint.append(svg("line", { x1: x1 + dx * 0.2, y1: y1 + dy * 0.2, x2: x2 - dx * 0.2, y2: y2 - dy * 0.2 }));
      hint.append(svg("polygon", { points: [[x2, y2], [x2 - dx * 0.3 + px * 0.2, y2 - dy * 0.3 + py * 0.2],
        [x2 - dx * 0.3 - px * 0.2, y2 - dy * 0.3 - py * 0.2]].map((p) => p.join(",")).join(" ") }));
      hint.append(svg("circle", { cx: x1, cy: y1, r: 0.46, class: "hint-ring" }));
      nodes.push(hint);
    }
  }
  layer.replaceChildren(...nodes);
  for (const anim of layer.querySelectorAll("animate.glide")) anim.beginElement();
  return board;
}

function text([x, y], content, cls, fill) {
  const node = svg("text", { x, y, class: cls, fill, "text-anchor": "middle", "dominant-baseline": "middle" });
  node.textContent = content;
  return node;
}

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
