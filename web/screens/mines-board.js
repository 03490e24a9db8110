// The mines board view (used by mines.js): the grid of cells drawn from Python's view, what
// a click on each cell would do (Python's offer, read here, decided there), the keyboard
// cursor, the hint's cells, the cells a line points at, and the reveal animations by event
// channel. Drawing only: no rule, price or digit is worked out here.
//
// Drawing priority of the seed (data-supply 2): digit > avatar > flag > fog texture > ground:
// the avatar is a figure standing in its cell beside the digit, never over it.

import { t } from "../i18n.js";
import { el, svg } from "./dom.js";
import { avatarFigure } from "./mines-fight.js";

const STAGGER_MS = 45;  // the longest delay of a staggered reveal; each animation is 100 ms

export const key = (x, y) => `${x},${y}`;

// A dug mine is trodden ground (walkable), not danger: a small scar mark in earth tones.
function scarGlyph() {
  const icon = svg("svg", { viewBox: "0 0 20 20", class: "glyph scar", "aria-hidden": "true" });
  icon.append(svg("circle", { cx: "10", cy: "10", r: "3.2", fill: "none", stroke: "#6b5a3e",
    "stroke-width": "1.6" }));
  for (const [x1, y1, x2, y2] of [[10, 3.5, 10, 5.5], [10, 14.5, 10, 16.5], [3.5, 10, 5.5, 10],
    [14.5, 10, 16.5, 10]]) {
    icon.append(svg("line", { x1, y1, x2, y2, stroke: "#6b5a3e", "stroke-width": "1.6",
      "stroke-linecap": "round" }));
  }
  return icon;
}

export function flagGlyph() {
  const icon = svg("svg", { viewBox: "0 0 20 20", class: "glyph", "aria-hidden": "true" });
  icon.append(svg("rect", { x: "4", y: "16", width: "11", height: "2.4", fill: "#111" }));
  icon.append(svg("rect", { x: "8.6", y: "2", width: "2", height: "15", fill: "#111" }));
  icon.append(svg("path", { d: "M10.6 2.2 L17.5 5.6 L10.6 9 Z", fill: "#d40000",
    stroke: "#111", "stroke-width": "0.8" }));
  return icon;
}

/** The tooltip of a cell: what it is and what a click would do (from Python's offer). */
function describe(kind, value, offer, costs, avatar) {
  const what = {
    concealed: t("mines.cell.concealed"),
    "concealed-fog": t("mines.cell.concealed-fog"),
    flag: t("mines.cell.flag"),
    mine: t("mines.cell.mine"),
    "open-fog": t("mines.cell.open-fog"),
    "open-zero": t("mines.cell.open-zero"),
    open: t(value === 1 ? "mines.cell.open-one" : "mines.cell.open", { count: value }),
  }[kind];
  const doing = {
    dig: t("mines.cell.do-dig", { ap: costs.dig }),
    reach: t("mines.cell.do-reach", { ap: costs.reach }),
    move: t("mines.cell.do-move"),
  }[offer.primary];
  const flagging = {
    flag_place: t("mines.cell.do-flag", { ap: costs.flag_place }),
    flag_pull: t("mines.cell.do-pull", { ap: costs.flag_pull }),
  }[offer.secondary];
  return [avatar ? t("mines.cell.you") : null, what, doing, flagging].filter(Boolean).join(" · ");
}

/** What a click on each cell would do, from Python's offer: "x,y" -> {primary, secondary,
 *  parent (the move's path), stand (where a far click moves first)}. */
function offersOf(offer) {
  const offers = new Map();
  for (const [x, y] of offer.dig) offers.set(key(x, y), { primary: "dig" });
  for (const [x, y, sx, sy] of offer.reach) offers.set(key(x, y), { primary: "reach", stand: [sx, sy] });
  for (const [x, y, px, py] of offer.move) offers.set(key(x, y), { primary: "move", parent: [px, py] });
  for (const [x, y] of offer.flag_place) {
    offers.set(key(x, y), { ...(offers.get(key(x, y)) || {}), secondary: "flag_place" });
  }
  for (const [x, y] of offer.flag_pull) {
    offers.set(key(x, y), { ...(offers.get(key(x, y)) || {}), secondary: "flag_pull" });
  }
  return offers;
}

function cellAt(s, x, y) {
  return (s.cells[y] && s.cells[y][x]) || null;
}

