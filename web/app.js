// The page's shell (spec/web.md): routes, navigation, the busy overlay, the message line,
// saved state and settings, around one Python bridge. Screens are modules in screens/
// exporting `screen = {id, title, mount(root, app, params)}`; they draw and send intents,
// Python decides. The `app` object built here is the interface every screen codes against
// (prompts/shell-contract.md). Its parts: the calls and the busy overlay (shell-busy.js),
// the held values' banner (shell-held.js), the offline line (shell-offline.js).
import { PythonBridge } from "./bridge.js";
import { makeContract, playerError } from "./contract.js";
import { browserLanguage, has, language, loadCatalogues, setLanguage, t, translateStatic } from "./i18n.js";
import * as palette from "./palette.js";
import { parse, title } from "./router.js";
import { makeFeel } from "./feel.js";
import { mainlineSize } from "./screens/levels.js";
import { makeSettings } from "./settings.js";
import { callTracker } from "./shell-busy.js";
import { heldBanner } from "./shell-held.js";
import { noticeBanner } from "./shell-notices.js";
import { offlineLine } from "./shell-offline.js";
import { said, Store } from "./store.js";

/** The shell's element of `data-testid` (index.html has every one the shell names). */
const $ = (/** @type {string} */ testid) =>
  /** @type {HTMLElement} */ (document.querySelector(`[data-testid="${testid}"]`));
const bridge = new PythonBridge();

// ---------------------------------------------------------------------------- messages
const messageLine = $("app-message");
const messageText = $("message-text");
const errorText = $("error");

function message(text, kind = "info") {
  const shown = String(said(text) ?? "");  // a store's report is worded when shown
  messageLine.dataset.kind = kind;
  messageLine.title = shown;  // the whole text when the fixed-height line clips it
  if (kind === "error") {
    messageText.textContent = "";
    errorText.textContent = shown;
    errorText.hidden = shown === "";
  } else {
    errorText.textContent = "";
    errorText.hidden = true;
    messageText.textContent = shown;
  }
}

function clearMessage() {
  message("", "info");
}

// ---------------------------------------------------------------------------- calls
/** Call Python with the overlay shown (after a short delay) while the call is in flight. */
const tracked = callTracker(bridge);

/** Every Python function the page calls, by contract.js (its one path for a call). */
const python = makeContract((name, args, onProgress, quiet) => tracked(name, args, { onProgress, quiet }));

// ---------------------------------------------------------------------------- the app
let mounting = false;
let routed = false;  // the first screen has been mounted
let pendingReports = [];
let redrawing = false;  // the stored progress is being checked before a screen is drawn again
const store = new Store(safeStorage(), (text, kind) => reportSoon(text, kind));
window.addEventListener("storage", (event) => store.heardOtherTab(event));

// ---------------------------------------------------------------------------- held values
heldBanner(store, $("app-message"), message);
const notices = noticeBanner(store, $("app-message"));

function safeStorage() {
  try { return window.localStorage; } catch { return null; }
}

/** Reports raised before the first screen or while one is being mounted are shown once it
 * is on the page. */
function reportSoon(text, kind) {
  if (mounting || !routed || redrawing) pendingReports.push([text, kind]);
  else message(text, kind);
}

/** The reports held back (reportSoon), shown now. */
function showPending() {
  const reports = pendingReports;
  pendingReports = [];
  for (const [text, kind] of reports) message(text, kind);
}


const settings = makeSettings(store, (values) => {
  showDeveloper();
  if (applyLanguage()) redraw();
  app.dispatchEvent(new CustomEvent("settings", { detail: values }));
});
let minesDailyAsked = false;  // home's "daily run" asked for the day's seed (issue 51)

