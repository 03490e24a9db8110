// Input on one snakes level in play (snakes-play.js): a drag of an end steps it cell by
// cell, the keys pick an end and move it; each becomes an action in play `p`'s turn.
import { t } from "../i18n.js";
import { focusReport } from "./feedback.js";
import { direction, endAt, endCell, endsOf } from "./snakes-board.js";
import { attachDrag, attachKeys } from "./snakes-input.js";
import { act, hint, redo, restart, step, undo } from "./snakes-play-game.js";
import { metrics } from "./snakes-play-draw.js";
import { offLane } from "./terrain.js";
import { dragStopped, focused, grabbed, keyEnd, keyStepped, released, stepCalled, wired } from "./snakes-play-state.js";

/** A drag's next cell: one step of the grabbed end towards it, if it is a neighbour. */
async function enterCell(p, drag, cell, when) {
  if (!drag || drag.stopped || p.won) return;
  const from = endCell(p.view, drag.body, drag.end);
  if (!from) { dragStopped(drag); return; }
  const dir = direction(from, cell);
  if (!dir) return;  // the pointer is where the end already is, or jumped past a refusal
  if (offLane(p.level, p.view.bodies[drag.body].cells, drag.end, dir)) return;  // follow a bridge
  const calling = performance.now();
  stepCalled(p, calling, when);
  metrics.dragWaits.push(calling - when);
  await step(p, [drag.body, drag.end, dir], drag);
}

/** A press on the board: grab the end under it (or pan the zoomed board). */
function grab(p, cell, event) {
  if (!p.view || p.won) return false;
  const end = endAt(p.view, cell);
  if (!end) {
    // Zoomed in, a press away from the ends pans the board inside its frame.
    if (!p.parts.layout.pan(event)) p.app.message(t("snakes.grab"), "info");
    return false;
  }
  grabbed(p, end);
  if (p.lesson) p.lesson.stepped();  // the demonstration leaves the board: the player moves
  p.tele.grab();
  act(p, () => {});  // redraw with the reachable cells once earlier actions are drawn
  return true;
}

/** The play keys: N/P pick an end, arrows move it, U/Y/R/H. */
function keys(p) {
  return {
    ready: () => p.view !== null,
    pick(forward) {
      const ends = endsOf(p.view);
      if (!ends.length) return;
      const at = ends.indexOf(p.focus);
      focused(p, at < 0 ? ends[forward ? 0 : ends.length - 1]
        : ends[(at + (forward ? 1 : ends.length - 1)) % ends.length]);
      act(p, (picked) => p.parts.feedback.report(focusReport(p.view, picked)), p.focus);
    },
    move(dir) {
      const moving = keyEnd(p, endsOf(p.view));
      if (!moving) return;
      const [b, end] = moving.split(":");
      p.tele.key(keyStepped(p, moving));
      act(p, step, p, [Number(b), end, dir]);
    },
    undo: () => act(p, undo, p), redo: () => act(p, redo, p), restart: () => act(p, restart, p),
    hint: () => act(p, hint, p),
  };
}

/** Wire drag and keys to the board of play `p`; p.detach undoes it. */
export function wireBoard(p, board) {
  const detachDrag = attachDrag(board, {
    grab: (cell, event) => grab(p, cell, event),
    // A drag's cells and its release act on that drag when their turn comes, even when
    // the next grab came first (a quick player on a slow machine): it is never cut short.
    enter(cell, event) { act(p, enterCell, p, p.grabbed, cell, event.timeStamp); },
    release() {
      const drag = p.grabbed;
      act(p, () => { released(p, drag); p.tele.release(); });
    },
  });
  const detachKeys = attachKeys(board, keys(p));
  wired(p, () => { detachDrag(); detachKeys(); });
}
