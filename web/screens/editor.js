// The level editor (seed 004 section 6; issue 14): draw a level with tools, design one from
// a template, verify it and read its analysis, try it on the game's own play view, keep
// drafts, import and export files, and share a level by link. Every edit, verdict, score and
// search comes from Python (contract.js: app.python.editor), and so do the board's limits;
// this module keeps the designer's place (tool, selection, the edit history) and draws.

import { serialQueue } from "../contract.js";
import { el } from "./dom.js";
import { EditorBoard } from "./editor-board.js";
import { decodeShare, encodeShare, SHARE_MAX_CODE, ShareError } from "./editor-share.js";
import { mainlineLevel, shippedCount } from "./levels.js";

const HISTORY_LIMIT = 200;
const REPLAY_MS = 350;
const TOOLS = [
  ["select", "Select", "1"], ["stone", "Stone", "2"], ["hole", "Hole", "3"],
  ["body", "Body", "4"], ["erase", "Erase", "5"],
];
// The design form: each input is one field of the designer's request (spec section 8), by
// its field path, so that a refusal from Python lands beside the field it names.
const FIXED_GROUPS = [
  ["Size", "size", [["size.cols", "Columns", 2, 18], ["size.rows", "Rows", 2, 24],
    ["size.cells", "Effective cells", 4, 400]]],
  ["Bodies", "bodies", [["bodies.count", "Bodies", 1, 16], ["bodies.min_length", "Shortest", 2, 40],
    ["bodies.max_length", "Longest", 2, 40], ["bodies.total", "Total cells", 2, 350]]],
  ["Colours and mechanisms", null, [["colors", "Outer colours", 1, 15], ["coats", "Coats", 0, 48],
    ["frozen", "Frozen bodies", 0, 16], ["frozen_holes", "Frozen holes", 0, 64],
    ["locks", "Locks", 0, 8], ["gold", "of which gold", 0, 8]]],
  ["Steps", "steps", [["steps.min", "Fewest steps", 0, 1000000], ["steps.max", "Most steps", 0, 1000000]]],
];
const TERM_NAMES = {
  occupancy: "Occupancy", body_scale: "Body scale", steps: "Solution steps", blocking: "Blocking",
  mechanics: "Mechanics", shuffling: "Shuffling", space: "Space",
};

