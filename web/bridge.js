// The page's handle on Python: one Web Worker running Pyodide, calls by dotted name with
// JSON arguments, progress events and cancellation. Cancel uses the interrupt buffer where
// the page is cross-origin isolated (the worker survives); elsewhere the worker is replaced.

import { t } from "./i18n.js";

/** A call Python is answering: how it settles, and where its progress goes.
 * @typedef {{resolve: (value: any) => void, reject: (error: Error) => void,
 *   onProgress?: (message: any) => void, name: string}} PendingCall */
/** An error of a failed call, with Python's envelope fields.
 * @typedef {Error & {type?: string, issues?: unknown, text?: string}} CallError */

export class PythonBridge extends EventTarget {
  constructor(workerUrl = new URL("./worker.js", import.meta.url)) {
    super();
    this.workerUrl = workerUrl;
    this.nextId = 1;
    /** @type {Map<number, PendingCall>} */
    this.pending = new Map();
    /** @type {Promise<any>} */ this.ready;
    /** @type {(versions: any) => void} */ this.resolveReady;
    /** @type {(error: Error) => void} */ this.rejectReady;
    /** @type {string | null} */ this.failure;
    /** @type {Uint8Array | null} */ this.interruptBuffer;
    /** @type {Worker} */ this.worker;
    this.versions = null;
    this.generation = 0;  // counts the workers started: what Python held dies with a worker
    this.start();
  }

  start() {
    this.generation += 1;
    this.failure = null;
    this.interruptBuffer = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    this.worker = new Worker(this.workerUrl, { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {});  // callers that await ready see the reason; no unhandled noise
    this.worker.onmessage = (event) => this.onMessage(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(t("shell.worker-failed", { detail: event.message || t("shell.unknown-error") }));
    };
    this.worker.postMessage({ type: "init", interruptBuffer: this.interruptBuffer });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  fail(message) {
    this.failure = message;
    this.rejectReady(new Error(message));
    for (const { reject } of this.pending.values()) reject(new Error(message));
    this.pending.clear();
    this.emit("load-error", { message });
  }

  onMessage(message) {
    const call = this.pending.get(message.id);
    switch (message.type) {
      case "status":
        this.emit("status", message);
        break;
      case "ready":
        this.versions = message.versions;
        this.resolveReady(message.versions);
        this.emit("ready", message.versions);
        break;
      case "load-error":
        this.fail(t("shell.python-failed", { detail: message.message }));
        break;
      case "progress":
        if (call && call.onProgress) call.onProgress(message);
        this.emit("progress", message);
        break;
      case "result":
        if (call) { this.pending.delete(message.id); call.resolve(message.value); }
        this.emit("idle", { id: message.id });
        break;
      case "error": {
        if (call) {
          this.pending.delete(message.id);
          const error = /** @type {CallError} */ (new Error(message.error.message));
          error.type = message.error.type;
          error.issues = message.error.issues;
          error.text = message.error.text;  // the player's words, from Python
          call.reject(error);
        }
        this.emit("idle", { id: message.id });
        break;
      }
    }
  }

  /** The language Python speaks in for the next call (the shell sets it: i18n.js). */
  language() {
    return "en";
  }

  /** Call a Python function by dotted name; resolves to its JSON result. */
  call(/** @type {string} */ name, /** @type {unknown[]} */ args = [],
    /** @type {{onProgress?: (message: any) => void}} */ { onProgress } = {}) {
    if (this.failure) return Promise.reject(new Error(this.failure));  // Python never loaded
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, name });
    });
    // The page's language goes with every call: Python says its words in it for that call
    // only, so the worker never keeps a language of its own (i18n.js, gridforge.i18n).
    this.worker.postMessage({ type: "call", id, name, args, language: this.language() });
    this.emit("busy", { id, name });
    return promise;
  }

  /** The dotted name of the call the worker is running now (the oldest one pending: the
   * worker answers in order), or null. */
  get running() {
    const first = this.pending.values().next();
    return first.done ? null : first.value.name;
  }

  /** Stop the call in flight. Resolves when the bridge can take the next call. */
  async cancel() {
    if (this.pending.size === 0) return;
    if (this.interruptBuffer) {
      this.interruptBuffer[0] = 2;  // SIGINT: Python raises KeyboardInterrupt at once
      return;
    }
    // No shared memory: the only way to stop a busy worker is to replace it.
    this.worker.terminate();
    const cancelled = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of cancelled) {
      const error = /** @type {CallError} */ (new Error("cancelled"));
      error.type = "Cancelled";
      reject(error);
    }
    this.emit("idle", {});
    this.start();
    await this.ready;
  }
}
