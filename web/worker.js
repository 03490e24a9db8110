// The Python side of the page: a module Web Worker that loads Pyodide and the gridforge
// wheel, then answers calls by name. It holds no game logic: every rule, score and search
// runs in Python (the dispatch named by contract.js, WORKER_ENTRY). Messages:
//   page -> worker: {type: "init", interruptBuffer?}, {type: "call", id, name, args, language}
//   worker -> page: {type: "status", stage, detail}, {type: "ready", versions},
//                   {type: "load-error", message}, {type: "progress", id, done, total, label, figures},
//                   {type: "result", id, value}, {type: "error", id, error}
import { WORKER_ENTRY } from "./contract.js";
import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL("./", import.meta.url);
let pyodide = null;
let dispatch = null;
let interruptBuffer = null;
let currentId = null;
const queue = [];
let busy = false;

function status(stage, detail = "") {
  self.postMessage({ type: "status", stage, detail });
}

async function fetchManifest() {
  const manifestResponse = await fetch(new URL("manifest.json", base));
  if (!manifestResponse.ok) throw new Error(`manifest.json: HTTP ${manifestResponse.status}`);  // i18n-ok: a file and its HTTP status (detail of shell.load-error)
  return manifestResponse.json();
}

/** Fetch the project's wheel by URL and check it against the manifest's SHA-256. */
async function fetchWheel(manifestLoaded) {
  const manifest = await manifestLoaded;
  const response = await fetch(new URL(manifest.wheel, base));
  if (!response.ok) throw new Error(`${manifest.wheel}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== manifest.wheel_sha256) {
    throw new Error(`${manifest.wheel}: SHA-256 mismatch (got ${hex}, expected ${manifest.wheel_sha256})`);
  }
  return { name: manifest.wheel.split("/").pop(), bytes };
}

/**
 * The runtime's start-up snapshot (build.py, tools/make_snapshot.mjs): Python's memory just
 * after it started, with the standard-library modules gridforge uses already imported.
 * Resolves to its bytes; rejects when the build has none or it cannot be had.
 */
async function fetchSnapshot(manifestLoaded) {
  const manifest = await manifestLoaded;
  if (!manifest.snapshot) throw new Error("no snapshot in this build");  // i18n-ok: never shown (the cold start follows)
  const response = await fetch(new URL(manifest.snapshot, base));
  if (!response.ok) throw new Error(`${manifest.snapshot}: HTTP ${response.status}`);
  if (!response.body) throw new Error(`${manifest.snapshot}: no body`);  // i18n-ok: never shown (the cold start follows)
  const unpacked = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}

/** Start Pyodide from the snapshot when there is one, otherwise (or if that fails) as usual. */
async function startRuntime(manifestLoaded, versions) {
  const indexURL = new URL("pyodide/", base).href;
  if (typeof DecompressionStream === "function") {
    try {
      const runtime = await loadPyodide({ indexURL, _loadSnapshot: fetchSnapshot(manifestLoaded) });
      versions.startup = "snapshot";
      return runtime;
    } catch (err) {
      versions.startupFallback = String((err instanceof Error && err.message) || err);
    }
  }
  versions.startup = "cold";
  return loadPyodide({ indexURL });
}

async function load() {
  const timings = {};
  const mark = (name) => { timings[name] = Math.round(performance.now()); };
  mark("start");
  status("runtime");  // the page says the stage (shell.stage.<stage>)
  // The wheel and the snapshot download while the runtime compiles.
  const manifestLoaded = fetchManifest();
  const wheelBytes = fetchWheel(manifestLoaded);
  wheelBytes.catch(() => {});  // awaited below; its failure is reported there
  const start = {};
  pyodide = await startRuntime(manifestLoaded.catch(() => ({})), start);
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  mark("runtime");

  status("wheel");
  // The wheel (pure Python, no dependencies, bytecode alone: build.py) is put
  // on sys.path as it is and imported from the zip: nothing to unpack, nothing to compile,
  // and micropip is not needed to start (it ships beside the runtime all the same).
  const { name, bytes } = await wheelBytes;
  const wheelPath = `/lib/gridforge/${name}`;
  pyodide.FS.mkdirTree("/lib/gridforge");
  pyodide.FS.writeFile(wheelPath, bytes);
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(wheelPath)})`);
  mark("wheel");
  status("import", name);
  /** @type {any} */ (self).gridforgeProgress = (/** @type {number} */ done, /** @type {number} */ total,
    /** @type {string} */ label, /** @type {string} */ figures) => {
    self.postMessage({ type: "progress", id: currentId, done, total, label, figures: JSON.parse(figures) });
  };
  pyodide.runPython(WORKER_ENTRY.progress);
  dispatch = pyodide.pyimport(WORKER_ENTRY.module)[WORKER_ENTRY.dispatch];
  const versions = JSON.parse(dispatch(WORKER_ENTRY.version, "[]")).value;
  versions.pyodide = pyodide.version;
  versions.crossOriginIsolated = self.crossOriginIsolated === true;
  Object.assign(versions, start);
  mark("ready");
  versions.timings = timings;
  self.postMessage({ type: "ready", versions });
}

async function runQueue() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const { id, name, args, language } = queue.shift();
    currentId = id;
    if (interruptBuffer) interruptBuffer[0] = 0;  // a cancel aimed at an earlier call
    let envelope;
    try {
      envelope = JSON.parse(dispatch(name, JSON.stringify(args ?? []), language ?? "en"));
    } catch (err) {
      envelope = { ok: false, error: { type: "BridgeError", message: String((err instanceof Error && err.message) || err) } };
    }
    if (envelope.ok) self.postMessage({ type: "result", id, value: envelope.value });
    else self.postMessage({ type: "error", id, error: envelope.error });
    currentId = null;
    // Let messages that arrived during a call in before the next queued one. A message
    // channel yields without setTimeout's clamp (4 ms once timers nest), which every
    // call in a row used to pay; an empty queue needs no yield at all.
    if (queue.length) await yieldToMessages();
  }
  busy = false;
}

const yieldChannel = new MessageChannel();
const yieldWaiters = [];
yieldChannel.port1.onmessage = () => { const resolve = yieldWaiters.shift(); if (resolve) resolve(); };

/** Resolve after the worker's event loop has taken the messages already waiting. */
function yieldToMessages() {
  return new Promise((resolve) => {
    yieldWaiters.push(resolve);
    yieldChannel.port2.postMessage(null);
  });
}

let loading = null;
self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") {
    interruptBuffer = message.interruptBuffer || null;
    loading = load().catch((err) => {
      self.postMessage({ type: "load-error", message: String(err && err.message || err) });
      throw err;
    });
  } else if (message.type === "call") {
    queue.push(message);
    loading.then(runQueue, () => {});
  }
};
