// A still picture of a snakes level at its start (the home page's card): the floor, stones,
// holes and bodies drawn as in play (coats as outer bands, heads with eyes), in one SVG
// that takes no input. Drawing only: the start position is the level file's own.
import { colour } from "../palette.js";
import { svg } from "./dom.js";
import { eyesOf } from "./snakes-markers.js";

const BODY_WIDTH = 0.6;  // as snakes-board.js draws a body
const points = (cells) => cells.map(([x, y]) => `${x + 0.5},${y + 0.5}`).join(" ");

/** The picture of `level` (a gridforge.snakes.level/1 object) with the accessible `label`. */
export function levelPicture(level, label) {
  const node = svg("svg", { viewBox: `0 0 ${level.cols} ${level.rows}`, class: "level-picture",
    role: "img", "aria-label": label });
  node.append(svg("rect", { x: 0, y: 0, width: level.cols, height: level.rows, class: "lp-floor" }));
  for (const [x, y] of level.stones) {
    node.append(svg("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.12, class: "lp-stone" }));
  }
  for (const hole of level.holes) {
    const [x, y] = hole.cell;
    node.append(svg("rect", { x: x + 0.12, y: y + 0.12, width: 0.76, height: 0.76, rx: 0.2,
      class: "lp-hole", stroke: colour(hole.color) }));
  }
  for (const body of level.bodies) {
    const colours = body.colors.length ? body.colors : [0];
    colours.forEach((c, k) => {
      node.append(svg("polyline", { points: points(body.cells), class: "lp-body", stroke: colour(c),
        "stroke-width": BODY_WIDTH / 2 ** k }));
    });
    const [hx, hy] = body.cells[0];
    node.append(svg("circle", { cx: hx + 0.5, cy: hy + 0.5, r: 0.36, fill: colour(colours[0]), class: "lp-head" }));
    const tail = body.cells[body.cells.length - 1];
    if (body.cells.length > 1) {
      node.append(svg("circle", { cx: tail[0] + 0.5, cy: tail[1] + 0.5, r: 0.3, fill: colour(colours[0]), class: "lp-head" }));
    }
  }
  for (const eye of eyesOf({ bodies: level.bodies })) {
    node.append(svg("circle", { cx: eye.cx, cy: eye.cy, r: eye.r, class: "lp-eye eye" }));
  }
  return node;
}
