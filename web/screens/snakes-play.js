// Play one snakes level: drag an end with mouse, touch or pen and the body follows cell by
// cell (each cell entered is one step call to Python); undo, redo, restart,
// hint; keyboard play (N/P pick an end, arrows move it, U/Y/R/H); the win panel
// (snakes-win.js). Used by
// the main line (#snakes/level/N) and by the editor's try-play (saveProgress false).
// The game lives in Python (held by the id `start` or `resume` answers); legality, refusals, exits, the win and what the buttons may offer come from its
// answers. The page keeps only the last `save`, to resume after a reload or when the worker
// was replaced (a cancel without cross-origin isolation).
import { serialQueue } from "../contract.js";
import { PROGRESS_KEY } from "../store.js";
import { t } from "../i18n.js";
import { el } from "./dom.js";
import { boardFeedback, focusReport, snakesReport } from "./feedback.js";
import { DIRS, direction, drawBoard, endAt, endCell, endsOf, reachable, refusedCell } from "./snakes-board.js";
import { attachDrag, attachKeys } from "./snakes-input.js";
import { boardLayout } from "./snakes-layout.js";
import { mountLesson } from "./snakes-lesson.js";
import { winPanel } from "./snakes-win.js";
import { telemetryRecorder } from "./snakes-telemetry.js";
import { offLane } from "./terrain.js";

