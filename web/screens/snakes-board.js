// The snakes board: drawing, no rules. drawBoard() draws a level and a
// state view (from Python) as a regular grid, cell (x, y) in column x and row y of
// cols x rows equal squares filling the board element (spec/web.md, stable hooks).
// Its markers are drawn by snakes-markers.js; pointer input is snakes-input.js.
import { t } from "../i18n.js";
import { reducedMotion } from "../motion.js";
import { colour, inkOn, letter } from "../palette.js";
import { svg } from "./dom.js";
import { eyesOf, holeIce, layoutMarkers, markerScale, watchSize } from "./snakes-markers.js";
import { deckNodes, terrainNodes } from "./terrain.js";

export { STEPS as DIRS } from "./directions.js";
import { STEPS as DIRS } from "./directions.js";
const MAX_CELL_PX = 48;
const BODY_WIDTH = 0.6;   // a body's width in cells
const EXIT_MS = 140;      // a body sliding into its hole (under 150 ms: spec/web.md)

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

/** The cell a refused step [body, end, dir] tried to enter in `view` (the end's own cell
 * when that lies off the board), or null when the end is gone: where the refusal is drawn. */
export function refusedCell(level, view, [body, end, dir]) {
  const from = endCell(view, body, end);
  if (!from) return null;
  const to = [from[0] + DIRS[dir][0], from[1] + DIRS[dir][1]];
  return to[0] >= 0 && to[1] >= 0 && to[0] < level.cols && to[1] < level.rows ? to : from;
}

/** The cells Python's `legal` steps let the grabbed end ({body, end}) enter in `view`. */
export function reachable(view, legal, { body, end }) {
  const from = endCell(view, body, end);
  return legal.filter(([b, e]) => b === body && e === end)
    .map(([, , d]) => [from[0] + DIRS[d][0], from[1] + DIRS[d][1]]);
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
  const { cols } = level;
  const board = boardElement(parent, level, options);
  // The floor and the stones change only with the level: drawn once per level.
  if (board.gridforgeLevel !== level) drawFloor(board, level);
  // The bodies, holes and markers change only with the view (a step, an undo), the colour
  // letters and the markers' scale: a grab, a focus or a hint redraws the overlay alone, so
  // the page repaints a few small marks, not the whole board.
  const letters = Boolean(options.letters);
  if (board.gridforgeTerrain !== letters) {  // terrain changes with the level and the letters
    board.gridforgeTerrain = letters;
    board.querySelector(".terrain-layer").replaceChildren(...terrainNodes(level,
      { colour, letter: (i) => (letters ? letter(i) : "") }));
  }
  const scale = markerScale(board, cols);
  const last = board.gridforgePieces;
  let slides = new Map();
  if (!last || last.view !== view || last.letters !== letters || last.scale !== scale || options.moved) {
    board.gridforgePieces = { view, letters, scale };
    slides = drawPieces(board, level, view, options, letters, scale);
  }
  drawOverlay(board, view, options, slides);
  drawRefusal(board, options.refused);
  watchSize(board, () => drawBoard(parent, level, view, { ...options, moved: null }));
  return board;
}

