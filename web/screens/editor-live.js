// The editor's live status (issue 23; used by editor.js): after each edit, once the designer
// pauses, Python says whether the level is solvable, its bound, the best solution found and
// its score, within a counted budget (Python in the worker, a quiet call: no overlay).
// The next edit cancels a status still running (where the page can interrupt Python) and
// a late answer for an older level is dropped. When a level turns unsolvable, the status names
// the edit that made it so, and the reasons Python finds are listed and marked on the board
// (ed.liveReasons, drawn by editor-board.js). Verify stays for the full budget.

import { has, t } from "../i18n.js";
import { el } from "./dom.js";
import { cellWords, liveReasonsSet } from "./editor-state.js";

/** Pause after an edit before the status is asked for (a burst of edits asks once). */
export const LIVE_DELAY_MS = 250;

// The status's words and the edits' names, from the catalogue (editor.live.*, editor.edit.*),
// looked up when said: a change of language takes effect on the next status.
export const LIVE_WORDS = {
  title: () => t("editor.live.title"),
  pending: () => t("editor.live.pending"),
  unfinished: () => t("editor.live.unfinished"),
  solvable: (s) => t(s.optimal ? "editor.live.solvable.optimal" : "editor.live.solvable",
    { steps: s.steps, bound: s.lower_bound, score: s.score ?? "—" }),
  unknown: (s) => t(s.lower_bound !== null ? "editor.live.unknown.bound" : "editor.live.unknown",
    { budget: s.budget, bound: s.lower_bound }),
  unsolvable: (s, cause) => t(cause ? "editor.live.unsolvable.since" : "editor.live.unsolvable",
    { cause, reason: s.reason || t("editor.live.exhausted") }),
  failed: (why) => t("editor.live.failed", { why }),
  edits: {
    stone: (e) => t(e.erase ? "editor.edit.stone.erased" : "editor.edit.stone.placed"),
    erase: (e) => t("editor.edit.erase", { cell: cellWords(e.cell) }),
    hole: (e) => t("editor.edit.hole", { cell: cellWords(e.cell) }),
    body: () => t("editor.edit.body"),
    resize: (e) => t("editor.edit.resize", { cols: e.cols, rows: e.rows }),
    body_props: (e) => t("editor.edit.body-props", { body: e.index + 1 }),
    hole_props: (e) => t("editor.edit.hole-props", { hole: e.index + 1 }),
    transform: (e) => (has(`editor.edit.transform.${e.op}`) ? t(`editor.edit.transform.${e.op}`) : t("editor.edit.other")),
    undo: () => t("editor.edit.undo"), redo: () => t("editor.edit.redo"), other: () => t("editor.edit.other"),
  },
};

/** The words for edit `request` ({tool, ...}) or a named change ("undo"). */
export function editWords(request) {
  const words = LIVE_WORDS.edits;
  if (typeof request === "string") return (words[request] || words.other)({});
  return (words[request && request.tool] || words.other)(request || {});
}

/** The live status of the editor `ed`: {element, edited(change), schedule(), stop()}. */
export function livePanel(ed) {
  const line = el("p", { class: "editor-live", "data-testid": "editor-live", "data-state": "none", "aria-live": "polite" });
  const reasons = el("ul", { class: "editor-issues", "data-testid": "editor-reasons" });
  const element = el("section", { class: "editor-live-panel" }, el("h3", {}, LIVE_WORDS.title()), line, reasons);
  let timer = null;
  let running = null;     // the status call in flight
  let lastChange = null;  // words of the change since the last status
  let cause = null;       // words of the change that made the level unsolvable
  let settled = "none";   // the state of the last status shown
  liveReasonsSet(ed, []);

  /** Note the change just made (an edit request, or "undo" / "redo"). */
  function edited(change) { lastChange = editWords(change); }

  function draw(/** @type {string} */ state, /** @type {string} */ text,
    /** @type {import("../types/bridge").StatusAnswer | null} */ status = null) {
    line.dataset.state = state;
    line.dataset.sha = ed.answer.sha256 || "";
    for (const key of ["steps", "bound", "score"]) delete line.dataset[key];
    if (status) {
      if (status.steps !== null) line.dataset.steps = String(status.steps);
      if (status.lower_bound !== null) line.dataset.bound = String(status.lower_bound);
      if (status.score !== null) line.dataset.score = String(status.score);
    }
    line.textContent = text;
  }

  /** Cancel the status call when it is the one Python is running now (never a Verify or a
   * design that happens to run before it). */
  function cancelRunning() {
    const name = ed.python.status.pythonName;
    if (running && self.crossOriginIsolated && ed.app.running && ed.app.running() === name) ed.app.cancel();
  }

  /** The board changed: ask again once the designer pauses; a status running is cancelled. */
  function schedule() {
    clearTimeout(timer);
    if (ed.liveReasons.length) liveReasonsSet(ed, []);
    reasons.replaceChildren();
    draw("pending", LIVE_WORDS.pending());
    // Interrupting Python needs shared memory (cross-origin isolation); elsewhere a cancel
    // would restart the worker, so the late answer is only dropped.
    cancelRunning();
    timer = setTimeout(run, LIVE_DELAY_MS);
  }

  async function run() {
    timer = null;
    const answer = ed.answer;
    if (!ed.alive || !answer) return;
    const call = ed.python.status(answer.level, ed.liveBudget ?? null);
    running = call;
    let status = null;
    try {
      status = await call;
    } catch (error) {
      if (error.type !== "Cancelled" && ed.answer === answer) draw("failed", LIVE_WORDS.failed(error.message));
      return;
    } finally {
      if (running === call) running = null;
    }
    if (!ed.alive || ed.answer !== answer) return;  // an older level's answer
    show(status);
  }

  function show(status) {
    const { state } = status;
    if (state === "unsolvable") {
      if (settled !== "unsolvable") cause = lastChange;
    } else cause = null;
    if (state !== "unfinished") settled = state;
    lastChange = null;
    liveReasonsSet(ed, status.reasons || []);
    reasons.replaceChildren(...ed.liveReasons.map((r) => el("li", { "data-testid": "editor-reason-text", "data-kind": r.kind }, r.text)));
    const text = state === "solvable" ? LIVE_WORDS.solvable(status)
      : state === "unknown" ? LIVE_WORDS.unknown(status)
        : state === "unsolvable" ? LIVE_WORDS.unsolvable(status, cause) : LIVE_WORDS.unfinished();
    draw(state, text, status);
    if (cause && state === "unsolvable") line.dataset.cause = cause; else delete line.dataset.cause;
    ed.redraw();
  }

  /** The editor leaves: no status is asked for any more, and one running is cancelled (the
   * next screen's calls need not wait for it). */
  function stop() {
    clearTimeout(timer);
    timer = null;
    cancelRunning();
  }

  return { element, edited, schedule, stop };
}
