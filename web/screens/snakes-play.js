// Play one snakes level: drag an end with mouse, touch or pen and the body follows cell by
// cell (each cell entered is one step call to Python); undo, redo, restart,
// hint; keyboard play (N/P pick an end, arrows move it, U/Y/R/H); the win panel
// (snakes-win.js). Used by
// the main line (#snakes/level/N) and by the editor's try-play (saveProgress false).
// The game lives in Python (held by the id `start` or `resume` answers); legality, refusals, exits, the win and what the buttons may offer come from its
// answers. The page keeps only the last `save`, to resume after a reload or when the worker
// was replaced (a cancel without cross-origin isolation).
// Its parts: the game and its turns (snakes-play-game.js), the drawing
// (snakes-play-draw.js), the input (snakes-play-input.js); all share one play object `p`.
import { serialQueue } from "../contract.js";
import { t } from "../i18n.js";
import { el } from "./dom.js";
import { boardFeedback } from "./feedback.js";
import { boardLayout } from "./snakes-layout.js";
import { mountLesson } from "./snakes-lesson.js";
import { winPanel } from "./snakes-win.js";
import { telemetryRecorder } from "./snakes-telemetry.js";
import { draw } from "./snakes-play-draw.js";
import { act, hint, open, redo, restart, undo, watchOtherTabs } from "./snakes-play-game.js";
import { wireBoard } from "./snakes-play-input.js";

/** The state of one level in play: the game Python holds, what the page shows of it, and
 * the drag, keys and timings in flight. */
function playState(app, { level, levelNumber, certificate, sha, onWin, saveProgress, kind }) {
  const levelSha = sha ?? (certificate && certificate.level_sha256) ?? "";
  const certified = certificate && Number.isInteger(certificate.steps) ? certificate.steps : null;
  const p = {
    app, level, levelNumber, certificate, onWin, saveProgress, levelSha, certified,
    python: app.python.snakes,
    session: null,        // the id of the game Python holds
    generation: null,     // the worker that holds it (app.generation)
    saved: null,          // Python's last save: {sha, steps, redo}
    view: null,
    offer: { undo: false, redo: false, hint: false, restart: true, legal: [] },
    stepCount: 0,
    hintStep: null,
    focus: null,          // "b:head" | "b:tail"
    lastKeyEnd: null,     // the end the keyboard stepped last (a new end starts a drag)
    grabbed: null,        // {body, end, stopped} while a drag is on
    won: false,
    live: true,
    stamp: null,          // the pointermove time of the drag step being answered
    calling: null,        // when that step's turn in the queue came
    ahead: {},            // Python's answers of the legal steps, computed ahead ("b:end:dir")
    painted: false,       // the board already shows the last action (drawn from ahead)
    moved: null,          // the end that stepped last, drawn sliding in once
    winning: false,       // the win panel opens once the board shows the last step
    lesson: null,         // the level's lesson on the page (snakes-lesson.js)
    said: null,           // what the last answer did, told once it is drawn (feedback.js)
    refusedAt: null,      // the cell a refused step tried to enter, marked on the board
    detach: () => {},     // the board's input, once wired
  };
  p.queue = serialQueue({ live: () => p.live, report: (error) => app.message(error.message, "error") });
  p.tele = telemetryRecorder(app, { sha: levelSha, levelNumber, best: certified,
    kind: kind ?? (levelNumber !== null ? "mainline" : "draft") });
  return p;
}

