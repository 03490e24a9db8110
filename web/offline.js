// Offline play: registers the service worker (sw.js) that keeps the whole site in one cache
// per build. The shell calls registerOffline() once at start:
//
//   import { registerOffline } from "./offline.js";
//   registerOffline();
//
// Registration waits until the page has loaded and Python is ready (window.gridforge.ready,
// or the `after` promise given), so that filling the cache never competes with the first
// visit's own start; it is then a background job whose outcome only matters next visit.

const SW_URL = new URL("./sw.js", import.meta.url);

function loaded() {
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
}

/**
 * Register the offline service worker. Resolves to the registration, or to null where
 * service workers are unavailable (an insecure origin, a private window that refuses them)
 * or registration failed: the page works on without offline play, never fails for it.
 * @param {{after?: Promise<unknown>, onStatus?: Function}} options  `after`: wait for this
 *   before registering (default: the load event, then window.gridforge.ready when the shell
 *   defines it); `onStatus({state, done, total})`: how far the main line is saved offline
 */
export async function registerOffline({ after, onStatus } = {}) {
  if (!("serviceWorker" in navigator)) {
    status(onStatus, { state: "unavailable", done: 0, total: 0 });
    return null;
  }
  try {
    await loaded();
    const wait = after ?? globalThis.gridforge?.ready;
    if (wait) await Promise.resolve(wait).catch(() => {});  // a failed start still registers
    // updateViaCache "none": the browser checks sw.js itself against the server on every
    // visit, so a plain static host's cache headers cannot hide a new build.
    const registration = await navigator.serviceWorker.register(SW_URL, {
      scope: new URL("./", import.meta.url).href, updateViaCache: "none",
    });
    fillLine(registration, onStatus);
    return registration;
  } catch (error) {
    console.warn(`offline play is unavailable: ${(error instanceof Error && error.message) || error}`);
    status(onStatus, { state: "unavailable", done: 0, total: 0 });
    return null;
  }
}

/**
 * The page's view of offline play, for players (onStatus) and tests:
 * `<html data-offline="…">` is `saving` while the line is being cached, `ready` once every
 * block of the main line is in the cache, `partial` when some could not be fetched (the next
 * visit tries again), `unavailable` without a service worker; `data-offline-done` and
 * `data-offline-total` count the blocks.
 */
function status(onStatus, { state, done, total }) {
  const root = document.documentElement;
  root.dataset.offline = state;
  root.dataset.offlineDone = String(done);
  root.dataset.offlineTotal = String(total);
  if (onStatus) {
    try { onStatus({ state, done, total }); } catch (error) { console.error(error); }
  }
}

/** Resolves once this page is served by the active worker (a first visit: when the worker
 * has activated and claimed it; a page loaded past the worker: when it has asked to be
 * claimed). Until then no level request would reach the cache. */
function controlled(worker) {
  const container = navigator.serviceWorker;
  if (container.controller) return Promise.resolve(container.controller);
  return new Promise((resolve) => {
    container.addEventListener("controllerchange", () => resolve(container.controller), { once: true });
    worker.postMessage({ type: "claim" });  // a worker that has already claimed takes it now
  });
}

/** Once the worker is active and serves this page, ask it to cache the rest of the main
 * line (every visit: it answers at once when everything is there) and follow its progress;
 * "ready" is said only then: every level would open with the network gone, now. */
async function fillLine(registration, onStatus) {
  await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (!worker) return;
  status(onStatus, { state: "saving", done: 0, total: 0 });
  await controlled(worker);
  if (navigator.storage && navigator.storage.persist) {
    navigator.storage.persist().catch(() => {});  // ask the browser not to evict it
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = ({ data }) => {
    if (!data) return;
    if (data.type === "progress") {
      status(onStatus, { state: data.done >= data.total ? "ready" : "saving", ...data });
    } else if (data.type === "done") {
      status(onStatus, { state: data.failed ? "partial" : "ready", done: data.done, total: data.total });
      channel.port1.close();
    }
  };
  status(onStatus, { state: "saving", done: 0, total: 0 });
  worker.postMessage({ type: "fill-line" }, [channel.port2]);
}