/** The grid's cells of board `s`, made again only when the board's shape changes. */
function drawCells(s, b) {
  const { element } = s;
  const shape = `${b.cols}x${b.rows}`;
  if (shape === s.drawnShape) return;
  s.drawnShape = shape;
  element.style.setProperty("--cols", b.cols);
  element.style.setProperty("--rows", b.rows);
  element.dataset.cols = String(b.cols);
  element.dataset.rows = String(b.rows);
  s.cells = [];
  const rows = [];
  for (let y = 0; y < b.rows; y++) {
    const row = [];
    for (let x = 0; x < b.cols; x++) {
      row.push(el("div", { class: "cell", role: "gridcell", "data-testid": "mines-cell",
        "data-x": String(x), "data-y": String(y) }));
    }
    s.cells.push(row);
    // A grid's cells sit in rows (ARIA); the row box takes no part in the layout.
    rows.push(el("div", { class: "mines-row", role: "row" }, ...row));
  }
  element.replaceChildren(...rows);
}

/** One cell of board `s`: its state, digit, offer, the avatar, its title. */
function drawCell(s, b, x, y, costs) {
  const cell = s.cells[y][x];
  const value = b.grid[y][x];
  let kind;
  if (Number.isInteger(value)) kind = value === 0 ? "open-zero" : "open";
  else kind = value;
  const offer = s.offers.get(key(x, y)) || {};
  if (cell.dataset.state !== kind || cell.dataset.digit !== String(value)) {
    cell.dataset.state = kind;
    cell.dataset.digit = kind === "open" ? String(value) : "";
    cell.replaceChildren();
    if (kind === "open") cell.textContent = String(value);
    else if (kind === "flag") cell.append(flagGlyph());
    else if (kind === "mine") cell.append(scarGlyph());
  }
  cell.dataset.do = offer.primary || "none";
  cell.classList.toggle("reach", offer.primary === "dig");
  if (x === b.avatar[0] && y === b.avatar[1]) {
    cell.dataset.avatar = "1";
    if (s.avatar.parentNode !== cell) cell.append(s.avatar);  // above the ground, beside the digit
  } else delete cell.dataset.avatar;
  cell.classList.remove("path", "hint-target", "hint-digit", "hint-also");
  delete cell.dataset.hint;
  cell.title = describe(kind, value, offer, costs, x === b.avatar[0] && y === b.avatar[1]);
}

/** Draw the run's state: the offers always, the cells when there is a board. */
function draw(s, state) {
  s.offers = offersOf(state.offer);
  const b = state.board;
  if (!b) return;
  drawCells(s, b);
  if (!s.cursor || s.cursor[0] >= b.cols || s.cursor[1] >= b.rows) s.cursor = [...b.avatar];
  const costs = state.offer.costs;
  for (let y = 0; y < b.rows; y++) {
    for (let x = 0; x < b.cols; x++) drawCell(s, b, x, y, costs);
  }
  drawKnown(s, state);
  s.element.dataset.focus = key(...s.cursor);
  drawCursor(s);
}

/** What items told: a probe's reading and a lantern's safe mark on their concealed cells. */
function drawKnown(s, state) {
  for (const node of s.element.querySelectorAll("[data-probe], [data-marked]")) {
    delete node.dataset.probe;
    delete node.dataset.marked;
  }
  for (const [x, y, digit] of state.probed || []) {
    const cell = cellAt(s, x, y);
    if (!cell) continue;
    cell.dataset.probe = digit < 0 ? "mine" : String(digit);
    cell.title = `${cell.title} · ${digit < 0 ? t("mines.probed-mine") : t("mines.probed", { digit })}`;
  }
  for (const [x, y] of state.marked || []) {
    const cell = cellAt(s, x, y);
    if (!cell) continue;
    cell.dataset.marked = "1";
    cell.title = `${cell.title} · ${t("mines.marked-safe")}`;
  }
}

function drawCursor(s) {
  for (const node of s.element.querySelectorAll(".cursor")) node.classList.remove("cursor");
  if (s.cursor && s.cells[s.cursor[1]]) s.cells[s.cursor[1]][s.cursor[0]].classList.add("cursor");
}

/** Put the keyboard cursor on (x, y); null puts it on the avatar at the next draw. */
function setCursor(s, at) {
  s.cursor = at;
  if (!at) return;
  s.element.dataset.focus = key(...at);
  drawCursor(s);
}

