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
      minesPart.append(
        el("div", { class: "rules-list" },
          rule(mines.sections[0].key, mines.sections[0].title, mines.sections[0].text, minesPicture(mines.picture)),
          ...mines.sections.slice(1).map((s) => rule(s.key, s.title, s.text, null))));
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

/** A corner of a mines board: opened ground with its digits, concealed cells, a flag and
 * the player's figure. */
export function minesPicture({ grid, avatar }) {
  const rows = grid.length;
  const cols = grid[0].length;
  const node = svg("svg", { class: "mines-picture", viewBox: `0 0 ${cols} ${rows}`, role: "img",
    "aria-label": t("rules.mines.picture"), "data-testid": "rules-mines-board" });
  node.style.setProperty("--cols", cols);
  grid.forEach((row, y) => row.forEach((cell, x) => {
    const open = /^[0-9]$/.test(cell);
    node.append(svg("rect", { x: x + 0.03, y: y + 0.03, width: MINES_CELL - 0.06, height: MINES_CELL - 0.06,
      rx: 0.1, class: open ? "mp-open" : "mp-concealed" }));
    if (open && cell !== "0") {
      const digit = svg("text", { x: x + 0.5, y: y + 0.54, class: "mp-digit", "data-digit": cell,
        "text-anchor": "middle", "dominant-baseline": "middle" });
      digit.textContent = cell;
      node.append(digit);
    }
    if (cell === "flag") {
      node.append(svg("line", { x1: x + 0.38, y1: y + 0.2, x2: x + 0.38, y2: y + 0.8, class: "mp-pole" }),
        svg("polygon", { points: `${x + 0.4},${y + 0.2} ${x + 0.75},${y + 0.33} ${x + 0.4},${y + 0.47}`,
          class: "mp-flag" }));
    }
  }));
  if (avatar) {
    const [x, y] = avatar;
    node.append(svg("circle", { cx: x + 0.5, cy: y + 0.3, r: 0.13, class: "mp-figure" }),
      svg("path", { d: `M${x + 0.3},${y + 0.82} Q${x + 0.5},${y + 0.38} ${x + 0.7},${y + 0.82} Z`,
        class: "mp-figure" }));
  }
  return node;
}