let cssLinked = false;
function linkCss() {
  if (cssLinked) return;
  cssLinked = true;
  document.head.append(el("link", { rel: "stylesheet", href: new URL("./editor.css", import.meta.url).href }));
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = el("a", { href: url, download: name, hidden: "" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function slug(text) {
  return (text || "level").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "level";
}

/** Main-line level N (from the site's levels/ blocks, as the map reads them) and the
 * highest level shipped; `level` is null when N is not shipped. */
async function fetchMainline(number) {
  const [found, highest] = await Promise.all([mainlineLevel(number), shippedCount()]);
  return { level: found ? found.level : null, highest };
}

export const screen = {
  id: "editor",
  title: "Editor",
  mount(root, app, params = {}) {
    linkCss();
    const python = app.python.editor;
    const palette = (app.palette && app.palette.PALETTE) || [];
    const letterSet = (app.palette && app.palette.LETTERS) || [];

    // ---------------------------------------------------------------- state
    let answer = null;        // {level, issues, ok, sha256} from Python: the level on the board
    let origin = "draft";     // "draft" or the main-line number this is an unedited copy of
    let draftId = null;       // the entry in gridforge.drafts this level is saved to
    let draftName = "";
    let tool = "body";
    let color = 0;
    let selected = null;      // {kind: "body" | "hole", index}
    let undoStack = [];       // earlier {answer, selected, origin}; edits only, never play moves
    let redoStack = [];
    const certificates = new Map();  // level SHA-256 -> certificate (this session and drafts)
    let freeArea = null;      // {sha, cells}
    let replay = { step: 0, view: null, playing: false, timer: null };
    let tryPlay = null;       // the mounted play view while trying the level
    let designCancelled = false;
    let alive = true;

    // ---------------------------------------------------------------- layout
    const message = el("p", { class: "editor-message", "data-testid": "editor-message", "aria-live": "polite" });
    const nameInput = el("input", { type: "text", "data-testid": "editor-draft-name", "aria-label": "Draft name", maxlength: "80" });
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
    let importMaxBytes = Infinity;  // Python's limit (facts); Python checks it again
    app.python.snakes.facts().then((facts) => {
      [colsInput.min, colsInput.max] = facts.cols.map(String);
      [rowsInput.min, rowsInput.max] = facts.rows.map(String);
      importMaxBytes = facts.import_max_bytes;
    }).catch(() => {});
    const undoButton = el("button", { type: "button", "data-testid": "editor-undo", title: "Undo edit (Ctrl+Z)", onclick: () => undo() }, "Undo");
    const redoButton = el("button", { type: "button", "data-testid": "editor-redo", title: "Redo edit (Ctrl+Shift+Z)", onclick: () => redo() }, "Redo");
    const issuesList = el("ul", { class: "editor-issues", "data-testid": "editor-issues" });
    const props = el("section", { class: "editor-props", "data-testid": "editor-props", "aria-label": "Properties" });
    const status = el("div", { class: "editor-status", "data-testid": "editor-status", "data-status": "none" }, "Not verified yet.");
    const analysis = el("dl", { class: "editor-analysis", "data-testid": "editor-analysis" });
    const chart = el("div", { class: "editor-chart", "data-testid": "editor-chart", role: "list", "aria-label": "The seven score terms" });
    const slider = el("input", { type: "range", min: "0", max: "0", value: "0", "data-testid": "editor-replay-step", "aria-label": "Solution step" });
    const playButton = el("button", { type: "button", "data-testid": "editor-replay-play", onclick: () => togglePlay() }, "Play");
    const stepLabel = el("span", { "data-testid": "editor-replay-label" }, "");
    const replayBox = el("div", { class: "editor-replay", hidden: "" }, el("span", {}, "Solution "), slider, playButton, stepLabel);
    const importFile = el("input", { type: "file", accept: ".json,application/json", "data-testid": "editor-import-file", "aria-label": "Import a level or batch file" });
    const importText = el("textarea", { rows: "3", "data-testid": "editor-import-text", placeholder: "…or paste level or batch JSON here", "aria-label": "Level or batch JSON" });
    const importIssues = el("ul", { class: "editor-issues", "data-testid": "editor-import-issues" });
    const shareLink = el("input", { type: "text", readonly: "", "data-testid": "editor-share-link", "aria-label": "Share link", placeholder: "Share link appears here" });
    const draftsList = el("ul", { class: "editor-drafts", "data-testid": "editor-drafts" });
    const design = designForm();
    const boardHost = el("div", { class: "editor-board-host" });
    const tryHost = el("section", { class: "editor-try", "data-testid": "editor-try-view", hidden: "" });
    const workspace = el("div", { class: "editor-workspace" },
      el("div", { class: "editor-left" },
        el("div", { class: "editor-toolbar", role: "toolbar", "aria-label": "Tools" }, ...toolButtons, undoButton, redoButton),
        el("div", { class: "editor-colours", role: "group", "aria-label": "Colour" }, ...colourButtons),
        el("div", { class: "editor-row" },
          el("label", {}, "Hole frozen ", holeFrozen),
          el("label", {}, "Cols ", colsInput), el("label", {}, "Rows ", rowsInput),
          el("button", { type: "button", "data-testid": "editor-resize", onclick: () => resize() }, "Resize"),
          el("button", { type: "button", "data-testid": "editor-new", onclick: () => newBlank() }, "New empty")),
        boardHost, replayBox,
        el("div", { class: "editor-row" },
          el("button", { type: "button", class: "primary", "data-testid": "editor-verify", onclick: () => verify() }, "Verify"),
          el("button", { type: "button", "data-testid": "editor-try", onclick: () => startTry() }, "Try it"),
          el("button", { type: "button", "data-testid": "editor-export", onclick: () => exportCurrent() }, "Export"),
          el("button", { type: "button", "data-testid": "editor-export-all", onclick: () => exportAll() }, "Export all certified drafts"),
          el("button", { type: "button", "data-testid": "editor-share", onclick: () => share() }, "Share link")),
        shareLink),
      el("div", { class: "editor-right" },
        props,
        el("section", {}, el("h3", {}, "Still to fix"), issuesList),
        el("section", { class: "editor-verify-panel" }, el("h3", {}, "Verification"), status, analysis, chart),
        design,
        el("section", { class: "editor-files" }, el("h3", {}, "Import"), importFile, importText,
          el("button", { type: "button", "data-testid": "editor-import-paste", onclick: () => importFrom(importText.value, "pasted text") }, "Import pasted"),
          importIssues),
        el("section", {}, el("h3", {}, "Drafts"),
          el("div", { class: "editor-row" }, el("label", {}, "Name ", nameInput),
            el("button", { type: "button", "data-testid": "editor-save-draft", onclick: () => saveDraft(true) }, "Save draft")),
          draftsList)));
    // Tests and tools wait for data-ready on the section of the route they opened.
    const section = el("section", { class: "editor", "data-testid": "editor",
      "data-route": app.route ? app.route.hash : "#editor" }, message, workspace, tryHost);
    root.append(section);
    const board = new EditorBoard(boardHost, {
      gesture: (kind, cells) => gesture(kind, cells),
      mode: () => (tool === "stone" ? "paint" : tool === "body" ? "path" : "click"),
      describe: () => `Editor board, tool ${tool}. Arrow keys move the cursor, Enter applies the tool; keys 1 to 5 pick a tool.`,
    });

    function say(text, kind = "info") {
      message.textContent = text;
      message.dataset.kind = kind;
    }

    // ---------------------------------------------------------------- calls

    function issueText(issue) {
      return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    }

    function refusal(error, what) {
      const issues = error.issues || [];
      say(`${what}: ${issues.length ? issues.map(issueText).join("; ") : error.message}`, "error");
    }

    // ---------------------------------------------------------------- the level on the board
    function show(next, { keepCertificate = false } = {}) {
      answer = next;
      if (!keepCertificate) stopReplay();
      colsInput.value = answer.level.cols;
      rowsInput.value = answer.level.rows;
      issuesList.replaceChildren(...answer.issues.map((issue) =>
        el("li", { "data-testid": "editor-issue", "data-path": issue.path }, issueText(issue))));
      if (!answer.issues.length) issuesList.append(el("li", { class: "editor-ok" }, "Nothing: the level can be verified and played."));
      if (selected && !(selected.kind === "body" ? answer.level.bodies : answer.level.holes)[selected.index]) selected = null;
      renderProps();
      renderVerification();
      redraw();
      undoButton.disabled = !undoStack.length;
      redoButton.disabled = !redoStack.length;
    }

    function certificate() {
      return answer && answer.sha256 ? certificates.get(answer.sha256) || null : null;
    }

    function redraw() {
      const cert = certificate();
      const space = cert && cert.score ? cert.score.diagnostics.space : null;
      board.render({
        level: answer.level, levelAttr: String(origin), sha: answer.sha256, palette,
        letters: app.settings && app.settings.colourLetters ? letterSet : null,
        selected, view: replay.step > 0 ? replay.view : null, viewSteps: replay.step,
        narrow: space ? space.narrow_points : [],
        freeArea: cert && freeArea && freeArea.sha === answer.sha256 ? freeArea.cells : null,
      });
    }

    async function open(level, { from = "draft", id = null, name = "", cert = null } = {}) {
      const opened = await python.open(level);
      undoStack = [];
      redoStack = [];
      selected = null;
      origin = from;
      draftId = id;
      draftName = name;
      nameInput.value = name;
      if (cert && opened.sha256 && cert.level_sha256 === opened.sha256) certificates.set(opened.sha256, cert);
      show(opened);
      return opened;
    }

    // ---------------------------------------------------------------- edits
    // Edits, undo and redo run one after another, each on the level its predecessor left:
    // a second gesture made while Python answers the first is applied after it, never lost.
    const queue = serialQueue({ report: (error) => say(error.message, "error") });
    const queued = (task) => queue.run(task);

    /** Apply ``change`` (an edit, or a function of the current level returning one). */
    function edit(change, { select = null } = {}) {
      return queued(async () => {
        try {
          const request = typeof change === "function" ? change(answer.level) : change;
          const next = await python.edit(answer.level, request);
          undoStack.push({ answer, selected, origin });
          if (undoStack.length > HISTORY_LIMIT) undoStack.shift();
          redoStack = [];
          origin = "draft";
          if (select) selected = select(next.level);
          show(next);
          saveDraft(false);
          return true;
        } catch (error) {
          refusal(error, "Refused");
          return false;
        }
      });
    }

    function objectAt(cell) {
      const is = (c) => c[0] === cell[0] && c[1] === cell[1];
      const level = answer.level;
      const body = level.bodies.findIndex((b) => b.cells.some(is));
      if (body >= 0) return { kind: "body", index: body };
      const hole = level.holes.findIndex((h) => is(h.cell));
      if (hole >= 0) return { kind: "hole", index: hole };
      if (level.stones.some(is)) return { kind: "stone" };
      return null;
    }

    async function gesture(kind, cells) {
      if (!answer || tryPlay) return;
      const [first] = cells;
      if (tool === "select") {
        const at = objectAt(first);
        selected = at && at.kind !== "stone" ? at : null;
        say(selected ? `Selected ${selected.kind} ${selected.index + 1}: edit it under Properties.` : "Nothing to select there.");
        renderProps();
        redraw();
      } else if (tool === "stone") {
        let erase = false;  // a drag that starts on a stone erases, decided on the level it edits
        const change = (level) => {
          erase = level.stones.some((c) => c[0] === first[0] && c[1] === first[1]);
          return { tool: "stone", cells, erase };
        };
        if (await edit(change)) say(erase ? `Erased ${cells.length} stone(s).` : `Placed ${cells.length} stone(s).`);
      } else if (tool === "erase") {
        if (await edit({ tool: "erase", cell: first })) say("Erased.");
      } else if (tool === "hole") {
        const frozen = holeFrozen.value === "" ? null : Number(holeFrozen.value);
        if (await edit({ tool: "hole", cell: first, color, frozen },
          { select: (lv) => ({ kind: "hole", index: lv.holes.findIndex((h) => h.cell[0] === first[0] && h.cell[1] === first[1]) }) })) {
          say(`Hole of colour ${color} at ${first.join(",")}.`);
        }
      } else if (tool === "body") {
        if (cells.length < 2) {
          const at = objectAt(first);
          say(at && at.kind === "body" ? "Drag from this body to redraw it along a new path." : "Drag across adjacent cells to draw a body.");
          return;
        }
        const at = objectAt(first);
        const redrawn = at && at.kind === "body" ? at.index : null;
        if (await edit({ tool: "body", cells, color },
          { select: (lv) => ({ kind: "body", index: redrawn ?? lv.bodies.length - 1 }) })) {
          say(redrawn === null ? `Body of ${cells.length} cells drawn.` : `Body ${redrawn + 1} redrawn.`);
        }
      }
    }

    async function resize() {
      if (await edit({ tool: "resize", cols: Number(colsInput.value), rows: Number(rowsInput.value) })) {
        say(`Board resized to ${answer.level.cols} x ${answer.level.rows}.`);
      }
    }

    async function newBlank() {
      try {
        const fresh = await python.blank(Number(colsInput.value) || 7, Number(rowsInput.value) || 7);
        pushHistory();
        origin = "draft";
        draftId = null;
        draftName = "";
        nameInput.value = "";
        selected = null;
        show(fresh);
        say("A new empty board: draw stones, bodies and holes.");
      } catch (error) { refusal(error, "New board refused"); }
    }

    function pushHistory() {
      if (!answer) return;
      undoStack.push({ answer, selected, origin });
      redoStack = [];
    }

    function undo() { return queued(undoNow); }
    function redo() { return queued(redoNow); }

    function undoNow() {
      if (!undoStack.length || tryPlay) return;
      redoStack.push({ answer, selected, origin });
      ({ answer, selected, origin } = undoStack.pop());
      show(answer);
      saveDraft(false);
      say("Edit undone.");
    }

    function redoNow() {
      if (!redoStack.length || tryPlay) return;
      undoStack.push({ answer, selected, origin });
      ({ answer, selected, origin } = redoStack.pop());
      show(answer);
      saveDraft(false);
      say("Edit redone.");
    }

    function setTool(id) {
      tool = id;
      for (const button of toolButtons) button.setAttribute("aria-pressed", String(button.dataset.tool === id));
      if (answer) redraw();
    }

    function setColour(i) {
      color = i;
      for (const button of colourButtons) button.setAttribute("aria-pressed", String(Number(button.dataset.color) === i));
    }

    // ---------------------------------------------------------------- properties
    function propField(label, value, testid, path, attrs = {}) {
      const input = el("input", { type: "text", value: value ?? "", "data-testid": testid, ...attrs });
      const error = el("span", { class: "editor-field-error", "data-path": path, "data-testid": "editor-field-error" });
      return { input, error, row: el("label", { class: "editor-field" }, `${label} `, input, error) };
    }

    function renderProps() {
      props.replaceChildren(el("h3", {}, "Properties"));
      if (!answer || !selected) {
        props.append(el("p", {}, "Pick the Select tool and click a body or a hole."));
        return;
      }
      const fields = [];
      let build;
      if (selected.kind === "body") {
        const body = answer.level.bodies[selected.index];
        const colours = propField("Colours, outer first", body.colors.join(", "), "editor-prop-colors", "edit.colors");
        const frozen = propField("Frozen until layers out", body.frozen, "editor-prop-frozen", "edit.frozen", { inputmode: "numeric" });
        const lockId = propField("Lock id", body.lock ? body.lock.id : "", "editor-prop-lock-id", "edit.lock");
        const kind = el("select", { "data-testid": "editor-prop-lock-kind", "aria-label": "Lock kind" },
          ...["silver", "gold"].map((k) => el("option", { value: k }, k)));
        if (body.lock) kind.value = body.lock.kind;
        const key = propField("Carries key for", body.key, "editor-prop-key", "edit.key");
        fields.push(colours, frozen, lockId, key);
        props.append(el("p", { "data-testid": "editor-prop-title" }, `Body ${selected.index + 1} (${body.cells.length} cells)`),
          colours.row, frozen.row, lockId.row, el("label", { class: "editor-field" }, "Lock kind ", kind), key.row);
        build = () => ({
          tool: "body_props", index: selected.index,
          colors: colours.input.value.split(",").map((s) => s.trim()).filter((s) => s !== "").map(Number),
          frozen: frozen.input.value.trim() === "" ? null : Number(frozen.input.value),
          lock: lockId.input.value.trim() === "" ? null : { id: lockId.input.value.trim(), kind: kind.value },
          key: key.input.value.trim() === "" ? null : key.input.value.trim(),
        });
      } else {
        const hole = answer.level.holes[selected.index];
        const colour = propField("Colour", hole.color, "editor-prop-hole-color", "edit.color", { inputmode: "numeric" });
        const frozen = propField("Frozen until layers out", hole.frozen, "editor-prop-hole-frozen", "edit.frozen", { inputmode: "numeric" });
        fields.push(colour, frozen);
        props.append(el("p", { "data-testid": "editor-prop-title" }, `Hole ${selected.index + 1} at ${hole.cell.join(",")}`),
          colour.row, frozen.row);
        build = () => ({
          tool: "hole_props", index: selected.index, color: Number(colour.input.value),
          frozen: frozen.input.value.trim() === "" ? null : Number(frozen.input.value),
        });
      }
      const apply = () => queued(async () => {
        for (const f of fields) f.error.textContent = "";
        const index = selected.index;
        const kind = selected.kind;
        try {
          const next = await python.edit(answer.level, build());
          undoStack.push({ answer, selected, origin });
          redoStack = [];
          origin = "draft";
          selected = { kind, index };
          show(next);
          saveDraft(false);
          say("Properties changed.");
        } catch (error) {
          const issues = error.issues || [];
          const unplaced = [];
          for (const issue of issues) {
            const slot = fields.find((f) => issue.path === f.error.dataset.path || issue.path.startsWith(`${f.error.dataset.path}[`));
            if (slot) slot.error.textContent = issue.message; else unplaced.push(issue);
          }
          say(`Refused: ${unplaced.length ? unplaced.map(issueText).join("; ") : "see the fields marked"}`, "error");
        }
      });
      props.append(el("button", { type: "button", "data-testid": "editor-prop-apply", onclick: apply }, "Apply"));
    }

    // ---------------------------------------------------------------- verify and read
    async function verify() {
      if (!answer.ok) {
        say(`Fix these first: ${answer.issues.map(issueText).join("; ")}`, "error");
        return;
      }
      const level = answer.level;
      // Verify keeps what it is given (spec section 5b): the solution of the certificate
      // Python gave for exactly this level goes back with it, so Python may only shorten it.
      const held = certificate();
      const solution = held && held.level_sha256 === answer.sha256 && Array.isArray(held.solution)
        && (held.status === "verified" || held.status === "out_of_range") ? held.solution : null;
      say("Verifying…");
      try {
        // null budgets: Python's defaults (the bridge passes arguments by position).
        const cert = await python.verify([level, null, null, solution]);
        certificates.set(cert.level_sha256, cert);
        if (cert.level_sha256 === answer.sha256 && cert.score) {
          freeArea = { sha: cert.level_sha256, cells: await python.freeArea(level) };
        }
        saveDraft(false);
        renderVerification();
        redraw();
        say(`Verification: ${status.textContent}${cert.reason && cert.status !== "verified" ? ` (${cert.reason})` : ""}.`,
          cert.status === "verified" ? "success" : "error");
      } catch (error) {
        refusal(error, error.type === "Cancelled" ? "Verification cancelled" : "Verification failed");
      }
    }

    function renderVerification() {
      const cert = certificate();
      chart.replaceChildren();
      analysis.replaceChildren();
      if (!cert) {
        status.dataset.status = "none";
        delete status.dataset.steps;
        delete status.dataset.optimal;
        status.textContent = answer && answer.ok ? "Not verified since the last edit." : "Not verified.";
        replayBox.hidden = true;
        return;
      }
      status.dataset.status = cert.status;
      status.dataset.steps = cert.steps ?? "";
      status.dataset.optimal = String(Boolean(cert.optimal));
      const steps = cert.steps === null || cert.steps === undefined ? "no solution found"
        : cert.optimal ? `${cert.steps} steps, proven minimum`
          : `${cert.steps} steps; minimum not proven (lower bound ${cert.lower_bound})`;
      status.textContent = `${cert.status}: ${steps}`;
      const space = cert.score ? cert.score.diagnostics.space : null;
      const facts = [
        ["Lower bound (search)", cert.lower_bound ?? "none"],
        ["Minimum proven", cert.optimal ? "yes" : "no"],
      ];
      if (space) {
        facts.push(
          ["Wall-aware lower bound", `${space.wall_bound} (Manhattan ${space.manhattan_bound})`],
          ["Largest free area", `${space.largest_free_area} of ${space.free_cells} free cells (outlined)`],
          ["Narrow points", space.narrow_points.length ? `${space.narrow_points.length}, largest load ${space.max_narrow_load} (drawn)` : "none"],
          ["Regions, cycle rank", `${space.component_count}, ${space.cycle_rank}`],
        );
      }
      for (const [term, value] of facts) analysis.append(el("dt", {}, term), el("dd", {}, String(value)));
      if (cert.score) {
        const { contributions, weights, total } = cert.score;
        chart.append(el("p", { "data-testid": "editor-score" }, `Design score ${total} of 100`), ...(app.snakesPrediction?.(cert) ?? []));
        for (const [name, value] of Object.entries(contributions)) {
          const share = total > 0 ? (100 * value) / total : 0;
          const weight = weights[name] || 1;
          chart.append(el("div", { class: "editor-chart-term", role: "listitem", "data-testid": "editor-chart-term",
            "data-term": name, "data-value": String(value), "data-share": share.toFixed(1) },
          el("span", { class: "editor-chart-name" }, TERM_NAMES[name] || name),
          el("span", { class: "editor-chart-bar", "aria-hidden": "true" },
            el("span", { style: `width:${Math.max(0, Math.min(100, (100 * value) / weight)).toFixed(1)}%` })),
          el("span", { class: "editor-chart-value" }, `${Number(value).toFixed(1)}/${weight} · ${share.toFixed(0)}%`)));
        }
      }
      if (Array.isArray(cert.solution) && cert.solution.length) {
        replayBox.hidden = false;
        slider.max = String(cert.solution.length);
        slider.value = String(replay.step);
        stepLabel.textContent = `step ${replay.step} of ${cert.solution.length}`;
      } else replayBox.hidden = true;
    }

    async function showStep(k) {
      const cert = certificate();
      if (!cert || !cert.solution) return;
      const step = Math.max(0, Math.min(cert.solution.length, k));
      const level = answer.level;
      if (step > 0) {
        const answerView = await python.position(level, cert.solution.slice(0, step));
        if (answer.level !== level) return;  // edited meanwhile
        replay.view = answerView.view;
      } else replay.view = null;
      replay.step = step;
      slider.value = String(step);
      stepLabel.textContent = `step ${step} of ${cert.solution.length}`;
      redraw();
    }

    function stopReplay() {
      replay.playing = false;
      clearTimeout(replay.timer);
      replay.step = 0;
      replay.view = null;
      playButton.textContent = "Play";
    }

    async function togglePlay() {
      const cert = certificate();
      if (!cert || !cert.solution) return;
      if (replay.playing) {
        replay.playing = false;
        clearTimeout(replay.timer);
        playButton.textContent = "Play";
        return;
      }
      replay.playing = true;
      playButton.textContent = "Pause";
      if (replay.step >= cert.solution.length) await showStep(0);
      const tick = async () => {
        if (!replay.playing || !alive) return;
        await showStep(replay.step + 1);
        if (replay.step >= cert.solution.length) {
          replay.playing = false;
          playButton.textContent = "Play";
          return;
        }
        replay.timer = setTimeout(tick, REPLAY_MS);
      };
      tick();
    }
    slider.addEventListener("input", () => {
      replay.playing = false;
      playButton.textContent = "Play";
      showStep(Number(slider.value));
    });

    // ---------------------------------------------------------------- try-play
    async function startTry() {
      if (!answer.ok) { say(`The level cannot be played yet: ${answer.issues.map(issueText).join("; ")}`, "error"); return; }
      let play;
      try {
        play = await import("./snakes-play.js");
      } catch {
        say("Try-play needs the game's play view, which this build lacks.", "error");
        return;
      }
      workspace.hidden = true;
      tryHost.hidden = false;
      const back = el("button", { type: "button", "data-testid": "editor-try-back", onclick: () => endTry() }, "Back to the editor");
      const playRoot = el("div", { class: "editor-try-play" });
      tryHost.replaceChildren(el("div", { class: "editor-row" }, back,
        el("span", {}, "Trying the level: moves here are not edits and are not saved as progress.")), playRoot);
      const mounted = play.mountPlay(playRoot, app, {
        level: structuredClone(answer.level), levelNumber: null, saveProgress: false,
        sha: answer.sha256, certificate: certificate(),
        onWin: () => say("Solved in try-play. Back to the editor when ready.", "success"),
      });
      tryPlay = mounted || {};
      back.focus();
    }

    function endTry() {
      if (!tryPlay) return;
      if (typeof tryPlay.unmount === "function") tryPlay.unmount();
      tryPlay = null;
      tryHost.replaceChildren();
      tryHost.hidden = true;
      workspace.hidden = false;
      board.svg.focus();
    }

    // ---------------------------------------------------------------- drafts
    /** The stored drafts list as it is (entries this editor cannot read are kept). */
    function drafts() {
      const list = app.store.drafts();
      return Array.isArray(list) ? list : [];
    }

    /** The entries that are drafts: {id, name, level, ...}; newest first. */
    function readableDrafts() {
      return drafts().filter((d) => d && typeof d === "object" && typeof d.id === "string"
        && d.level && typeof d.level === "object")
        .sort((a, b) => String(b.saved).localeCompare(String(a.saved)));
    }

    function saveDraft(explicit) {
      if (!answer) return;
      if (!draftId && !explicit && !undoStack.length) return;  // untouched copies stay unsaved
      const list = drafts();
      if (!draftId) {
        draftId = `d${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
        if (!draftName) draftName = nameInput.value.trim() || `Draft ${list.length + 1}`;
        nameInput.value = draftName;
      }
      if (explicit) draftName = nameInput.value.trim() || draftName;
      const cert = certificate();
      const entry = { id: draftId, name: draftName, level: answer.level, certificate: cert,
        origin: String(origin), saved: new Date().toISOString() };
      const at = list.findIndex((d) => d && d.id === draftId);
      if (at >= 0) list[at] = entry; else list.push(entry);
      try {
        app.store.setDrafts(list);
      } catch (error) {
        say(`The draft could not be saved: ${error.message}`, "error");
        return;
      }
      renderDrafts();
      if (explicit) say(`Draft "${draftName}" saved.`, "success");
    }

    function renderDrafts() {
      const list = readableDrafts();
      draftsList.replaceChildren(...list.map((d) => el("li", { "data-testid": "editor-draft", "data-id": d.id,
        "data-name": d.name, "aria-current": d.id === draftId ? "true" : "false" },
      el("span", {}, `${d.name}${d.certificate && d.certificate.status === "verified" ? " ✓" : ""}`),
      el("button", { type: "button", "data-testid": "editor-draft-open", onclick: () => openDraft(d.id) }, "Open"),
      el("button", { type: "button", "data-testid": "editor-draft-delete", onclick: () => deleteDraft(d.id) }, "Delete"))));
      if (!list.length) draftsList.append(el("li", {}, "No drafts yet: the first edit saves one."));
    }

    async function openDraft(id) {
      const entry = readableDrafts().find((d) => d.id === id);
      if (!entry) return;
      try {
        await open(entry.level, { id: entry.id, name: entry.name, cert: entry.certificate,
          from: /^\d+$/.test(entry.origin || "") ? Number(entry.origin) : "draft" });
        renderDrafts();
        say(`Draft "${entry.name}" opened.`);
      } catch (error) { refusal(error, `Draft "${entry.name}" cannot be opened`); }
    }

    function deleteDraft(id) {
      const list = drafts().filter((d) => !(d && d.id === id));
      app.store.setDrafts(list);
      if (id === draftId) draftId = null;
      renderDrafts();
      say("Draft deleted.");
    }
    nameInput.addEventListener("change", () => { if (draftId) saveDraft(true); });

    // ---------------------------------------------------------------- files
    async function importFrom(text, what) {
      importIssues.replaceChildren();
      if (!text || !text.trim()) { say("Nothing to import: pick a file, drop one, or paste JSON.", "error"); return; }
      let read;
      try {
        read = await python.import(text);
      } catch (error) {
        const issues = error.issues || [];
        importIssues.replaceChildren(...(issues.length ? issues : [{ path: "", message: error.message }]).map((issue) =>
          el("li", { "data-testid": "editor-import-issue" }, issueText(issue))));
        say(`${what} was refused (${issues.length || 1} problem${issues.length > 1 ? "s" : ""}); the level is unchanged.`, "error");
        return;
      }
      const name = (lv, i) => (lv.meta && (lv.meta.title || lv.meta.id)) || `Imported ${i + 1}`;
      if (read.kind === "batch") {
        const list = drafts();
        const stamp = new Date().toISOString();
        read.levels.forEach((lv, i) => {
          list.push({ id: `d${Date.now().toString(36)}i${i}`, name: name(lv, i), level: lv,
            certificate: read.certificates[i], origin: "draft", saved: stamp });
        });
        app.store.setDrafts(list);
        const first = list[list.length - read.levels.length];
        await open(first.level, { id: first.id, name: first.name, cert: first.certificate });
      } else {
        pushHistory();
        const undoKeep = undoStack;
        await open(read.levels[0], { name: name(read.levels[0], 0), cert: read.certificates[0] });
        undoStack = undoKeep;  // importing is an edit of the board: it can be undone
        undoButton.disabled = false;
      }
      renderDrafts();
      const notes = read.notes.length ? ` ${read.notes.join(" ")}` : "";
      say(`Imported ${read.levels.length} level${read.levels.length > 1 ? "s" : ""} from ${what}.${notes}`, "success");
    }

    async function importFile_(file) {
      if (!file) return;
      if (file.size > importMaxBytes) {
        importIssues.replaceChildren(el("li", { "data-testid": "editor-import-issue" }, `${file.name}: ${file.size} bytes; the limit is ${importMaxBytes}`));
        say(`${file.name} was refused: too large; the level is unchanged.`, "error");
        return;
      }
      await importFrom(await file.text(), file.name);
    }
    importFile.addEventListener("change", async () => {
      await importFile_(importFile.files[0]);
      importFile.value = "";
    });
    section.addEventListener("dragover", (event) => { event.preventDefault(); section.classList.add("editor-dropping"); });
    section.addEventListener("dragleave", () => section.classList.remove("editor-dropping"));
    section.addEventListener("drop", async (event) => {
      event.preventDefault();
      section.classList.remove("editor-dropping");
      const file = event.dataTransfer.files && event.dataTransfer.files[0];
      if (file) await importFile_(file);
      else await importFrom(event.dataTransfer.getData("text/plain"), "the dropped text");
    });
    // Pasting anywhere on the editor but into a text field imports what was pasted.
    function paste(event) {
      if (!alive || tryPlay || !section.contains(event.target) && event.target !== document.body) return;
      if (/^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
      const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
      if (!text.trim()) return;
      event.preventDefault();
      importFrom(text, "the pasted text");
    }
    document.addEventListener("paste", paste);

    async function exportBatch(items, file) {
      try {
        const text = await python.exportBatch(items);
        download(file, text);
        say(`Exported ${items.length} certified level${items.length > 1 ? "s" : ""} as ${file}.`, "success");
      } catch (error) { refusal(error, "Export refused"); }
    }

    function exportCurrent() {
      const cert = certificate();
      if (!cert || cert.status !== "verified") { say("Verify the level first: only a certified level is exported.", "error"); return; }
      exportBatch([{ level: answer.level, certificate: cert }], `${slug(draftName || (answer.level.meta && answer.level.meta.id))}.batch.json`);
    }

    function exportAll() {
      const items = readableDrafts().filter((d) => d.certificate && d.certificate.status === "verified")
        .map((d) => ({ level: d.level, certificate: d.certificate }));
      if (!items.length) { say("No draft is certified yet: verify a draft to export it.", "error"); return; }
      exportBatch(items, "drafts.batch.json");
    }

    async function share() {
      if (!answer.sha256) { say("Only a whole level can be shared: add a body first.", "error"); return; }
      try {
        const text = await python.shareText(answer.level);
        const code = await encodeShare(text);
        if (code.length > SHARE_MAX_CODE) { say("This level is too large for a link: export it as a file instead.", "error"); return; }
        shareLink.value = `${location.origin}${location.pathname}#editor/share/${code}`;
        shareLink.select();
        if (navigator.clipboard) navigator.clipboard.writeText(shareLink.value).catch(() => {});
        say(`Share link ready (${shareLink.value.length} characters).`, "success");
      } catch (error) { refusal(error, "Cannot share"); }
    }

    // ---------------------------------------------------------------- design
    function designForm() {
      const topology = el("select", { "data-testid": "editor-design-template", "aria-label": "Template" });
      const num = (testid, value, attrs = {}) => el("input", { type: "number", value, "data-testid": testid, ...attrs });
      const target = num("editor-design-target", "30", { min: "0", max: "100", step: "any" });
      const tolerance = num("editor-design-tolerance", "7", { min: "0", max: "100", step: "any" });
      const seed = num("editor-design-seed", "1", { min: "0" });
      const auto = el("input", { type: "checkbox", checked: "", "data-testid": "editor-design-auto" });
      const errors = new Map();
      const slot = (path) => {
        const span = el("span", { class: "editor-field-error", "data-path": path, "data-testid": "editor-field-error" });
        errors.set(path, span);
        return span;
      };
      const inputs = new Map();
      const groups = FIXED_GROUPS.map(([legend, path, fields]) => el("fieldset", { "data-path": path ?? "" },
        el("legend", {}, legend), path ? slot(path) : null,
        ...fields.map(([fieldPath, label, min, max]) => {
          const input = num(`editor-design-${fieldPath.replace(".", "-").replace("_", "-")}`, "", { min: String(min), max: String(max), placeholder: "free" });
          inputs.set(fieldPath, input);
          return el("label", { class: "editor-field" }, `${label} `, input, slot(fieldPath));
        })));
      const fixed = el("div", { class: "editor-fixed", "data-testid": "editor-design-fixed", hidden: "" },
        el("p", {}, "Every field you fill is fixed: the designer never relaxes it."), ...groups);
      const progressLine = el("p", { class: "editor-design-progress", "data-testid": "editor-design-progress", "aria-live": "polite" }, "");
      const general = el("ul", { class: "editor-issues", "data-testid": "editor-design-issues" });
      const go = el("button", { type: "button", class: "primary", "data-testid": "editor-design-go" }, "Design");
      const cancel = el("button", { type: "button", "data-testid": "editor-design-cancel", disabled: "" }, "Cancel");
      auto.addEventListener("change", () => { fixed.hidden = auto.checked; });

      function request() {
        const req = { topology: topology.value, target: Number(target.value), tolerance: Number(tolerance.value),
          seed: Number(seed.value), count: 1 };
        if (auto.checked) return req;
        const put = (path, value) => {
          const [head, tail] = path.split(".");
          if (!tail) req[head] = value;
          else req[head] = { ...(req[head] || {}), [tail]: value };
        };
        put("size.auto", false);
        for (const [path, input] of inputs) if (input.value.trim() !== "") put(path, Number(input.value));
        return req;
      }

      go.addEventListener("click", async () => {
        for (const span of errors.values()) span.textContent = "";
        general.replaceChildren();
        const req = request();
        designCancelled = false;
        go.disabled = true;
        cancel.disabled = false;
        progressLine.dataset.state = "running";
        progressLine.textContent = "Stage: starting…";
        let best = null;
        try {
          const batch = await python.design([req], (p) => {
            const found = /best(?: score)?\s*([\d.]+)/i.exec(p.label || "");
            if (found) best = found[1];
            if (p.best !== undefined && p.best !== null) best = p.best;
            progressLine.textContent = `Candidates ${p.done} of ${p.total} · best score so far ${best ?? "—"} · stage: ${p.label || "searching"}`;
          });
          if (!batch.levels.length) {
            const s = batch.report.shortfall || {};
            progressLine.dataset.state = "failed";
            progressLine.textContent = `No level within the budget after ${s.candidates ?? "all"} candidates (stopped by ${s.stopped_by ?? "budget"}; scores seen ${s.lowest_score ?? "—"}..${s.highest_score ?? "—"}).`;
            say("The designer found no level inside the request: loosen a fixed field or the tolerance.", "error");
            return;
          }
          const level = batch.levels[0];
          const cert = batch.certificates[0];
          pushHistory();
          const keep = undoStack;
          await open(level, { name: `Designed ${level.meta ? level.meta.template : ""} ${cert.score ? cert.score.total : ""}`.trim(), cert });
          undoStack = keep;
          undoButton.disabled = false;
          if (cert.score) freeArea = { sha: cert.level_sha256, cells: await python.freeArea(level) };
          redraw();
          progressLine.dataset.state = "done";
          progressLine.textContent = `Done: score ${cert.score ? cert.score.total : "?"}, ${cert.steps} steps, template ${level.meta ? level.meta.template : "?"}.`;
          say("Designed a level: it is on the board, verified.", "success");
        } catch (error) {
          if (designCancelled || error.type === "Cancelled") {
            progressLine.dataset.state = "cancelled";
            progressLine.textContent = "Design cancelled: the board is as it was.";
            say("Design cancelled.");
            return;
          }
          progressLine.dataset.state = "refused";
          progressLine.textContent = "";
          const issues = error.issues || [];
          for (const issue of issues) {
            const span = errors.get(issue.path) || (issue.path === "target" ? targetError : issue.path === "tolerance" ? toleranceError : null);
            if (span) span.textContent = issue.message;
            else general.append(el("li", { "data-testid": "editor-design-issue" }, issueText(issue)));
          }
          say(`The request was refused: ${issues.length ? "see the marked fields" : error.message}`, "error");
        } finally {
          go.disabled = false;
          cancel.disabled = true;
        }
      });
      cancel.addEventListener("click", () => { designCancelled = true; app.cancel(); });
      const targetError = slot("target");
      const toleranceError = slot("tolerance");

      python.topologies().then((names) => {
        topology.replaceChildren(...names.map((name) => el("option", { value: name }, name)));
      }, () => {});
      return el("details", { class: "editor-design", "data-testid": "editor-design" },
        el("summary", {}, "Design a level"),
        el("div", { class: "editor-row" },
          el("label", {}, "Template ", topology),
          el("label", {}, "Target ", target, targetError),
          el("label", {}, "± ", tolerance, toleranceError),
          el("label", {}, "Seed ", seed)),
        el("label", { class: "editor-switch" }, auto, " Recommended size (off: fix every parameter below)"),
        fixed, el("div", { class: "editor-row" }, go, cancel), progressLine, general);
    }

    // ---------------------------------------------------------------- keyboard
    function keydown(event) {
      if (!alive || tryPlay) return;
      const target = event.target;
      const typing = target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
      const key = event.key.toLowerCase();
      if ((event.ctrlKey || event.metaKey) && !typing && (key === "z" || key === "y")) {
        event.preventDefault();
        if (key === "y" || event.shiftKey) redo(); else undo();
        return;
      }
      if (target === board.svg && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const picked = TOOLS.find(([, , k]) => k === event.key);
        if (picked) { event.preventDefault(); setTool(picked[0]); say(`Tool: ${picked[1]}.`); }
      }
    }
    document.addEventListener("keydown", keydown);
    // The colour-blind letters setting redraws the board at once.
    const settingsChanged = () => { if (answer) redraw(); };
    if (typeof app.addEventListener === "function") app.addEventListener("settings", settingsChanged);

    // ---------------------------------------------------------------- start
    async function start() {
      setTool(tool);
      setColour(0);
      renderDrafts();
      const current = () => {
        return readableDrafts()[0] || null;
      };
      const fallback = async (text) => {
        // The route could not be honoured: the nearest sensible place is the editor on the
        // current draft, with the reason on the page's message line.
        if (text) {
          app.navigate("#editor", { replace: true, message: text, kind: "error" });
          return;
        }
        const entry = current();
        if (entry) {
          try {
            await open(entry.level, { id: entry.id, name: entry.name, cert: entry.certificate,
              from: /^\d+$/.test(entry.origin || "") ? Number(entry.origin) : "draft" });
            say(`Draft "${entry.name}" opened.`);
            renderDrafts();
            return;
          } catch { /* a stored draft that no longer opens: start empty */ }
        }
        const fresh = await python.blank(7, 7);
        show(fresh);
        say("An empty board: pick a tool and draw.");
      };
      try {
        if (params.level !== undefined && params.level !== null) {
          const number = Number(params.level);
          const { level, highest } = await fetchMainline(number);
          if (!level) {
            await fallback(`Main-line level ${number} is not shipped yet: levels 1–${highest} are.`);
            return;
          }
          await open(level, { from: number, name: `Main line ${number} (copy)` });
          say(`A copy of main-line level ${number}: edits never change the main line.`);
        } else if (params.share !== undefined && params.share !== null) {
          let text;
          try {
            text = await decodeShare(String(params.share));
          } catch (error) {
            await fallback(`The shared link was refused: ${error instanceof ShareError ? error.message : "it does not decode"}.`);
            return;
          }
          let read;
          try {
            read = await python.import(text);
          } catch (error) {
            await fallback(`The shared level was refused: ${(error.issues || []).map(issueText).join("; ") || error.message}.`);
            return;
          }
          await open(read.levels[0], { name: "Shared level" });
          say("A level shared by link: edit it, or save it as a draft.");
        } else {
          await fallback(null);
        }
      } catch (error) {
        say(`The editor could not start: ${error.message}`, "error");
      }
    }
    start().finally(() => { section.dataset.ready = "true"; });

    return {
      unmount() {
        alive = false;
        stopReplay();
        endTry();
        document.removeEventListener("keydown", keydown);
        document.removeEventListener("paste", paste);
        if (typeof app.removeEventListener === "function") app.removeEventListener("settings", settingsChanged);
      },
    };
  },
};