function drawHint(s, hint) {
  const { element, cells } = s;
  for (const node of element.querySelectorAll(".hint-target, .hint-digit, .hint-also")) {
    node.classList.remove("hint-target", "hint-digit", "hint-also");
    delete node.dataset.hint;
  }
  delete element.dataset.hint;
  if (!hint || !hint.cell) return;
  const [hx, hy] = hint.cell;
  const target = cellAt(s, hx, hy);
  if (!target) return;
  target.classList.add("hint-target");
  target.dataset.hint = hint.kind;
  element.dataset.hint = key(hx, hy);
  for (const [x, y] of hint.constraints) {
    cells[y][x].classList.add("hint-digit");
    cells[y][x].dataset.hint = "digit";
  }
  for (const [x, y] of [...hint.safe, ...hint.mines]) {
    if (x !== hx || y !== hy) cells[y][x].classList.add("hint-also");
  }
}

/** Light the cells a line is about (null: none). */
function point(s, list) {
  const { element } = s;
  for (const n of element.querySelectorAll(".pointed")) n.classList.remove("pointed");
  delete element.dataset.pointed;
  for (const [x, y] of list || []) {
    const c = cellAt(s, x, y);
    if (c) c.classList.add("pointed");
  }
  if (list && list.length) element.dataset.pointed = list.map((c) => key(...c)).join(" ");
}

/** Show the path a click on `cell` would move along (from Python's move tree), or none. */
function showPath(s, cell) {
  for (const node of s.element.querySelectorAll(".path")) node.classList.remove("path");
  if (!cell) return;
  const offer = s.offers.get(key(cell.dataset.x, cell.dataset.y)) || {};
  let at = null;
  if (offer.primary === "move") at = [Number(cell.dataset.x), Number(cell.dataset.y)];
  else if (offer.primary === "reach") at = offer.stand;
  for (let guard = 0; at && guard < 10000; guard++) {
    s.cells[at[1]][at[0]].classList.add("path");
    const next = s.offers.get(key(at[0], at[1]));
    at = next && next.parent ? next.parent : null;
  }
}

/** Animate the reveals of `events` by channel (off under reduced motion). */
function animate(s, events, reduced) {
  const { element } = s;
  if (reduced) { element.dataset.motion = "off"; return; }
  element.dataset.motion = "on";
  const reveals = events.filter((e) => e.type === "cell_revealed");
  const count = reveals.length;
  reveals.forEach((event, index) => {
    const [x, y] = event.cell;
    const cell = cellAt(s, x, y);
    if (!cell) return;
    const name = `anim-${event.channel}`;
    cell.classList.remove("anim-initial", "anim-chain", "anim-dig");
    void cell.offsetWidth;  // restart the animation on a cell animated before
    cell.style.animationDelay = event.channel === "dig" ? "0ms"
      : `${Math.round((index / Math.max(1, count)) * STAGGER_MS)}ms`;
    cell.classList.add(name);
  });
}

/** The board: `{element, draw(state), cellAt(x, y), offerAt(x, y), cursor, ...}`. */
export function minesBoard() {
  const element = el("div", { class: "mines-board", "data-testid": "mines-board", tabindex: "0",
    role: "grid", "aria-label": t("mines.board-label") });
  const s = {
    element,
    cells: [],                // cells[y][x] -> element
    drawnShape: "",           // "cols x rows" of the drawn grid
    offers: new Map(),        // "x,y" -> {primary, secondary, parent, stand}
    cursor: null,             // [x, y] of the keyboard cursor
    avatar: avatarFigure(),   // the figure, moved to the avatar's cell at each draw
  };
  element.dataset.flagMode = "0";

  element.addEventListener("animationend", (event) => {
    event.target.classList?.remove("anim-initial", "anim-chain", "anim-dig");
  });

  return {
    element,
    draw: (state) => draw(s, state),
    drawHint: (hint) => drawHint(s, hint),
    point: (list) => point(s, list),
    showPath: (cell) => showPath(s, cell),
    animate: (events, reduced) => animate(s, events, reduced),
    cellAt: (x, y) => cellAt(s, x, y),
    setCursor: (at) => setCursor(s, at),
    get cursor() { return s.cursor; },
    offerAt: (x, y) => s.offers.get(key(x, y)) || {},
    /** The board's cell element under `target`, or null. */
    cellOf(target) {
      const cell = target && target.closest ? target.closest(".cell") : null;
      return cell && element.contains(cell) ? cell : null;
    },
  };
}
