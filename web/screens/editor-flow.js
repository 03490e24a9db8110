// The editor's flow (editor.js): the message line, the level on the board put there from
// Python's answers and redrawn, the serial queue of edits with undo and redo, and the
// keyboard. Every function takes the editor's object `e`: the shared state `ed`
// (editor-state.js), Python's editor, the history and the parts that draw.
import { serialQueue } from "../contract.js";
import { t } from "../i18n.js";
import { el } from "./dom.js";
import { answered, drafted, freeAreaFound, issueText, levelOpened, selectedSet, selectionChecked } from "./editor-state.js";

export function say(e, text, kind = "info") {
  e.message.textContent = text;
  e.message.dataset.kind = kind;
}

export function refusal(e, error, what) {
  const issues = error.issues || [];
  say(e, t("editor.refusal", { what, detail: issues.length ? issues.map(issueText).join("; ") : error.message }), "error");
}

/** One thing still to fix: Python's sentence when it has one (what to do), with the field
 * path and the engine's message folded in a details line for designers who want them. */
function issueItem(issue) {
  const item = el("li", { "data-testid": "editor-issue", "data-path": issue.path });
  if (typeof issue.sentence !== "string") {
    item.textContent = issueText(issue);
    return item;
  }
  item.append(el("span", { "data-testid": "editor-issue-sentence" }, issue.sentence), " ",
    el("details", { class: "editor-issue-details" }, el("summary", {}, t("editor.issue-details")),
      el("code", {}, !issue.path || issue.message.startsWith(`${issue.path}: `) ? issue.message
        : `${issue.path}: ${issue.message}`)));
  return item;
}

/** Put Python's answer `next` ({level, issues, ok, sha256}) on the board and redraw.
 * @param {any} e @param {import("../types/bridge").DraftAnswer} next */
export function show(e, next) {
  const { ed, issuesList } = e;
  answered(ed, next);
  e.replay.stop();
  e.tools.sync();
  issuesList.replaceChildren(...next.issues.map((issue) => issueItem(issue)));
  if (!next.issues.length) issuesList.append(el("li", { class: "editor-ok" }, t("editor.nothing-to-fix")));
  selectionChecked(ed);
  ed.arrange.fit(next.level);
  e.props.render();
  e.verification.render();
  e.live.schedule();
  redraw(e);
}

export function redraw(e) {
  const { ed, app } = e;
  const { answer, freeArea, replay: shown } = ed;
  const cert = ed.certificate();
  const space = cert && cert.score ? cert.score.diagnostics.space : null;
  e.board.render({
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
/**
 * @param {any} e
 * @param {any} level
 * @param {{from?: string | number, id?: string | null, name?: string,
 *   cert?: import("../types/bridge").Certificate | null, keepHistory?: boolean, rev?: number}} options
 */
export async function open(e, level, { from = "draft", id = null, name = "", cert = null, keepHistory = false, rev = 0 } = {}) {
  const { ed, python } = e;
  const opened = await python.open(level);
  if (!keepHistory) e.history.clear();
  levelOpened(ed, from);
  e.drafts.setCurrent(id, name, rev);
  if (cert && opened.sha256 && cert.level_sha256 === opened.sha256) {
    ed.certificates.set(opened.sha256, cert);
    // The analysis says the largest free area is outlined: it is, however the
    // certificate came (imported, designed, a draft's).
    if (cert.score) freeAreaFound(ed, opened.sha256, await python.freeArea(level));
  }
  show(e, opened);
  return opened;
}

// Edits, undo and redo run one after another, each on the level its predecessor left:
// a second gesture made while Python answers the first is applied after it, never lost.
export function editQueue(e) {
  return serialQueue({ report: (error) => say(e, error.message, "error") });
}

export function queued(e, task) { return e.queue.run(task); }

/** Send edit `request` to Python and show the answer as one undo step; rejects (and
 * changes nothing) when Python refuses it. `select(level)` picks what is selected after. */
export async function applyEdit(e, request,
  /** @type {{select?: ((level: any) => any) | null}} */ { select = null } = {}) {
  const { ed } = e;
  const next = await e.python.edit(ed.answer.level, request);
  e.history.record();
  e.live.edited(request);
  drafted(ed);
  if (select) selectedSet(ed, select(next.level));
  show(e, next);
  e.drafts.save(false);
  return next;
}

/** Apply `change` (an edit, or a function of the current level returning one), in turn;
 * resolves to whether Python took it (a refusal is said on the message line). */
export function edit(e, change, options = {}) {
  return queued(e, async () => {
    try {
      await applyEdit(e, typeof change === "function" ? change(e.ed.answer.level) : change, options);
      return true;
    } catch (error) {
      refusal(e, error, t("editor.refused"));
      return false;
    }
  });
}

export function undo(e) { return queued(e, () => travel(e, () => e.history.undo(), t("editor.undone"), "undo")); }
export function redo(e) { return queued(e, () => travel(e, () => e.history.redo(), t("editor.redone"), "redo")); }

function travel(e, move, words, change) {
  if (e.ed.tryPlay || !move()) return;
  e.live.edited(change);
  show(e, e.ed.answer);
  e.drafts.save(false);
  say(e, words);
}

/** Whether the key's target is a field being typed in (its keys are its own). */
function inField(target) {
  return Boolean(target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** Ctrl/Cmd+Z and Y undo and redo (outside a field); a letter on the board picks a tool. */
export function keydown(e, event) {
  if (!e.ed.alive || e.ed.tryPlay) return;
  const target = event.target;
  const typing = inField(target);
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && !typing && (key === "z" || key === "y")) {
    event.preventDefault();
    if (key === "y" || event.shiftKey) redo(e); else undo(e);
    return;
  }
  if (target === e.board.svg && !event.ctrlKey && !event.metaKey && !event.altKey) {
    if (e.tools.pickByKey(event.key)) event.preventDefault();
  }
}
