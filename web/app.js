import { registerOffline } from "./offline.js"; registerOffline();
// The page shell: starts the Python bridge, shows loading status, versions, progress and
// errors, and hosts the screens. Screens draw and send intents; Python decides everything.
import { PythonBridge } from "./bridge.js";
import { consoleScreen } from "./screens/console.js";
import { minesScreen } from "./screens/mines.js";
import { snakesScreen } from "./screens/snakes.js";

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
const bridge = new PythonBridge();

function showError(message) {
  const banner = $("error");
  banner.textContent = message;
  banner.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

// The bridge as tests and tools see it: window.gridforge.ready / call / cancel.
window.gridforge = {
  get ready() { return bridge.ready; },
  get versions() { return bridge.versions; },
  call(name, ...args) {
    return bridge.call(name, args).catch((error) => {
      showError(`${name}: ${error.message}`);
      throw error;
    });
  },
  callWithProgress(name, args, onProgress) {
    return bridge.call(name, args, { onProgress });
  },
  cancel() { return bridge.cancel(); },
  showError,
  clearError,
};

bridge.addEventListener("status", ({ detail }) => {
  $("status").textContent = `Loading… ${detail.detail}`;
});
bridge.addEventListener("ready", ({ detail }) => {
  $("status").textContent = "Ready";
  $("status").dataset.state = "ready";
  $("versions").textContent =
    `gridforge ${detail.gridforge} · Python ${detail.python} · Pyodide ${detail.pyodide}`;
});
bridge.addEventListener("load-error", ({ detail }) => {
  $("status").textContent = "Failed to load";
  $("status").dataset.state = "error";
  showError(detail.message);
});
bridge.addEventListener("busy", () => {
  $("busy").hidden = false;
  $("progress").removeAttribute("value");
  $("progress-label").textContent = "";
});
bridge.addEventListener("progress", ({ detail }) => {
  if (detail.total > 0) {
    $("progress").max = detail.total;
    $("progress").value = detail.done;
  }
  $("progress-label").textContent = `${detail.label} ${detail.done}/${detail.total}`;
});
bridge.addEventListener("idle", () => {
  if (bridge.pending.size === 0) $("busy").hidden = true;
});
$("cancel").addEventListener("click", () => bridge.cancel());

// Screens: each is {id, title, mount(element, gridforge)}.
const screens = [minesScreen, snakesScreen, consoleScreen];
const nav = $("screens");
function open(screen) {
  for (const button of nav.querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.screen === screen.id));
  }
  const main = document.getElementById("screen");
  main.replaceChildren();
  screen.mount(main, window.gridforge);
}
for (const screen of screens) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = screen.title;
  button.dataset.screen = screen.id;
  button.dataset.testid = `screen-${screen.id}`;
  button.setAttribute("data-testid", `screen-${screen.id}`);
  button.addEventListener("click", () => open(screen));
  nav.append(button);
}
open(screens[0]);
