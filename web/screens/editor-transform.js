// The editor's arrange tools (issue 23; used by editor.js and editor-tools.js): mirror and
// rotate the level, or the area selected with the Select tool (drag a rectangle), move the
// area a cell at a time, copy it and place the copy with a click. Each is one edit that
// Python makes (the "transform" tool of gridforge.snakes.editor.editing); a refusal says why.

import { t } from "../i18n.js";
import { el } from "./dom.js";
import { cellWords } from "./editor-state.js";

// The bar's words, from the catalogue (editor.arrange.*), looked up when said.
export const TRANSFORM_WORDS = {
  label: () => t("editor.arrange.label"),
  op: (op) => t(`editor.arrange.${op}`),  // mirror_x, mirror_y, rotate, copy, clear
  move: { left: "←", up: "↑", right: "→", down: "↓" },
  moveLabel: (dir) => t(`editor.arrange.move.${dir}`),
  whole: () => t("editor.arrange.whole"),
  area: (a) => t("editor.arrange.area", { from: cellWords([a[0], a[1]]), to: cellWords([a[2], a[3]]) }),
  picked: () => t("editor.arrange.picked"),
  pasteHint: () => t("editor.arrange.paste-hint"),
  done: (op) => t(`editor.arrange.done.${op}`),
};
const DIRS = { left: [-1, 0], up: [0, -1], right: [1, 0], down: [0, 1] };

/** The arrange bar of the editor `ed`: {element, area(cells), click(cell) -> bool, sync()}.
 * The selected area is `ed.area` ([x0, y0, x1, y1] or null), drawn by the board. */
export function transformBar(ed) {
  ed.area = null;
  let copying = false;
  const scope = el("span", { class: "editor-scope", "data-testid": "editor-scope" }, TRANSFORM_WORDS.whole());
  const button = (testid, label, onclick, attrs = {}) => el("button", { type: "button", "data-testid": testid, onclick, ...attrs }, label);
  const moves = Object.keys(DIRS).map((dir) => button(`editor-move-${dir}`, TRANSFORM_WORDS.move[dir], () => move(dir),
    { "aria-label": TRANSFORM_WORDS.moveLabel(dir), disabled: "" }));
  const copyButton = button("editor-copy", TRANSFORM_WORDS.op("copy"), () => startCopy(), { disabled: "" });
  const clearButton = button("editor-clear-area", TRANSFORM_WORDS.op("clear"), () => setArea(null), { disabled: "" });
  const element = el("div", { class: "editor-row editor-arrange", role: "group", "aria-label": TRANSFORM_WORDS.label() },
    button("editor-mirror-x", TRANSFORM_WORDS.op("mirror_x"), () => apply("mirror_x")),
    button("editor-mirror-y", TRANSFORM_WORDS.op("mirror_y"), () => apply("mirror_y")),
    button("editor-rotate", TRANSFORM_WORDS.op("rotate"), () => apply("rotate")),
    ...moves, copyButton, clearButton, scope);

  function setArea(area) {
    ed.area = area;
    copying = false;
    sync();
    if (ed.answer) ed.redraw();
  }

  /** The area's cells after `op` (null: the whole level). */
  function areaAfter(op, by) {
    const a = ed.area;
    if (!a) return null;
    if (op === "rotate") return [a[0], a[1], a[0] + (a[3] - a[1]), a[1] + (a[2] - a[0])];
    if (op === "move" || op === "copy") return [a[0] + by[0], a[1] + by[1], a[2] + by[0], a[3] + by[1]];
    return a;
  }

  async function apply(op, by = null) {
    const request = { tool: "transform", op, area: ed.area };
    if (by) request.by = by;
    const next = areaAfter(op, by);
    if (await ed.edit(request)) {
      ed.area = next;
      sync();
      ed.redraw();
      ed.say(TRANSFORM_WORDS.done(op));
    }
  }

  function move(dir) { if (ed.area) apply("move", DIRS[dir]); }

  function startCopy() {
    if (!ed.area) return;
    copying = true;
    ed.say(TRANSFORM_WORDS.pasteHint());
  }

  function sync() {
    const a = ed.area;
    scope.textContent = a ? TRANSFORM_WORDS.area(a) : TRANSFORM_WORDS.whole();
    for (const b of [...moves, copyButton, clearButton]) b.disabled = !a;
  }

  return {
    element, sync,
    /** The Select tool dragged a rectangle from `cells[0]` to `cells[1]`. */
    area(cells) {
      const [[ax, ay], [bx, by]] = cells;
      setArea([Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)]);
      ed.say(TRANSFORM_WORDS.picked());
    },
    /** A click with the Select tool: places a copy when one is waiting (true), else drops
     * the area (false: the click selects what is there). */
    click(cell) {
      if (copying && ed.area) {
        copying = false;
        apply("copy", [cell[0] - ed.area[0], cell[1] - ed.area[1]]);
        return true;
      }
      if (ed.area) setArea(null);
      return false;
    },
    /** The board shows another level: drop an area that no longer fits it. */
    fit(level) {
      const a = ed.area;
      if (a && (a[2] >= level.cols || a[3] >= level.rows)) setArea(null);
    },
  };
}
