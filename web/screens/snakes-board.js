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

  // The floor and the stones change only with the level: drawn once per level.
  if (board.gridforgeLevel !== level) {
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
    board.replaceChildren(floor, svg("g", { class: "piece-layer" }), svg("g", { class: "overlay-layer" }),
      svg("g", { class: "marker-layer" }));
  }
  // The bodies, holes and markers change only with the view (a step, an undo), the colour
  // letters and the markers' scale: a grab, a focus or a hint redraws the overlay alone, so
  // the page repaints a few small marks, not the whole board.
  const letters = Boolean(options.letters);
  const scale = markerScale(board, cols);
  const last = board.gridforgePieces;
  let slides = new Map();
  if (!last || last.view !== view || last.letters !== letters || last.scale !== scale || options.moved) {
    board.gridforgePieces = { view, letters, scale };
    slides = drawPieces(board, level, view, options, letters, scale);
  }
  drawOverlay(board, view, options, slides);
  watchSize(board, () => drawBoard(parent, level, view, { ...options, moved: null }));
  return board;
}

/**
 * The holes, bodies and markers of `view` (the piece and marker layers). Returns the ends
 * that slide in ("b:end" -> [from-x, from-y]), for the focus ring to follow them.
 */
function drawPieces(board, level, view, options, letters, scale) {
  // The cells each body had when last drawn (same level only): a step glides from them.
  const before = board.gridforgeBodies || [];
  board.gridforgeBodies = view.bodies.map((body) => body.cells);
  const glide = !REDUCED_MOTION.matches;
  const nodes = [];
  const slides = new Map();

  // The mechanics' markers (Python's view.markers): where each sits, decided first so that
  // colour letters can step aside from them.
  const marks = layoutMarkers(board, level, view, scale);

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
    // A frozen body is drawn under a sheet of ice until it thaws.
    if (marks.bodyIce.has(b)) nodes.push(svg("polyline", { points: line, class: "marker-ice", "data-body": b }));
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
        slides.set(`${b}:${end}`, [-moved.dx, -moved.dy]);
      } else if (slid) {
        // The other end follows the body: it slides from its own old cell.
        const old = end === "head" ? was[0] : was[was.length - 1];
        slides.set(`${b}:${end}`, [old[0] - cell[0], old[1] - cell[1]]);
      }
      slide(group, slides.get(`${b}:${end}`));
      nodes.push(group);
    }
    if (letters) {
      // On the middle cell, or on the first cell free of markers; below a marker otherwise.
      let at = Math.floor(body.cells.length / 2);
      const free = (k) => !marks.cells.has(body.cells[k].join(","));
      if (!free(at)) at = body.cells.findIndex((_, k) => free(k));
      const low = at < 0;
      const middle = body.cells[low ? Math.floor(body.cells.length / 2) : at];
      nodes.push(text(centre(middle).map((v, i) => v + (i ? (low ? 0.27 : 0.03) : 0)), letter(outer),
        "letter body-letter", inkOn(outer)));
    }
  });

  const layer = board.querySelector(".piece-layer");
  layer.replaceChildren(...nodes);
  board.querySelector(".marker-layer").replaceChildren(...marks.nodes);
  for (const anim of layer.querySelectorAll("animate.glide")) anim.beginElement();
  for (const anim of board.querySelectorAll(".marker-layer animateTransform.key-flight")) {
    anim.beginElementAt(-(anim.gridforgeOffset || 0));
  }
  return slides;
}

/** A brief slide of `node` from `from` (cells; CSS, off under prefers-reduced-motion). */
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

// ------------------------------------------------------------------ mechanics' markers
// Drawn from Python's `view.markers` (counts, pairs, used keys: no rule is computed here).
// Each marker is a pill in SVG, its height `scale` cells: at least MARKER_MIN_PX on screen
// (its digits at least 12 px) and half a cell on large cells; it is kept inside the board.

