// Terrain on a snakes board (spec/snakes.md section 3b): coloured paths and bridges, drawn
// the same way in play and in the editor. Drawing only: which step a path or a bridge
// refuses is Python's answer (rules.py), never decided here.
//
// A painted cell is a light wash of its colour with a thick band of it along the cell's
// edge: a body (about half a cell wide) lies in the middle, so the band stays visible
// beside it whatever the body's colour. A bridge is a deck whose vertical lane is on top:
// the translucent deck with its edges is drawn over the pieces, the horizontal lane seen
// through it (its end drawn), the vertical lane whole over the deck (deckNodes).
import { svg } from "./dom.js";

const DECK = [0.22, 0.78];  // a bridge deck's sides, in the cell's width

/** The layer under the pieces: one `snakes-terrain` node per painted cell and bridge, for a
 * board whose cells are `unit` wide; `colour(i)` gives palette colour i, `letter(i)` its
 * colour-blind letter (or "" when letters are off). */
/**
 * @param {any} level
 * @param {{unit?: number, colour: (i: number) => string, letter?: (i: number) => string}} options
 */
export function terrainNodes(level, { unit = 1, colour, letter = () => "" }) {
  const nodes = [];
  for (const { cell: [x, y], color } of level.paths || []) {
    const group = svg("g", { "data-testid": "snakes-terrain", "data-kind": "path",
      "data-cell": `${x},${y}`, "data-color": String(color), class: "terrain-path" });
    // Square and full-bleed with diagonal stripes (a hole is an inset, rounded frame), so
    // paint never reads as a hole; the band along the edge shows beside any body on it.
    const band = unit * 0.12;
    group.append(
      svg("rect", { x: x * unit, y: y * unit, width: unit, height: unit, fill: colour(color),
        "fill-opacity": "0.3" }),
      svg("rect", { x: x * unit + band / 2, y: y * unit + band / 2, width: unit - band,
        height: unit - band, fill: "none", stroke: colour(color), "stroke-width": band }));
    for (const k of [0.25, 0.5, 0.75]) {
      group.append(svg("line", { x1: (x + k) * unit, y1: y * unit + band, x2: x * unit + band,
        y2: (y + k) * unit, stroke: colour(color), "stroke-width": unit * 0.05,
        "stroke-linecap": "round" }));
      group.append(svg("line", { x1: (x + 1) * unit - band, y1: (y + k) * unit, x2: (x + k) * unit,
        y2: (y + 1) * unit - band, stroke: colour(color), "stroke-width": unit * 0.05,
        "stroke-linecap": "round" }));
    }
    const mark = letter(color);
    if (mark) {
      const label = svg("text", { x: x * unit + unit * 0.16, y: y * unit + unit * 0.3,
        "font-size": unit * 0.22, class: "terrain-letter", fill: colour(color) });
      label.textContent = mark;
      group.append(label);
    }
    nodes.push(group);
  }
  for (const [x, y] of level.bridges || []) {
    const group = svg("g", { "data-testid": "snakes-terrain", "data-kind": "bridge",
      "data-cell": `${x},${y}`, class: "terrain-bridge" });
    // The lower lane: an underpass through the cell from left to right.
    group.append(svg("rect", { x: x * unit, y: y * unit + unit * 0.2, width: unit,
      height: unit * 0.6, class: "terrain-underpass" }));
    nodes.push(group);
  }
  return nodes;
}

/** The bridges' decks, drawn over the pieces, with both lanes of `bodies` (cells and colours,
 * as drawn) on them: the horizontal (lower) lane seen through the deck, its end drawn (a head
 * under a bridge never vanishes), and the vertical (upper) lane whole on top (issue 52). */
export function deckNodes(level, bodies, { unit = 1, colour, width }) {
  const nodes = [];
  const bridges = level.bridges || [];
  if (!bridges.length) return nodes;
  const at = new Set(bridges.map(([x, y]) => `${x},${y}`));
  for (const [x, y] of bridges) {
    // A translucent deck with dark edges along its sides: it reads as a bridge, and what
    // passes under it stays in sight.
    // The deck is about as wide as the body it carries, so the lower lane shows whole on
    // both sides of it.
    nodes.push(svg("rect", { x: x * unit + unit * DECK[0], y: y * unit, width: unit * (DECK[1] - DECK[0]),
      height: unit, class: "terrain-deck", "aria-hidden": "true" }));
    for (const side of DECK) {
      nodes.push(svg("line", { x1: x * unit + unit * side, y1: y * unit,
        x2: x * unit + unit * side, y2: (y + 1) * unit, class: "terrain-rail",
        "stroke-width": unit * 0.07 }));
    }
  }
  const under = [];
  const over = [];
  bodies.forEach((body, b) => {
    const cells = body.cells || [];
    // Its layers as the boards draw them: each inner layer half the width of the one around.
    const spec = (level.bodies || [])[b] || { colors: [body.color] };
    const layers = [body.color, ...(spec.colors || []).slice((body.shed || 0) + 1)];
    cells.forEach(([x, y], j) => {
      if (!at.has(`${x},${y}`)) return;
      const near = [cells[j - 1], cells[j + 1]].filter(Boolean);
      const upper = near.length > 0 && near[0][0] === x;
      // From the edge it shares with each neighbour to the middle (an end stops there).
      for (const [nx, ny] of near) {
        const [ex, ey] = upper ? [x + 0.5, ny < y ? y : y + 1] : [nx < x ? x : x + 1, y + 0.5];
        layers.forEach((layer, k) => {
          (upper ? over : under).push(svg("line", { x1: ex * unit, y1: ey * unit, x2: (x + 0.5) * unit,
            y2: (y + 0.5) * unit, stroke: colour(layer), "stroke-width": (width * unit) / 2 ** k,
            "stroke-linecap": "round", class: upper ? "terrain-over" : "terrain-under" }));
        });
      }
      if (!upper && (j === 0 || j === cells.length - 1)) {
        under.push(svg("circle", { cx: (x + 0.5) * unit, cy: (y + 0.5) * unit, r: unit * (j === 0 ? 0.34 : 0.28),
          fill: colour(body.color), class: "terrain-under-end" }));
      }
    });
  });
  nodes.push(...under, ...over);
  return nodes;
}

/** Whether a drag step in direction `dir` would turn the `end` ("head" | "tail") of a body on
 * `cells` off the lane of the bridge it stands on. The drag then follows the lane: a finger's
 * wobble beside it is no step (the keys still ask Python, which refuses a turn on a bridge by
 * name). Input only: the rule is Python's. */
export function offLane(level, cells, end, dir) {
  const from = end === "head" ? cells[0] : cells[cells.length - 1];
  const near = end === "head" ? cells[1] : cells[cells.length - 2];
  if (!from || !near || !(level.bridges || []).some((c) => c[0] === from[0] && c[1] === from[1])) {
    return false;
  }
  const across = near[1] === from[1];  // its lane: the axis to its neighbour in the body
  return across !== (dir === "L" || dir === "R");
}
