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
import { t } from "../i18n.js";
import { el } from "./dom.js";
import { boardFeedback } from "./feedback.js";
import { boardLayout } from "./snakes-layout.js";
import { mountLesson } from "./snakes-lesson.js";
import { winPanel } from "./snakes-win.js";
import { draw } from "./snakes-play-draw.js";
import { act, hint, open, redo, restart, undo, watchOtherTabs } from "./snakes-play-game.js";
import { wireBoard } from "./snakes-play-input.js";
import { left, lessonOpened, playState, viewBuilt } from "./snakes-play-state.js";

/** The play view's elements into `root`: board frame, win panel, controls, tip. */
function playView(p, root, { onNext, onMap, head }) {
  const { app, level, levelNumber, certificate, certified } = p;
  const meta = level.meta || {};
  // A level's own tip (a draft's author may write one); lessons come from Python, never
  // from the designer's meta.lesson.
  const tip = typeof meta.tip === "string" ? meta.tip : null;
  const lessonSlot = el("div", { class: "lesson-slot" });
  const feedback = boardFeedback(app);  // the board's live region, sounds and vibrations

  const counter = el("span", { class: "steps", "data-testid": "snakes-steps" }, t("snakes.steps", { steps: 0 }));
  const par = el("span", { class: "par", "data-testid": "snakes-certified" },
    certified === null || certificate === null ? ""
      : t(certificate.optimal ? "snakes.best-proven" : "snakes.best-known", { steps: certified }));
  const buttons = {
    undo: el("button", { type: "button", "data-testid": "snakes-undo", onclick: () => act(p, undo, p) }, t("snakes.undo")),
    redo: el("button", { type: "button", "data-testid": "snakes-redo", onclick: () => act(p, redo, p) }, t("snakes.redo")),
    restart: el("button", { type: "button", "data-testid": "snakes-restart", onclick: () => act(p, restart, p) }, t("snakes.restart")),
    hint: el("button", { type: "button", "data-testid": "snakes-hint", onclick: () => act(p, hint, p) }, t("snakes.hint")),
  };
  const boardBox = el("div", { class: "board-box" });
  const win = winPanel(app, { levelNumber, certificate, onNext, onMap, replay: () => act(p, restart, p) });
  const zoomButton = el("button", { type: "button", class: "zoom", "data-testid": "snakes-zoom",
    "aria-pressed": "false", hidden: true, onclick: () => p.parts.layout.toggle() }, t("snakes.zoom-in"));
  // The board's frame: the board fills it (cells as large as fit); zoomed in, the board is
  // larger than the frame and scrolls inside it, never the page.
  const frame = el("div", { class: "board-frame", "data-testid": "snakes-frame" },
    el("div", { class: "board-wrap" }, boardBox));
  const section = el("section", { class: "snakes-play", "data-testid": "snakes-play" },
    el("div", { class: "board-stage" }, frame, win.element, feedback.element),
    el("div", { class: "play-side" }, head, lessonSlot,
      el("div", { class: "play-bar" }, buttons.undo, buttons.redo, buttons.restart, buttons.hint, counter, par),
      el("p", { class: "snakes-tip", "data-testid": "snakes-tip", hidden: tip === null }, tip ? t("snakes.tip", { tip }) : ""),
      zoomButton));
  root.append(section);
  document.body.dataset.play = "snakes";  // the shell folds its foot line while a board plays
  const layout = boardLayout(section, frame, boardBox, zoomButton, level);
  viewBuilt(p, { lessonSlot, feedback, counter, buttons, boardBox, win, section, layout });
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
  lessonOpened(p, mountLesson(p.parts.lessonSlot, p.app, answer, { atStart: p.stepCount === 0,
    board: () => p.parts.boardBox.querySelector("svg.snakes-board"), relayout: () => p.parts.layout.update() }));
}

/** Leave the level: telemetry told, Python's game closed once the queue is done, the
 * board's input, layout, lesson and settings listener let go. */
function unmountPlay(p, onSettings) {
  if (!p.won) p.tele.leave();
  left(p);
  // Let Python forget the game once the queue is done (a game of a replaced worker is
  // gone already).
  p.queue.settled().then(() => {
    if (p.session !== null && p.generation === p.app.generation) p.python.close(p.session).catch(() => {});
  });
  p.detach();
  delete document.body.dataset.play;
  p.parts.layout.stop();
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
/**
 * @param {HTMLElement} root
 * @param {any} app
 * @param {Partial<import("./snakes-play-state.js").PlayOptions> & {level: any,
 *   onNext?: (() => void) | null, onMap?: (() => void) | null, lessons?: boolean,
 *   head?: HTMLElement | null}} options
 */
export function mountPlay(root, app, { level, levelNumber = null, certificate = null, sha = null,
  onWin = null, saveProgress = false, onNext = null, onMap = null, lessons = false, kind = null,
  head = null }) {
  const p = playState(app, { level, levelNumber, certificate, sha, onWin, saveProgress, kind });
  playView(p, root, { onNext, onMap, head });
  const onSettings = () => draw(p);
  app.addEventListener("settings", onSettings);
  const stopWatching = watchOtherTabs(p);

  act(p, async () => {
    wireBoard(p, await open(p));
    p.parts.layout.update();
    if (lessons && levelNumber !== null) await openLesson(p);
    p.parts.section.dataset.ready = "1";
  });

  return {
    element: p.parts.section,
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