const MARKER_MIN_PX = 17;
const MARKER_MARGIN = 0.03;
const KEY_FLIGHT_MS = 140;
// A key and the lock it opens: one colour and one shape per pair (in the order of the locks).
const PAIR_COLOURS = ["#a86b00", "#00808a", "#b0186a", "#3949ab", "#5d6b00"];
const PAIR_SHAPES = ["circle", "diamond", "triangle", "square", "star"];
const WIDTHS = { "frozen-body": 1.75, "frozen-hole": 1.75, thawed: 1, lock: 2.3, open: 1.75, key: 1.75 };

/** The height of a marker in cells for `board` as drawn now. */
function markerScale(board, cols) {
  const px = board.getBoundingClientRect().width / cols;
  if (!(px > 0)) return 0.5;
  return Math.min(0.95, Math.max(0.5, MARKER_MIN_PX / px));
}

/** Redraw when the drawn cell size changes the markers' scale (the board resized). */
function watchSize(board, redraw) {
  board.gridforgeRedraw = redraw;
  if (board.gridforgeSizeWatch || typeof ResizeObserver === "undefined") return;
  board.gridforgeSizeWatch = new ResizeObserver(() => {
    const cols = Number(board.dataset.cols);
    if (!board.isConnected || !cols || board.gridforgeScale === undefined) return;
    if (Math.abs(markerScale(board, cols) - board.gridforgeScale) > 0.01) board.gridforgeRedraw();
  });
  board.gridforgeSizeWatch.observe(board);
}

/**
 * Place and draw `view.markers`. Returns {nodes, cells (the "x,y" cells markers sit on),
 * bodyIce (frozen bodies), holeIce (frozen holes)}.
 */
function layoutMarkers(board, level, view, scale) {
  const { cols, rows } = level;
  board.gridforgeScale = scale;
  const out = { nodes: [], cells: new Set(), bodyIce: new Set(), holeIce: new Map() };
  const markers = view.markers || [];
  const pairs = [];
  for (const m of markers) if (m.kind === "lock" && !pairs.includes(m.pair)) pairs.push(m.pair);
  const style = (pair) => {
    const k = Math.max(0, pairs.indexOf(pair));
    return { colour: PAIR_COLOURS[k % PAIR_COLOURS.length], shape: PAIR_SHAPES[k % PAIR_SHAPES.length] };
  };
  // The top-left corner of a marker `w` x `h` cells standing on cell (x, y), inside the board.
  const place = ([x, y], w, h) => [
    Math.min(Math.max(x + 0.5 - w / 2, MARKER_MARGIN), cols - w - MARKER_MARGIN),
    Math.min(Math.max(y + 0.54 - h, MARKER_MARGIN), rows - h - MARKER_MARGIN),
  ];
  // Which cell of a body each of its markers stands on: a preferred one, else a free one.
  const taken = new Map();  // body -> Set of cell indices
  const bodyCell = (b, prefer) => {
    const cells = view.bodies[b].cells;
    const used = taken.get(b) || new Set();
    taken.set(b, used);
    const order = [prefer, ...cells.keys()];
    const k = order.find((i) => !used.has(i)) ?? prefer;
    used.add(k);
    return cells[k];
  };
  // Where each key was last drawn, on this level only (a new level's keys never fly).
  const previous = board.gridforgeKeysLevel === level ? board.gridforgeKeys : new Map();
  const keysNow = new Map();
  const locks = new Map();  // pair -> {x, y, w, docked}
  const ordered = [...markers].sort((a, b) => (a.kind === "key") - (b.kind === "key"));
  for (const m of ordered) {
    let kind = m.kind;
    let cell;
    if (m.kind === "frozen-body") {
      if (m.count > 0) out.bodyIce.add(m.body);
      else kind = "thawed";
      const cells = view.bodies[m.body].cells;
      cell = bodyCell(m.body, cells.length - 1);
    } else if (m.kind === "frozen-hole") {
      if (m.count > 0) out.holeIce.set(m.hole, true);
      else kind = "thawed";
      cell = level.holes[m.hole].cell;
    } else if (m.kind === "lock") {
      if (m.count === 0) kind = "open";
      cell = bodyCell(m.body, 0);
    } else if (m.kind === "key") {
      cell = m.used ? null : bodyCell(m.body, Math.floor(view.bodies[m.body].cells.length / 2));
    } else continue;
    const w = WIDTHS[kind] * scale;
    const h = scale;
    let at;
    if (cell) {
      at = place(cell, w, h);
      out.cells.add(cell.join(","));
    } else {
      // A used key docks beside its lock (right of it, or left where the board ends).
      const lock = locks.get(m.pair);
      if (!lock) continue;
      const right = lock.x + lock.w + lock.docked * (w + 0.04) + 0.04;
      const x = right + w <= cols - MARKER_MARGIN ? right
        : Math.max(MARKER_MARGIN, lock.x - (lock.docked + 1) * (w + 0.04));
      at = [x, lock.y];
      lock.docked += 1;
    }
    if (m.kind === "lock") locks.set(m.pair, { x: at[0], y: at[1], w, docked: 0 });
    const node = drawMarker(kind, m, at, scale, m.pair === undefined ? null : style(m.pair));
    if (m.kind === "key") {
      const id = `${m.pair}:${m.body}`;
      const was = previous.get(id);
      // The key flies from where it was drawn to its lock, the moment it is used; a redraw
      // during the flight (the pointer let go) carries it on from where it has got to.
      let flight = m.used && was ? was.flight : null;
      if (m.used && was && !was.used && !REDUCED_MOTION.matches) {
        flight = { from: was.at, t0: performance.now() };
      }
      keysNow.set(id, { at, used: m.used, flight });
      if (flight) {
        const elapsed = performance.now() - flight.t0;
        node.setAttribute("data-flight", elapsed < KEY_FLIGHT_MS ? "flying" : "landed");
        if (elapsed < KEY_FLIGHT_MS) {
          const anim = svg("animateTransform", { attributeName: "transform", type: "translate",
            from: flight.from.join(" "), to: at.join(" "), dur: `${KEY_FLIGHT_MS}ms`,
            begin: "indefinite", fill: "freeze", class: "key-flight" });
          anim.gridforgeOffset = elapsed / 1000;
          node.append(anim);
        }
      }
    }
    out.nodes.push(node);
  }
  board.gridforgeKeys = keysNow;
  board.gridforgeKeysLevel = level;
  return out;
}

