// The Python side of the page: a module Web Worker that loads Pyodide and the gridforge
// wheel, then answers calls by name. It holds no game logic: every rule, score and search
// runs in Python (gridforge.api.dispatch). Messages:
//   page -> worker: {type: "init", interruptBuffer?}, {type: "call", id, name, args}
//   worker -> page: {type: "status", stage, detail}, {type: "ready", versions},
//                   {type: "load-error", message}, {type: "progress", id, done, total, label},
//                   {type: "result", id, value}, {type: "error", id, error}
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

/** Fetch the project's wheel by URL and check it against the manifest's SHA-256. */
async function fetchWheel() {
  const manifestResponse = await fetch(new URL("manifest.json", base));
  if (!manifestResponse.ok) throw new Error(`manifest.json: HTTP ${manifestResponse.status}`);
  const manifest = await manifestResponse.json();
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

async function load() {
  const timings = {};
  const mark = (name) => { timings[name] = Math.round(performance.now()); };
  mark("start");
  status("runtime", "loading the Python runtime");
  // The wheel downloads while the runtime compiles.
  const wheelBytes = fetchWheel();
  wheelBytes.catch(() => {});  // awaited below; its failure is reported there
  pyodide = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  mark("runtime");

  status("wheel", "installing gridforge");
  // micropip (Pyodide's installer, its lock entry carrying the real hash) loads beside the
  // wheel; loadPackage logs a failure instead of throwing, so check what really loaded.
  const micropipLoaded = pyodide.loadPackage("micropip", {
    messageCallback: () => {}, errorCallback: () => {},
  });
  const { name, bytes } = await wheelBytes;
  pyodide.unpackArchive(bytes, "wheel", { extractDir: pyodide.runPython("import site; site.getsitepackages()[0]") });
  await micropipLoaded;
  if (!("micropip" in pyodide.loadedPackages)) {
    throw new Error("micropip could not be loaded (missing file or hash mismatch)");
  }
  mark("wheel");
  status("import", `starting ${name}`);
  self.gridforgeProgress = (done, total, label) => {
    self.postMessage({ type: "progress", id: currentId, done, total, label });
  };
  pyodide.runPython(`
import js
from gridforge import api
from gridforge.progress import Progress
api.set_progress(Progress(lambda done, total, label: js.gridforgeProgress(done, total, label)))
`);
  dispatch = pyodide.pyimport("gridforge.api").dispatch;
  const versions = JSON.parse(dispatch("gridforge.api.version", "[]")).value;
  versions.pyodide = pyodide.version;
  versions.crossOriginIsolated = self.crossOriginIsolated === true;
  mark("ready");
  versions.timings = timings;
  self.postMessage({ type: "ready", versions });
}

async function runQueue() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const { id, name, args } = queue.shift();
    currentId = id;
    if (interruptBuffer) interruptBuffer[0] = 0;  // a cancel aimed at an earlier call
    let envelope;
    try {
      envelope = JSON.parse(dispatch(name, JSON.stringify(args ?? [])));
    } catch (err) {
      envelope = { ok: false, error: { type: "BridgeError", message: String(err && err.message || err) } };
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