/** The interface every screen codes against (its type: App, below). */
const app = Object.assign(new EventTarget(), {
  /** Home's "daily run": the Mines screen opens on the day's seed (issue 51). */
  askMinesDaily() { minesDailyAsked = true; },
  /** Whether the day's run was asked for; answered once (the Mines screen takes it). */
  takeMinesDaily() {
    const asked = minesDailyAsked;
    minesDailyAsked = false;
    return asked;
  },
  /** The Python functions the screens call (contract.js). */
  python,
  /** Tools and tests: a call by its full dotted name (errors in the player's words). */
  call(name, ...args) { return python.named(name, ...args); },
  /** Tools and tests: a long call whose progress reaches `onProgress({done, total, label})`. */
  callWithProgress(name, args, onProgress) {
    return tracked(name, args ?? [], { onProgress }).catch((error) => { throw playerError(error); });
  },
  /** Stop the call in flight. */
  cancel() { return bridge.cancel(); },
  /** The dotted name of the call Python is running now, or null. */
  running() { return bridge.running; },
  message,
  clearMessage,
  /** Go to a route; `{replace}` keeps history as it is, `{message, kind}` shows after it. */
  navigate(hash, { replace = false, message: text = null, kind = "info" } = {}) {
    const target = hash.startsWith("#") ? hash : `#${hash}`;
    if (text !== null) pendingReports.push([text, kind]);
    if (target === location.hash) { route(); return; }
    if (replace) { history.replaceState(null, "", target); route(); } else location.hash = target;
  },
  /** @type {{screen: string, params: Record<string, any>, hash: string, problem: string | null} | null} */
  route: null,
  store,
  palette,
  /** The player's settings (settings.js): a change is saved and applied at once, and the
   * screens hear of it by the "settings" event. */
  settings,
  /** Sounds and vibrations for what the games' answers say happened (feel.js). */
  feel: makeFeel(settings),
});

/** The shell as the screens see it (its getters defined below: Object.assign would copy
 * their first values).
 * @typedef {typeof app & {readonly generation: number, readonly ready: ReturnType<typeof checkedReady>}} App */

// Which worker answers now: it changes when a cancel had to replace the worker, and
// everything that worker held (open games) is gone then. (A getter defined here, not in
// Object.assign above, which would copy its first value.)
Object.defineProperty(app, "generation", { get: () => bridge.generation });

// Tests and tools: window.gridforge.ready / call / cancel (raw dotted names, raw errors).
/** @type {any} */ (window).gridforge = {
  get ready() { return checkedReady(); },
  get versions() { return bridge.versions; },
  call(name, ...args) {
    return tracked(name, args).catch((error) => {
      message(playerError(error).message, "error");
      throw error;
    });
  },
  callWithProgress(name, args, onProgress) { return tracked(name, args, { onProgress }); },
  cancel() { return bridge.cancel(); },
  app,
  /** The sound hook for tests (feel.js): audio contexts and nodes made, per kind. */
  sound: app.feel.hook,
};

// ---------------------------------------------------------------------------- status
bridge.addEventListener("status", (event) => {
  const { detail } = /** @type {CustomEvent} */ (event);
  // The worker names its stage (it has no catalogue); the page says it.
  const stage = has(`shell.stage.${detail.stage}`) ? t(`shell.stage.${detail.stage}`, { name: detail.detail }) : detail.detail;
  $("status").textContent = t("shell.loading-detail", { detail: stage });
});
bridge.addEventListener("ready", (event) => {
  const { detail } = /** @type {CustomEvent} */ (event);
  $("status").textContent = t("shell.ready");
  $("status").dataset.state = "ready";
  $("versions").textContent =
    `gridforge ${detail.gridforge} · Python ${detail.python} · Pyodide ${detail.pyodide}`;
});

// ---------------------------------------------------------------------------- developer tools
// Players see a game: the Console tab and the version line are there only with the
// "Developer tools" setting (#settings).
const consoleLink = $("screen-console");

