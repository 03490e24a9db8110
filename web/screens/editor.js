// The level editor (seed 004 section 6; issue 14): draw a level with tools, design one from
// a template, verify it and read its analysis, try it on the game's own play view, keep
// drafts, import and export files, and share a level by link. Every edit, verdict, score and
// search comes from Python (contract.js: app.python.editor), and so do the board's limits.
//
// This module lays the editor out and wires its parts; its flow (editor-flow.js) keeps the
// level on the board (editor-state.js: the state and the edit history), runs edits through
// one serial queue and has the parts draw, and editor-start.js opens the route's level.
// The parts: the board (editor-board.js) with the tools that turn its
// gestures into edits (editor-tools.js), the property panel (editor-props.js), the
// verification read-out and chart (editor-verify.js), the solution replay and try-play
// (editor-replay.js), the design form (editor-design.js), the drafts (editor-drafts.js),
// import, export and share links (editor-files.js, editor-share.js); and the workbench of
// issue 23: the live status after each edit with the reasons a level fails marked on the
// board (editor-live.js), the arrange tools (editor-transform.js) and a batch at a glance
// (editor-batch.js).

import { t } from "../i18n.js";
import { el } from "./dom.js";
import { batchPanel } from "./editor-batch.js";
import { EditorBoard } from "./editor-board.js";
import { designForm } from "./editor-design.js";
import { draftsPanel } from "./editor-drafts.js";
import { editorFiles } from "./editor-files.js";
import { applyEdit, edit, editQueue, keydown, open, queued, redo, redraw, refusal, say, show, undo } from "./editor-flow.js";
import { livePanel } from "./editor-live.js";
import { propsPanel } from "./editor-props.js";
import { solutionReplay, tryPlayView } from "./editor-replay.js";
import { start } from "./editor-start.js";
import { EditHistory, editorState, left, partsBuilt } from "./editor-state.js";
import { editorTools } from "./editor-tools.js";
import { transformBar } from "./editor-transform.js";
import { verifyPanel } from "./editor-verify.js";

let cssLinked = false;
function linkCss() {
  if (cssLinked) return;
  cssLinked = true;
  document.head.append(el("link", { rel: "stylesheet", href: new URL("./editor.css", import.meta.url).href }));
}

/** The editor's object `e` of one mount: the shared state `ed`, with what every part may
 * call (the parts are made after it; none of them calls before start()). */
function editorObject(app) {
  const python = app.python.editor;
  const ed = editorState();
  const history = new EditHistory(ed);
  const e = { app, python, ed, history };
  partsBuilt(ed, {
    app, python, history,
    // The board's colours in the theme in use (a theme change mounts the editor again).
    palette: app.palette ? app.palette.PALETTE.map((_, i) => app.palette.colour(i)) : [],
    letters: (app.palette && app.palette.LETTERS) || [],
    say: (...args) => say(e, ...args),
    refusal: (...args) => refusal(e, ...args),
    show: (next) => show(e, next),
    redraw: () => redraw(e),
    open: (level, options) => open(e, level, options),
    edit: (...args) => edit(e, ...args),
    applyEdit: (request, options) => applyEdit(e, request, options),
    queued: (task) => queued(e, task),
    undo: () => undo(e),
    redo: () => redo(e),
    renderProps: () => e.props.render(),
    saveDraft: (explicit) => e.drafts.save(explicit),
    setDraft: (id, name) => e.drafts.setCurrent(id, name),
    showSolution: (steps) => e.replay.show(steps),
    showBatch: (batch) => batch ? e.batches.show(batch) : e.batches.hide(),
    ink: app.palette && app.palette.inkOn ? app.palette.inkOn : null,
  });
  return e;
}

