// The editor's board: draws a draft level (or a replayed state of it) as a regular SVG grid
// and turns pointer and keyboard input into gestures: a list of cells the designer touched.
// It knows no rule: what a gesture does is decided by the screen (editor.js) and Python.
//
// Gesture kinds, chosen by the screen per tool:
// - "click": one cell (pointer down, or Enter/Space on the keyboard cursor);
// - "paint": every cell entered during a drag, once each (the stone, path and bridge tools);
// - "path":  a 4-adjacent path drawn by dragging, moving back over the last cell takes it
//            back (the body tool); on the keyboard, Enter starts it at the cursor, the arrow
//            keys extend it, Enter ends it and Escape drops it;
// - "area":  two corner cells, where a drag started and where it ended (the select tool: a
//            rectangle; a press without a drag is a "click"); on the keyboard, Enter is a
//            click, Shift+Enter starts an area at the cursor, the arrows stretch it, Enter
//            ends it and Escape drops it.
import { deckNodes, terrainNodes } from "./terrain.js";

import { eyesOf } from "./snakes-markers.js";
import { ARROW_STEPS } from "./directions.js";

const SVG = "http://www.w3.org/2000/svg";
const S = 40;  // user units per cell; the element scales to its box
const BADGE_MIN_PX = 17;  // a lock's, a key's or a freeze count's badge on screen (16 px and a margin)

function node(/** @type {string} */ tag, /** @type {Record<string, any>} */ attrs = {},
  /** @type {string | null} */ text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  if (text !== null) el.textContent = text;
  return el;
}

const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const centre = (c) => [c[0] * S + S / 2, c[1] * S + S / 2];
const points = (cells) => cells.map((c) => centre(c).join(",")).join(" ");

/** The outline of a set of cells: the unit edges that border a cell outside the set. */
function outline(cells) {
  const inside = new Set(cells.map((c) => `${c[0]},${c[1]}`));
  const has = (x, y) => inside.has(`${x},${y}`);
  let d = "";
  for (const [x, y] of cells) {
    const [l, t, r, b] = [x * S, y * S, (x + 1) * S, (y + 1) * S];
    if (!has(x, y - 1)) d += `M${l} ${t}H${r}`;
    if (!has(x, y + 1)) d += `M${l} ${b}H${r}`;
    if (!has(x - 1, y)) d += `M${l} ${t}V${b}`;
    if (!has(x + 1, y)) d += `M${r} ${t}V${b}`;
  }
  return d;
}

