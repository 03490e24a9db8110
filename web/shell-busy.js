// The shell's calls to Python (app.js): each call marks the page busy while it runs, and a
// call that takes longer than BUSY_DELAY_MS shows the busy overlay (its progress, and a
// Cancel button) until the last loud call has settled.
import { t } from "./i18n.js";

const BUSY_DELAY_MS = 150;  // quick calls never flash the overlay

/** The overlay: a spinner, the progress bar and its label, Cancel. */
function busyElement(busy) {
  const { bridge } = busy;
  const overlay = document.createElement("div");
  overlay.className = "app-busy";
  overlay.dataset.testid = "app-busy";
  overlay.setAttribute("data-testid", "app-busy");
  overlay.setAttribute("role", "progressbar");
  overlay.innerHTML = `
    <div class="busy" data-testid="busy">
      <span class="spinner" aria-hidden="true"></span>
      <progress data-testid="progress"></progress>
      <span class="busy-label" data-testid="progress-label"></span>
      <button type="button" data-testid="cancel"></button>
    </div>`;
  const cancel = /** @type {HTMLButtonElement} */ (overlay.querySelector('[data-testid="cancel"]'));
  cancel.textContent = t("shell.cancel");
  cancel.addEventListener("click", () => bridge.cancel());
  /** @type {HTMLElement} */ (overlay.querySelector('[data-testid="progress-label"]')).textContent =
    busy.label || (bridge.versions ? "" : t("shell.starting"));
  return overlay;
}

function busyStart(busy, quiet = false) {
  busy.inFlight += 1;
  document.body.dataset.busy = "1";
  if (quiet) return;
  busy.loud += 1;
  if (busy.overlay || busy.timer !== null) return;
  busy.timer = setTimeout(() => {
    busy.timer = null;
    if (busy.loud > 0 && !busy.overlay) {
      busy.overlay = busyElement(busy);
      document.body.append(busy.overlay);
    }
  }, BUSY_DELAY_MS);
}

function busyEnd(busy, quiet = false) {
  busy.inFlight = Math.max(0, busy.inFlight - 1);
  if (!quiet) busy.loud = Math.max(0, busy.loud - 1);
  if (busy.loud === 0) {
    if (busy.timer !== null) { clearTimeout(busy.timer); busy.timer = null; }
    if (busy.overlay) { busy.overlay.remove(); busy.overlay = null; }
    busy.label = "";
  }
  if (busy.inFlight > 0) return;
  busy.idle.port2.postMessage(null);
}

/** The tracked call of `bridge`: `tracked(name, args, {onProgress, quiet})` calls Python
 * with the overlay shown (after a short delay) while the call is in flight. */
export function callTracker(/** @type {import("./bridge.js").PythonBridge} */ bridge) {
  /** @type {{bridge: import("./bridge.js").PythonBridge, inFlight: number, timer: any,
   *   overlay: HTMLElement | null, label: string, loud: number, idle: MessageChannel}} */
  const busy = { bridge, inFlight: 0, timer: null, overlay: null, label: "",
    // A quiet call (the editor's live status, issue 23) marks the page busy for tests and
    // tools but never shows the overlay: the designer keeps editing while it runs.
    loud: 0,
    // The idle signal for tests and tools (spec/web.md, stable hooks): <body data-busy="1">
    // from the instant a call starts until the page has drawn its answer. The screens draw
    // in the promise reactions of the call; the mark is cleared in a task after the last
    // call settled, once those reactions (and any call they chain) have run. The overlay is
    // separate.
    idle: new MessageChannel(),
  };
  busy.idle.port1.onmessage = () => {
    if (busy.inFlight === 0) delete document.body.dataset.busy;
  };

  bridge.addEventListener("progress", (event) => {
    const { detail } = /** @type {CustomEvent} */ (event);
    busy.label = `${detail.label} ${detail.done}/${detail.total}`;
    if (!busy.overlay) return;
    const bar = /** @type {HTMLProgressElement} */ (busy.overlay.querySelector("progress"));
    if (detail.total > 0) { bar.max = detail.total; bar.value = detail.done; }
    /** @type {HTMLElement} */ (busy.overlay.querySelector('[data-testid="progress-label"]')).textContent = busy.label;
  });

  return function tracked(name, args, options = {}) {
    const quiet = Boolean(options.quiet);
    busyStart(busy, quiet);
    return bridge.call(name, args, options).finally(() => busyEnd(busy, quiet));
  };
}
