// A progress file's deep check (issue 43), before it replaces the saved progress: what the
// page would do with it is done once, in Python, and let go. The mines run a file carries
// must resume (Python replays it); the level in progress must be on this site's main line
// and its steps must resume on it. Each problem is an issue with the field path of the
// file ("mines.run.battles[0]", "snakes.current.level"); Store.importProgress writes
// nothing while there is one.

import { t } from "./i18n.js";
import { minesRunOpen } from "./store.js";
import { mainlineLevel } from "./screens/levels.js";

/** `error`'s issues (Python's field paths) under `base` of the file, or one issue at `base`. */
function issuesUnder(base, error, words) {
  const message = words(error && error.message ? error.message : String(error));
  const found = Array.isArray(error && error.issues) ? error.issues : [];
  if (!found.length) return [{ path: base, message }];
  return found.map((issue) => {
    const path = String(issue.path || "").replace(/^(save|saved)(?=[.[]|$)\.?/, "");
    return { path: path ? `${base}${path.startsWith("[") ? "" : "."}${path}` : base,
      message: words(issue.text || issue.message || message) };
  });
}

/**
 * The issues of `progress` (already of the right format: Python's check of it, see
 * Store.checkProgress) that only playing it would find, as [{path, message}]: empty when
 * the page can use every part of it.
 * @param {{python: object}} app the shell (its Python calls)
 */
export async function progressFileIssues(app, progress) {
  const issues = [];
  const mines = progress.mines;
  if (minesRunOpen(mines)) {  // the run the Mines screen would resume
    try {
      const answer = await app.python.mines.resumeRun(mines.run);
      app.python.mines.closeRun(answer.id).catch(() => {});
      const s = answer.view;
      const summary = mines.summary;
      if (summary && s && (summary.battle !== s.battle || summary.battles !== s.battles)) {
        issues.push({ path: "mines.summary", message: t("progress.check.summary",
          { battle: summary.battle, battles: summary.battles, at: s.battle, of: s.battles }) });
      }
    } catch (error) {
      issues.push(...issuesUnder("mines.run", error, (why) => t("progress.check.run", { why })));
    }
  }
  const current = progress.snakes.current;
  if (current) {
    let found = null;
    try { found = await mainlineLevel(current.level); } catch { found = null; }
    if (!found || !found.level) {
      issues.push({ path: "snakes.current.level", message: t("progress.check.level", { level: current.level }) });
    } else {
      try {
        const answer = await app.python.snakes.resume(found.level,
          { sha: current.sha, steps: current.steps, redo: current.redo });
        app.python.snakes.close(answer.id).catch(() => {});
      } catch (error) {
        issues.push(...issuesUnder("snakes.current", error, (why) => t("progress.check.current", { why })));
      }
    }
  }
  return issues;
}

/**
 * The stored progress checked as deeply as a file (issue 54), once Python has checked its
 * format (app.js), for a first screen that does not use those parts itself (the Mines
 * screen resumes the run, a level's screen its level in progress, each keeping aside what
 * Python refuses): the mines run, or the level in progress, that Python refuses is set
 * aside alone with its field paths (Python's check says which part each lies in), and a
 * notice says so, whatever screen the player is on.
 */
export async function checkStoredProgress(app) {
  const issues = (await progressFileIssues(app, app.store.progress()))
    .filter((issue) => /^(mines\.run|snakes\.current)\b/.test(issue.path));
  if (issues.length) await app.store.setAsideProgressIssues(issues);
}
