// Each enemy of the mines run drawn (issue 51): one small SVG per enemy of the run table,
// made here from plain shapes (no font glyph, no image file), keyed by the enemy's id
// (Python's `enemy.id`: the table's name in lower case with dashes). An enemy of a table
// from a file, with no drawing of its own, gets the generic cave creature.
import { svg } from "./dom.js";

const INK = "#2d1b3d";
const EYES = (y, gap, colour = "#c81e1e") => [
  ["circle", { cx: String(16 - gap), cy: String(y), r: "2.2", fill: "#fff", stroke: INK, "stroke-width": ".6" }],
  ["circle", { cx: String(16 + gap), cy: String(y), r: "2.2", fill: "#fff", stroke: INK, "stroke-width": ".6" }],
  ["circle", { cx: String(16 - gap + 0.5), cy: String(y + 0.4), r: "1.1", fill: colour }],
  ["circle", { cx: String(16 + gap - 0.5), cy: String(y + 0.4), r: "1.1", fill: colour }],
];

const DRAWINGS = {
  "tunnel-rat": [
    ["path", { d: "M27 24 Q31 20 29 14", fill: "none", stroke: "#c98f8f", "stroke-width": "1.6", "stroke-linecap": "round" }],
    ["ellipse", { cx: "16", cy: "21", rx: "11", ry: "8", fill: "#8a7a6b", stroke: INK, "stroke-width": "1.1" }],
    ["circle", { cx: "9", cy: "9", r: "4", fill: "#c98f8f", stroke: INK, "stroke-width": "1" }],
    ["circle", { cx: "23", cy: "9", r: "4", fill: "#c98f8f", stroke: INK, "stroke-width": "1" }],
    ["path", { d: "M7 17 Q16 4 25 17 Q16 25 7 17 Z", fill: "#a39282", stroke: INK, "stroke-width": "1" }],
    ...EYES(14, 4),
    ["circle", { cx: "16", cy: "19", r: "1.4", fill: "#e58a9a", stroke: INK, "stroke-width": ".5" }],
    ["path", { d: "M14.5 21 L15.2 23.2 L16 21 L16.8 23.2 L17.5 21 Z", fill: "#fff", stroke: INK, "stroke-width": ".5" }],
  ],
  "cave-spider": [
    ...[[-1, 0], [1, 0]].flatMap(([side]) => [9, 13, 17, 21].map((y, k) => ["path", {
      d: `M${16 + side * 6} ${y} Q${16 + side * (12 + k)} ${y - 6} ${16 + side * (14 + k)} ${y + 5}`,
      fill: "none", stroke: INK, "stroke-width": "1.6", "stroke-linecap": "round" }])),
    ["ellipse", { cx: "16", cy: "20", rx: "7", ry: "8", fill: "#3b3450", stroke: INK, "stroke-width": "1" }],
    ["circle", { cx: "16", cy: "11", r: "5.5", fill: "#4a4163", stroke: INK, "stroke-width": "1" }],
    ...EYES(10.5, 2.4, "#e0b400"),
    ["path", { d: "M13.5 22 L16 25.5 L18.5 22", fill: "none", stroke: "#c81e1e", "stroke-width": "1.2" }],
  ],
  "fog-wisp": [
    ["path", { d: "M6 27 Q4 15 10 9 Q16 2 22 9 Q28 15 26 27 Q23 24 21 27.5 Q18.5 24 16 27.5 Q13.5 24 11 27.5 Q8.5 24 6 27 Z",
      fill: "#c9d6e3", stroke: "#5b6b80", "stroke-width": "1.1", opacity: ".95" }],
    ["path", { d: "M9 13 Q16 8 23 13", fill: "none", stroke: "#fff", "stroke-width": "1.4", opacity: ".8" }],
    ["ellipse", { cx: "12.5", cy: "16", rx: "2", ry: "3", fill: "#2f3c52" }],
    ["ellipse", { cx: "19.5", cy: "16", rx: "2", ry: "3", fill: "#2f3c52" }],
    ["ellipse", { cx: "16", cy: "22", rx: "2.2", ry: "1.6", fill: "#2f3c52" }],
  ],
  "stone-golem": [
    ["rect", { x: "3", y: "13", width: "6", height: "11", rx: "2", fill: "#7d7f86", stroke: INK, "stroke-width": "1" }],
    ["rect", { x: "23", y: "13", width: "6", height: "11", rx: "2", fill: "#7d7f86", stroke: INK, "stroke-width": "1" }],
    ["path", { d: "M8 29 L7 12 L12 5 L20 5 L25 12 L24 29 Z", fill: "#9a9ca3", stroke: INK, "stroke-width": "1.2" }],
    ["path", { d: "M11 9 L14 14 M21 20 L18 24 M10 22 L13 21", fill: "none", stroke: "#5d5f66", "stroke-width": "1" }],
    ["rect", { x: "11", y: "12", width: "3.6", height: "2.4", fill: "#ffb300" }],
    ["rect", { x: "17.4", y: "12", width: "3.6", height: "2.4", fill: "#ffb300" }],
    ["path", { d: "M12 19 L20 19", stroke: INK, "stroke-width": "1.4" }],
  ],
  "deep-warden": [
    ["path", { d: "M16 1.5 L19 6 L24 3 L23.5 9 L8.5 9 L8 3 L13 6 Z", fill: "#d9a400", stroke: INK, "stroke-width": ".9" }],
    ["path", { d: "M4 30 Q4 12 16 9 Q28 12 28 30 Z", fill: "#1f3b4d", stroke: INK, "stroke-width": "1.2" }],
    ["path", { d: "M9 30 Q10 18 16 16 Q22 18 23 30", fill: "#2d5870", stroke: INK, "stroke-width": ".8" }],
    ["path", { d: "M9.5 14.5 L14 16 L9.5 17.5 Z M22.5 14.5 L18 16 L22.5 17.5 Z", fill: "#5ff2d0" }],
    ["path", { d: "M12 22 L20 22 L16 26 Z", fill: "#0f1f29" }],
  ],
};

/** Draw enemy `id` into the figure `icon` (an svg), once per enemy. */
export function drawEnemy(icon, id) {
  if (icon.dataset.enemy === id) return;
  icon.generic ??= [...icon.childNodes];  // the cave creature the figure was made with
  const parts = DRAWINGS[id];
  icon.dataset.enemy = id;
  icon.replaceChildren(...(parts ? parts.map(([tag, attrs]) => svg(tag, attrs))
    : icon.generic.map((node) => node.cloneNode(true))));
}

export const ENEMY_IDS = Object.keys(DRAWINGS);
