// The editor's tools and the board's input (used by editor.js): the toolbar (Select, which
// also drags an area for the arrange tools of editor-transform.js, Stone,
// Hole, Body, Erase, Path (a coloured path, painted along a drag in the chosen colour),
// Bridge, keys 1-7 on the board; Undo, Redo), the colours, a new hole's frozen
// threshold, the board's size (Resize, New empty), and what a gesture on the board asks
// Python for with the tool in hand. The board's limits come from Python (facts).

import { has, t } from "../i18n.js";
import { el } from "./dom.js";
import { typed } from "./editor-props.js";
import { cellWords, colourName, colourSet, drafted, selectedSet, toolSet } from "./editor-state.js";

// [tool, key on the board]; a tool's name is editor.tool.<tool>.
export const TOOLS = [["select", "1"], ["stone", "2"], ["hole", "3"], ["body", "4"], ["erase", "5"],
  ["path", "6"], ["bridge", "7"]];
const toolName = (id) => t(`editor.tool.${id}`);

/** What is drawn at `cell` of `level`: {kind: "body" | "hole", index}, {kind: "stone"} or null. */
function objectAt(level, cell) {
  const is = (c) => c[0] === cell[0] && c[1] === cell[1];
  const body = level.bodies.findIndex((b) => b.cells.some(is));
  if (body >= 0) return { kind: "body", index: body };
  const hole = level.holes.findIndex((h) => is(h.cell));
  if (hole >= 0) return { kind: "hole", index: hole };
  if (level.stones.some(is)) return { kind: "stone" };
  return null;
}

function setTool(tl, id) {
  toolSet(tl.ed, id);
  for (const button of tl.toolButtons) button.setAttribute("aria-pressed", String(button.dataset.tool === id));
  if (tl.ed.answer) tl.ed.redraw();
}

function setColour(tl, i) {
  colourSet(tl.ed, i);
  for (const button of tl.colourButtons) button.setAttribute("aria-pressed", String(Number(button.dataset.color) === i));
}

/** Keys 1-7 on the board pick a tool; true when `key` picked one. */
function pickByKey(tl, key) {
  const picked = TOOLS.find(([, k]) => k === key);
  if (!picked) return false;
  setTool(tl, picked[0]);
  tl.ed.say(t("editor.tool.picked", { tool: toolName(picked[0]) }));
  return true;
}

/** Select: a drag marks an area, a click the object under it. */
function select(ed, kind, cells, first) {
  if (kind === "area") { ed.arrange.area(cells); return; }
  if (ed.arrange.click(first)) return;
  const at = objectAt(ed.answer.level, first);
  selectedSet(ed, at && at.kind !== "stone" ? at : null);
  ed.say(ed.selected ? t(`editor.selected.${ed.selected.kind}`, { number: ed.selected.index + 1 }) : t("editor.select-nothing"));
  ed.renderProps();
  ed.redraw();
}

async function stones(ed, cells, first) {
  let erase = false;  // a drag that starts on a stone erases, decided on the level it edits
  const change = (level) => {
    erase = level.stones.some((c) => c[0] === first[0] && c[1] === first[1]);
    return { tool: "stone", cells, erase };
  };
  if (await ed.edit(change)) ed.say(t(erase ? "editor.stones-erased" : "editor.stones-placed", { count: cells.length }));
}

/** A coloured path or a bridge painted along the drag. */
async function terrain(ed, tool, color, cells, first) {
  // A drag that starts on this terrain erases it along the drag, as the stone tool does.
  let erase = false;
  const change = (level) => {
    const here = (c) => c[0] === first[0] && c[1] === first[1];
    erase = tool === "path" ? (level.paths || []).some((p) => here(p.cell) && p.color === color)
      : (level.bridges || []).some(here);
    return tool === "path" ? { tool, cells, color, erase } : { tool, cells, erase };
  };
  if (await ed.edit(change)) {
    ed.say(t(`editor.${tool}-${erase ? "erased" : "placed"}`, { count: cells.length, colour: color }));
  }
}

async function hole(tl, color, first) {
  const { ed, holeFrozen } = tl;
  // Typed text that is no number goes to Python as typed, to be refused by name.
  const frozen = holeFrozen.validity.badInput ? "not a number" : typed(holeFrozen.value);  // i18n-ok: a value Python refuses by name
  if (await ed.edit({ tool: "hole", cell: first, color, frozen },
    { select: (lv) => ({ kind: "hole", index: lv.holes.findIndex((h) => h.cell[0] === first[0] && h.cell[1] === first[1]) }) })) {
    ed.say(t("editor.hole-placed", { colour: colourName(color), cell: cellWords(first) }));
  }
}

/** A body drawn along the drag; drawn from one of its cells, it redraws that body. */
async function body(ed, color, cells, first) {
  const at = objectAt(ed.answer.level, first);
  if (cells.length < 2) {
    ed.say(t(at && at.kind === "body" ? "editor.body-redraw-hint" : "editor.body-hint"));
    return;
  }
  const redrawn = at && at.kind === "body" ? at.index : null;
  if (await ed.edit({ tool: "body", cells, color },
    { select: (lv) => ({ kind: "body", index: redrawn ?? lv.bodies.length - 1 }) })) {
    ed.say(redrawn === null ? t("editor.body-drawn", { count: cells.length }) : t("editor.body-redrawn", { number: redrawn + 1 }));
  }
}

