// Drawing one snakes level in play (snakes-play.js): the board from the last answer, the
// step counter and the buttons Python's offer allows, the last answer told once drawn.
import { t } from "../i18n.js";
import { snakesReport } from "./feedback.js";
import { drawBoard, reachable } from "./snakes-board.js";
import { drawn, painted } from "./snakes-play-state.js";

// Drag-step timings read by bench/web_input.py: from the pointermove event to the board
// redrawn from Python's answer (dragSteps), and to the next animation frame (dragFrames);
// and their parts: the event to its step's turn in the queue (dragWaits), its turn to the
// redraw's start (dragCalls: the Python call through the bridge, or next to nothing when
// the answer came ahead with the last one) and the redraw (dragDraws).
/** @type {Record<string, number[]>} */
export const metrics = (/** @type {any} */ (window).gridforgeMetrics ??= {});
for (const name of ["dragSteps", "dragFrames", "dragWaits", "dragCalls", "dragDraws"]) metrics[name] ??= [];

/** Draw the board of play `p` (snakes-play.js) and its controls; the board's SVG, or null
 * before the first answer or after the unmount. */
export function draw(p) {
  if (!p.view || !p.live) return null;
  const targets = p.grabbed && !p.grabbed.stopped ? reachable(p.view, p.offer.legal, p.grabbed) : [];
  const board = drawBoard(p.parts.boardBox, p.level, p.view, {
    label: p.levelNumber ?? "draft", sha: p.levelSha, steps: p.stepCount, state: p.won ? "won" : "playing",
    hint: p.hintStep, focus: p.focus, letters: p.app.settings.colourLetters, targets, moved: p.moved,
    refused: p.refusedAt,
    ariaLabel: t(p.levelNumber === null ? "snakes.board-label-draft" : "snakes.board-label", { level: p.levelNumber }),
  });
  drawn(p);
  p.parts.counter.textContent = t("snakes.steps", { steps: p.stepCount });
  p.parts.buttons.undo.disabled = !p.offer.undo;
  p.parts.buttons.redo.disabled = !p.offer.redo;
  p.parts.buttons.hint.disabled = !p.offer.hint;
  p.parts.buttons.restart.disabled = !p.offer.restart;
  return board;
}

/** Draw the board and say what the last answer did. */
export function paint(p) {
  const drawing = performance.now();
  draw(p);
  const { stamp: started, said } = painted(p);
  if (started !== null) {
    metrics.dragCalls.push(drawing - p.calling);
    metrics.dragDraws.push(performance.now() - drawing);
    metrics.dragSteps.push(performance.now() - started);
    requestAnimationFrame(() => metrics.dragFrames.push(performance.now() - started));
  }
  if (said) p.parts.feedback.report(snakesReport(...said));
}
