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
    /** @type {any} */ tryPlay: null,
    /** @type {{kind: string, text: string, cells?: number[][]}[]} */ liveReasons: [],  // the live status's reasons
    /** @type {number[] | null} */ area: null,  // the area selected ([x0, y0, x1, y1]), drawn by the board
    alive: true,
    /** The certificate of the level on the board, or null. */
    certificate() {
      return this.answer && this.answer.sha256 ? this.certificates.get(this.answer.sha256) || null : null;
    },
  };
}

// ---------------------------------------------------------------------------- transitions
// The editor's modules read the state and change it through these, never by assigning its
// fields (tests/test_web_state.py holds this).

/** @typedef {ReturnType<typeof editorState>} EditorState */

/** The editor's parts and hooks, made by editor.js (the board, the arrange bar, the drafts,
 * the calls every part may make). @param {any} ed @param {Record<string, any>} parts */
export function partsBuilt(ed, parts) { Object.assign(ed, parts); }

/** The editor left: nothing more is drawn, saved or asked. @param {any} ed */
export function left(ed) { ed.alive = false; }

/** Python's answer for the board. @param {any} ed @param {any} answer */
export function answered(ed, answer) { ed.answer = answer; }

/** The selection dropped when its body or hole is gone from the board's level. @param {any} ed */
export function selectionChecked(ed) {
  const { selected, answer } = ed;
  if (selected && !(selected.kind === "body" ? answer.level.bodies : answer.level.holes)[selected.index]) {
    ed.selected = null;
  }
}

/** A level opened from `from` ("draft" or a main-line number): nothing selected.
 * @param {any} ed @param {string | number} from */
export function levelOpened(ed, from) {
  ed.selected = null;
  ed.area = null;
  ed.origin = from;
}

/** The board's level is a draft now (an edit, a new board, a position made a level).
 * @param {any} ed */
export function drafted(ed) { ed.origin = "draft"; }

/** What is selected: {kind: "body" | "hole", index}, or null. @param {any} ed @param {any} selected */
export function selectedSet(ed, selected) { ed.selected = selected; }

/** The area selected, or null. @param {any} ed @param {number[] | null} area */
export function areaSet(ed, area) { ed.area = area; }

/** The largest free area of the level `sha`, outlined. @param {any} ed @param {string} sha @param {number[][]} cells */
export function freeAreaFound(ed, sha, cells) { ed.freeArea = { sha, cells }; }

/** The live status's reasons now. @param {any} ed @param {any[]} reasons */
export function liveReasonsSet(ed, reasons) { ed.liveReasons = reasons; }

/** The level being tried (the mounted play), or null. @param {any} ed @param {any} mounted */
export function tryPlaySet(ed, mounted) { ed.tryPlay = mounted; }

/** The tool picked. @param {any} ed @param {string} tool */
export function toolSet(ed, tool) { ed.tool = tool; }

/** The colour picked. @param {any} ed @param {number} color */
export function colourSet(ed, color) { ed.color = color; }

/** The draft the board saves to (null: none yet) and its name. @param {any} ed @param {string | null} id @param {string} name */
export function draftSet(ed, id, name) {
  ed.draftId = id;
  ed.draftName = name;
}

/** The draft's name. @param {any} ed @param {string} name */
export function draftNamed(ed, name) { ed.draftName = name; }

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
