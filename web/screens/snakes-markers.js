// The snakes board's mechanics' markers (a freeze count, a lock, a key): placed and drawn
// from Python's view.markers (used by snakes-board.js).
import { reducedMotion } from "../motion.js";
import { svg } from "./dom.js";

// ------------------------------------------------------------------ mechanics' markers
// Drawn from Python's `view.markers` (counts, pairs, used keys: no rule is computed here).
// Each marker is a pill in SVG, its height `scale` cells: at least MARKER_MIN_PX on screen
// (its digits at least 12 px) and half a cell on large cells; it is kept inside the board.

const MARKER_MIN_PX = 17;
const MARKER_MARGIN = 0.03;
const KEY_FLIGHT_MS = 140;
const CHANGE_MS = 140;    // a thaw's or an unlock's pop
// A key and the lock it opens: one colour and one shape per pair (in the order of the locks).
const PAIR_COLOURS = ["#a86b00", "#00808a", "#b0186a", "#3949ab", "#5d6b00"];
const PAIR_SHAPES = ["circle", "diamond", "triangle", "square", "star"];
const WIDTHS = { "frozen-body": 1.75, "frozen-hole": 1.75, thawed: 1, lock: 2.3, open: 1.75, key: 1.75 };

/**
 * The eyes of every head in `view`: [{body, cx, cy, r}] in cells. One geometry for the
 * drawing (snakes-board.js) and for the markers, which stand beside a head, never on its eyes.
 */
export function eyesOf(view) {
  const eyes = [];
  view.bodies.forEach((body, b) => {
    const cell = body.cells[0];
    if (!cell) return;
    const next = body.cells[1] || [cell[0], cell[1] + 1];  // a one-cell body looks up
    const [dx, dy] = [cell[0] - next[0], cell[1] - next[1]];  // the way the head faces
    const [px, py] = [-dy, dx];
    for (const side of [-1, 1]) {
      eyes.push({ body: b, cx: cell[0] + 0.5 + dx * 0.12 + px * side * 0.14,
        cy: cell[1] + 0.5 + dy * 0.12 + py * side * 0.14, r: 0.075 });
    }
  });
  return eyes;
}

/** The height of a marker in cells for `board` as drawn now. The board's width is read
 * once and then kept from its ResizeObserver (watchSize): reading it on every redraw forced
 * a layout of the whole page inside each drag step (issue 52: 4x slower phones). */
export function markerScale(board, cols) {
  board.gridforgeWidth ??= board.getBoundingClientRect().width;
  const px = board.gridforgeWidth / cols;
  if (!(px > 0)) return 0.5;
  return Math.min(0.95, Math.max(0.5, MARKER_MIN_PX / px));
}

/** Redraw when the drawn cell size changes the markers' scale (the board resized). */
export function watchSize(board, redraw) {
  board.gridforgeRedraw = redraw;
  if (board.gridforgeSizeWatch || typeof ResizeObserver === "undefined") return;
  board.gridforgeSizeWatch = new ResizeObserver((entries) => {
    board.gridforgeWidth = entries[entries.length - 1].borderBoxSize?.[0]?.inlineSize ??
      board.getBoundingClientRect().width;
    const cols = Number(board.dataset.cols);
    if (!board.isConnected || !cols || board.gridforgeScale === undefined) return;
    if (Math.abs(markerScale(board, cols) - board.gridforgeScale) > 0.01) board.gridforgeRedraw();
  });
  board.gridforgeSizeWatch.observe(board);
}

/** The top-left corner of a marker `w` x `h` cells standing on cell (x, y), inside the board. */
function place(ctx, /** @type {number[]} */ [x, y], w, h) {
  const { cols, rows } = ctx;
  return [
    Math.min(Math.max(x + 0.5 - w / 2, MARKER_MARGIN), cols - w - MARKER_MARGIN),
    Math.min(Math.max(y + 0.54 - h, MARKER_MARGIN), rows - h - MARKER_MARGIN),
  ];
}

/** How many eyes a marker `w` x `h` at [ax, ay] covers; a marker placed before it that it
 * would lie over counts as many (a badge never hides another, issue 52). */
function covered(ctx, /** @type {number[]} */ [ax, ay], w, h) {
  const eyes = ctx.eyes.filter((e) => ax < e.cx + e.r && e.cx - e.r < ax + w &&
    ay < e.cy + e.r && e.cy - e.r < ay + h).length;
  const badges = ctx.placed.filter(([bx, by, bw, bh]) => ax < bx + bw && bx < ax + w &&
    ay < by + bh && by < ay + h).length;
  return eyes + 100 * badges;
}

