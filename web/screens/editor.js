// The level editor (seed 004 section 6; issue 14): draw a level with tools, design one from
// a template, verify it and read its analysis, try it on the game's own play view, keep
// drafts, import and export files, and share a level by link. Every edit, verdict, score and
// search comes from Python (contract.js: app.python.editor), and so do the board's limits.
//
// This module is the editor's flow: it opens the route's level, keeps the level on the
// board (editor-state.js: the state and the edit history), runs edits through one serial
// queue and has the parts draw: the board (editor-board.js) with the tools that turn its
// gestures into edits (editor-tools.js), the property panel (editor-props.js), the
// verification read-out and chart (editor-verify.js), the solution replay and try-play
// (editor-replay.js), the design form (editor-design.js), the drafts (editor-drafts.js),
// import, export and share links (editor-files.js, editor-share.js); and the workbench of
// issue 23: the live status after each edit with the reasons a level fails marked on the
// board (editor-live.js), the arrange tools (editor-transform.js) and a batch at a glance
// (editor-batch.js).

import { serialQueue } from "../contract.js";
import { t } from "../i18n.js";
import { el } from "./dom.js";
import { batchPanel } from "./editor-batch.js";
import { EditorBoard } from "./editor-board.js";
import { designForm } from "./editor-design.js";
import { draftsPanel } from "./editor-drafts.js";
import { editorFiles } from "./editor-files.js";
import { livePanel } from "./editor-live.js";
import { propsPanel } from "./editor-props.js";
import { solutionReplay, tryPlayView } from "./editor-replay.js";
import { decodeShare, ShareError } from "./editor-share.js";
import { EditHistory, editorState, issueText } from "./editor-state.js";
import { editorTools } from "./editor-tools.js";
import { transformBar } from "./editor-transform.js";
import { verifyPanel } from "./editor-verify.js";
import { mainlineLevel, shippedCount } from "./levels.js";

let cssLinked = false;
function linkCss() {
  if (cssLinked) return;
  cssLinked = true;
  document.head.append(el("link", { rel: "stylesheet", href: new URL("./editor.css", import.meta.url).href }));
}

/** Main-line level N (from the site's levels/ blocks, as the map reads them) and the
 * highest level shipped; `level` is null when N is not shipped. */
async function fetchMainline(number) {
  const [found, highest] = await Promise.all([mainlineLevel(number), shippedCount()]);
  return { level: found ? found.level : null, highest };
}