/** The editor's parts, made on `e`: tools, panels, replay, drafts, files, design. */
function editorParts(e) {
  const { ed, app } = e;
  e.message = el("p", { class: "editor-message", "data-testid": "editor-message", "aria-live": "polite" });
  const tools = e.tools = editorTools(ed);
  partsBuilt(ed, { arrange: transformBar(ed) });
  e.live = livePanel(ed);
  e.batches = batchPanel(ed);
  e.props = propsPanel(ed);
  const verification = e.verification = verifyPanel(ed);
  e.replay = solutionReplay(ed);
  const drafts = e.drafts = draftsPanel(ed);
  partsBuilt(ed, { drafts });
  const files = e.files = editorFiles(ed, drafts);
  const design = e.design = designForm(ed);
  app.python.snakes.facts().then((facts) => {
    tools.limits(facts);
    files.limits(facts);
    verification.limits(facts);
    design.limits(facts);
  }).catch(() => {});
  e.issuesList = el("ul", { class: "editor-issues", "data-testid": "editor-issues" });
}

/** The editor's page into `root`: the board and its rows on the left, the panels on the
 * right, the try-play view; returns the section. */
function editorPage(e, root) {
  const { ed, app, tools, files } = e;
  const boardHost = el("div", { class: "editor-board-host" });
  const button = (testid, label, onclick, attrs = {}) =>
    el("button", { type: "button", "data-testid": testid, onclick, ...attrs }, label);
  const workspace = el("div", { class: "editor-workspace" },
    el("div", { class: "editor-left" },
      ...tools.elements, ed.arrange.element, boardHost, e.replay.element,
      el("div", { class: "editor-row" },
        button("editor-verify", t("editor.verify"), () => e.verification.verify(), { class: "primary" }),
        button("editor-try", t("editor.try"), () => e.tryView.start()),
        button("editor-export", t("editor.export"), () => files.exportCurrent()),
        button("editor-export-all", t("editor.export-all"), () => files.exportAll()),
        button("editor-share", t("editor.share"), () => files.share())),
      files.shareLink),
    el("div", { class: "editor-right" },
      e.live.element,
      e.props.element,
      el("section", {}, el("h3", {}, t("editor.to-fix")), e.issuesList),
      e.verification.element,
      e.design.element,
      files.importSection,
      e.drafts.element,
      e.batches.element));
  e.tryView = tryPlayView(ed, workspace, () => e.board.svg.focus(), () => e.verification.verify());
  // Tests and tools wait for data-ready on the section of the route they opened.
  const section = el("section", { class: "editor", "data-testid": "editor",
    "data-route": app.route ? app.route.hash : "#editor" }, e.message, workspace, e.tryView.element);
  root.append(section);
  e.board = new EditorBoard(boardHost, {
    gesture: (kind, cells) => tools.gesture(kind, cells),
    mode: () => (["stone", "path", "bridge"].includes(ed.tool) ? "paint" : ed.tool === "body" ? "path" : ed.tool === "select" ? "area" : "click"),
    describe: () => t("editor.board-label", { tool: t(`editor.tool.${ed.tool}`) }),
  });
  return section;
}

export const screen = {
  id: "editor",
  get title() { return t("route.screen.editor"); },
  /** @param {HTMLElement} root @param {import("../app.js").App} app */
  mount(root, app, params = {}) {
    linkCss();
    const e = editorObject(app);
    const { ed } = e;
    editorParts(e);
    const section = editorPage(e, root);
    const detachFiles = e.files.attach(section);
    e.queue = editQueue(e);
    const onKey = (event) => keydown(e, event);
    document.addEventListener("keydown", onKey);
    // The colour-blind letters setting redraws the board at once.
    const settingsChanged = () => { if (ed.answer) redraw(e); };
    if (typeof app.addEventListener === "function") app.addEventListener("settings", settingsChanged);
    start(e, params).finally(() => { section.dataset.ready = "true"; });

    return {
      unmount() {
        left(ed);
        e.replay.stop();
        e.live.stop();
        e.drafts.detach();
        e.tryView.end();
        document.removeEventListener("keydown", onKey);
        detachFiles();
        if (typeof app.removeEventListener === "function") app.removeEventListener("settings", settingsChanged);
      },
    };
  },
};