/** One marker: a group at `at` (cells) scaled to `scale`, drawn in a 1-tall unit box. */
function drawMarker(kind, m, at, scale, pair) {
  const state = kind === "thawed" ? "thawed" : kind === "open" ? "open" : m.kind === "key"
    ? (m.used ? "used" : "held") : m.kind === "lock" ? "locked" : "frozen";
  const attrs = { class: `marker marker-${m.kind} marker-${state}`, transform: `translate(${at[0]} ${at[1]})`,
    "data-testid": "snakes-marker", "data-kind": m.kind, "data-state": state };
  if (m.count !== undefined) attrs["data-count"] = String(m.count);
  if (m.pair !== undefined) attrs["data-pair"] = m.pair;
  if (m.body !== undefined) attrs["data-body"] = String(m.body);
  if (m.hole !== undefined) attrs["data-hole"] = String(m.hole);
  if (m.metal) attrs["data-metal"] = m.metal;
  const group = svg("g", attrs);
  const unit = svg("g", { transform: `scale(${scale})` });
  group.append(unit);
  const width = WIDTHS[kind];
  const pill = svg("rect", { x: 0, y: 0, width, height: 1, rx: 0.5, class: "marker-pill" });
  if (pair) pill.style.stroke = pair.colour;  // over the stylesheet's pill stroke
  unit.append(pill);
  const count = (value, x) => {
    const t = svg("text", { x, y: 0.56, class: "marker-count", "text-anchor": "middle",
      "dominant-baseline": "middle" });
    t.textContent = String(value);
    unit.append(t);
  };
  if (kind === "frozen-body" || kind === "frozen-hole") {
    unit.append(snowflake(0.5, 0.5, 0.33));
    count(m.count, 1.24);
  } else if (kind === "thawed") {
    unit.append(svg("path", { class: "marker-drop",
      d: "M0.5 0.16 C0.66 0.38 0.77 0.52 0.77 0.63 A0.27 0.27 0 0 1 0.23 0.63 C0.23 0.52 0.34 0.38 0.5 0.16 Z" }));
  } else if (m.kind === "lock") {
    unit.append(padlock(0.12, m.metal, kind === "open"));
    unit.append(pairShape(pair, 0.98, 0.5, 0.4));
    if (kind === "lock") count(m.count, 1.68);
    else unit.append(svg("path", { class: "marker-check", d: "M1.3 0.52 L1.42 0.66 L1.62 0.36" }));
  } else if (m.kind === "key") {
    unit.append(keyGlyph(pair));
    unit.append(pairShape(pair, 1.3, 0.5, 0.4));
  }
  return group;
}

