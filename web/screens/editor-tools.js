// The editor's tools and the board's input (used by editor.js): the toolbar (Select, which
// also drags an area for the arrange tools of editor-transform.js, Stone,
// Hole, Body, Erase, keys 1-5 on the board; Undo, Redo), the colours, a new hole's frozen
// threshold, the board's size (Resize, New empty), and what a gesture on the board asks
// Python for with the tool in hand. The board's limits come from Python (facts).

import { el } from "./dom.js";
import { typed } from "./editor-props.js";
import { cellWords } from "./editor-state.js";

export const TOOLS = [
  ["select", "Select", "1"], ["stone", "Stone", "2"], ["hole", "Hole", "3"],
  ["body", "Body", "4"], ["erase", "Erase", "5"],
];

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

/**
 * The tools of the editor `ed` (editor.js's shared state and calls). Returns the toolbar's
 * rows (`elements`), `gesture(kind, cells)` for the board, `setTool`, `setColour`,
 * `pickByKey(key)` (1-5), `limits(facts)`, and `sync()` that shows the board's size and
 * whether undo and redo can go.
 */
export function editorTools(ed) {
  const palette = ed.palette;
  const letterSet = ed.letters;
  const toolButtons = TOOLS.map(([id, label, key]) => el("button", {
    type: "button", "data-testid": `editor-tool-${id}`, "data-tool": id, "aria-pressed": "false",
    title: `${label} (key ${key} on the board)`, onclick: () => setTool(id) }, label));
  const colourButtons = palette.map((hex, i) => el("button", {
    type: "button", class: "editor-swatch", style: `--swatch:${hex}`, "data-testid": "editor-color",
    "data-color": String(i), "aria-pressed": "false", "aria-label": `colour ${i}${letterSet[i] ? ` (${letterSet[i]})` : ""}`,
    onclick: () => setColour(i) }, letterSet[i] || String(i)));
  const holeFrozen = el("input", { type: "number", min: "1", max: "10000", placeholder: "none",
    "data-testid": "editor-hole-frozen", "aria-label": "Frozen threshold of new holes" });
  const colsInput = el("input", { type: "number", "data-testid": "editor-cols", "aria-label": "Columns" });
  const rowsInput = el("input", { type: "number", "data-testid": "editor-rows", "aria-label": "Rows" });
  const undoButton = el("button", { type: "button", "data-testid": "editor-undo", title: "Undo edit (Ctrl+Z)", onclick: () => ed.undo() }, "Undo");
  const redoButton = el("button", { type: "button", "data-testid": "editor-redo", title: "Redo edit (Ctrl+Shift+Z)", onclick: () => ed.redo() }, "Redo");
  const elements = [
    el("div", { class: "editor-toolbar", role: "toolbar", "aria-label": "Tools" }, ...toolButtons, undoButton, redoButton),
    el("div", { class: "editor-colours", role: "group", "aria-label": "Colour" }, ...colourButtons),
    el("div", { class: "editor-row" },
      el("label", {}, "Hole frozen ", holeFrozen),
      el("label", {}, "Cols ", colsInput), el("label", {}, "Rows ", rowsInput),
      el("button", { type: "button", "data-testid": "editor-resize", onclick: () => resize() }, "Resize"),
      el("button", { type: "button", "data-testid": "editor-new", onclick: () => newBlank() }, "New empty")),
  ];

  function setTool(id) {
    ed.tool = id;
    for (const button of toolButtons) button.setAttribute("aria-pressed", String(button.dataset.tool === id));
    if (ed.answer) ed.redraw();
  }

  function setColour(i) {
    ed.color = i;
    for (const button of colourButtons) button.setAttribute("aria-pressed", String(Number(button.dataset.color) === i));
  }

  /** Keys 1-5 on the board pick a tool; true when `key` picked one. */
  function pickByKey(key) {
    const picked = TOOLS.find(([, , k]) => k === key);
    if (!picked) return false;
    setTool(picked[0]);
    ed.say(`Tool: ${picked[1]}.`);
    return true;
  }

  async function gesture(kind, cells) {
    if (!ed.answer || ed.tryPlay) return;
    const [first] = cells;
    const { tool, color } = ed;
    if (tool === "select") {
      if (kind === "area") { ed.arrange.area(cells); return; }
      if (ed.arrange.click(first)) return;
      const at = objectAt(ed.answer.level, first);
      ed.selected = at && at.kind !== "stone" ? at : null;
      ed.say(ed.selected ? `Selected ${ed.selected.kind} ${ed.selected.index + 1}: edit it under Properties.` : "Nothing to select there.");
      ed.renderProps();
      ed.redraw();
    } else if (tool === "stone") {
      let erase = false;  // a drag that starts on a stone erases, decided on the level it edits
      const change = (level) => {
        erase = level.stones.some((c) => c[0] === first[0] && c[1] === first[1]);
        return { tool: "stone", cells, erase };
      };
      if (await ed.edit(change)) ed.say(erase ? `Erased ${cells.length} stone(s).` : `Placed ${cells.length} stone(s).`);
    } else if (tool === "erase") {
      if (await ed.edit({ tool: "erase", cell: first })) ed.say("Erased.");
    } else if (tool === "hole") {
      // Typed text that is no number goes to Python as typed, to be refused by name.
      const frozen = holeFrozen.validity.badInput ? "not a number" : typed(holeFrozen.value);
      if (await ed.edit({ tool: "hole", cell: first, color, frozen },
        { select: (lv) => ({ kind: "hole", index: lv.holes.findIndex((h) => h.cell[0] === first[0] && h.cell[1] === first[1]) }) })) {
        ed.say(`Hole of colour ${color} in ${cellWords(first)}.`);
      }
    } else if (tool === "body") {
      const at = objectAt(ed.answer.level, first);
      if (cells.length < 2) {
        ed.say(at && at.kind === "body" ? "Drag from this body to redraw it along a new path." : "Drag across adjacent cells to draw a body.");
        return;
      }
      const redrawn = at && at.kind === "body" ? at.index : null;
      if (await ed.edit({ tool: "body", cells, color },
        { select: (lv) => ({ kind: "body", index: redrawn ?? lv.bodies.length - 1 }) })) {
        ed.say(redrawn === null ? `Body of ${cells.length} cells drawn.` : `Body ${redrawn + 1} redrawn.`);
      }
    }
  }

  async function resize() {
    if (await ed.edit({ tool: "resize", cols: Number(colsInput.value), rows: Number(rowsInput.value) })) {
      ed.say(`Board resized to ${ed.answer.level.cols} x ${ed.answer.level.rows}.`);
    }
  }

  async function newBlank() {
    try {
      const fresh = await ed.python.blank(Number(colsInput.value) || 7, Number(rowsInput.value) || 7);
      ed.history.record();
      ed.origin = "draft";
      ed.setDraft(null, "");
      ed.selected = null;
      ed.show(fresh);
      ed.say("A new empty board: draw stones, bodies and holes.");
    } catch (error) { ed.refusal(error, "New board refused"); }
  }

  return {
    elements, gesture, setTool, setColour, pickByKey,
    /** The board's limits from Python's facts. */
    limits(facts) {
      [colsInput.min, colsInput.max] = facts.cols.map(String);
      [rowsInput.min, rowsInput.max] = facts.rows.map(String);
    },
    sync() {
      colsInput.value = ed.answer.level.cols;
      rowsInput.value = ed.answer.level.rows;
      undoButton.disabled = !ed.history.canUndo;
      redoButton.disabled = !ed.history.canRedo;
    },
  };
}