/** A marker never covers an eye: from its own place on the cell it steps above, below or
 * beside the cell, to the first place clear of every eye (inside the board). */
function clearPlace(ctx, /** @type {number[]} */ [x, y], w, h) {
  const { cols, rows } = ctx;
  const clamp = (/** @type {number[]} */ [ax, ay]) => [
    Math.min(Math.max(ax, MARKER_MARGIN), cols - w - MARKER_MARGIN),
    Math.min(Math.max(ay, MARKER_MARGIN), rows - h - MARKER_MARGIN)];
  const first = place(ctx, [x, y], w, h);
  const options = [first, [first[0], y - h + 0.12], [first[0], y + 0.88], [first[0], y - h],
    [first[0], y + 1], [x - w + 0.2, first[1]], [x + 0.8, first[1]], [x - w, y + 0.5 - h / 2],
    [x + 1, y + 0.5 - h / 2]].map(clamp);
  let best = options[0];
  for (const option of options) {
    if (!covered(ctx, option, w, h)) return option;
    if (covered(ctx, option, w, h) < covered(ctx, best, w, h)) best = option;
  }
  return best;
}

/** Which cell of body `b` a marker stands on: the preferred one, else a free one. */
function bodyCell(ctx, b, prefer) {
  const cells = ctx.view.bodies[b].cells;
  const used = ctx.taken.get(b) || new Set();
  ctx.taken.set(b, used);
  const order = [prefer, ...cells.keys()];
  const k = order.find((i) => !used.has(i)) ?? prefer;
  used.add(k);
  return cells[k];
}

/** Marker `m`'s kind as drawn and the cell it stands on (null: a used key), or null when
 * it is no marker drawn here; frozen bodies and holes are noted in `out`. */
function markerCell(ctx, m, out) {
  const { view, level } = ctx;
  let kind = m.kind;
  let cell;
  if (m.kind === "frozen-body") {
    if (m.count > 0) out.bodyIce.add(m.body);
    else kind = "thawed";
    const cells = view.bodies[m.body].cells;
    cell = bodyCell(ctx, m.body, cells.length - 1);
  } else if (m.kind === "frozen-hole") {
    if (m.count > 0) out.holeIce.set(m.hole, true);
    else kind = "thawed";
    cell = level.holes[m.hole].cell;
  } else if (m.kind === "lock") {
    if (m.count === 0) kind = "open";
    cell = bodyCell(ctx, m.body, 0);
  } else if (m.kind === "key") {
    cell = m.used ? null : bodyCell(ctx, m.body, Math.floor(view.bodies[m.body].cells.length / 2));
  } else return null;
  return { kind, cell };
}

/** A used key docks beside its lock (right of it, or left where the board ends); null
 * when its lock is not drawn. */
function docked(ctx, m, w) {
  const lock = ctx.locks.get(m.pair);
  if (!lock) return null;
  const right = lock.x + lock.w + lock.docked * (w + 0.04) + 0.04;
  const x = right + w <= ctx.cols - MARKER_MARGIN ? right
    : Math.max(MARKER_MARGIN, lock.x - (lock.docked + 1) * (w + 0.04));
  lock.docked += 1;
  return [x, lock.y];
}

/** A thaw or an unlock this very step: the marker pops once (off under reduced motion). */
function popWhenChanged(ctx, m, node) {
  const id = `${m.kind}:${m.body ?? ""}:${m.hole ?? ""}:${m.pair ?? ""}`;
  const state = node.dataset.state;
  const was = ctx.statesBefore.get(id);
  ctx.statesNow.set(id, state);
  if (was && was !== state && (state === "thawed" || state === "open") && !reducedMotion()) {
    node.dataset.changed = "1";
    const anim = svg("animateTransform", { attributeName: "transform", type: "scale", additive: "sum",
      values: "1.5;1", dur: `${CHANGE_MS}ms`, begin: "indefinite", fill: "freeze", class: "marker-change" });
    // data-changed says "popping" until the pop is over (the marker is drawn larger meanwhile)
    anim.addEventListener("endEvent", () => { node.dataset.changed = "done"; }, { once: true });
    node.firstChild.append(anim);
  }
}

/** The key flies from where it was drawn to its lock, the moment it is used; a redraw
 * during the flight (the pointer let go) carries it on from where it has got to. */
