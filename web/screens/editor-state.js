// The editor's state (shared by the editor's modules; editor.js makes one per mount): the
// level on the board as Python last answered it, where it came from, the tool, colour and
// selection, the certificates known by level SHA-256, the replayed step, and the edit
// history. Data only: every edit, verdict and score is Python's.

import { has, t } from "../i18n.js";

/** Edits kept for undo (docs/editor.md). */
export const HISTORY_LIMIT = 200;

/** A field-path issue as one line: what to do (its `sentence`) when Python knows it, else in
 * Python's words for the page (its `place` and `text`)
 * when it has them, else its path and message. */
export function issueText(issue) {
  if (typeof issue.sentence === "string") return issue.sentence;  // what to do, when Python knows
  if (typeof issue.text === "string") return issue.place ? t("editor.issue-line", { place: issue.place, text: issue.text }) : issue.text;
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}

/** An issue's message alone (shown beside the field its path names). */
export function issueWords(issue) {
  return typeof issue.text === "string" ? issue.text : issue.message;
}

/** Colour `i` by its name in the page's language ("red", "红"). */
export function colourName(i) {
  return has(`announce.colour.${i}`) ? t(`announce.colour.${i}`) : t("announce.colour.other");
}

/** Cell [x, y] as a designer counts it on the board. */
export function cellWords([x, y]) {
  return t("words.cell", { column: x + 1, row: y + 1 });
}

/**
 * The editor's place. `answer` is Python's last answer for the board ({level, issues, ok,
 * sha256}); `origin` "draft" or the main-line number this is an unedited copy of; `draftId`
 * and `draftName` the entry of gridforge.drafts it is saved to; `selected` {kind: "body" |
 * "hole", index} or null; `certificates` level SHA-256 -> certificate (this session and the
 * drafts); `freeArea` {sha, cells}; `replay` the solution step shown ({step, view}, step 0
 * being the level itself); `tryPlay` the mounted play view while trying the level.
 */
export function editorState() {
  return {
    /** @type {import("../types/bridge").DraftAnswer | null} */
    answer: null,
    /** @type {string | number} */
    origin: "draft",
    /** @type {string | null} */
    draftId: null,
    draftName: "",
    tool: "body",
    color: 0,
    selected: null,
    /** @type {Map<string, import("../types/bridge").Certificate>} */
    certificates: new Map(),
    freeArea: null,
    replay: { step: 0, view: null },
    tryPlay: null,
    alive: true,
    /** The certificate of the level on the board, or null. */
    certificate() {
      return this.answer && this.answer.sha256 ? this.certificates.get(this.answer.sha256) || null : null;
    },
  };
}

/**
 * Undo and redo of `state`'s board: each step keeps {answer, selected, origin}. Edits,
 * importing one level, designing and "New empty" record a step (edits only, never play
 * moves); opening a draft, a batch or another route starts a new history (clear()).
 */
export class EditHistory {
  constructor(state, limit = HISTORY_LIMIT) {
    this.state = state;
    this.limit = limit;
    this.undoStack = [];
    this.redoStack = [];
  }

  snapshot() {
    const { answer, selected, origin } = this.state;
    return { answer, selected, origin };
  }

  restore(step) {
    ({ answer: this.state.answer, selected: this.state.selected, origin: this.state.origin } = step);
  }

  /** Keep the board as it is now as one undo step (before it changes); redo is dropped. */
  record() {
    if (!this.state.answer) return;
    this.undoStack.push(this.snapshot());
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
  }

  /** Go one step back; false when there is none. */
  undo() {
    if (!this.undoStack.length) return false;
    this.redoStack.push(this.snapshot());
    this.restore(this.undoStack.pop());
    return true;
  }

  /** Go one step forward again; false when there is none. */
  redo() {
    if (!this.redoStack.length) return false;
    this.undoStack.push(this.snapshot());
    this.restore(this.redoStack.pop());
    return true;
  }

  clear() {
    this.undoStack = [];
    this.redoStack = [];
  }

  get canUndo() { return this.undoStack.length > 0; }
  get canRedo() { return this.redoStack.length > 0; }
}