function showDeveloper() {
  const on = app.settings.developer;
  $("versions")?.toggleAttribute("hidden", !on);
  const nav = /** @type {HTMLElement} */ (document.querySelector("nav[data-testid=screens]"));
  if (consoleLink) {
    if (on && !consoleLink.isConnected) nav.append(consoleLink);
    else if (!on) consoleLink.remove();
  }
}
showDeveloper();
// Python failing to load is said until the page is reloaded: a screen mounted afterwards
// (the first route may finish after the failure) says it again instead of clearing it.
let loadFailure = null;
bridge.addEventListener("load-error", (event) => {
  const { detail } = /** @type {CustomEvent} */ (event);
  loadFailure = detail;
  $("status").textContent = t("shell.failed");
  $("status").dataset.state = "error";
  message(t("shell.load-error", { detail: detail.message }), "error");
});

// ---------------------------------------------------------------------------- routing
const main = /** @type {HTMLElement} */ (document.getElementById("screen"));
let current = null;   // {id, handle}
let routeToken = 0;
// The main line's last level number is Python's, published by the build in
// levels/index.json (a small file, cached offline): routes and saved progress are checked
// against it before Python has loaded. Unreadable, the level's own screen says what is there.
const lineSize = mainlineSize().catch(() => null).then((levels) => {
  store.setLevels(levels);
  return levels;
});

async function route() {
  const token = ++routeToken;
  const levels = await lineSize;
  if (token !== routeToken) return;  // a newer navigation won
  // Saved progress is checked on every visit, whatever the first screen (issue 54): a part
  // set aside is said at once (in words: the catalogues are loaded), not only once a
  // screen reads the progress.
  if (!routed) store.progress();
  const parsed = parse(location.hash, levels);
  markRoute(parsed);
  let module = null;
  let loadProblem = null;
  try {
    module = await import(`./screens/${parsed.screen}.js`);
  } catch (error) {
    loadProblem = t("shell.screen-missing", { screen: title(parsed.screen) });
    console.error(error);
  }
  if (token !== routeToken) return;  // a newer navigation won
  unmountCurrent();
  clearMessage();
  main.replaceChildren();
  main.dataset.screen = parsed.screen;
  if (!module) {
    pendingReports.push([parsed.problem ? `${parsed.problem} ${loadProblem}` : loadProblem, "error"]);
    app.navigate("#home", { replace: true });
    return;
  }
  mountScreen(module.screen, parsed);
  if (!routed) deepCheck(parsed);
  routed = true;
  if (parsed.problem) message(parsed.problem, "error");
  if (loadFailure) message(t("shell.load-error", { detail: loadFailure.message }), "error");
  showPending();
}

/** The route `parsed` in the address (one spelling per route), app.route, the navigation's
 * current link and the document's title. */