function snowflake(cx, cy, r) {
  const g = svg("g", { class: "marker-snowflake" });
  for (let k = 0; k < 3; k++) {
    const a = (Math.PI / 3) * k + Math.PI / 2;
    const [dx, dy] = [Math.cos(a) * r, Math.sin(a) * r];
    g.append(svg("line", { x1: cx - dx, y1: cy - dy, x2: cx + dx, y2: cy + dy }));
    for (const s of [-1, 1]) {  // the small branches near each tip
      const [tx, ty] = [cx + s * dx * 0.62, cy + s * dy * 0.62];
      for (const t of [-1, 1]) {
        const b = a + t * (Math.PI / 4) + (s < 0 ? Math.PI : 0);
        g.append(svg("line", { x1: tx, y1: ty, x2: tx + Math.cos(b) * r * 0.34, y2: ty + Math.sin(b) * r * 0.34 }));
      }
    }
  }
  return g;
}

function padlock(x, metal, open) {
  const g = svg("g", { class: `marker-padlock marker-metal-${metal}` });
  g.append(svg("path", { class: "marker-shackle", d: open
    ? `M${x + 0.13} 0.47 V0.24 A0.13 0.13 0 0 1 ${x + 0.39} 0.24 V0.3`
    : `M${x + 0.13} 0.47 V0.36 A0.13 0.13 0 0 1 ${x + 0.39} 0.36 V0.47` }));
  g.append(svg("rect", { class: "marker-lock-body", x, y: 0.45, width: 0.52, height: 0.4, rx: 0.07 }));
  return g;
}

function keyGlyph(pair) {
  const g = svg("g", { class: "marker-key-glyph", stroke: pair.colour });
  g.append(svg("circle", { cx: 0.34, cy: 0.5, r: 0.17 }));
  g.append(svg("path", { d: "M0.51 0.5 H0.94 M0.8 0.5 V0.68 M0.91 0.5 V0.63" }));
  return g;
}

function pairShape(pair, cx, cy, size) {
  const r = size / 2;
  const attrs = { class: "marker-pair-shape", fill: pair.colour, "data-shape": pair.shape };
  if (pair.shape === "circle") return svg("circle", { cx, cy, r, ...attrs });
  if (pair.shape === "square") return svg("rect", { x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8, ...attrs });
  const pts = pair.shape === "diamond" ? [[0, -1.15], [1, 0], [0, 1.15], [-1, 0]]
    : pair.shape === "triangle" ? [[0, -1.1], [1.05, 0.85], [-1.05, 0.85]]
      : Array.from({ length: 10 }, (_, k) => {
        const a = -Math.PI / 2 + (Math.PI / 5) * k;
        const q = k % 2 ? 0.45 : 1.1;
        return [Math.cos(a) * q, Math.sin(a) * q];
      });
  return svg("polygon", { points: pts.map(([px, py]) => `${cx + px * r},${cy + py * r}`).join(" "), ...attrs });
}

/** A frozen hole: a sheet of ice over it, cracked. */
function holeIce(x, y) {
  const g = svg("g", { class: "marker-hole-ice" });
  g.append(svg("rect", { x: x + 0.12, y: y + 0.12, width: 0.76, height: 0.76, rx: 0.2 }));
  g.append(svg("path", { d: `M${x + 0.24} ${y + 0.3} L${x + 0.46} ${y + 0.48} L${x + 0.4} ${y + 0.7} M${x + 0.46} ${y + 0.48} L${x + 0.76} ${y + 0.42}` }));
  return g;
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
