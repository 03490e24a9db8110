// How to play (#rules): snakes (the basics, then each mechanic) and a short part on mines.
// The words come from Python (snakes.page.rules, mines.page.rules), the same sentences the
// lessons say; each snakes picture is a tiny level drawn by the game's own board, so a
// marker, a coat or a lock looks here exactly as in play. The mines picture is a corner of a
// board in the view's vocabulary. No emoji and nothing fetched: SVG drawn on the page.
import { t } from "../i18n.js";
import { el, svg } from "./dom.js";
import { drawBoard } from "./snakes-board.js";

const MINES_CELL = 1;      // the mines picture's cell in its own viewBox units (digits in
                           // the board's customary colours, by theme: theme.css --digit-N)

export const screen = {
  id: "rules",
  title: "How to play",  // i18n-ok: the screen's name for tools (the page says route.screen.*)
  /** @param {HTMLElement} root @param {import("../app.js").App} app */
  mount(root, app) {
    let live = true;
    const boards = [];     // [box, picture, title]: redrawn when the colour letters change
    const jump = (testid, label, target) => el("button", { type: "button", "data-testid": testid,
      onclick: () => target().scrollIntoView({ block: "start" }) }, label);
    const snakesPart = el("section", { class: "rules-part", "data-testid": "rules-snakes",
      "aria-labelledby": "rules-snakes-title" }, el("h2", { id: "rules-snakes-title" }, t("rules.snakes")));
    const minesPart = el("section", { class: "rules-part", "data-testid": "rules-mines",
      "aria-labelledby": "rules-mines-title" }, el("h2", { id: "rules-mines-title" }, t("rules.mines")));
    const status = el("p", { class: "rules-status", "data-testid": "rules-status" }, t("rules.loading"));
    const page = el("section", { class: "rules", "data-testid": "rules" },
      el("div", { class: "rules-head" }, el("h1", {}, t("rules.title")),
        jump("rules-jump-snakes", t("rules.snakes"), () => snakesPart),
        jump("rules-jump-mines", t("rules.mines"), () => minesPart)),
      status, snakesPart, minesPart);
    root.append(page);

    function drawPicture([box, picture, title]) {
      const board = drawBoard(box, picture.level, picture.view, {
        testid: "rules-board", label: "rules", hint: picture.arrow, letters: app.settings.colourLetters,
        ariaLabel: t("rules.picture", { title }) });
      board.removeAttribute("tabindex");
      board.setAttribute("role", "img");
      board.removeAttribute("aria-roledescription");
    }

    function rule(topic, title, text, picture) {
      return el("article", { class: "rule", "data-testid": "rules-section", "data-topic": topic },
        picture ? el("div", { class: "rule-picture", "data-testid": "rules-picture" }, picture) : null,
        el("div", { class: "rule-words" }, el("h3", {}, title), ...text.map((sentence) => el("p", {}, sentence))));
    }

    function snakesRule(section) {
      const box = el("div", { class: "board-box" });
      boards.push([box, section.picture, section.title]);
      return rule(section.key, section.title, section.text, box);
    }

    (async () => {
      let snakes;
      let mines;
      try {
        await app.ready;
        [snakes, mines] = await Promise.all([app.python.snakes.rules(), app.python.mines.rules()]);
      } catch (error) {
        if (live) {
          status.textContent = t("rules.failed");
          app.message(t("rules.failed-why", { reason: error.message }), "error");
        }
        return;
      }
      if (!live) return;
      status.remove();
      snakesPart.append(
        el("p", { class: "rules-lead" }, t("rules.snakes.lead")),
        el("div", { class: "rules-list" }, ...snakes.basics.map(snakesRule)),
        el("h3", { class: "rules-sub" }, t("rules.mechanics")),
        el("div", { class: "rules-list" }, ...snakes.mechanics.map(snakesRule)));
      // Every mines card has its picture and a short demonstration (issue 45).
      minesPart.append(
        el("div", { class: "rules-list" },
          ...mines.sections.map((s) => rule(s.key, s.title, s.text, minesDemo(s)))));
      for (const entry of boards) drawPicture(entry);
      page.dataset.ready = "1";
    })();

    const onSettings = () => { for (const entry of boards) drawPicture(entry); };
    app.addEventListener("settings", onSettings);
    return {
      unmount() {
        live = false;
        app.removeEventListener("settings", onSettings);
      },
    };
  },
};

/** A mines card's picture and its demonstration (issue 45): the first frame drawn, its
 * caption under it, and a button that shows the next frame (and starts again after the
 * last). Frames and captions are Python's (mines.page.rules); stepped by the player, so it
 * needs no timer and reads the same under reduced motion. */
function minesDemo(section) {
  const frames = section.demo && section.demo.length ? section.demo : [section.picture];
  const holder = el("div", { class: "mines-demo-picture" });
  const caption = el("div", { class: "mines-demo-caption", "data-testid": "rules-mines-caption",
    "aria-live": "polite" });
  const step = el("span", { class: "mines-demo-step", "data-testid": "rules-mines-step" });
  const button = el("button", { type: "button", "data-testid": "rules-mines-demo" });
  let at = 0;
  function show() {
    const frame = frames[at];
    holder.replaceChildren(minesPicture(frame, section.title));
    holder.dataset.frame = String(at);
    caption.textContent = frame.caption || "";
    step.textContent = frames.length > 1 ? t("rules.mines.demo.step", { step: at + 1, steps: frames.length }) : "";
    button.textContent = t(at === frames.length - 1 ? "rules.mines.demo.again" : "rules.mines.demo.next");
    button.hidden = frames.length < 2;
  }
  button.addEventListener("click", () => { at = (at + 1) % frames.length; show(); });
  show();
  const figure = el("figure", { class: "mines-demo", "data-testid": "rules-mines-demo-figure", "data-topic": section.key },
    holder, el("figcaption", {}, caption, el("div", { class: "mines-demo-controls" }, step, button)));
  // as wide as its picture (the words wrap under it), laid out here: style.css is shared
  const width = `${Math.max(9, frames[0].grid[0].length * 34 / 16 + 4)}rem`;
  Object.assign(figure.style, { margin: "0", width, maxWidth: "100%", lineHeight: "1.3",
    display: "grid", gap: ".3rem", overflowWrap: "anywhere", fontSize: ".85rem" });
  return figure;
}