export class EditorBoard {
  /**
   * @param {HTMLElement} host where the board goes
   * @param {{gesture: (kind: string, cells: number[][]) => void, mode: () => string,
   *          describe: () => string}} hooks the screen's answers: what a gesture does, which
   *          gesture kind the current tool takes, and a sentence for screen readers.
   */
  constructor(host, hooks) {
    this.hooks = hooks;
    this.state = null;
    this.drag = null;        // {kind, cells, pointerId} while a pointer is down
    this.keyPath = null;     // cells of a path being drawn from the keyboard
    this.keyArea = null;     // the first corner of an area being selected from the keyboard
    this.cursor = [0, 0];
    this.svg = node("svg", {
      class: "editor-board", "data-testid": "editor-board", tabindex: 0, role: "application",
      "aria-roledescription": "level editor board", "data-level": "draft", "data-steps": 0,
      "data-state": "playing", "data-focus": "0,0",
    });
    host.append(this.svg);
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => { this.drag = null; this.draw(); });
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.svg.addEventListener("focus", () => this.draw());
    this.svg.addEventListener("blur", () => this.draw());
  }

  /** Draw ``state``: {level, levelAttr, sha, palette, letters, ink, selected, view, narrow,
   * freeArea, reasons, area}. ``view`` (a replayed state from Python) replaces the level's
   * bodies and hides used holes. */
  render(state) {
    this.state = state;
    const { level } = state;
    this.cursor = [Math.min(this.cursor[0], level.cols - 1), Math.min(this.cursor[1], level.rows - 1)];
    const a = this.svg;
    a.setAttribute("viewBox", `0 0 ${level.cols * S} ${level.rows * S}`);
    a.setAttribute("data-cols", level.cols);
    a.setAttribute("data-rows", level.rows);
    a.setAttribute("data-level", state.levelAttr);
    a.setAttribute("data-level-sha", state.sha || "");
    a.setAttribute("data-steps", state.view ? state.viewSteps : 0);
    a.style.aspectRatio = `${level.cols} / ${level.rows}`;
    this.fit();
    a.setAttribute("aria-label", this.hooks.describe());
    this.draw();
  }

  /** Size the board so that all of it shows in the window under its top (at most 64 px a
   * cell, at least 12): a click on its last row always lands on the board. */
  fit() {
    if (!this.state) return;
    const { cols, rows } = this.state.level;
    const host = /** @type {HTMLElement} */ (this.svg.parentElement);
    const top = host.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(rows * 12, window.innerHeight - top - 14);
    // The width the board may take: its column's (the tools' column beside it, 16rem and a
    // gap, when the layout has two).
    const left = host.parentElement;
    const twoColumns = left && getComputedStyle(left).gridTemplateColumns.trim().split(/\s+/).length > 1;
    const wide = left ? left.clientWidth - (twoColumns ? 16 * 16 + 8 : 0) : cols * 64;
    const cell = Math.max(12, Math.min(64, room / rows, wide / cols));
    this.svg.style.width = `${Math.floor(cell * cols)}px`;
    this.svg.style.maxWidth = "100%";
    if (!this.watching) {
      this.watching = true;
      window.addEventListener("resize", () => { if (this.svg.isConnected) this.fit(); });
    }
  }

  cellOf(event) {
    const { level } = this.state;
    const box = this.svg.getBoundingClientRect();
    const x = Math.floor(((event.clientX - box.left) / box.width) * level.cols);
    const y = Math.floor(((event.clientY - box.top) / box.height) * level.rows);
    return x >= 0 && y >= 0 && x < level.cols && y < level.rows ? [x, y] : null;
  }

  pointerDown(event) {
    if (!this.state || event.button > 0) return;
    const cell = this.cellOf(event);
    if (!cell) return;
    event.preventDefault();
    this.svg.focus({ preventScroll: true });
    this.cursor = cell;
    const kind = this.hooks.mode();
    if (kind === "click") { this.hooks.gesture("click", [cell]); return; }
    this.drag = { kind, cells: [cell], pointerId: event.pointerId };
    this.svg.setPointerCapture(event.pointerId);
    this.draw();
  }

  pointerMove(event) {
    if (!this.drag || event.pointerId !== this.drag.pointerId) return;
    const cell = this.cellOf(event);
    if (!cell) return;
    if (this.drag.kind === "area") {
      if (same(this.drag.cells[this.drag.cells.length - 1], cell)) return;
      this.drag.cells = [this.drag.cells[0], cell];
      this.draw();
      return;
    }
    if (this.extend(this.drag.cells, cell, this.drag.kind)) this.draw();
  }

  pointerUp(event) {
    if (!this.drag || event.pointerId !== this.drag.pointerId) return;
    const { kind, cells } = this.drag;
    this.drag = null;
    this.draw();
    this.hooks.gesture(kind === "area" && cells.length < 2 ? "click" : kind, cells);
  }

  /** Add ``cell`` to a gesture's cells; true when they changed. */
  extend(cells, cell, kind) {
    const last = cells[cells.length - 1];
    if (same(cell, last)) return false;
    if (kind === "paint") {
      if (cells.some((c) => same(c, cell))) return false;
      cells.push(cell);
      return true;
    }
    if (cells.length > 1 && same(cells[cells.length - 2], cell)) { cells.pop(); return true; }
    if (Math.abs(cell[0] - last[0]) + Math.abs(cell[1] - last[1]) !== 1) return false;
    if (cells.some((c) => same(c, cell))) return false;  // a body never crosses itself
    cells.push(cell);
    return true;
  }

  key(event) {
    if (!this.state) return;
    const dir = ARROW_STEPS[event.key];
    if (dir) {
      event.preventDefault();
      this.arrow(dir);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const kind = this.hooks.mode();
      if (kind === "area") this.enterArea(event.shiftKey);
      else if (kind === "path") this.enterPath();
      else this.hooks.gesture(kind, [this.cursor]);
    } else if (event.key === "Escape" && (this.keyPath || this.keyArea)) {
      event.preventDefault();
      this.keyPath = null;
      this.keyArea = null;
      this.draw();
    }
  }

  /** An arrow key: the cursor moves (never off the board), a path drawn by keys with it. */
  arrow(/** @type {number[]} */ dir) {
    const { level } = this.state;
    const next = [this.cursor[0] + dir[0], this.cursor[1] + dir[1]];
    if (next[0] < 0 || next[1] < 0 || next[0] >= level.cols || next[1] >= level.rows) return;
    this.cursor = next;
    if (this.keyPath) this.extend(this.keyPath, next, "path");
    this.draw();
  }

  /** Enter with the area tool: Enter selects what is at the cursor; Shift+Enter starts an
   * area, the arrows stretch it, Enter (or Shift+Enter) ends it. */
  enterArea(/** @type {boolean} */ shift) {
    if (!this.keyArea && !shift) { this.hooks.gesture("click", [this.cursor]); return; }
    if (!this.keyArea) { this.keyArea = this.cursor; this.draw(); return; }
    const start = this.keyArea;
    this.keyArea = null;
    this.draw();
    this.hooks.gesture(same(start, this.cursor) ? "click" : "area", same(start, this.cursor) ? [start] : [start, this.cursor]);
  }

  /** Enter with the path tool: the first starts a path at the cursor, the next ends it. */
  enterPath() {
    if (!this.keyPath) { this.keyPath = [this.cursor]; this.draw(); return; }
    const cells = this.keyPath;
    this.keyPath = null;
    this.draw();
    this.hooks.gesture("path", cells);
  }

  draw() {
    if (!this.state) return;
    const { level, palette, letters, view } = this.state;
    const a = this.svg;
    a.setAttribute("data-focus", this.cursor.join(","));
    a.replaceChildren();
    // Badges at least BADGE_MIN_PX tall on screen however small the cells (issue 52), and
    // each clear of the others (this.pills: those placed so far).
    const shown = a.getBoundingClientRect().width / (level.cols * S);
    this.badgeScale = shown > 0 ? Math.max(1, BADGE_MIN_PX / (13 * shown)) : 1;
    /** @type {number[][]} */
    this.pills = [];
    const colour = (i) => palette[i] || "#000";
    this.drawGround(level, colour, letters, view);
    this.drawHoles(level, colour, view);
    const bodies = view ? view.bodies
      : level.bodies.map((b) => ({ cells: b.cells, color: b.colors[0], shed: 0 }));
    const eyes = eyesOf({ bodies });
    this.eyes = eyes;
    bodies.forEach((body, b) => this.drawBody(level, colour, body, b, eyes));
    for (const item of deckNodes(level, bodies, { unit: S, colour, width: 0.6 })) a.append(item);
    this.drawMarks(view);
  }

  /** The floor, stones, terrain, the largest free area and the narrow points. */
  drawGround(level, colour, letters, view) {
    const a = this.svg;
    for (let y = 0; y < level.rows; y++) {
      for (let x = 0; x < level.cols; x++) {
        a.append(node("rect", { x: x * S, y: y * S, width: S, height: S, class: "editor-floor" }));
      }
    }
    for (const [x, y] of level.stones) {
      a.append(node("rect", { x: x * S, y: y * S, width: S, height: S, class: "editor-stone",
        "data-testid": "editor-stone", "data-cell": `${x},${y}` }));
    }
    for (const item of terrainNodes(level, { unit: S, colour,
      letter: (i) => (letters ? letters[i] || "" : "") })) a.append(item);
    if (this.state.freeArea && this.state.freeArea.length && !view) {
      a.append(node("path", { d: outline(this.state.freeArea), class: "editor-free-area",
        "data-testid": "editor-free-area", "data-cells": this.state.freeArea.length }));
    }
    // Narrow points lie under the pieces (a tint over a body would change its colour).
    for (const point of (view ? [] : this.state.narrow || [])) {
      const group = node("g", { "data-testid": "editor-narrow", "data-load": point.load,
        "data-cells": point.cells.map((c) => c.join(",")).join(" "), class: "editor-narrow" });
      for (const [x, y] of point.cells) {
        group.append(node("rect", { x: x * S + 2, y: y * S + 2, width: S - 4, height: S - 4 }));
      }
      const [lx, ly] = centre(point.cells[0]);
      group.append(node("text", { x: lx, y: ly + 5, class: "editor-narrow-load" },
        Number(point.load).toFixed(2)));
      a.append(group);
    }
  }

  /** The holes not yet used, with their letters and frozen counts. */
  drawHoles(level, colour, view) {
    const { letters, selected } = this.state;
    const used = view ? view.holes_used : [];
    level.holes.forEach((hole, i) => {
      if (used[i]) return;
      const [x, y] = hole.cell;
      const picked = selected && selected.kind === "hole" && selected.index === i;
      this.svg.append(node("rect", { x: x * S + 5, y: y * S + 5, width: S - 10, height: S - 10, rx: 7,
        class: `editor-hole${picked ? " editor-selected" : ""}`, stroke: colour(hole.color),
        "data-testid": "editor-hole", "data-cell": `${x},${y}`, "data-color": hole.color }));
      // A hole's letter on the hole's own ground: dark on the light theme's white, light in
      // the dark theme's well.
      if (letters) this.badge([x, y], letters[hole.color] || "", document.documentElement.dataset.theme === "dark" ? "#eeeeee" : "#222", "centre");
      if (hole.frozen) this.badge([x, y], `❄${hole.frozen}`, "#1c4f8a");
    });
  }

  /** Body `b` drawn as in play, with its badges (letter, frozen count, lock, key). */
  drawBody(level, colour, body, b, eyes) {
    if (!body.cells.length) return;
    const { letters, selected } = this.state;
    const spec = level.bodies[b];
    const picked = selected && selected.kind === "body" && selected.index === b;
    const line = points(body.cells);
    const group = node("g", { "data-testid": "editor-body", "data-body": b,
      class: picked ? "editor-selected" : null });
    // Drawn as in play (snakes-board.js): the outer colour as a band around each layer
    // inside, half as wide; a frozen body under its sheet of ice; heads with eyes.
    const polyline = (colourIndex, width) => node("polyline", { points: line, fill: "none",
      stroke: colour(colourIndex), "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round" });
    group.append(polyline(body.color, S * 0.6));
    spec.colors.slice(body.shed + 1).forEach((inner, k) => group.append(polyline(inner, S * 0.6 / 2 ** (k + 1))));
    if (spec.frozen) group.append(node("polyline", { points: line, class: "editor-ice" }));
    const ends = [["head", body.cells[0]], ["tail", body.cells[body.cells.length - 1]]];
    for (const [end, cell] of ends) {
      const [cx, cy] = centre(cell);
      group.append(node("circle", { cx, cy, r: end === "head" ? S * 0.36 : S * 0.3,
        fill: colour(body.color), stroke: "#222", "stroke-width": 2, "data-testid": "editor-end",
        "data-body": b, "data-end": end, "data-cell": cell.join(",") }));
    }
    for (const eye of eyes.filter((e) => e.body === b)) {
      group.append(node("circle", { cx: eye.cx * S, cy: eye.cy * S, r: eye.r * S, class: "editor-eye",
        "data-testid": "editor-eye", "data-body": b }));
    }
    this.svg.append(group);
    this.bodyBadges(body, spec, letters);
  }

  /** A body's badges: its colour's letter, its frozen count, its lock and its key. */
  bodyBadges(body, spec, letters) {
    if (letters) this.badge(body.cells[Math.floor(body.cells.length / 2)], letters[body.color] || "", this.state.ink ? this.state.ink(body.color) : "#000000", "centre");
    if (spec.frozen) this.badge(body.cells[body.cells.length - 1], `❄${spec.frozen}`, "#1c4f8a");
    if (spec.lock) this.badge(body.cells[0], `${spec.lock.kind === "gold" ? "G" : "S"}:${spec.lock.id}`, "#5a3d00");
    if (spec.key) this.badge(body.cells[Math.floor(body.cells.length / 2)], `K:${spec.key}`, "#5a3d00");
  }

  /** Over the pieces: why the level fails, the area, the gesture's preview, the cursor. */
  drawMarks(view) {
    const a = this.svg;
    this.drawReasons(view);
    this.drawArea();
    this.drawPreview();
    if (document.activeElement === a || this.keyPath) {
      const [x, y] = this.cursor;
      a.append(node("rect", { x: x * S + 1.5, y: y * S + 1.5, width: S - 3, height: S - 3,
        class: "editor-cursor", "data-testid": "editor-cursor" }));
    }
  }

  /** Why the level fails (the live status's reasons), marked cell by cell; none over a
   * replayed position (`view`). */
  drawReasons(view) {
    const a = this.svg;
    for (const reason of (view ? [] : this.state.reasons || [])) {
      for (const [x, y] of reason.cells) {
        a.append(node("rect", { x: x * S + 3, y: y * S + 3, width: S - 6, height: S - 6,
          class: "editor-reason", "data-testid": "editor-reason", "data-kind": reason.kind,
          "data-cell": `${x},${y}` }));
      }
    }
  }

  /** The area selected, or being selected by a drag or the keys. */
  drawArea() {
    const a = this.svg;
    const area = this.drag && this.drag.kind === "area" ? this.drag.cells
      : this.keyArea ? [this.keyArea, this.cursor] : this.state.area;
    if (area && area.length === 2) {
      const [x0, x1] = [Math.min(area[0][0], area[1][0]), Math.max(area[0][0], area[1][0])];
      const [y0, y1] = [Math.min(area[0][1], area[1][1]), Math.max(area[0][1], area[1][1])];
      a.append(node("rect", { x: x0 * S + 1, y: y0 * S + 1, width: (x1 - x0 + 1) * S - 2,
        height: (y1 - y0 + 1) * S - 2, class: "editor-area", "data-testid": "editor-area",
        "data-area": [x0, y0, x1, y1].join(",") }));
    }
  }

  /** The gesture's preview: painted cells, or the path being drawn. */
  drawPreview() {
    const a = this.svg;
    const path = this.drag && this.drag.kind !== "area" ? this.drag.cells : this.keyPath;
    if (path) {
      const kind = this.drag && this.drag.kind !== "area" ? this.drag.kind : "path";
      if (kind === "paint") {
        for (const [x, y] of path) {
          a.append(node("rect", { x: x * S + 8, y: y * S + 8, width: S - 16, height: S - 16,
            class: "editor-preview" }));
        }
      } else {
        a.append(node("polyline", { points: line2(path), class: "editor-preview-path",
          "data-testid": "editor-preview" }));
      }
    }
  }

  badge(cell, text, fill, where = "corner") {
    if (!text) return;
    const [x, y] = centre(cell);
    const k = this.badgeScale || 1;
    let at = where === "centre" ? { x, y: y + 5, "text-anchor": "middle" }
      : { x: x + S * 0.46, y: y + S * 0.46, "text-anchor": "end" };
    if (where !== "centre") {
      // A corner badge lies across a body and the floor: it gets a ground of its own (a
      // white pill), so that its dark text reads at 4.5:1 on any colour, in either theme.
      // It takes the first corner of its cell (then beyond the cell) clear of every eye and
      // of every badge placed before it.
      const [width, height] = [(text.length * 7 + 4) * k, 13 * k];
      /** @type {(p: {x: number, y: number}) => number[]} */
      const box = (p) => [p.x - width + 2, p.y - 10 * k, p.x + 2, p.y + 3 * k];
      const eyes = (this.eyes || []).map((e) => [e.cx * S - e.r * S, e.cy * S - e.r * S, e.cx * S + e.r * S, e.cy * S + e.r * S]);
      const meets = (/** @type {{x: number, y: number}} */ p) => (/** @type {number[]} */ [l, t, r, b]) => { const [pl, pt, pr, pb] = box(p); return pl < r && l < pr && pt < b && t < pb; };
      const { cols, rows } = this.state.level;
      const pills = /** @type {number[][]} */ (this.pills);  // set when the board is drawn
      const inside = (p) => { const [l, t, r, b] = box(p); return l >= 0 && t >= 0 && r <= cols * S && b <= rows * S; };
      const clear = (p) => inside(p) && !eyes.some(meets(p)) && !pills.some(meets(p));
      const corners = [[0.46, 0.46], [0.46, -0.2], [-0.46 + width / S, 0.46], [-0.46 + width / S, -0.2],
        [0.46, 0.78], [0.46, -0.52], [0.46 + width / S, 0.46], [-0.46, 0.46], [0.46, 1.1], [0.46, -0.84]]
        .map(([dx, dy]) => ({ x: x + S * dx, y: y + S * dy, "text-anchor": "end" }));
      at = corners.find(clear) || corners.find((p) => inside(p) && !pills.some(meets(p))) || at;
      pills.push(box(at));
      this.svg.append(node("rect", { x: at.x - width + 2, y: at.y - 10 * k, width, height, rx: 3 * k,
        fill: "#ffffff", "fill-opacity": 0.92, class: "editor-badge-pill", "data-testid": "editor-badge-pill" }));
    }
    this.svg.append(node("text", { ...at, fill, class: "editor-badge", "data-testid": "editor-badge",
      "font-size": 11 * k }, text));
  }
}

function line2(cells) {
  return cells.length === 1 ? `${points(cells)} ${points(cells)}` : points(cells);
}