// Drag-step timings read by bench/web_input.py: from the pointermove event to the board
// redrawn from Python's answer (dragSteps), and to the next animation frame (dragFrames);
// and their parts: the event to its step's turn in the queue (dragWaits), its turn to the
// redraw's start (dragCalls: the Python call through the bridge, or next to nothing when
// the answer came ahead with the last one) and the redraw (dragDraws).
const metrics = (window.gridforgeMetrics ??= {});
for (const name of ["dragSteps", "dragFrames", "dragWaits", "dragCalls", "dragDraws"]) metrics[name] ??= [];

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
  let session = null;        // the id of the game Python holds
  let generation = null;     // the worker that holds it (app.generation)
  let saved = null;          // Python's last save: {sha, steps, redo}
  let view = null;
  let offer = { undo: false, redo: false, hint: false, restart: true, legal: [] };
  let stepCount = 0;
  let hintStep = null;
  let focus = null;          // "b:head" | "b:tail"
  let lastKeyEnd = null;     // the end the keyboard stepped last (a new end starts a drag)
  let grabbed = null;        // {body, end, stopped} while a drag is on
  let won = false;
  let live = true;
  const python = app.python.snakes;
  const queue = serialQueue({ live: () => live, report: (error) => app.message(error.message, "error") });
  let stamp = null;          // the pointermove time of the drag step being answered
  let calling = null;        // when that step's turn in the queue came
  let ahead = {};            // Python's answers of the legal steps, computed ahead ("b:end:dir")
  let painted = false;       // the board already shows the last action (drawn from ahead)
  let moved = null;          // the end that stepped last, drawn sliding in once
  let winning = false;       // the win panel opens once the board shows the last step
  let lesson = null;         // the level's lesson on the page (snakes-lesson.js)
  let said = null;           // what the last answer did, told once it is drawn (feedback.js)
  let refusedAt = null;      // the cell a refused step tried to enter, marked on the board
  const levelSha = sha ?? (certificate && certificate.level_sha256) ?? "";
  const certified = certificate && Number.isInteger(certificate.steps) ? certificate.steps : null;
  const tele = telemetryRecorder(app, { sha: levelSha, levelNumber, best: certified,
    kind: kind ?? (levelNumber !== null ? "mainline" : "draft") });
  const meta = level.meta || {};
  // A level's own tip (a draft's author may write one); lessons come from Python, never
  // from the designer's meta.lesson.
  const tip = typeof meta.tip === "string" ? meta.tip : null;
  const lessonSlot = el("div", { class: "lesson-slot" });
  const feedback = boardFeedback(app);  // the board's live region, sounds and vibrations

  const counter = el("span", { class: "steps", "data-testid": "snakes-steps" }, t("snakes.steps", { steps: 0 }));
  const par = el("span", { class: "par", "data-testid": "snakes-certified" },
    certified === null ? "" : t(certificate.optimal ? "snakes.best-proven" : "snakes.best-known", { steps: certified }));
  const buttons = {
    undo: el("button", { type: "button", "data-testid": "snakes-undo", onclick: () => act(undo) }, t("snakes.undo")),
    redo: el("button", { type: "button", "data-testid": "snakes-redo", onclick: () => act(redo) }, t("snakes.redo")),
    restart: el("button", { type: "button", "data-testid": "snakes-restart", onclick: () => act(restart) }, t("snakes.restart")),
    hint: el("button", { type: "button", "data-testid": "snakes-hint", onclick: () => act(hint) }, t("snakes.hint")),
  };
  const boardBox = el("div", { class: "board-box" });
  const win = winPanel(app, { levelNumber, certificate, onNext, onMap, replay: () => act(restart) });
  const zoomButton = el("button", { type: "button", class: "zoom", "data-testid": "snakes-zoom",
    "aria-pressed": "false", hidden: true, onclick: () => toggleZoom() }, t("snakes.zoom-in"));
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
  const toggleZoom = () => layout.toggle();

  function draw() {
    if (!view || !live) return null;
    const targets = grabbed && !grabbed.stopped ? reachable(view, offer.legal, grabbed) : [];
    const board = drawBoard(boardBox, level, view, {
      label: levelNumber ?? "draft", sha: levelSha, steps: stepCount, state: won ? "won" : "playing",
      hint: hintStep, focus, letters: app.settings.colourLetters, targets, moved, refused: refusedAt,
      ariaLabel: t(levelNumber === null ? "snakes.board-label-draft" : "snakes.board-label", { level: levelNumber }),
    });
    moved = null;
    counter.textContent = t("snakes.steps", { steps: stepCount });
    buttons.undo.disabled = !offer.undo;
    buttons.redo.disabled = !offer.redo;
    buttons.hint.disabled = !offer.hint;
    buttons.restart.disabled = !offer.restart;
    return board;
  }

  /** Take Python's answer: the game's id, view, offer, count and save (when it changed); or an answer from
   * `ahead` (view, offer, count, events), whose step's own answer brings the rest. */
  function take(answer) {
    if (answer.id !== undefined) {
      session = answer.id;
      generation = app.generation;
      if (answer.save) saved = answer.save;  // sent only when the answer changed it
      ahead = answer.ahead ?? {};
    } else {
      ahead = {};  // the next answers ahead come with this step's own answer
    }
    view = answer.view;
    offer = answer.offer;
    stepCount = answer.step_count;
    if (focus && !endsOf(view).includes(focus)) focus = endsOf(view)[0] ?? null;
  }

  /** The level in progress, saved after each step (a win is saved by saveWin). */
  function save() {
    if (!saveProgress || levelNumber === null) return;
    app.store.updateProgress((progress) => {
      progress.snakes.current = { level: levelNumber, sha: saved.sha, steps: saved.steps,
        redo: saved.redo };
    });
  }

  /** The win in the main line's progress: Python says what it unlocks and keeps. */
  async function saveWin() {
    if (!saveProgress || levelNumber === null) return;
    const snakes = await python.progressAfterWin(app.store.progress().snakes, levelNumber, stepCount);
    app.store.updateProgress((progress) => { progress.snakes = snakes; });
  }

  function afterMove(answer, { quiet = false, verb = "step" } = {}) {
    take(answer);
    said = [answer, verb];
    hintStep = null;
    if (!answer.refused) refusedAt = null;
    if (answer.refused) app.message(t("snakes.refused", { reason: answer.refused.message }), "error");
    else if (!quiet) app.clearMessage();
    if (view.complete && !won) {
      won = true;
      grabbed = null;
      winning = true;
    } else if (!answer.refused && answer.save) save();
  }

  /** Run actions one after another, each on the answer of the one before, each drawn. */
  function act(fn, ...args) {
    queue.act(() => fn(...args));
    return queue.act(drawAfter);
  }

  /** Draw the board and say what the last answer did. */
  function paint() {
    const drawing = performance.now();
    draw();
    if (stamp !== null) {
      const started = stamp;
      stamp = null;
      metrics.dragCalls.push(drawing - calling);
      metrics.dragDraws.push(performance.now() - drawing);
      metrics.dragSteps.push(performance.now() - started);
      requestAnimationFrame(() => metrics.dragFrames.push(performance.now() - started));
    }
    if (said) { feedback.report(snakesReport(...said)); said = null; }
    painted = true;
  }

  async function drawAfter() {
    if (!painted) paint();
    painted = false;
    if (winning) {
      // After the board: the panel's layout and focus never hold up the last step's redraw.
      winning = false;
      if (lesson) lesson.close();  // the lesson's words make room for the win
      const stars = await python.stars(stepCount, certified);
      await saveWin();
      tele.won();
      win.show(stepCount, stars);
      if (onWin) onWin({ steps: stepCount });
    }
  }

  /** Open the game again from the last save: the id is gone (the worker was replaced, or
   * Python forgot the oldest of many games). */
  async function reopen() {
    take(await python.resume(level, saved));
  }

  /** A verb on the open game; a game the worker no longer holds is resumed from its save
   * first (or when Python says it does not know the id). */
  async function play(verb, ...args) {
    if (generation !== app.generation) await reopen();
    try {
      return await python[verb](session, ...args);
    } catch (error) {
      if (error.type !== "UnknownSession") throw error;
      await reopen();
      return python[verb](session, ...args);
    }
  }

  async function restart() {
    const answer = await play("restart");
    if (!won) tele.restart();
    won = false;
    win.hide();
    focus = null;
    afterMove(answer, { quiet: true, verb: "restart" });
    if (saveProgress && levelNumber !== null) {
      app.store.updateProgress((progress) => { progress.snakes.current = null; });
    }
  }

  async function undo() {
    if (!offer.undo) return;
    afterMove(await play("undo"), { verb: "undo" });
    tele.undo();
  }

  async function redo() {
    if (!offer.redo) return;
    afterMove(await play("redo"), { verb: "redo" });
  }

  async function hint() {
    if (!offer.hint) return;
    const answer = await play("hint");
    tele.hint();
    if (answer.step) {
      hintStep = answer.step;
      app.message(answer.remaining === null ? t("snakes.hint.move")
        : t(answer.remaining === 1 ? "snakes.hint.move-one" : "snakes.hint.move-left", { steps: answer.remaining }), "info");
    } else {
      hintStep = null;
      app.message(t(answer.status === "unsolvable" ? "snakes.hint.stuck" : "snakes.hint.none"), "error");
    }
  }

  /** One step: drawn at once from `ahead` when Python answered it there (then sent, and its
   * answer kept), else drawn from the step's answer. */
  async function step(stepJson, drag = grabbed) {
    if (won) return;
    const early = ahead[stepJson.join(":")];
    if (!early) {
      shown(stepJson, await play("step", stepJson), drag);
      return;
    }
    shown(stepJson, early, drag);
    paint();
    const answer = await play("step", stepJson);
    if (answer.refused) {  // not expected: the answer ahead was Python's; its word stands
      afterMove(answer);
      painted = false;
    } else {
      take(answer);
      if (!won) save();
    }
  }

  /** What a step's answer (or its answer ahead) changed: the game, telemetry, the drag. */
  function shown(stepJson, answer, drag) {
    const before = view;
    if (answer.refused) refusedAt = refusedCell(level, before, stepJson);
    afterMove(answer);
    if (!answer.refused) tele.step(stepJson[0], view.exited_layers !== before.exited_layers);
    if (!answer.refused) {
      // The end that stepped slides in; a body that left the board slides into its hole
      // (the winning step too).
      const [b, end, dir] = stepJson;
      const [dx, dy] = DIRS[dir];
      moved = { body: b, end, dx, dy };
      if (lesson && !won) lesson.stepped();
    }
    if (drag && (answer.refused || view.exited_layers !== before.exited_layers || won)) {
      drag.stopped = true;  // a refusal or an exit ends the drag; a new grab goes on
    }
  }

  /** A drag's next cell: one step of the grabbed end towards it, if it is a neighbour. */
  async function enterCell(drag, cell, when) {
    if (!drag || drag.stopped || won) return;
    const from = endCell(view, drag.body, drag.end);
    if (!from) { drag.stopped = true; return; }
    const dir = direction(from, cell);
    if (!dir) return;  // the pointer is where the end already is, or jumped past a refusal
    if (offLane(level, view.bodies[drag.body].cells, drag.end, dir)) return;  // follow a bridge
    calling = performance.now();
    metrics.dragWaits.push(calling - when);
    stamp = when;
    await step([drag.body, drag.end, dir], drag);
  }

  // ---------------------------------------------------------------- input
  let detach = () => {};
  function wireBoard(board) {
    detach = attachDrag(board, {
      grab(cell, event) {
        if (!view || won) return false;
        const end = endAt(view, cell);
        if (!end) {
          // Zoomed in, a press away from the ends pans the board inside its frame.
          if (!layout.pan(event)) app.message(t("snakes.grab"), "info");
          return false;
        }
        grabbed = { ...end, stopped: false };
        if (lesson) lesson.stepped();  // the demonstration leaves the board: the player moves
        tele.grab();
        focus = `${end.body}:${end.end}`;
        hintStep = null;
        act(() => {});  // redraw with the reachable cells once earlier actions are drawn
        return true;
      },
      // A drag's cells and its release act on that drag when their turn comes, even when
      // the next grab came first (a quick player on a slow machine): it is never cut short.
      enter(cell, event) { act(enterCell, grabbed, cell, event.timeStamp); },
      release() {
        const drag = grabbed;
        act(() => { if (grabbed === drag) grabbed = null; tele.release(); });
      },
    });
    const detachKeys = attachKeys(board, keys);
    const detachDrag = detach;
    detach = () => { detachDrag(); detachKeys(); };
  }

  const keys = {
    ready: () => view !== null,
    pick(forward) {
      const ends = endsOf(view);
      if (!ends.length) return;
      const at = ends.indexOf(focus);
      focus = at < 0 ? ends[forward ? 0 : ends.length - 1]
        : ends[(at + (forward ? 1 : ends.length - 1)) % ends.length];
      hintStep = null;
      act((picked) => feedback.report(focusReport(view, picked)), focus);
    },
    move(dir) {
      if (!focus) focus = endsOf(view)[0] ?? null;
      if (!focus) return;
      const [b, end] = focus.split(":");
      tele.key(focus !== lastKeyEnd);
      lastKeyEnd = focus;
      act(step, [Number(b), end, dir]);
    },
    undo: () => act(undo), redo: () => act(redo), restart: () => act(restart), hint: () => act(hint),
  };

  /**
   * The saved level in progress cannot be resumed (`why`): copy the whole stored progress
   * aside, read back equal (as mines does with a run), then start the level fresh and say
   * where the saved steps went. Nothing is saved over them before they are kept.
   */
  async function startFresh(why) {
    const kept = app.store.keepAside(PROGRESS_KEY, why, t("snakes.resume.what", { level: levelNumber }));
    const where = kept.kept ? t("snakes.resume.kept", { key: kept.kept })
      : kept.held ? t("snakes.resume.held", { key: PROGRESS_KEY }) : t("snakes.resume.nothing");
    take(await python.start(level));
    if (!live) return;
    // Where the steps went comes first: the message line shows two lines.
    app.message(t("snakes.resume.failed", { level: levelNumber, where, why }), "error");
  }

  /** The level's lesson (Python says whether it has one, its words and demonstration). */
  async function openLesson() {
    let answer = null;
    try {
      answer = await python.lesson(levelNumber, level, certificate);
    } catch (error) {
      console.error(error);  // play goes on without the lesson
    }
    if (!answer || !live) return;
    lesson = mountLesson(lessonSlot, app, answer, { atStart: stepCount === 0,
      board: () => boardBox.querySelector("svg.snakes-board"), relayout: () => layout.update() });
  }

  const onSettings = () => draw();
  app.addEventListener("settings", onSettings);

  // ---------------------------------------------------------------- start
  act(async () => {
    const current = saveProgress && levelNumber !== null ? app.store.progress().snakes.current : null;
    const ours = current && current.level === levelNumber && current.steps.length;
    if (ours) {
      try {
        take(await python.resume(level, { sha: current.sha, steps: current.steps, redo: current.redo }));
        app.message(t("snakes.resume.back", { level: levelNumber, steps: stepCount }), "info");
      } catch (error) {
        // Python refused the save (a damaged one, or one for another version of the level,
        // from an older build): keep it aside before this fresh start saves over it.
        const why = error.type === "Cancelled" ? t("snakes.resume.stopped")
          : (error.issues || []).some((issue) => issue.path === "save.sha")
            ? t("snakes.resume.other-version", { level: levelNumber }) : error.message;
        await startFresh(why);
      }
    } else {
      take(await python.start(level));
    }
    wireBoard(draw());
    layout.update();
    if (lessons && levelNumber !== null) await openLesson();
    section.dataset.ready = "1";
  });

  return {
    element: section,
    /** The steps played so far, once every step asked for has been answered (the editor's
     * "edit from here" makes a level of that position). */
    async steps() {
      await queue.settled();
      return saved && Array.isArray(saved.steps) ? [...saved.steps] : [];
    },
    unmount() {
      if (!won) tele.leave();
      live = false;
      // Let Python forget the game once the queue is done (a game of a replaced worker is
      // gone already).
      queue.settled().then(() => {
        if (session !== null && generation === app.generation) python.close(session).catch(() => {});
      });
      detach();
      delete document.body.dataset.play;
      layout.stop();
      if (lesson) lesson.stop();
      app.removeEventListener("settings", onSettings);
    },
  };
}