/** The play view's elements into `root`: board frame, win panel, controls, tip. */
function playView(p, root, { onNext, onMap, head }) {
  const { app, level, levelNumber, certificate, certified } = p;
  const meta = level.meta || {};
  // A level's own tip (a draft's author may write one); lessons come from Python, never
  // from the designer's meta.lesson.
  const tip = typeof meta.tip === "string" ? meta.tip : null;
  p.lessonSlot = el("div", { class: "lesson-slot" });
  p.feedback = boardFeedback(app);  // the board's live region, sounds and vibrations

  p.counter = el("span", { class: "steps", "data-testid": "snakes-steps" }, t("snakes.steps", { steps: 0 }));
  const par = el("span", { class: "par", "data-testid": "snakes-certified" },
    certified === null ? "" : t(certificate.optimal ? "snakes.best-proven" : "snakes.best-known", { steps: certified }));
  const buttons = p.buttons = {
    undo: el("button", { type: "button", "data-testid": "snakes-undo", onclick: () => act(p, undo, p) }, t("snakes.undo")),
    redo: el("button", { type: "button", "data-testid": "snakes-redo", onclick: () => act(p, redo, p) }, t("snakes.redo")),
    restart: el("button", { type: "button", "data-testid": "snakes-restart", onclick: () => act(p, restart, p) }, t("snakes.restart")),
    hint: el("button", { type: "button", "data-testid": "snakes-hint", onclick: () => act(p, hint, p) }, t("snakes.hint")),
  };
  p.boardBox = el("div", { class: "board-box" });
  p.win = winPanel(app, { levelNumber, certificate, onNext, onMap, replay: () => act(p, restart, p) });
  const zoomButton = el("button", { type: "button", class: "zoom", "data-testid": "snakes-zoom",
    "aria-pressed": "false", hidden: true, onclick: () => p.layout.toggle() }, t("snakes.zoom-in"));
  // The board's frame: the board fills it (cells as large as fit); zoomed in, the board is
  // larger than the frame and scrolls inside it, never the page.
  const frame = el("div", { class: "board-frame", "data-testid": "snakes-frame" },
    el("div", { class: "board-wrap" }, p.boardBox));
  p.section = el("section", { class: "snakes-play", "data-testid": "snakes-play" },
    el("div", { class: "board-stage" }, frame, p.win.element, p.feedback.element),
    el("div", { class: "play-side" }, head, p.lessonSlot,
      el("div", { class: "play-bar" }, buttons.undo, buttons.redo, buttons.restart, buttons.hint, p.counter, par),
      el("p", { class: "snakes-tip", "data-testid": "snakes-tip", hidden: tip === null }, tip ? t("snakes.tip", { tip }) : ""),
      zoomButton));
  root.append(p.section);
  document.body.dataset.play = "snakes";  // the shell folds its foot line while a board plays
  p.layout = boardLayout(p.section, frame, p.boardBox, zoomButton, level);
}

/** The level's lesson (Python says whether it has one, its words and demonstration). */
async function openLesson(p) {
  let answer = null;
  try {
    answer = await p.python.lesson(p.levelNumber, p.level, p.certificate);
  } catch (error) {
    console.error(error);  // play goes on without the lesson
  }
  if (!answer || !p.live) return;
  p.lesson = mountLesson(p.lessonSlot, p.app, answer, { atStart: p.stepCount === 0,
    board: () => p.boardBox.querySelector("svg.snakes-board"), relayout: () => p.layout.update() });
}

/** Leave the level: telemetry told, Python's game closed once the queue is done, the
 * board's input, layout, lesson and settings listener let go. */
function unmountPlay(p, onSettings) {
  if (!p.won) p.tele.leave();
  p.live = false;
  // Let Python forget the game once the queue is done (a game of a replaced worker is
  // gone already).
  p.queue.settled().then(() => {
    if (p.session !== null && p.generation === p.app.generation) p.python.close(p.session).catch(() => {});
  });
  p.detach();
  delete document.body.dataset.play;
  p.layout.stop();
  if (p.lesson) p.lesson.stop();
  p.app.removeEventListener("settings", onSettings);
}

/**
 * Mount play of `level` into `root`. Options: `levelNumber` (main-line number or null),
 * `certificate` (its steps are shown and its level_sha256 names the level), `sha`,
 * `onWin({steps})`, `saveProgress` (main line only: progress after each step and win),
 * `onNext` / `onMap` (win panel buttons; hidden when absent), `lessons` (main line: the
 * level's lesson, if it has one, from Python), `head` (the title row, placed with the
 * controls). Returns `{unmount()}`.
 */
export function mountPlay(root, app, { level, levelNumber = null, certificate = null, sha = null,
  onWin = null, saveProgress = false, onNext = null, onMap = null, lessons = false, kind = null,
  head = null } = {}) {
  const p = playState(app, { level, levelNumber, certificate, sha, onWin, saveProgress, kind });
  playView(p, root, { onNext, onMap, head });
  const onSettings = () => draw(p);
  app.addEventListener("settings", onSettings);
  const stopWatching = watchOtherTabs(p);

  act(p, async () => {
    wireBoard(p, await open(p));
    p.layout.update();
    if (lessons && levelNumber !== null) await openLesson(p);
    p.section.dataset.ready = "1";
  });

  return {
    element: p.section,
    /** The steps played so far, once every step asked for has been answered (the editor's
     * "edit from here" makes a level of that position). */
    async steps() {
      await p.queue.settled();
      return p.saved && Array.isArray(p.saved.steps) ? [...p.saved.steps] : [];
    },
    unmount() {
      stopWatching();
      unmountPlay(p, onSettings);
    },
  };
}