/** The board's SVG in `parent` (made the first time) with its size, hooks and label. */
function boardElement(parent, level, options) {
  const { cols, rows } = level;
  let board = parent.querySelector(":scope > svg.snakes-board");
  if (!board) {
    board = svg("svg", { class: "snakes-board", tabindex: "0", role: "application",
      "aria-roledescription": t("snakes.board-role") });
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
  board.setAttribute("aria-label", options.ariaLabel ?? t("snakes.board", { cols, rows }));
  return board;
}

/** A new level on `board`: its floor, cells and stones, and the empty layers above them. */
function drawFloor(board, level) {
  const { cols, rows } = level;
  board.gridforgeLevel = level;
  board.gridforgePieces = null;
  board.gridforgeBodies = [];  // a new level's bodies never glide
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
  // The layers, bottom up: the floor; terrain (paths, bridges: terrain.js); a lesson's
  // demonstration (snakes-lesson.js draws it as a ghost under the pieces, so it never hides
  // what it teaches, and it catches no pointer); the pieces; the focus ring, targets and
  // hint; the markers; a refused step's mark. The demonstration's step numbers sit above
  // the pieces (demo-top-layer), so a body never half hides them (issue 52).
  board.replaceChildren(floor, svg("g", { class: "terrain-layer" }), svg("g", { class: "demo-layer" }),
    svg("g", { class: "piece-layer" }), svg("g", { class: "demo-layer demo-top-layer" }),
    svg("g", { class: "overlay-layer" }),
    svg("g", { class: "marker-layer" }), svg("g", { class: "refusal-layer" }));
  board.gridforgeTerrain = null;
}

/** The holes not yet used, each with its ice and its colour letter. */
function holeNodes(pc) {
  const { level, view, marks, letters, nodes } = pc;
  level.holes.forEach((hole, i) => {
    if (view.holes_used && view.holes_used[i]) return;
    const [x, y] = hole.cell;
    nodes.push(svg("rect", { x: x + 0.12, y: y + 0.12, width: 0.76, height: 0.76, rx: 0.2,
      class: "hole", stroke: colour(hole.color), "data-testid": "snakes-hole",
      "data-cell": `${x},${y}`, "data-color": hole.color }));
    const ice = marks.holeIce.get(i);
    if (ice) nodes.push(holeIce(x, y));
    if (letters) {
      const low = marks.cells.has(`${x},${y}`);
      nodes.push(text([x + 0.5, y + (low ? 0.76 : 0.53)], letter(hole.color), "letter", colour(hole.color)));
    }
  });
}

/** A body that has just left the board slides into its hole and fades (off under reduced
 * motion): the moved end's cell before the step, one step on, is the hole. */
function exitNode(pc) {
  const { level, view, options, before } = pc;
  const gone = options.moved && before[options.moved.body];
  if (!(pc.glide && gone && gone.length && !view.bodies[options.moved.body].cells.length)) return;
  const { body: b, end, dx, dy } = options.moved;
  const from = end === "head" ? gone[0] : gone[gone.length - 1];
  const hole = [from[0] + dx, from[1] + dy];
  const colours = (level.bodies[b] && level.bodies[b].colors) || [0];
  const node = svg("polyline", { points: points(gone), class: "body exiting", "stroke-width": BODY_WIDTH,
    stroke: colour(colours[colours.length - 1]), "data-testid": "snakes-exit", "data-body": b });
  node.append(svg("animate", { attributeName: "points", from: points(gone),
    to: points(gone.map(() => hole)), dur: `${EXIT_MS}ms`, begin: "indefinite", fill: "freeze", class: "glide" }));
  node.append(svg("animate", { attributeName: "opacity", from: 1, to: 0, dur: `${EXIT_MS}ms`,
    begin: "indefinite", fill: "freeze", class: "glide" }));
  pc.nodes.push(node);
}

/** Body `b`'s end `end` (its disc, the head's eyes), sliding from where it was. */
function endNode(pc, body, b, end, was, slid) {
  const { options, slides } = pc;
  const cell = end === "head" ? body.cells[0] : body.cells[body.cells.length - 1];
  const [cx, cy] = centre(cell);
  const group = svg("g", { class: `end end-${end}`, "data-testid": "snakes-end", "data-body": b,
    "data-end": end, "data-cell": `${cell[0]},${cell[1]}` });
  group.append(svg("circle", { cx, cy, r: end === "head" ? 0.36 : 0.3, fill: colour(body.color),
    class: "end-disc" }));
  if (end === "head") {
    for (const eye of pc.eyes.filter((e) => e.body === b)) {
      group.append(svg("circle", { cx: eye.cx, cy: eye.cy, r: eye.r, class: "eye",
        "data-testid": "snakes-eye", "data-body": b }));
    }
  }
  const moved = options.moved;
  if (moved && moved.body === b && moved.end === end) {
    // A brief slide from the cell it left (CSS; off under reduced motion).
    slides.set(`${b}:${end}`, [-moved.dx, -moved.dy]);
  } else if (slid) {
    // The other end follows the body: it slides from its own old cell.
    const old = end === "head" ? was[0] : was[was.length - 1];
    slides.set(`${b}:${end}`, [old[0] - cell[0], old[1] - cell[1]]);
  }
  slide(group, slides.get(`${b}:${end}`));
  pc.nodes.push(group);
}

/** A body's colour letter: on the middle cell, or on the first cell free of markers;
 * below a marker otherwise. */
function bodyLetter(pc, body) {
  let at = Math.floor(body.cells.length / 2);
  const free = (k) => !pc.marks.cells.has(body.cells[k].join(","));
  if (!free(at)) at = body.cells.findIndex((_, k) => free(k));
  const low = at < 0;
  const middle = body.cells[low ? Math.floor(body.cells.length / 2) : at];
  pc.nodes.push(text(centre(middle).map((v, i) => v + (i ? (low ? 0.27 : 0.03) : 0)), letter(body.color),
    "letter body-letter", inkOn(body.color)));
}

/** Body `b` on the board: its line and coats, its ice, its ends, its letter. */
function bodyNodes(pc, body, b) {
  const { level, options, nodes } = pc;
  if (!body.cells.length) return;
  const spec = level.bodies[b] || { colors: [body.color] };
  const line = points(body.cells);
  // The body that stepped glides as a whole, every cell from where it was (a step moves
  // each cell one along, so the old and new lines have the same number of points).
  const was = options.moved && options.moved.body === b && pc.before[b];
  const slid = pc.glide && was && was.length === body.cells.length &&
    was.some((c, i) => !sameCell(c, body.cells[i])) ? points(was) : null;
  const polyline = (attrs) => {
    const node = svg("polyline", { points: line, ...attrs });
    if (slid) {
      node.append(svg("animate", { attributeName: "points", from: slid, to: line, dur: "90ms",
        begin: "indefinite", fill: "freeze", class: "glide" }));
    }
    nodes.push(node);
  };
  polyline({ class: "body", stroke: colour(body.color), "data-testid": "snakes-body", "data-body": b,
    "stroke-width": BODY_WIDTH });
  // A coated body wears its outer colour as a band around the next one: each layer inside
  // is half as wide as the one around it, so every band is a quarter of its layer's width.
  const inner = (spec.colors || []).slice(body.shed + 1);
  inner.forEach((c, k) => {
    polyline({ class: "coat", stroke: colour(c), "stroke-width": BODY_WIDTH / 2 ** (k + 1),
      "data-testid": "snakes-coat", "data-body": b, "data-layer": k + 1, "data-color": c });
  });
  // A frozen body is drawn under a sheet of ice until it thaws.
  if (pc.marks.bodyIce.has(b)) nodes.push(svg("polyline", { points: line, class: "marker-ice", "data-body": b }));
  const ends = body.cells.length > 1 ? ["head", "tail"] : ["head"];
  for (const end of ends) endNode(pc, body, b, end, was, slid);
  if (pc.letters) bodyLetter(pc, body);
}

/**
 * The holes, bodies and markers of `view` (the piece and marker layers). Returns the ends
 * that slide in ("b:end" -> [from-x, from-y]), for the focus ring to follow them.
 */
function drawPieces(board, level, view, options, letters, scale) {
  // The cells each body had when last drawn (same level only): a step glides from them.
  const before = board.gridforgeBodies || [];
  board.gridforgeBodies = view.bodies.map((body) => body.cells);
  // The mechanics' markers (Python's view.markers): where each sits, decided first so that
  // colour letters can step aside from them.
  const marks = layoutMarkers(board, level, view, scale);
  const pc = { level, view, options, letters, marks, before, eyes: eyesOf(view), glide: !reducedMotion(),
    /** @type {Element[]} */ nodes: [], slides: new Map() };
  holeNodes(pc);
  exitNode(pc);
  view.bodies.forEach((body, b) => bodyNodes(pc, body, b));

  const { nodes } = pc;
  nodes.push(...deckNodes(level, view.bodies, { colour, width: BODY_WIDTH }));
  const layer = board.querySelector(".piece-layer");
  layer.replaceChildren(...nodes);
  board.querySelector(".marker-layer").replaceChildren(...marks.nodes);
  for (const anim of layer.querySelectorAll("animate.glide")) anim.beginElement();
  for (const anim of board.querySelectorAll(".marker-layer animateTransform.marker-change")) anim.beginElement();
  for (const anim of board.querySelectorAll(".marker-layer animateTransform.key-flight")) {
    anim.beginElementAt(-(anim.gridforgeOffset || 0));
  }
  return pc.slides;
}

/** A brief slide of `node` from `from` (cells; CSS, off under reduced motion). */
function slide(node, from) {
  if (!from) return;
  node.classList.add("moved");
  node.style.setProperty("--from-x", `${from[0]}px`);
  node.style.setProperty("--from-y", `${from[1]}px`);
}

/** The focus ring, the reachable cells of a grabbed end and the hint's arrow. */
function drawOverlay(board, view, options, slides) {
  const nodes = [];
  if (options.focus) {
    const [b, end] = options.focus.split(":");
    const cell = endCell(view, Number(b), end);
    if (cell) {
      const [cx, cy] = centre(cell);
      const ring = svg("g", { class: "ring" });
      ring.append(svg("circle", { cx, cy, r: 0.46, class: "focus-ring", "data-testid": "snakes-focus" }));
      slide(ring, slides.get(options.focus));
      nodes.push(ring);
    }
  }
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
  board.querySelector(".overlay-layer").replaceChildren(...nodes);
}

/** A refused step's mark on the cell the end tried to enter (drawn until the next move). */
function drawRefusal(board, cell) {
  const layer = board.querySelector(".refusal-layer");
  const key = cell ? cell.join(",") : "";
  if (layer.dataset.cell === key) return;  // the same refusal stays as it is (no new shake)
  layer.dataset.cell = key;
  if (!cell) { layer.replaceChildren(); return; }
  const [x, y] = cell;
  const mark = svg("g", { class: "refused", "data-testid": "snakes-refused", "data-cell": key });
  mark.append(svg("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.16, class: "refused-box" }));
  mark.append(svg("path", { d: `M${x + 0.32} ${y + 0.32} L${x + 0.68} ${y + 0.68} M${x + 0.68} ${y + 0.32} L${x + 0.32} ${y + 0.68}`,
    class: "refused-cross" }));
  layer.replaceChildren(mark);
}

function text(/** @type {number[]} */ [x, y], content, cls, fill) {
  const node = svg("text", { x, y, class: cls, fill, "text-anchor": "middle", "dominant-baseline": "middle" });
  node.textContent = content;
  return node;
}