/** The fills of the picture's fog and dug-mine tiles (theme.css's colours). */
const TILE_FILLS = { "concealed-fog": "var(--fog-a)", "open-fog": "var(--open-fog)", mine: "var(--dug)" };

/** One cell of a mines picture into `node`: its tile, fog dots, a mine's scar, a digit (moved
 * right under the figure, as in play) or a flag. */
function minesCell(node, cell, x, y, avatar) {
  const open = /^[0-9]$/.test(cell) || cell === "open-fog" || cell === "mine";
  const tile = svg("rect", { x: x + 0.03, y: y + 0.03, width: MINES_CELL - 0.06, height: MINES_CELL - 0.06,
    rx: 0.1, class: open ? "mp-open" : "mp-concealed", "data-cell": cell });
  // fog and a dug mine in the board's own theme colours (theme.css), set on the shape
  if (TILE_FILLS[cell]) tile.style.fill = TILE_FILLS[cell];
  node.append(tile);
  groundMarks(node, cell, x, y);
  if (open && /^[1-8]$/.test(cell)) {
    // as in play, a digit under the avatar moves right and the figure stands at the left
    const beside = avatar && avatar[0] === x && avatar[1] === y;
    const digit = svg("text", { x: x + (beside ? 0.7 : 0.5), y: y + 0.54, class: "mp-digit", "data-digit": cell,
      "text-anchor": "middle", "dominant-baseline": "middle" });
    digit.textContent = cell;
    node.append(digit);
  }
  if (cell === "flag") {
    node.append(svg("line", { x1: x + 0.38, y1: y + 0.2, x2: x + 0.38, y2: y + 0.8, class: "mp-pole" }),
      svg("polygon", { points: `${x + 0.4},${y + 0.2} ${x + 0.75},${y + 0.33} ${x + 0.4},${y + 0.47}`,
        class: "mp-flag" }));
  }
}

/** The ground's own marks of a picture's cell: fog's dots, a dug mine's scar. */
function groundMarks(node, cell, x, y) {
  if (cell === "open-fog" || cell === "concealed-fog") {
    for (const [dx, dy] of [[0.3, 0.3], [0.7, 0.45], [0.4, 0.72]]) {
      const dot = svg("circle", { cx: x + dx, cy: y + dy, r: 0.06 });
      dot.style.fill = cell === "open-fog" ? "var(--open-fog-dot)" : "var(--fog-b)";
      node.append(dot);
    }
  }
  if (cell === "mine") {  // the scar of a dug mine: trodden ground
    const scar = svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.16, fill: "none", "stroke-width": 0.06 });
    scar.style.stroke = "var(--scar)";
    node.append(scar);
  }
}

/** A corner of a mines board: opened ground with its digits, concealed cells, a flag, a
 * dug mine, fog, the player's figure; `mark` rings the cell a frame is about and `ring` the
 * digits that prove it. */
/** @param {{grid: string[][], avatar?: number[] | null, mark?: number[] | null,
 *   ring?: number[][] | null}} picture @param {string} title */
export function minesPicture({ grid, avatar, mark, ring }, title = "") {
  const rows = grid.length;
  const cols = grid[0].length;
  const node = svg("svg", { class: "mines-picture", viewBox: `0 0 ${cols} ${rows}`, role: "img",
    "aria-label": title ? t("rules.picture", { title }) : t("rules.mines.picture"),
    "data-testid": "rules-mines-board" });
  node.style.setProperty("--cols", cols);
  grid.forEach((row, y) => row.forEach((cell, x) => minesCell(node, cell, x, y, avatar)));
  // the digits that prove a frame's cell, and that cell, outlined in the hint's colours
  const outline = (/** @type {number[]} */ [x, y], inset, width, colour, attr) => {
    const line = svg("rect", { x: x + inset, y: y + inset, width: 1 - 2 * inset, height: 1 - 2 * inset,
      rx: 0.13, fill: "none", "stroke-width": width, [attr]: "1" });
    line.style.stroke = colour;
    node.append(line);
  };
  for (const cell of ring || []) outline(cell, 0.08, 0.07, "var(--hint-digit)", "data-ring");
  if (mark) outline(mark, 0.05, 0.09, "var(--target)", "data-mark");
  if (avatar) {
    const [ax, y] = avatar;
    const x = /^[1-8]$/.test(grid[y][ax]) ? ax - 0.2 : ax;  // beside its cell's digit
    node.append(svg("circle", { cx: x + 0.5, cy: y + 0.3, r: 0.13, class: "mp-figure" }),
      svg("path", { d: `M${x + 0.3},${y + 0.82} Q${x + 0.5},${y + 0.38} ${x + 0.7},${y + 0.82} Z`,
        class: "mp-figure" }));
  }
  return node;
}