function keyFlight(ctx, m, node, at) {
  const id = `${m.pair}:${m.body}`;
  const was = ctx.previous.get(id);
  let flight = m.used && was ? was.flight : null;
  if (m.used && was && !was.used && !reducedMotion()) {
    flight = { from: was.at, t0: performance.now() };
  }
  ctx.keysNow.set(id, { at, used: m.used, flight });
  if (!flight) return;
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

/**
 * Place and draw `view.markers`. Returns {nodes, cells (the "x,y" cells markers sit on),
 * bodyIce (frozen bodies), holeIce (frozen holes)}.
 */
export function layoutMarkers(board, level, view, scale) {
  const { cols, rows } = level;
  board.gridforgeScale = scale;
  /** @type {{nodes: Element[], cells: Set<string>, bodyIce: Set<number>, holeIce: Map<number, any>}} */
  const out = { nodes: [], cells: new Set(), bodyIce: new Set(), holeIce: new Map() };
  const markers = view.markers || [];
  const pairs = [];
  for (const m of markers) if (m.kind === "lock" && !pairs.includes(m.pair)) pairs.push(m.pair);
  const style = (pair) => {
    const k = Math.max(0, pairs.indexOf(pair));
    return { colour: PAIR_COLOURS[k % PAIR_COLOURS.length], shape: PAIR_SHAPES[k % PAIR_SHAPES.length] };
  };
  const sameLevel = board.gridforgeKeysLevel === level;
  const ctx = { cols, rows, level, view, eyes: eyesOf(view),
    taken: new Map(),  // body -> Set of cell indices
    // Where each key was last drawn, on this level only (a new level's keys never fly).
    previous: sameLevel ? board.gridforgeKeys : new Map(),
    keysNow: new Map(),
    locks: new Map(),  // pair -> {x, y, w, docked}
    /** @type {number[][]} */
    placed: [],        // [x, y, w, h] of every marker placed so far
    statesBefore: sameLevel ? board.gridforgeMarkStates || new Map() : new Map(),
    statesNow: new Map(),
  };
  const ordered = [...markers].sort((a, b) => Number(a.kind === "key") - Number(b.kind === "key"));
  for (const m of ordered) {
    const found = markerCell(ctx, m, out);
    if (!found) continue;
    const { kind, cell } = found;
    const w = WIDTHS[kind] * scale;
    const h = scale;
    let at;
    if (cell) {
      at = clearPlace(ctx, cell, w, h);
      out.cells.add(cell.join(","));
    } else {
      at = docked(ctx, m, w);
      if (!at) continue;
    }
    ctx.placed.push([at[0], at[1], w, h]);
    if (m.kind === "lock") ctx.locks.set(m.pair, { x: at[0], y: at[1], w, docked: 0 });
    const node = drawMarker(kind, m, at, scale, m.pair === undefined ? null : style(m.pair));
    popWhenChanged(ctx, m, node);
    if (m.kind === "key") keyFlight(ctx, m, node, at);
    out.nodes.push(node);
  }
  board.gridforgeKeys = ctx.keysNow;
  board.gridforgeMarkStates = ctx.statesNow;
  board.gridforgeKeysLevel = level;
  return out;
}

/** One marker: a group at `at` (cells) scaled to `scale`, drawn in a 1-tall unit box. */
/** A marker's group attributes: its place, and hooks naming its kind, state and what it
 * counts or marks (body, hole, pair, metal). */
function markerAttrs(m, state, at) {
  /** @type {Record<string, string>} */
  const attrs = { class: `marker marker-${m.kind} marker-${state}`, transform: `translate(${at[0]} ${at[1]})`,
    "data-testid": "snakes-marker", "data-kind": m.kind, "data-state": state };
  if (m.count !== undefined) attrs["data-count"] = String(m.count);
  if (m.pair !== undefined) attrs["data-pair"] = m.pair;
  if (m.body !== undefined) attrs["data-body"] = String(m.body);
  if (m.hole !== undefined) attrs["data-hole"] = String(m.hole);
  if (m.metal) attrs["data-metal"] = m.metal;
  return attrs;
}

function drawMarker(kind, m, at, scale, pair) {
  const state = kind === "thawed" ? "thawed" : kind === "open" ? "open" : m.kind === "key"
    ? (m.used ? "used" : "held") : m.kind === "lock" ? "locked" : "frozen";
  const group = svg("g", markerAttrs(m, state, at));
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
export function holeIce(x, y) {
  const g = svg("g", { class: "marker-hole-ice" });
  g.append(svg("rect", { x: x + 0.12, y: y + 0.12, width: 0.76, height: 0.76, rx: 0.2 }));
  g.append(svg("path", { d: `M${x + 0.24} ${y + 0.3} L${x + 0.46} ${y + 0.48} L${x + 0.4} ${y + 0.7} M${x + 0.46} ${y + 0.48} L${x + 0.76} ${y + 0.42}` }));
  return g;
}

