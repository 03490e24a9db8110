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

async function load() {
  status("runtime", "loading the Python runtime");
  pyodide = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);

  status("micropip", "loading the package installer");
  await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: () => {} });
  // loadPackage logs a failure instead of throwing: check what really loaded.
  if (!("micropip" in pyodide.loadedPackages)) {
    throw new Error("micropip could not be loaded (missing file or hash mismatch)");
  }

  status("wheel", "installing gridforge");
  const manifestResponse = await fetch(new URL("manifest.json", base));
  if (!manifestResponse.ok) throw new Error(`manifest.json: HTTP ${manifestResponse.status}`);
  const manifest = await manifestResponse.json();
  const micropip = pyodide.pyimport("micropip");
  await micropip.install(new URL(manifest.wheel, base).href, { deps: false });

  status("import", "starting gridforge");
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
    // Yield so that messages (new calls) are taken in between long calls.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  busy = false;
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