export const screen = {
  id: "editor",
  get title() { return t("route.screen.editor"); },
  mount(root, app, params = {}) {
    linkCss();
    const python = app.python.editor;
    // The editor's state, and what every part may call (the parts are made below; none of
    // them calls before start()).
    const ed = editorState();
    const history = new EditHistory(ed);
    Object.assign(ed, {
      app, python, history,
      palette: (app.palette && app.palette.PALETTE) || [],
      letters: (app.palette && app.palette.LETTERS) || [],
      say, refusal, show, redraw, open, edit, applyEdit, queued, undo, redo,
      renderProps: () => props.render(),
      saveDraft: (explicit) => drafts.save(explicit),
      setDraft: (id, name) => drafts.setCurrent(id, name),
      showSolution: (steps) => replay.show(steps),
      showBatch: (batch) => batch ? batches.show(batch) : batches.hide(),
      ink: app.palette && app.palette.inkOn ? app.palette.inkOn : null,
    });

    // ---------------------------------------------------------------- layout
    const message = el("p", { class: "editor-message", "data-testid": "editor-message", "aria-live": "polite" });
    const tools = editorTools(ed);
    ed.arrange = transformBar(ed);
    const live = livePanel(ed);
    const batches = batchPanel(ed);
    const props = propsPanel(ed);
    const verification = verifyPanel(ed);
    const replay = solutionReplay(ed);
    const drafts = draftsPanel(ed);
    ed.drafts = drafts;
    const files = editorFiles(ed, drafts);
    const design = designForm(ed);
    app.python.snakes.facts().then((facts) => {
      tools.limits(facts);
      files.limits(facts);
      verification.limits(facts);
      design.limits(facts);
    }).catch(() => {});
    const issuesList = el("ul", { class: "editor-issues", "data-testid": "editor-issues" });
    const boardHost = el("div", { class: "editor-board-host" });
    const button = (testid, label, onclick, attrs = {}) =>
      el("button", { type: "button", "data-testid": testid, onclick, ...attrs }, label);
    const workspace = el("div", { class: "editor-workspace" },
      el("div", { class: "editor-left" },
        ...tools.elements, ed.arrange.element, boardHost, replay.element,
        el("div", { class: "editor-row" },
          button("editor-verify", t("editor.verify"), () => verification.verify(), { class: "primary" }),
          button("editor-try", t("editor.try"), () => tryView.start()),
          button("editor-export", t("editor.export"), () => files.exportCurrent()),
          button("editor-export-all", t("editor.export-all"), () => files.exportAll()),
          button("editor-share", t("editor.share"), () => files.share())),
        files.shareLink),
      el("div", { class: "editor-right" },
        live.element,
        props.element,
        el("section", {}, el("h3", {}, t("editor.to-fix")), issuesList),
        verification.element,
        design.element,
        files.importSection,
        drafts.element,
        batches.element));
    const tryView = tryPlayView(ed, workspace, () => board.svg.focus());
    // Tests and tools wait for data-ready on the section of the route they opened.
    const section = el("section", { class: "editor", "data-testid": "editor",
      "data-route": app.route ? app.route.hash : "#editor" }, message, workspace, tryView.element);
    root.append(section);
    const board = new EditorBoard(boardHost, {
      gesture: (kind, cells) => tools.gesture(kind, cells),
      mode: () => (["stone", "path", "bridge"].includes(ed.tool) ? "paint" : ed.tool === "body" ? "path" : ed.tool === "select" ? "area" : "click"),
      describe: () => t("editor.board-label", { tool: t(`editor.tool.${ed.tool}`) }),
    });
    const detachFiles = files.attach(section);

    function say(text, kind = "info") {
      message.textContent = text;
      message.dataset.kind = kind;
    }

    function refusal(error, what) {
      const issues = error.issues || [];
      say(t("editor.refusal", { what, detail: issues.length ? issues.map(issueText).join("; ") : error.message }), "error");
    }

    // ---------------------------------------------------------------- the level on the board
    /** Put Python's answer `next` ({level, issues, ok, sha256}) on the board and redraw. */
    function show(next) {
      ed.answer = next;
      replay.stop();
      tools.sync();
      issuesList.replaceChildren(...next.issues.map((issue) =>
        el("li", { "data-testid": "editor-issue", "data-path": issue.path }, issueText(issue))));
      if (!next.issues.length) issuesList.append(el("li", { class: "editor-ok" }, t("editor.nothing-to-fix")));
      const { selected } = ed;
      if (selected && !(selected.kind === "body" ? next.level.bodies : next.level.holes)[selected.index]) ed.selected = null;
      ed.arrange.fit(next.level);
      props.render();
      verification.render();
      live.schedule();
      redraw();
    }

    function redraw() {
      const { answer, freeArea, replay: shown } = ed;
      const cert = ed.certificate();
      const space = cert && cert.score ? cert.score.diagnostics.space : null;
      board.render({
        level: answer.level, levelAttr: String(ed.origin), sha: answer.sha256, palette: ed.palette,
        letters: app.settings && app.settings.colourLetters ? ed.letters : null,
        selected: ed.selected, view: shown.step > 0 ? shown.view : null, viewSteps: shown.step,
        narrow: space ? space.narrow_points : [],
        freeArea: cert && freeArea && freeArea.sha === answer.sha256 ? freeArea.cells : null,
        reasons: ed.liveReasons || [], ink: ed.ink,
        area: ed.area ? [[ed.area[0], ed.area[1]], [ed.area[2], ed.area[3]]] : null,
      });
    }

    /** Open `level` on the board: a new history unless `keepHistory` (an import or a design
     * recorded its own step), draft `id` named `name`, `from` "draft" or a main-line number. */
    async function open(level, { from = "draft", id = null, name = "", cert = null, keepHistory = false, rev = 0 } = {}) {
      const opened = await python.open(level);
      if (!keepHistory) history.clear();
      ed.selected = null;
      ed.area = null;
      ed.origin = from;
      drafts.setCurrent(id, name, rev);
      if (cert && opened.sha256 && cert.level_sha256 === opened.sha256) {
        ed.certificates.set(opened.sha256, cert);
        // The analysis says the largest free area is outlined: it is, however the
        // certificate came (imported, designed, a draft's).
        if (cert.score) ed.freeArea = { sha: opened.sha256, cells: await python.freeArea(level) };
      }
      show(opened);
      return opened;
    }

    // ---------------------------------------------------------------- edits
    // Edits, undo and redo run one after another, each on the level its predecessor left:
    // a second gesture made while Python answers the first is applied after it, never lost.
    const queue = serialQueue({ report: (error) => say(error.message, "error") });
    function queued(task) { return queue.run(task); }

    /** Send edit `request` to Python and show the answer as one undo step; rejects (and
     * changes nothing) when Python refuses it. `select(level)` picks what is selected after. */
    async function applyEdit(request, { select = null } = {}) {
      const next = await python.edit(ed.answer.level, request);
      history.record();
      live.edited(request);
      ed.origin = "draft";
      if (select) ed.selected = select(next.level);
      show(next);
      drafts.save(false);
      return next;
    }

    /** Apply `change` (an edit, or a function of the current level returning one), in turn;
     * resolves to whether Python took it (a refusal is said on the message line). */
    function edit(change, options = {}) {
      return queued(async () => {
        try {
          await applyEdit(typeof change === "function" ? change(ed.answer.level) : change, options);
          return true;
        } catch (error) {
          refusal(error, t("editor.refused"));
          return false;
        }
      });
    }

    function undo() { return queued(() => travel(() => history.undo(), t("editor.undone"), "undo")); }
    function redo() { return queued(() => travel(() => history.redo(), t("editor.redone"), "redo")); }

    function travel(move, words, change) {
      if (ed.tryPlay || !move()) return;
      live.edited(change);
      show(ed.answer);
      drafts.save(false);
      say(words);
    }

    // ---------------------------------------------------------------- keyboard
    function keydown(event) {
      if (!ed.alive || ed.tryPlay) return;
      const target = event.target;
      const typing = target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
      const key = event.key.toLowerCase();
      if ((event.ctrlKey || event.metaKey) && !typing && (key === "z" || key === "y")) {
        event.preventDefault();
        if (key === "y" || event.shiftKey) redo(); else undo();
        return;
      }
      if (target === board.svg && !event.ctrlKey && !event.metaKey && !event.altKey) {
        if (tools.pickByKey(event.key)) event.preventDefault();
      }
    }
    document.addEventListener("keydown", keydown);
    // The colour-blind letters setting redraws the board at once.
    const settingsChanged = () => { if (ed.answer) redraw(); };
    if (typeof app.addEventListener === "function") app.addEventListener("settings", settingsChanged);

    // ---------------------------------------------------------------- start
    /** The route could not be honoured (`text` says why): the nearest sensible place is the
     * editor on the current draft, with the reason on the page's message line. Without a
     * reason: the newest draft, else an empty board. */
    async function fallback(text) {
      if (text) {
        app.navigate("#editor", { replace: true, message: text, kind: "error" });
        return;
      }
      const entry = drafts.readable()[0] || null;
      if (entry) {
        try {
          await drafts.openEntry(entry);
          return;
        } catch { /* a stored draft that no longer opens: start empty */ }
      }
      show(await python.blank(7, 7));
      say(t("editor.empty-board"));
    }

    async function openShared(code) {
      let text;
      try {
        text = await decodeShare(String(code));
      } catch (error) {
        await fallback(t("editor.share-refused", { why: error instanceof ShareError ? error.message : t("editor.share-undecodable") }));
        return;
      }
      let read;
      try {
        read = await python.import(text);
      } catch (error) {
        await fallback(t("editor.shared-level-refused", { why: (error.issues || []).map(issueText).join("; ") || error.message }));
        return;
      }
      await open(read.levels[0], { name: t("editor.shared-name") });
      say(t("editor.shared-opened"));
    }

    async function start() {
      tools.setTool(ed.tool);
      tools.setColour(0);
      drafts.render();
      try {
        if (params.level !== undefined && params.level !== null) {
          const number = Number(params.level);
          const { level, highest } = await fetchMainline(number);
          if (!level) {
            await fallback(t("editor.not-shipped", { level: number, highest }));
            return;
          }
          await open(level, { from: number, name: t("editor.copy-name", { level: number }) });
          say(t("editor.copy-opened", { level: number }));
        } else if (params.share !== undefined && params.share !== null) {
          await openShared(params.share);
        } else {
          await fallback(null);
        }
      } catch (error) {
        say(t("editor.start-failed", { detail: error.message }), "error");
      }
    }
    start().finally(() => { section.dataset.ready = "true"; });

    return {
      unmount() {
        ed.alive = false;
        replay.stop();
        live.stop();
        drafts.detach();
        tryView.end();
        document.removeEventListener("keydown", keydown);
        detachFiles();
        if (typeof app.removeEventListener === "function") app.removeEventListener("settings", settingsChanged);
      },
    };
  },
};