/** What a gesture on the board (`kind`, its `cells`) asks Python for with the tool in hand. */
async function gesture(tl, kind, cells) {
  const { ed } = tl;
  if (!ed.answer || ed.tryPlay) return;
  const [first] = cells;
  const { tool, color } = ed;
  if (tool === "select") select(ed, kind, cells, first);
  else if (tool === "stone") await stones(ed, cells, first);
  else if (tool === "path" || tool === "bridge") await terrain(ed, tool, color, cells, first);
  else if (tool === "erase") {
    if (await ed.edit({ tool: "erase", cell: first })) ed.say(t("editor.erased"));
  } else if (tool === "hole") await hole(tl, color, first);
  else if (tool === "body") await body(ed, color, cells, first);
}

async function resize(tl) {
  const { ed } = tl;
  if (await ed.edit({ tool: "resize", cols: Number(tl.colsInput.value), rows: Number(tl.rowsInput.value) })) {
    ed.say(t("editor.resized", { cols: ed.answer.level.cols, rows: ed.answer.level.rows }));
  }
}

async function newBlank(tl) {
  const { ed } = tl;
  try {
    const fresh = await ed.python.blank(Number(tl.colsInput.value) || 7, Number(tl.rowsInput.value) || 7);
    ed.history.record();
    drafted(ed);
    ed.setDraft(null, "");
    selectedSet(ed, null);
    ed.show(fresh);
    ed.say(t("editor.new-board"));
  } catch (error) { ed.refusal(error, t("editor.new-refused")); }
}

/** The toolbar's rows of tools `tl`: tools, undo and redo; colours; hole, size, new. */
function toolbar(tl) {
  return [
    el("div", { class: "editor-toolbar", role: "toolbar", "aria-label": t("editor.tools") }, ...tl.toolButtons, tl.undoButton, tl.redoButton),
    el("div", { class: "editor-colours", role: "group", "aria-label": t("editor.colour") }, ...tl.colourButtons),
    el("div", { class: "editor-row" },
      el("label", {}, `${t("editor.hole-frozen")} `, tl.holeFrozen),
      el("label", {}, `${t("editor.cols-short")} `, tl.colsInput), el("label", {}, `${t("editor.rows")} `, tl.rowsInput),
      el("button", { type: "button", "data-testid": "editor-resize", onclick: () => resize(tl) }, t("editor.resize")),
      el("button", { type: "button", "data-testid": "editor-new", onclick: () => newBlank(tl) }, t("editor.new"))),
  ];
}

/** The mark on colour `i`'s swatch: its letter in English, its name's first character in
 * Chinese (never an English initial there). */
function swatchMark(i, letterSet) {
  return has(`editor.swatch.${i}`) ? t(`editor.swatch.${i}`) : letterSet[i] || String(i);
}

/**
 * The tools of the editor `ed` (editor.js's shared state and calls). Returns the toolbar's
 * rows (`elements`), `gesture(kind, cells)` for the board, `setTool`, `setColour`,
 * `pickByKey(key)` (1-5), `limits(facts)`, and `sync()` that shows the board's size and
 * whether undo and redo can go.
 */
export function editorTools(ed) {
  const palette = ed.palette;
  const letterSet = ed.letters;
  const tl = { ed };
  tl.toolButtons = TOOLS.map(([id, key]) => el("button", {
    type: "button", "data-testid": `editor-tool-${id}`, "data-tool": id, "aria-pressed": "false",
    title: t("editor.tool.title", { tool: toolName(id), key }), onclick: () => setTool(tl, id) }, toolName(id)));
  tl.colourButtons = palette.map((hex, i) => el("button", {
    type: "button", class: "editor-swatch", style: `--swatch:${hex};--swatch-ink:${ed.ink ? ed.ink(i) : "#ffffff"}`, "data-testid": "editor-color",
    "data-color": String(i), "aria-pressed": "false", "aria-label": t("editor.colour.named", { name: colourName(i) }),
    title: colourName(i), onclick: () => setColour(tl, i) }, swatchMark(i, letterSet)));
  tl.holeFrozen = el("input", { type: "number", min: "1", max: "10000", placeholder: t("editor.none"),
    "data-testid": "editor-hole-frozen", "aria-label": t("editor.hole-frozen-label") });
  const colsInput = tl.colsInput = el("input", { type: "number", "data-testid": "editor-cols", "aria-label": t("editor.cols") });
  const rowsInput = tl.rowsInput = el("input", { type: "number", "data-testid": "editor-rows", "aria-label": t("editor.rows") });
  tl.undoButton = el("button", { type: "button", "data-testid": "editor-undo", title: t("editor.undo-title"), onclick: () => ed.undo() }, t("editor.undo"));
  tl.redoButton = el("button", { type: "button", "data-testid": "editor-redo", title: t("editor.redo-title"), onclick: () => ed.redo() }, t("editor.redo"));

  return {
    elements: toolbar(tl),
    gesture: (kind, cells) => gesture(tl, kind, cells),
    setTool: (id) => setTool(tl, id),
    setColour: (i) => setColour(tl, i),
    pickByKey: (key) => pickByKey(tl, key),
    /** The board's limits from Python's facts. */
    limits(facts) {
      [colsInput.min, colsInput.max] = facts.cols.map(String);
      [rowsInput.min, rowsInput.max] = facts.rows.map(String);
    },
    sync() {
      colsInput.value = ed.answer.level.cols;
      rowsInput.value = ed.answer.level.rows;
      tl.undoButton.disabled = !ed.history.canUndo;
      tl.redoButton.disabled = !ed.history.canRedo;
    },
  };
}
