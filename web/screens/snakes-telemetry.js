// Play telemetry on the device (issue 24, docs/snakes-calibration.md): one record per attempt
// of a level, kept in localStorage["gridforge.snakes.telemetry"] by the store, never sent
// anywhere; the player views, exports or clears it on the snakes map. The page only counts
// and times what the player did; Python counts the repositioning runs and validates the
// record (the contract's telemetryAttempt) before it is stored.
import { t } from "../i18n.js";
import { addAttempt, clearTelemetry, exportTelemetry, nextAttemptSeq, readTelemetry,
  telemetryPlayer } from "../telemetry-store.js";
import { download, el } from "./dom.js";

/**
 * A recorder for one level's play: `grab()`, `release()`, `step(body, exited)`,
 * `undo()`, `restart()`, `hint()` as the player acts, `won(steps)` at the win, `leave()`
 * when the level is left. `kind` is "mainline", "draft" or "shared".
 */
export function telemetryRecorder(app,
  /** @type {{sha: string, kind: string, levelNumber?: number | null, best?: number | null}} */
  { sha, kind, levelNumber = null, best = null }) {
  const usable = typeof sha === "string" && /^[0-9a-f]{64}$/.test(sha);
  let attempt = null;
  let last = 0;       // the last activity (start, release, step): thinking starts there
  let grabbedAt = null;

  function begin() {
    attempt = { start: performance.now(), first: null, steps: 0, restarts: 0, undos: 0,
      hints: 0, drags: 0, think: 0, drag: 0, moves: [] };
    last = attempt.start;
  }
  begin();
  const now = () => performance.now();

  async function finish(outcome) {
    const done = attempt;
    attempt = null;
    if (!usable || !done || done.steps === 0) return;
    const end = now();
    const duration = Math.max(0, Math.round(end - done.start));
    const think = Math.min(duration, Math.round(done.think));
    const record = {
      level_sha256: sha, kind, level: kind === "mainline" ? levelNumber : null,
      player: telemetryPlayer(app.store), seq: nextAttemptSeq(app.store), outcome,
      first_step_ms: Math.min(duration, Math.round(done.first - done.start)), duration_ms: duration,
      steps: done.steps, best_known: best, restarts: done.restarts, undos: done.undos,
      hints: done.hints, drags: Math.min(done.drags, done.steps + done.undos),
      think_ms: think, drag_ms: Math.min(duration - think, Math.round(done.drag)), moves: done.moves,
    };
    try {
      addAttempt(app.store, await app.python.snakes.telemetryAttempt(record));
    } catch (error) {
      console.error("telemetry not recorded:", error);  // play is never held up by it
    }
  }

  return {
    grab() {
      if (!attempt) begin();
      const t = now();
      attempt.think += t - last;
      attempt.drags += 1;
      grabbedAt = t;
    },
    release() {
      if (!attempt || grabbedAt === null) return;
      const t = now();
      attempt.drag += t - grabbedAt;
      grabbedAt = null;
      last = t;
    },
    /** A keyboard step on a new end is a drag of its own (no drag time). */
    key(newEnd) {
      if (!attempt) begin();
      if (newEnd) { attempt.think += now() - last; attempt.drags += 1; }
    },
    step(body, exited) {
      if (!attempt) begin();
      attempt.steps += 1;
      attempt.first ??= now();
      attempt.moves.push([body, Boolean(exited)]);
      if (grabbedAt === null) last = now();
    },
    undo() { if (attempt) attempt.undos += 1; last = now(); },
    hint() { if (attempt) attempt.hints += 1; },
    restart() { if (attempt) attempt.restarts += 1; last = now(); },
    won() { return finish("won"); },
    leave() { return finish("abandoned"); },
  };
}

/** The predicted difficulty beside a certificate's design score, filled in when Python
 * answers: `[line]`, for the editor's verify read-out (issue 24). */
function predictedLine(app, weights, cert) {
  const line = el("p", { "data-testid": "editor-predicted" }, t("telemetry.predicting"));
  app.python.snakes.predictDifficulty(weights, cert).then((p) => {
    line.textContent = p ? t("telemetry.predicted", { difficulty: p.difficulty, score: p.score,
      rate: Math.round(100 * p.solve_rate), seconds: p.median_seconds }) : t("telemetry.no-score");
  }).catch((error) => { line.textContent = t("telemetry.no-prediction", { reason: error.message }); });
  return [line];
}

/** Load a weights file for this visit (kept in memory only): Python validates it. */
async function loadWeights(app, file) {
  if (!file) return;
  try {
    const data = JSON.parse(await file.text());
    await app.python.snakes.predictDifficulty(data, null);
    app.snakesWeights = data;
    app.snakesPrediction = (cert) => predictedLine(app, data, cert);  // the editor's verify read-out
    app.message(t("telemetry.weights-loaded"), "success");
  } catch (error) {
    app.message(t("telemetry.not-weights", { reason: error.message }), "error");
  }
}

/** The snakes map's "Your play data" panel: count, view, export and clear. */
export function mountTelemetryPanel(root, app) {
  const count = el("span", { "data-testid": "snakes-telemetry-count" });
  const view = el("pre", { class: "telemetry-json", "data-testid": "snakes-telemetry-json", hidden: true });
  const refresh = () => {
    const data = readTelemetry(app.store);
    count.textContent = t(data.attempts.length === 1 ? "telemetry.count-one" : "telemetry.count", { count: data.attempts.length });
    count.dataset.attempts = String(data.attempts.length);
    if (!view.hidden) view.textContent = exportTelemetry(app.store);
  };
  const panel = el("details", { class: "telemetry-panel", "data-testid": "snakes-telemetry" },
    el("summary", {}, t("telemetry.title")),
    el("p", {}, t("telemetry.about")),
    count,
    el("div", { class: "win-buttons" },
      el("button", { type: "button", "data-testid": "snakes-telemetry-view",
        onclick: () => { view.hidden = !view.hidden; refresh(); } }, t("telemetry.view")),
      el("button", { type: "button", "data-testid": "snakes-telemetry-export",
        onclick: () => download("gridforge-telemetry.json", exportTelemetry(app.store)) }, t("telemetry.export")),
      el("button", { type: "button", "data-testid": "snakes-telemetry-clear",
        onclick: () => { clearTelemetry(app.store); refresh(); app.message(t("telemetry.cleared"), "info"); } },
      t("telemetry.clear"))),
    el("label", {}, t("telemetry.weights"),
      el("input", { type: "file", accept: ".json,application/json", "data-testid": "snakes-weights-file",
        onchange: (event) => loadWeights(app, event.target.files[0]) })),
    view);
  root.append(panel);
  refresh();
  return { unmount() { panel.remove(); } };
}