function markRoute(parsed) {
  if (location.hash && parsed.hash !== location.hash && !parsed.problem) {
    history.replaceState(null, "", parsed.hash);  // one spelling per route
  } else if (parsed.problem) {
    history.replaceState(null, "", parsed.hash);
  }
  // `problem`: what was wrong with the fragment (shown below once the screen is mounted; a
  // screen whose opening words come later puts them after it, never over it).
  app.route = { screen: parsed.screen, params: parsed.params, hash: parsed.hash, problem: parsed.problem };
  for (const link of document.querySelectorAll("nav[data-testid=screens] a")) {
    if (!(link instanceof HTMLElement)) continue;
    if (link.dataset.screen === parsed.screen) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = parsed.screen === "home" ? "gridforge" : `gridforge · ${title(parsed.screen)}`;  // i18n-ok: a name and a separator
}

/** The screen on the page let go (its failure logged, never in the way of the next). */
function unmountCurrent() {
  if (current && current.handle && typeof current.handle.unmount === "function") {
    try { current.handle.unmount(); } catch (error) { console.error(error); }
  }
  current = null;
}

/** Mount `screen` for `parsed`; a screen that throws is said, and the shell goes on. */
function mountScreen(screen, parsed) {
  mounting = true;
  try {
    const handle = screen.mount(main, app, parsed.params) ?? null;
    current = { id: screen.id, handle };
  } catch (error) {
    console.error(error);
    pendingReports.push([t("shell.screen-bug"), "error"]);
  } finally {
    mounting = false;
  }
}

// ---------------------------------------------------------------------------- saved progress
// The progress format's rules are Python's alone (issue 53, gridforge.saves): the first
// screen is drawn from the stored progress as it may be read (store.progress), and once
// Python is loaded it checks the stored value part by part; a bad part is set aside with a
// notice, and a screen that shows the progress is drawn again without it. The screens that
// use the progress with Python (a mines run, a level in progress) wait for it (app.ready).
store.checkWith((value, levels, aside) => python.api.checkProgress(value, levels, aside));
const progressChecked = bridge.ready.then(() => lineSize).then(async () => {
  const { screen, params } = app.route ?? { screen: null, params: {} };
  redrawing = routed && (screen === "home" || (screen === "snakes" && params.level === undefined));
  const parts = await store.checkProgress();
  const redraw = redrawing && parts.length > 0;
  redrawing = false;
  if (redraw) await route();
  else if (routed) showPending();
}).catch((error) => {
  redrawing = false;
  console.error(error);
});

/** The first screen's deep check of the stored progress (deepCheck), once started. */
let deepChecked = Promise.resolve();

/** Python's readiness (its versions) once the stored progress has been checked: one
 * promise for each worker (a cancel that interrupts keeps it; a new worker makes another). */
let readyOf = null;
let checkedReadyNow = null;
function checkedReady() {
  if (readyOf !== bridge.ready) {
    readyOf = bridge.ready;
    // The deep check too, once started: until it is done it still reads the stored value.
    checkedReadyNow = Promise.all([readyOf, progressChecked])
      .then(([versions]) => deepChecked.then(() => versions));
  }
  return checkedReadyNow;
}
// app.ready: Python loaded and the stored progress checked by it (a getter: the worker,
// and so bridge.ready, may be replaced).
Object.defineProperty(app, "ready", { get: checkedReady });

/** The stored progress's deep check (progress-check.js) once Python has checked its format,
 * unless the first screen resumes those parts itself (the Mines screen, a level's screen). */
function deepCheck(parsed) {
  if (parsed.screen === "mines" || parsed.params.level !== undefined) return;
  deepChecked = progressChecked.then(() => import("./progress-check.js"))
    .then(({ checkStoredProgress }) => checkStoredProgress(app))
    .catch((error) => console.error(error));
}

window.addEventListener("hashchange", () => route());

// ---------------------------------------------------------------------------- language
// The language follows the browser unless the player chose one in #settings (i18n.js).
// A change redraws at once, without a reload: the page's fixed words, the status line and the
// current screen, mounted again (its saved state brings it back where it was); Python is
// asked again, in the new language, for whatever that screen shows of its words.
let statusKey = "shell.loading";

function applyLanguage() {
  const chosen = app.settings.language;
  const wanted = chosen === "system" ? browserLanguage() : chosen;
  if (wanted === language() && document.documentElement.lang === wanted) return false;
  setLanguage(wanted);
  return true;
}

function redraw() {
  translateStatic();
  notices.redraw();
  const status = $("status");
  if (status.dataset.state === "ready") status.textContent = t("shell.ready");
  else if (status.dataset.state === "error") status.textContent = t("shell.failed");
  drawOffline();
  if (!routed) return;
  // The control that changed the language is drawn anew: focus goes to its new self.
  const focused = document.activeElement && document.activeElement.id;
  route().then(() => { if (focused) document.getElementById(focused)?.focus(); });
}

bridge.language = () => language();
loadCatalogues().catch((error) => console.error(error)).then(() => {
  applyLanguage();
  translateStatic();
  notices.redraw();  // a notice raised before the catalogues were loaded is worded now
  if ($("status").dataset.state === "loading") $("status").textContent = t(statusKey);
  route();
});

// ---------------------------------------------------------------------------- offline
// How much of the main line plays offline, in the page's foot (shell-offline.js).
const drawOffline = offlineLine($("versions"));
