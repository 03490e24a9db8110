// How much of the main line plays offline, in the page's foot (app.js; offline.js does the
// work): a line before the versions, drawn in the page's language.
import { registerOffline } from "./offline.js";
import { t } from "./i18n.js";

/** The offline line, placed before `versions`; returns its `draw()` (for a new language). */
export function offlineLine(versions) {
  let status = null;
  const line = document.createElement("span");
  line.className = "offline-status";
  line.setAttribute("data-testid", "offline-status");
  line.hidden = true;
  versions.before(line);
  function draw() {
    if (!status) return;
    const { state, done, total } = status;
    const percent = total > 0 ? Math.floor(100 * done / total) : 0;
    if (state === "ready") line.textContent = t("shell.offline.ready");
    else if (state === "saving") line.textContent = t("shell.offline.saving", { percent });
    else if (state === "partial") line.textContent = t("shell.offline.partial", { percent });
  }

  registerOffline({
    onStatus({ state, done, total }) {
      line.dataset.state = state;
      line.hidden = state === "unavailable" || total === 0;
      status = { state, done, total };
      draw();
    },
  });
  return draw;
}
